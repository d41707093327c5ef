/**
 * AWS console login sessions (`login_session` profiles, what `aws login` sets up), as the AWS
 * SDK's login provider reads them for pi-ai 1.6.0: the cached token in
 * `~/.aws/login/cache/<sha256 of the session>.json` (or AWS_LOGIN_CACHE_DIRECTORY) holds
 * temporary keys; within five minutes of their expiry they are refreshed at the sign-in service's
 * `CreateOAuth2Token` (`https://<region>.signin.aws.amazon.com/v1/token`, or
 * AWS_ENDPOINT_URL_SIGNIN) with a DPoP proof signed by the session's P-256 key, and the new token
 * is written back to the cache.
 *
 * @module
 */
import { type ProviderEnv, providerEnvValue } from "../env_api_keys.ts";
import { redactSecrets } from "../provider_utils.ts";
import { awsHomeDir, BedrockCredentialsError } from "./bedrock_credentials_files.ts";
import {
  awsFetch,
  awsServiceEndpoint,
  parseExpiry,
  REFRESH_WINDOW_MS,
  type TimedCredentials,
} from "./bedrock_credentials_http.ts";

const REAUTH = "please re-authenticate using aws login";

interface LoginToken {
  accessToken?: {
    accessKeyId?: string;
    secretAccessKey?: string;
    sessionToken?: string;
    accountId?: string;
    expiresAt?: string;
  };
  clientId?: string;
  refreshToken?: string;
  dpopKey?: string;
  signInRegion?: string;
  [key: string]: unknown;
}

function hex(bytes: ArrayBuffer): string {
  return Array.from(new Uint8Array(bytes), (b) => b.toString(16).padStart(2, "0")).join("");
}

function base64Url(data: Uint8Array | string): string {
  const bytes = typeof data === "string" ? new TextEncoder().encode(data) : data;
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** The cache file of a login session. */
export async function loginTokenPath(session: string, env: ProviderEnv | undefined): Promise<string> {
  const home = awsHomeDir(env);
  const dir = providerEnvValue("AWS_LOGIN_CACHE_DIRECTORY", env) ??
    (home ? `${home}/.aws/login/cache` : undefined);
  if (!dir) throw new BedrockCredentialsError("No home folder (HOME) to find the AWS login token cache in");
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(session));
  return `${dir}/${hex(digest)}.json`;
}

function derLength(length: number): number[] {
  if (length < 0x80) return [length];
  const bytes: number[] = [];
  for (let n = length; n > 0; n >>= 8) bytes.unshift(n & 0xff);
  return [0x80 | bytes.length, ...bytes];
}

function der(tag: number, content: number[]): number[] {
  return [tag, ...derLength(content.length), ...content];
}

/** A SEC1 ("EC PRIVATE KEY") P-256 key as PKCS#8, which WebCrypto imports. */
function sec1ToPkcs8(pem: string): Uint8Array<ArrayBuffer> {
  const body = pem.replace(/-----(BEGIN|END) EC PRIVATE KEY-----/g, "").replace(/\s+/g, "");
  const sec1 = Array.from(atob(body), (c) => c.charCodeAt(0));
  const ecPublicKey = [0x06, 0x07, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x02, 0x01];
  const prime256v1 = [0x06, 0x08, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x03, 0x01, 0x07];
  return new Uint8Array(
    der(0x30, [0x02, 0x01, 0x00, ...der(0x30, [...ecPublicKey, ...prime256v1]), ...der(0x04, sec1)]),
  );
}

/** The DPoP proof (RFC 9449, ES256) of a POST to `url` with the session's key. */
export async function dpopProof(keyPem: string, method: string, url: string, path: string): Promise<string> {
  let key: CryptoKey;
  let jwk: JsonWebKey;
  try {
    key = await crypto.subtle.importKey(
      "pkcs8",
      sec1ToPkcs8(keyPem),
      { name: "ECDSA", namedCurve: "P-256" },
      true,
      [
        "sign",
      ],
    );
    jwk = await crypto.subtle.exportKey("jwk", key);
  } catch {
    throw new BedrockCredentialsError(
      `The dpopKey of the AWS login token cache file ${path} is not a P-256 EC key`,
    );
  }
  const header = { alg: "ES256", typ: "dpop+jwt", jwk: { kty: "EC", crv: "P-256", x: jwk.x, y: jwk.y } };
  const payload = { jti: crypto.randomUUID(), htm: method, htu: url, iat: Math.floor(Date.now() / 1000) };
  const message = `${base64Url(JSON.stringify(header))}.${base64Url(JSON.stringify(payload))}`;
  const signature = await crypto.subtle.sign(
    { name: "ECDSA", hash: "SHA-256" },
    key,
    new TextEncoder().encode(message),
  );
  return `${message}.${base64Url(new Uint8Array(signature))}`;
}

async function readToken(path: string): Promise<LoginToken> {
  let text: string;
  try {
    text = await Deno.readTextFile(path);
  } catch (error) {
    const why = error instanceof Deno.errors.NotFound
      ? "does not exist"
      : `cannot be read (${(error as Error).name})`;
    throw new BedrockCredentialsError(`The AWS login token cache file ${path} ${why}; ${REAUTH}`);
  }
  let token: LoginToken | undefined;
  try {
    const parsed = JSON.parse(text);
    if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) token = parsed;
  } catch { /* described below; the parser's message could quote a key */ }
  if (!token) {
    throw new BedrockCredentialsError(
      `The AWS login token cache file ${path} is not a JSON object; ${REAUTH}`,
    );
  }
  const missing = ["accessToken", "clientId", "refreshToken", "dpopKey"].filter((k) => !token[k]);
  if (!token.accessToken?.accountId) missing.push("accountId");
  if (missing.length > 0) {
    throw new BedrockCredentialsError(
      `The AWS login token cache file ${path} is missing ${missing.join(", ")}; ${REAUTH}`,
    );
  }
  return token;
}

function credentialsOf(token: LoginToken, path: string): TimedCredentials {
  const { accessKeyId, secretAccessKey, sessionToken, expiresAt } = token.accessToken ?? {};
  if (!accessKeyId || !secretAccessKey) {
    throw new BedrockCredentialsError(`The AWS login token cache file ${path} holds no keys; ${REAUTH}`);
  }
  return {
    credentials: { accessKeyId, secretAccessKey, ...(sessionToken ? { sessionToken } : {}) },
    expiresAt: parseExpiry(expiresAt),
  };
}

const DENIED: Record<string, string> = {
  TOKEN_EXPIRED: "Your session has expired. Please reauthenticate.",
  USER_CREDENTIALS_CHANGED:
    "Unable to refresh credentials because of a change in your password. Please reauthenticate with your new password.",
  INSUFFICIENT_PERMISSIONS:
    "Unable to refresh credentials due to insufficient permissions. You may be missing permission for the 'CreateOAuth2Token' action.",
};

/** Credentials of a `login_session` profile. */
export async function loginCredentials(
  profile: string,
  settings: Record<string, string>,
  region: string,
  env: ProviderEnv | undefined,
): Promise<TimedCredentials> {
  const path = await loginTokenPath(settings.login_session, env);
  const token = await readToken(path);
  const current = credentialsOf(token, path);
  const expiresAt = current.expiresAt ?? 0;
  if (expiresAt - Date.now() > REFRESH_WINDOW_MS) return current;

  const signInRegion = token.signInRegion || settings.region || region;
  const domain = signInRegion.startsWith("cn-") ? "signin.amazonaws.cn" : "signin.aws.amazon.com";
  const url = `${awsServiceEndpoint("SIGNIN", `https://${signInRegion}.${domain}`, env)}/v1/token`;
  const secrets = [token.refreshToken, token.accessToken?.secretAccessKey, token.accessToken?.sessionToken];
  const what = `AWS sign-in token refresh for profile "${profile}"`;
  let answer: { status: number; text: string };
  try {
    answer = await awsFetch(
      what,
      url,
      {
        method: "POST",
        headers: {
          "content-type": "application/json",
          dpop: await dpopProof(token.dpopKey!, "POST", url, path),
        },
        body: JSON.stringify({
          clientId: token.clientId,
          grantType: "refresh_token",
          refreshToken: token.refreshToken,
        }),
      },
      30_000,
      secrets,
    );
  } catch (error) {
    if (
      expiresAt > Date.now() &&
      !(error instanceof BedrockCredentialsError && error.message.includes("dpopKey"))
    ) {
      return current; // as the AWS SDK: the old keys serve until they expire
    }
    throw error;
  }
  let data: Record<string, unknown> = {};
  try {
    data = JSON.parse(answer.text);
  } catch { /* described below */ }
  if (answer.status !== 200) {
    const code = typeof data.error === "string" ? data.error : "";
    if (answer.status === 400 || answer.status === 401 || answer.status === 403) {
      if (DENIED[code]) throw new BedrockCredentialsError(`AWS profile "${profile}": ${DENIED[code]}`);
    }
    if (expiresAt > Date.now()) return current;
    const detail = typeof data.message === "string" ? data.message : `HTTP ${answer.status}`;
    throw new BedrockCredentialsError(redactSecrets(`${what} failed: ${detail}; ${REAUTH}`, secrets));
  }
  const keys = (data.accessToken ?? {}) as Record<string, unknown>;
  const { accessKeyId, secretAccessKey, sessionToken } = keys;
  if (
    typeof accessKeyId !== "string" || typeof secretAccessKey !== "string" ||
    typeof sessionToken !== "string" ||
    typeof data.refreshToken !== "string"
  ) {
    throw new BedrockCredentialsError(`${what}: the answer is missing required fields`);
  }
  const expiry = new Date(Date.now() + (typeof data.expiresIn === "number" ? data.expiresIn : 900) * 1000);
  const updated = {
    ...token,
    accessToken: {
      ...token.accessToken,
      accessKeyId,
      secretAccessKey,
      sessionToken,
      expiresAt: expiry.toISOString(),
    },
    refreshToken: data.refreshToken,
  };
  await Deno.writeTextFile(path, JSON.stringify(updated, null, 2)).catch(() => {});
  return { credentials: { accessKeyId, secretAccessKey, sessionToken }, expiresAt: expiry.getTime() };
}
