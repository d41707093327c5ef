/**
 * The AWS-sourced subject token of an `external_account` file (`environment_id` "aws1"), as
 * google-auth-library builds it: the AWS region (AWS_REGION / AWS_DEFAULT_REGION, else the
 * file's `region_url`, an availability zone whose last letter is dropped) and credentials (the
 * AWS access key variables, else the role of the file's metadata `url`; an IMDSv2 session token
 * first when `imdsv2_session_token_url` is set) sign an STS GetCallerIdentity request at
 * `regional_cred_verification_url`; the signed request, serialised as URL-encoded JSON, is the
 * subject token Google's STS checks.
 *
 * @module
 */
import { type ProviderEnv, providerEnvValue } from "../env_api_keys.ts";
import { type AwsCredentials, signRequest } from "./bedrock_sigv4.ts";
import { describe } from "./google_vertex_auth_common.ts";

type Json = Record<string, unknown>;

/** The subject token for `audience`: GetCallerIdentity at `url` signed with `credentials` at `date`. */
export async function awsSubjectToken(
  credentials: AwsCredentials,
  region: string,
  verificationUrl: string,
  audience: string,
  date: Date,
): Promise<string> {
  const url = verificationUrl.replace("{region}", region);
  const parsed = new URL(url);
  const signed = await signRequest(
    { method: "POST", url: parsed, headers: {} },
    credentials,
    region,
    parsed.host.split(".")[0],
    date,
  );
  // Google's STS wants the headers as [{key, value}] in the order a fetch Headers object lists them (sorted).
  const headers = { ...signed.headers, "x-goog-cloud-target-resource": audience };
  const list = Object.keys(headers).sort().map((key) => ({
    key,
    value: headers[key as keyof typeof headers],
  }));
  return encodeURIComponent(JSON.stringify({ url, method: "POST", headers: list }));
}

async function metadataText(what: string, url: string, init: RequestInit, path: string): Promise<string> {
  let response: Response;
  try {
    response = await fetch(url, init);
  } catch (error) {
    throw new Error(
      `Could not reach the AWS ${what} URL ${url} (credential_source of ${path}): ${describe(error)}`,
    );
  }
  const text = await response.text();
  if (!response.ok) {
    throw new Error(
      `The AWS ${what} URL ${url} (credential_source of ${path}) answered HTTP ${response.status}`,
    );
  }
  return text;
}

/** The subject token of an AWS `credential_source`. */
export async function awsSourcedSubjectToken(
  source: Json,
  audience: string,
  path: string,
  env?: ProviderEnv,
): Promise<string> {
  const version = /^aws(\d+)$/.exec(String(source.environment_id ?? ""));
  const verificationUrl = typeof source.regional_cred_verification_url === "string"
    ? source.regional_cred_verification_url
    : "";
  if (!version || !verificationUrl) throw new Error(`No valid AWS "credential_source" provided (${path})`);
  if (version[1] !== "1") {
    throw new Error(`aws version "${version[1]}" is not supported in the current build.`);
  }
  const text = (name: string) => typeof source[name] === "string" ? source[name] as string : undefined;
  const sessionUrl = text("imdsv2_session_token_url");
  let region = providerEnvValue("AWS_REGION", env) ?? providerEnvValue("AWS_DEFAULT_REGION", env);
  const accessKeyId = providerEnvValue("AWS_ACCESS_KEY_ID", env);
  const secretAccessKey = providerEnvValue("AWS_SECRET_ACCESS_KEY", env);
  const metadataHeaders = async (): Promise<Record<string, string>> =>
    sessionUrl
      ? {
        "x-aws-ec2-metadata-token": await metadataText("IMDSv2 session token", sessionUrl, {
          method: "PUT",
          headers: { "x-aws-ec2-metadata-token-ttl-seconds": "300" },
        }, path),
      }
      : {};
  if (!region) {
    const regionUrl = text("region_url");
    if (!regionUrl) {
      throw new RangeError(
        `Unable to determine AWS region due to missing "options.credential_source.region_url" (${path})`,
      );
    }
    const zone = await metadataText("region", regionUrl, { headers: await metadataHeaders() }, path);
    region = zone.slice(0, -1);
  }
  let credentials: AwsCredentials;
  if (accessKeyId && secretAccessKey) {
    const sessionToken = providerEnvValue("AWS_SESSION_TOKEN", env);
    credentials = { accessKeyId, secretAccessKey, ...(sessionToken ? { sessionToken } : {}) };
  } else {
    const url = text("url");
    if (!url) {
      throw new Error(
        `Unable to determine AWS role name due to missing "options.credential_source.url" (${path})`,
      );
    }
    const headers = await metadataHeaders();
    const role = await metadataText("security credentials", url, { headers }, path);
    const json = await metadataText("security credentials", `${url}/${role}`, { headers }, path);
    let data: Json = {};
    try {
      data = JSON.parse(json);
    } catch { /* described below */ }
    if (typeof data.AccessKeyId !== "string" || typeof data.SecretAccessKey !== "string") {
      throw new Error(
        `The AWS security credentials URL ${url}/${role} (credential_source of ${path}) gave no keys`,
      );
    }
    credentials = {
      accessKeyId: data.AccessKeyId,
      secretAccessKey: data.SecretAccessKey,
      ...(typeof data.Token === "string" && data.Token ? { sessionToken: data.Token } : {}),
    };
  }
  return await awsSubjectToken(credentials, region, verificationUrl, audience, new Date());
}
