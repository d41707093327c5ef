/**
 * What Vertex's credential types share: the cloud-platform scope, a token answer with its
 * lifetime, the fields of a credentials file (missing ones named as google-auth-library names
 * them, with the file), and HTTP calls to Google's token services whose failures name the
 * endpoint and quote the service's error but never a key or token.
 *
 * @module
 */
import { redactSecrets } from "../provider_utils.ts";

/** The scope @google/genai asks for on Vertex. */
export const CLOUD_PLATFORM_SCOPE = "https://www.googleapis.com/auth/cloud-platform";

/** An access token and how long it lives (seconds). */
export interface GoogleToken {
  token: string;
  expiresInS: number;
}

/** The message of any thrown value. */
export function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** A required non-empty string field of a credentials file. */
export function field(json: Record<string, unknown>, name: string, path: string): string {
  const value = json[name];
  if (typeof value !== "string" || !value) {
    throw new Error(`The incoming JSON object does not contain a ${name} field (${path})`);
  }
  return value;
}

/** An optional string field (undefined when absent or empty). */
export function optionalField(json: Record<string, unknown>, name: string): string | undefined {
  const value = json[name];
  return typeof value === "string" && value ? value : undefined;
}

/** The JSON answer of a Google endpoint; non-2xx answers become "<what>: <error>: <description>". */
export async function googleRequest(
  what: string,
  url: string,
  init: RequestInit,
  secrets: (string | undefined)[],
  signal?: AbortSignal,
): Promise<Record<string, unknown>> {
  let response: Response;
  try {
    response = await fetch(url, { ...init, signal });
  } catch (error) {
    if (signal?.aborted) throw error;
    throw new Error(redactSecrets(`Could not reach the ${what} ${url}: ${describe(error)}`, secrets));
  }
  const text = await response.text();
  let data: Record<string, unknown> = {};
  try {
    const parsed = JSON.parse(text);
    if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) data = parsed;
  } catch { /* described below */ }
  if (!response.ok) {
    const error = data.error;
    // OAuth endpoints answer {error, error_description}; Google APIs {error: {code, message, status}}.
    const message = typeof error === "string"
      ? `${error}: ${data.error_description}`
      : error && typeof error === "object" && typeof (error as { message?: unknown }).message === "string"
      ? `${(error as { status?: string }).status ?? response.status}: ${
        (error as { message: string }).message
      }`
      : `Request failed with status code ${response.status}`;
    throw new Error(redactSecrets(`${what[0].toUpperCase()}${what.slice(1)}: ${message}`, secrets));
  }
  return data;
}

/** POSTs a form to an OAuth token endpoint and reads `access_token` / `expires_in`. */
export async function postTokenForm(
  what: string,
  url: string,
  form: [string, string][],
  secrets: (string | undefined)[],
  signal?: AbortSignal,
  headers: Record<string, string> = {},
): Promise<GoogleToken> {
  const data = await googleRequest(
    what,
    url,
    {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded;charset=UTF-8", ...headers },
      body: new URLSearchParams(form).toString(),
    },
    secrets,
    signal,
  );
  if (typeof data.access_token !== "string" || !data.access_token) {
    throw new Error(`The ${what} ${url} answered without an access_token`);
  }
  return {
    token: data.access_token,
    expiresInS: typeof data.expires_in === "number" ? data.expires_in : 3600,
  };
}

/**
 * IAM Credentials `generateAccessToken` at `url` with a source token: what
 * `service_account_impersonation_url` and impersonated_service_account files use.
 */
export async function generateAccessToken(
  url: string,
  sourceToken: string,
  body: Record<string, unknown>,
  signal?: AbortSignal,
): Promise<GoogleToken> {
  const data = await googleRequest(
    "service account impersonation",
    url,
    {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${sourceToken}` },
      body: JSON.stringify(body),
    },
    [sourceToken],
    signal,
  );
  if (typeof data.accessToken !== "string" || !data.accessToken) {
    throw new Error(`The service account impersonation endpoint ${url} answered without an accessToken`);
  }
  const expires = typeof data.expireTime === "string" ? Date.parse(data.expireTime) : NaN;
  return {
    token: data.accessToken,
    expiresInS: Number.isNaN(expires) ? 3600 : Math.max(0, Math.floor((expires - Date.now()) / 1000)),
  };
}
