/**
 * IAM Identity Center (SSO) profiles as the AWS SDK resolves them for pi-ai 1.6.0: an
 * `sso_session` profile (with its `[sso-session name]` section) or a legacy profile with
 * `sso_start_url`/`sso_region`; the token `aws sso login` cached in
 * ~/.aws/sso/cache/<sha1 of the session name or start URL>.json, refreshed through SSO OIDC
 * `CreateToken` when it is within five minutes of expiring (sso-session profiles only, at most
 * once every 30 s, written back to the cache file), then traded for role credentials with
 * `GetRoleCredentials`. Endpoints honour AWS_ENDPOINT_URL_SSO and AWS_ENDPOINT_URL_SSO_OIDC.
 *
 * @module
 */
import type { ProviderEnv } from "../env_api_keys.ts";
import { redactSecrets } from "../provider_utils.ts";
import { awsHomeDir, type AwsSharedFiles, BedrockCredentialsError } from "./bedrock_credentials_files.ts";
import {
  awsDomain,
  awsFetch,
  awsServiceEndpoint,
  parseExpiry,
  REFRESH_WINDOW_MS,
  type TimedCredentials,
} from "./bedrock_credentials_http.ts";

const REFRESH_MESSAGE = "To refresh this SSO session run 'aws sso login' with the corresponding profile.";
const TIMEOUT_MS = 30_000;
const lastRefreshAttempt = new Map<string, number>();

interface SsoToken {
  accessToken?: string;
  expiresAt?: string;
  clientId?: string;
  clientSecret?: string;
  refreshToken?: string;
  [key: string]: unknown;
}

async function sha1Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-1", new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}

/** The cache file of an SSO session name or legacy start URL. */
export async function ssoTokenPath(id: string, env: ProviderEnv | undefined): Promise<string> {
  const home = awsHomeDir(env);
  if (!home) throw new BedrockCredentialsError("No home folder (HOME) to find the AWS SSO token cache in");
  return `${home}/.aws/sso/cache/${await sha1Hex(id)}.json`;
}

async function readToken(path: string, profile: string): Promise<SsoToken> {
  let text: string;
  try {
    text = await Deno.readTextFile(path);
  } catch (error) {
    const why = error instanceof Deno.errors.NotFound
      ? "does not exist"
      : `cannot be read (${(error as Error).name})`;
    throw new BedrockCredentialsError(
      `The SSO token cache file ${path} of AWS profile "${profile}" ${why}. ${REFRESH_MESSAGE}`,
    );
  }
  try {
    const parsed = JSON.parse(text);
    if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) return parsed as SsoToken;
  } catch { /* described below; the parser's message would quote the token */ }
  throw new BedrockCredentialsError(
    `The SSO token cache file ${path} of AWS profile "${profile}" is not a JSON object. ${REFRESH_MESSAGE}`,
  );
}

async function refreshToken(
  path: string,
  token: SsoToken,
  region: string,
  env: ProviderEnv | undefined,
): Promise<{ accessToken: string; expiresAt: number } | undefined> {
  if (!token.clientId || !token.clientSecret || !token.refreshToken) return undefined;
  // At most one attempt per token file every 30 s (the AWS SDK keys this by session name).
  const last = lastRefreshAttempt.get(path) ?? 0;
  if (Date.now() - last < 30_000) return undefined;
  lastRefreshAttempt.set(path, Date.now());
  const url = `${awsServiceEndpoint("SSO_OIDC", `https://oidc.${region}.${awsDomain(region)}`, env)}/token`;
  try {
    const answer = await awsFetch(
      "SSO OIDC CreateToken",
      url,
      {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          clientId: token.clientId,
          clientSecret: token.clientSecret,
          grantType: "refresh_token",
          refreshToken: token.refreshToken,
        }),
      },
      TIMEOUT_MS,
      [token.clientSecret, token.refreshToken, token.accessToken],
    );
    if (answer.status !== 200) return undefined;
    const data = JSON.parse(answer.text) as {
      accessToken?: string;
      expiresIn?: number;
      refreshToken?: string;
    };
    if (!data.accessToken || typeof data.expiresIn !== "number") return undefined;
    const expiresAt = Date.now() + data.expiresIn * 1000;
    // As the AWS SDK: the refreshed token goes back to the cache (a failed write is not an error).
    await Deno.writeTextFile(
      path,
      JSON.stringify(
        {
          ...token,
          accessToken: data.accessToken,
          expiresAt: new Date(expiresAt).toISOString(),
          refreshToken: data.refreshToken,
        },
        null,
        2,
      ),
    ).catch(() => {});
    return { accessToken: data.accessToken, expiresAt };
  } catch {
    // A failed refresh falls back to the cached token while it is still valid, as the AWS SDK does.
    return undefined;
  }
}

/** Role credentials of an SSO profile. */
export async function ssoCredentials(
  profile: string,
  settings: Record<string, string>,
  files: AwsSharedFiles,
  env: ProviderEnv | undefined,
): Promise<TimedCredentials> {
  let { sso_start_url: startUrl, sso_region: region } = settings;
  const sessionName = settings.sso_session;
  if (sessionName) {
    const session = files.ssoSessions.get(sessionName);
    if (!session) {
      throw new BedrockCredentialsError(
        `AWS profile "${profile}" names sso_session "${sessionName}", but ${files.configPath} has no [sso-session ${sessionName}] section`,
      );
    }
    for (const key of ["sso_start_url", "sso_region"]) {
      if (!session[key]) {
        throw new BedrockCredentialsError(
          `[sso-session ${sessionName}] in ${files.configPath} has no ${key}`,
        );
      }
    }
    if (region && region !== session.sso_region) {
      throw new BedrockCredentialsError(
        `Conflicting SSO region configurations in profile ${profile} and sso-session ${sessionName}`,
      );
    }
    if (startUrl && startUrl !== session.sso_start_url) {
      throw new BedrockCredentialsError(
        `Conflicting SSO start_url configurations in profile ${profile} and sso-session ${sessionName}`,
      );
    }
    startUrl = session.sso_start_url;
    region = session.sso_region;
  }
  const { sso_account_id: accountId, sso_role_name: roleName } = settings;
  const missing = [
    ["sso_account_id", accountId],
    ["sso_region", region],
    ["sso_role_name", roleName],
    ["sso_start_url", startUrl],
  ].filter(([, value]) => !value).map(([key]) => key);
  if (missing.length > 0) {
    throw new BedrockCredentialsError(
      `AWS profile "${profile}" is configured with invalid SSO credentials: ${missing.join(", ")} missing`,
    );
  }
  const path = await ssoTokenPath(sessionName ?? startUrl, env);
  const token = await readToken(path, profile);
  if (!token.accessToken || !token.expiresAt) {
    throw new BedrockCredentialsError(
      `The SSO token cache file ${path} of AWS profile "${profile}" has no ${
        token.accessToken ? "expiresAt" : "accessToken"
      }. ${REFRESH_MESSAGE}`,
    );
  }
  let accessToken = token.accessToken;
  let expiresAt = parseExpiry(token.expiresAt) ?? 0;
  if (sessionName && expiresAt - Date.now() <= REFRESH_WINDOW_MS) {
    const refreshed = await refreshToken(path, token, region, env);
    if (refreshed) ({ accessToken, expiresAt } = refreshed);
  }
  if (expiresAt <= Date.now()) {
    throw new BedrockCredentialsError(
      `The SSO session of AWS profile "${profile}" has expired. ${REFRESH_MESSAGE}`,
    );
  }
  const base = awsServiceEndpoint("SSO", `https://portal.sso.${region}.${awsDomain(region)}`, env);
  const query = new URLSearchParams({ account_id: accountId, role_name: roleName });
  const secrets = [accessToken, token.refreshToken, token.clientSecret];
  const answer = await awsFetch(
    `SSO GetRoleCredentials for AWS profile "${profile}"`,
    `${base}/federation/credentials?${query}`,
    { headers: { "x-amz-sso_bearer_token": accessToken } },
    TIMEOUT_MS,
    secrets,
  );
  let data: { roleCredentials?: Record<string, unknown>; message?: unknown } = {};
  try {
    data = JSON.parse(answer.text);
  } catch { /* described below */ }
  if (answer.status !== 200) {
    // The service words its errors as {"message": …}; an expired or revoked token is a 401.
    const detail = typeof data.message === "string" && data.message ? data.message : `HTTP ${answer.status}`;
    throw new BedrockCredentialsError(
      redactSecrets(
        `SSO GetRoleCredentials for AWS profile "${profile}" failed: ${detail}${
          answer.status === 401 || answer.status === 403 ? `. ${REFRESH_MESSAGE}` : ""
        }`,
        secrets,
      ),
    );
  }
  const role = data.roleCredentials ?? {};
  const { accessKeyId, secretAccessKey, sessionToken } = role;
  const expiration = parseExpiry(role.expiration);
  if (
    typeof accessKeyId !== "string" || typeof secretAccessKey !== "string" ||
    typeof sessionToken !== "string" ||
    !accessKeyId || !secretAccessKey || !sessionToken || expiration === undefined
  ) {
    throw new BedrockCredentialsError("SSO returns an invalid temporary credential.");
  }
  return { credentials: { accessKeyId, secretAccessKey, sessionToken }, expiresAt: expiration };
}
