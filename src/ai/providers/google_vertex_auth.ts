/**
 * Application Default Credentials for Vertex AI without Google's auth library: the credentials
 * file named by GOOGLE_APPLICATION_CREDENTIALS, else gcloud's ADC file
 * (`$CLOUDSDK_CONFIG` or `~/.config/gcloud`, `%APPDATA%\gcloud` on Windows), as
 * google-auth-library finds it for pi-ai 1.6.0. A `service_account` file signs an RS256 JWT with
 * WebCrypto and trades it for an access token; an `authorized_user` file (what
 * `gcloud auth application-default login` writes) trades its refresh token. Tokens are cached
 * per file until five minutes before they expire. No key, token or refresh token ever reaches an
 * error message.
 *
 * @module
 */
import { type ProviderEnv, providerEnvValue } from "../env_api_keys.ts";
import { redactSecrets } from "../provider_utils.ts";

/** google-auth-library's token endpoint, used when a credentials file names none. */
export const GOOGLE_TOKEN_URL = "https://oauth2.googleapis.com/token";
const SCOPE = "https://www.googleapis.com/auth/cloud-platform";
const JWT_GRANT = "urn:ietf:params:oauth:grant-type:jwt-bearer";
/** google-auth-library refreshes tokens this long before they expire. */
const REFRESH_MARGIN_MS = 5 * 60_000;
const NO_ADC_FOUND =
  "Could not load the default credentials. Browse to https://cloud.google.com/docs/authentication/getting-started for more information.";

/** A bearer token for Vertex and the headers that go with it. */
export interface VertexAccess {
  token: string;
  /** `x-goog-user-project` when the file names a quota project. */
  headers: Record<string, string>;
}

interface CachedToken {
  token: string;
  expiresAt: number;
  fingerprint: string;
}

const cache = new Map<string, CachedToken>();

/** Where the ADC file is, as google-auth-library looks: the env var first, then gcloud's file. */
export function adcFilePath(env?: ProviderEnv): { path: string; fromEnv: boolean } | undefined {
  const explicit = providerEnvValue("GOOGLE_APPLICATION_CREDENTIALS", env);
  if (explicit) return { path: explicit, fromEnv: true };
  let dir = providerEnvValue("CLOUDSDK_CONFIG", env);
  if (!dir) {
    if (Deno.build.os === "windows") {
      const appData = providerEnvValue("APPDATA", env);
      if (appData) dir = `${appData}\\gcloud`;
    } else {
      const home = providerEnvValue("HOME", env);
      if (home) dir = `${home}/.config/gcloud`;
    }
  }
  return dir ? { path: `${dir}/application_default_credentials.json`, fromEnv: false } : undefined;
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

async function readCredentials(
  env?: ProviderEnv,
): Promise<{ path: string; text: string; json: Record<string, unknown> }> {
  const where = adcFilePath(env);
  if (!where) throw new Error(NO_ADC_FOUND);
  let text: string;
  try {
    text = await Deno.readTextFile(where.path);
  } catch (error) {
    if (!where.fromEnv) throw new Error(NO_ADC_FOUND);
    const reason = error instanceof Deno.errors.NotFound
      ? `no such file ${where.path}`
      : `${where.path}: ${describe(error)}`;
    throw new Error(
      `Unable to read the credential file specified by the GOOGLE_APPLICATION_CREDENTIALS environment variable: ${reason}`,
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    // The parser's message would quote the file, which holds a private key.
    throw new Error(`The Google credentials file ${where.path} is not valid JSON`);
  }
  if (!json || typeof json !== "object" || Array.isArray(json)) {
    throw new Error(`The Google credentials file ${where.path} does not hold a JSON object`);
  }
  return { path: where.path, text, json: json as Record<string, unknown> };
}

function field(json: Record<string, unknown>, name: string, path: string): string {
  const value = json[name];
  if (typeof value !== "string" || !value) {
    throw new Error(`The incoming JSON object does not contain a ${name} field (${path})`);
  }
  return value;
}

function base64Url(bytes: Uint8Array | string): string {
  const data = typeof bytes === "string" ? new TextEncoder().encode(bytes) : bytes;
  let binary = "";
  for (const byte of data) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

async function importPrivateKey(pem: string, path: string): Promise<CryptoKey> {
  const body = pem.replace(/-----(BEGIN|END) PRIVATE KEY-----/g, "").replace(/\s+/g, "");
  try {
    const der = Uint8Array.from(atob(body), (c) => c.charCodeAt(0));
    return await crypto.subtle.importKey(
      "pkcs8",
      der,
      { name: "RSASSA-PKCS1-v1_5", hash: "SHA-256" },
      false,
      ["sign"],
    );
  } catch {
    throw new Error(`The private_key of the Google credentials file ${path} is not a PKCS#8 RSA key`);
  }
}

/** The signed JWT assertion of a service account (claims as google-auth-library's gtoken). */
export async function signServiceAccountJwt(
  clientEmail: string,
  privateKeyPem: string,
  audience: string,
  nowMs: number,
  path = "service account",
): Promise<string> {
  const iat = Math.floor(nowMs / 1000);
  const header = base64Url(JSON.stringify({ alg: "RS256" }));
  const payload = base64Url(
    JSON.stringify({ iss: clientEmail, scope: SCOPE, aud: audience, exp: iat + 3600, iat }),
  );
  const key = await importPrivateKey(privateKeyPem, path);
  const signature = await crypto.subtle.sign(
    "RSASSA-PKCS1-v1_5",
    key,
    new TextEncoder().encode(`${header}.${payload}`),
  );
  return `${header}.${payload}.${base64Url(new Uint8Array(signature))}`;
}

async function exchange(
  url: string,
  form: Record<string, string>,
  secrets: string[],
  signal?: AbortSignal,
): Promise<{ token: string; expiresInS: number }> {
  let response: Response;
  try {
    response = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(form),
      signal,
    });
  } catch (error) {
    if (signal?.aborted) throw error;
    throw new Error(`Could not reach the Google token endpoint ${url}: ${describe(error)}`);
  }
  const text = await response.text();
  let data: Record<string, unknown> = {};
  try {
    data = JSON.parse(text);
  } catch { /* described below */ }
  if (!response.ok) {
    // google-auth-library words these "<error>: <error_description>".
    const message = typeof data.error === "string"
      ? `${data.error}: ${data.error_description}`
      : `Request failed with status code ${response.status}`;
    throw new Error(redactSecrets(`Google token endpoint: ${message}`, secrets));
  }
  if (typeof data.access_token !== "string" || !data.access_token) {
    throw new Error(`The Google token endpoint ${url} answered without an access_token`);
  }
  const expiresInS = typeof data.expires_in === "number" ? data.expires_in : 3600;
  return { token: data.access_token, expiresInS };
}

/**
 * A Vertex access token from Application Default Credentials, cached until shortly before it
 * expires (a changed file is read afresh).
 */
export async function getVertexAccess(env?: ProviderEnv, signal?: AbortSignal): Promise<VertexAccess> {
  const { path, text, json } = await readCredentials(env);
  const fingerprint = text;
  const quota = typeof json.quota_project_id === "string" ? json.quota_project_id : undefined;
  const headers: Record<string, string> = quota ? { "x-goog-user-project": quota } : {};
  const cached = cache.get(path);
  if (cached && cached.fingerprint === fingerprint && cached.expiresAt - REFRESH_MARGIN_MS > Date.now()) {
    return { token: cached.token, headers };
  }
  const tokenUri = typeof json.token_uri === "string" && json.token_uri ? json.token_uri : GOOGLE_TOKEN_URL;
  let result: { token: string; expiresInS: number };
  if (json.type === "service_account") {
    const clientEmail = field(json, "client_email", path);
    const privateKey = field(json, "private_key", path);
    const assertion = await signServiceAccountJwt(clientEmail, privateKey, tokenUri, Date.now(), path);
    result = await exchange(tokenUri, { grant_type: JWT_GRANT, assertion }, [assertion, privateKey], signal);
  } else if (json.type === "authorized_user") {
    const clientId = field(json, "client_id", path);
    const clientSecret = field(json, "client_secret", path);
    const refreshToken = field(json, "refresh_token", path);
    result = await exchange(
      tokenUri,
      {
        client_id: clientId,
        client_secret: clientSecret,
        refresh_token: refreshToken,
        grant_type: "refresh_token",
      },
      [clientSecret, refreshToken],
      signal,
    );
  } else {
    throw new Error(
      `Google credentials of type ${JSON.stringify(json.type ?? null)} (${path}) are not available in this ` +
        `build yet; use a service-account key or gcloud's application default credentials`,
    );
  }
  cache.set(path, { token: result.token, expiresAt: Date.now() + result.expiresInS * 1000, fingerprint });
  return { token: result.token, headers };
}
