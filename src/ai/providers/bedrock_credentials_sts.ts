/**
 * AWS STS calls of the credential chain, fetch-native: `AssumeRole` (signed with SigV4 by the
 * source credentials, as the AWS SDK's nested STS client: form body in the SDK's member order,
 * `x-amz-content-sha256` signed) and `AssumeRoleWithWebIdentity` (unsigned). The endpoint is
 * `https://sts.<region>.amazonaws.com` unless AWS_ENDPOINT_URL_STS / AWS_ENDPOINT_URL say
 * otherwise. STS error documents become "<Code>: <Message>" with no secret in them.
 *
 * @module
 */
import type { ProviderEnv } from "../env_api_keys.ts";
import { redactSecrets } from "../provider_utils.ts";
import { type AwsCredentials, signRequest, uriEncode } from "./bedrock_sigv4.ts";
import { BedrockCredentialsError } from "./bedrock_credentials_files.ts";
import {
  awsDomain,
  awsFetch,
  awsServiceEndpoint,
  parseExpiry,
  type TimedCredentials,
} from "./bedrock_credentials_http.ts";

const STS_VERSION = "2011-06-15";
const TIMEOUT_MS = 30_000;

/** Parameters of AssumeRole, in the order the AWS SDK serialises them. */
export interface AssumeRoleParams {
  RoleArn: string;
  RoleSessionName: string;
  DurationSeconds: number;
  ExternalId?: string;
}

/** Parameters of AssumeRoleWithWebIdentity. */
export interface WebIdentityParams {
  RoleArn: string;
  RoleSessionName: string;
  WebIdentityToken: string;
}

/** The AWS query-protocol form body: Action, Version, then the members in order, RFC 3986 encoded. */
export function stsQueryBody(action: string, params: Record<string, string | number | undefined>): string {
  const pairs: [string, string][] = [["Action", action], ["Version", STS_VERSION]];
  for (const [name, value] of Object.entries(params)) {
    if (value !== undefined) pairs.push([name, String(value)]);
  }
  return pairs.map(([k, v]) => `${uriEncode(k)}=${uriEncode(v)}`).join("&");
}

/** The STS endpoint for `region`. */
export function stsEndpoint(region: string, env: ProviderEnv | undefined): string {
  return awsServiceEndpoint("STS", `https://sts.${region}.${awsDomain(region)}`, env);
}

function xmlText(xml: string, tag: string): string | undefined {
  const match = new RegExp(`<${tag}>([\\s\\S]*?)</${tag}>`).exec(xml);
  if (!match) return undefined;
  return match[1].replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&quot;/g, '"').replace(/&apos;/g, "'")
    .replace(/&amp;/g, "&");
}

function parseStsAnswer(
  action: string,
  roleArn: string,
  status: number,
  text: string,
  secrets: (string | undefined)[],
): TimedCredentials {
  if (status < 200 || status >= 300) {
    const code = xmlText(text, "Code");
    const message = xmlText(text, "Message");
    const detail = code ? `${code}: ${message ?? ""}`.trim() : `HTTP ${status}`;
    throw new BedrockCredentialsError(
      redactSecrets(`STS ${action} for role ${roleArn} failed: ${detail}`, secrets),
    );
  }
  const accessKeyId = xmlText(text, "AccessKeyId");
  const secretAccessKey = xmlText(text, "SecretAccessKey");
  if (!accessKeyId || !secretAccessKey) {
    throw new BedrockCredentialsError(
      `Invalid response from STS ${action} for role ${roleArn}: no credentials`,
    );
  }
  const sessionToken = xmlText(text, "SessionToken");
  return {
    credentials: { accessKeyId, secretAccessKey, ...(sessionToken ? { sessionToken } : {}) },
    expiresAt: parseExpiry(xmlText(text, "Expiration")),
  };
}

/** The signed AssumeRole request (exported so tests can compare it with the AWS SDK's). */
export async function assumeRoleRequest(
  source: AwsCredentials,
  params: AssumeRoleParams,
  region: string,
  env: ProviderEnv | undefined,
  date: Date,
): Promise<{ url: string; headers: Record<string, string>; body: string }> {
  const url = `${stsEndpoint(region, env)}/`;
  const body = stsQueryBody("AssumeRole", { ...params });
  const signed = await signRequest(
    {
      method: "POST",
      url: new URL(url),
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body,
    },
    source,
    region,
    "sts",
    date,
    true,
  );
  const { host: _host, ...headers } = signed.headers;
  return { url, headers, body };
}

/** STS AssumeRole with `source` credentials. */
export async function assumeRole(
  source: AwsCredentials,
  params: AssumeRoleParams,
  region: string,
  env: ProviderEnv | undefined,
): Promise<TimedCredentials> {
  const request = await assumeRoleRequest(source, params, region, env, new Date());
  const secrets = [source.secretAccessKey, source.sessionToken];
  const answer = await awsFetch(
    `STS AssumeRole for role ${params.RoleArn}`,
    request.url,
    { method: "POST", headers: request.headers, body: request.body },
    TIMEOUT_MS,
    secrets,
  );
  return parseStsAnswer("AssumeRole", params.RoleArn, answer.status, answer.text, secrets);
}

/** STS AssumeRoleWithWebIdentity (an unsigned call: the token is the proof). */
export async function assumeRoleWithWebIdentity(
  params: WebIdentityParams,
  region: string,
  env: ProviderEnv | undefined,
): Promise<TimedCredentials> {
  const url = `${stsEndpoint(region, env)}/`;
  const secrets = [params.WebIdentityToken];
  const answer = await awsFetch(
    `STS AssumeRoleWithWebIdentity for role ${params.RoleArn}`,
    url,
    {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: stsQueryBody("AssumeRoleWithWebIdentity", { ...params }),
    },
    TIMEOUT_MS,
    secrets,
  );
  return parseStsAnswer("AssumeRoleWithWebIdentity", params.RoleArn, answer.status, answer.text, secrets);
}
