/**
 * Application Default Credentials for Vertex AI without Google's auth library, as
 * google-auth-library finds them for pi-ai 1.6.0: the credentials file named by
 * GOOGLE_APPLICATION_CREDENTIALS, else gcloud's ADC file (`$CLOUDSDK_CONFIG` or
 * `~/.config/gcloud`, `%APPDATA%\gcloud` on Windows), else the metadata server (GCE, GKE, Cloud
 * Run). File types: `service_account` (an RS256 JWT signed with WebCrypto, traded for a token),
 * `authorized_user` (what `gcloud auth application-default login` writes; its refresh token is
 * traded), `impersonated_service_account` (a source credential's token traded for a service
 * account's), `external_account` (workload/workforce identity federation) and
 * `external_account_authorized_user`. Tokens are cached per source until five minutes before they
 * expire. No key, token or refresh token ever reaches an error message.
 *
 * @module
 */
import { type ProviderEnv, providerEnvValue } from "../env_api_keys.ts";
import {
  CLOUD_PLATFORM_SCOPE,
  describe,
  field,
  generateAccessToken,
  type GoogleToken,
  optionalField,
  postTokenForm,
} from "./google_vertex_auth_common.ts";

/** google-auth-library's token endpoint, used when a credentials file names none. */
export const GOOGLE_TOKEN_URL = "https://oauth2.googleapis.com/token";
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

async function readCredentials(
  env?: ProviderEnv,
): Promise<{ path: string; text: string; json: Record<string, unknown> } | undefined> {
  const where = adcFilePath(env);
  if (!where) return undefined;
  let text: string;
  try {
    text = await Deno.readTextFile(where.path);
  } catch (error) {
    if (!where.fromEnv) return undefined;
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
    JSON.stringify({ iss: clientEmail, scope: CLOUD_PLATFORM_SCOPE, aud: audience, exp: iat + 3600, iat }),
  );
  const key = await importPrivateKey(privateKeyPem, path);
  const signature = await crypto.subtle.sign(
    "RSASSA-PKCS1-v1_5",
    key,
    new TextEncoder().encode(`${header}.${payload}`),
  );
  return `${header}.${payload}.${base64Url(new Uint8Array(signature))}`;
}

type Json = Record<string, unknown>;

/** A token for one credentials object (a file's, or an impersonated file's source). */
async function fileToken(
  json: Json,
  path: string,
  env?: ProviderEnv,
  signal?: AbortSignal,
  nested = false,
): Promise<GoogleToken> {
  const tokenUri = optionalField(json, "token_uri") ?? GOOGLE_TOKEN_URL;
  if (json.type === "service_account") {
    const clientEmail = field(json, "client_email", path);
    const privateKey = field(json, "private_key", path);
    const assertion = await signServiceAccountJwt(clientEmail, privateKey, tokenUri, Date.now(), path);
    return await postTokenForm(
      "Google token endpoint",
      tokenUri,
      [["grant_type", JWT_GRANT], ["assertion", assertion]],
      [assertion, privateKey],
      signal,
    );
  }
  if (json.type === "authorized_user") {
    const clientId = field(json, "client_id", path);
    const clientSecret = field(json, "client_secret", path);
    const refreshToken = field(json, "refresh_token", path);
    return await postTokenForm(
      "Google token endpoint",
      tokenUri,
      [["refresh_token", refreshToken], ["client_id", clientId], ["client_secret", clientSecret], [
        "grant_type",
        "refresh_token",
      ]],
      [clientSecret, refreshToken],
      signal,
    );
  }
  if (!nested && json.type === "impersonated_service_account") {
    const url = field(json, "service_account_impersonation_url", path);
    const source = json.source_credentials;
    if (!source || typeof source !== "object" || Array.isArray(source)) {
      throw new Error(`The incoming JSON object does not contain a source_credentials field (${path})`);
    }
    if (!/[^/]+:generateAccessToken$/.test(url)) {
      throw new Error(`Cannot extract target principal from ${url} (${path})`);
    }
    const sourceToken = await fileToken(source as Json, `source_credentials of ${path}`, env, signal, true);
    const delegates = Array.isArray(json.delegates) ? json.delegates : [];
    return await generateAccessToken(url, sourceToken.token, {
      delegates,
      scope: [CLOUD_PLATFORM_SCOPE],
      lifetime: "3600s",
    }, signal);
  }
  if (!nested && json.type === "external_account") {
    const { externalAccountToken } = await import("./google_vertex_auth_external.ts");
    return await externalAccountToken(json, path, env, signal);
  }
  if (!nested && json.type === "external_account_authorized_user") {
    const { externalAuthorizedUserToken } = await import("./google_vertex_auth_external.ts");
    return await externalAuthorizedUserToken(json, path, signal);
  }
  throw new Error(
    `Google credentials of type ${JSON.stringify(json.type ?? null)} (${path}) are not available in this ` +
      `build yet; use a service-account key, gcloud's application default credentials, workload identity ` +
      `federation or service account impersonation`,
  );
}

function quotaHeaders(quota: string | undefined, env?: ProviderEnv): Record<string, string> {
  // GOOGLE_CLOUD_QUOTA_PROJECT wins over the file's quota_project_id, as in google-auth-library.
  const project = providerEnvValue("GOOGLE_CLOUD_QUOTA_PROJECT", env) ?? quota;
  return project ? { "x-goog-user-project": project } : {};
}

function fromCache(key: string, fingerprint: string): string | undefined {
  const cached = cache.get(key);
  if (cached && cached.fingerprint === fingerprint && cached.expiresAt - REFRESH_MARGIN_MS > Date.now()) {
    return cached.token;
  }
  return undefined;
}

/**
 * A Vertex access token from Application Default Credentials, cached until shortly before it
 * expires (a changed file is read afresh).
 */
export async function getVertexAccess(env?: ProviderEnv, signal?: AbortSignal): Promise<VertexAccess> {
  const found = await readCredentials(env);
  if (!found) {
    // No file: the metadata server of GCE, GKE or Cloud Run, if there is one.
    const metadata = await import("./google_vertex_auth_metadata.ts");
    const key = `metadata:${metadata.metadataBase(env)}`;
    const headers = quotaHeaders(undefined, env);
    const hit = fromCache(key, "");
    if (hit) return { token: hit, headers };
    if (!(await metadata.metadataServerAvailable(env))) throw new Error(NO_ADC_FOUND);
    const result = await metadata.metadataServerToken(env, signal);
    cache.set(key, {
      token: result.token,
      expiresAt: Date.now() + result.expiresInS * 1000,
      fingerprint: "",
    });
    return { token: result.token, headers };
  }
  const { path, text, json } = found;
  const headers = quotaHeaders(optionalField(json, "quota_project_id"), env);
  const hit = fromCache(path, text);
  if (hit) return { token: hit, headers };
  const result = await fileToken(json, path, env, signal);
  cache.set(path, {
    token: result.token,
    expiresAt: Date.now() + result.expiresInS * 1000,
    fingerprint: text,
  });
  return { token: result.token, headers };
}
