/**
 * AWS credential sources outside the shared files, as the AWS SDK's chain finds them for pi-ai
 * 1.6.0: a profile's `credential_process`, the container endpoint (ECS/EKS:
 * AWS_CONTAINER_CREDENTIALS_RELATIVE_URI or _FULL_URI, with AWS_CONTAINER_AUTHORIZATION_TOKEN or
 * _TOKEN_FILE) and the EC2 instance metadata service (IMDSv2 session token, v1 fallback unless
 * AWS_EC2_METADATA_V1_DISABLED; AWS_EC2_METADATA_SERVICE_ENDPOINT / _ENDPOINT_MODE;
 * AWS_EC2_METADATA_DISABLED turns it off).
 *
 * @module
 */
import { type ProviderEnv, providerEnvValue } from "../env_api_keys.ts";
import { BedrockCredentialsError } from "./bedrock_credentials_files.ts";
import { awsFetch, parseExpiry, type TimedCredentials } from "./bedrock_credentials_http.ts";

type Env = ProviderEnv | undefined;

/** Runs a profile's `credential_process` and reads its JSON (Version 1) answer. */
export async function processCredentials(profile: string, command: string): Promise<TimedCredentials> {
  const what = `credential_process of AWS profile "${profile}"`;
  const output = await new Deno.Command("sh", { args: ["-c", command], stdout: "piped", stderr: "piped" })
    .output()
    .catch((error: Error) => {
      throw new BedrockCredentialsError(`${what} could not start: ${error.message}`);
    });
  if (output.code !== 0) throw new BedrockCredentialsError(`${what} exited with code ${output.code}`);
  let parsed: Record<string, unknown>;
  try {
    parsed = JSON.parse(new TextDecoder().decode(output.stdout));
  } catch {
    throw new BedrockCredentialsError(`${what} printed no valid JSON`);
  }
  if (parsed.Version !== undefined && parsed.Version !== 1) {
    throw new BedrockCredentialsError(
      `${what} printed Version ${JSON.stringify(parsed.Version)}; only 1 is supported`,
    );
  }
  const { AccessKeyId, SecretAccessKey, SessionToken } = parsed;
  if (
    typeof AccessKeyId !== "string" || typeof SecretAccessKey !== "string" || !AccessKeyId || !SecretAccessKey
  ) {
    throw new BedrockCredentialsError(`${what} gave no AccessKeyId/SecretAccessKey`);
  }
  const expiresAt = parseExpiry(parsed.Expiration);
  if (expiresAt !== undefined && expiresAt < Date.now()) {
    throw new BedrockCredentialsError(`${what} returned expired credentials`);
  }
  return {
    credentials: {
      accessKeyId: AccessKeyId,
      secretAccessKey: SecretAccessKey,
      ...(typeof SessionToken === "string" && SessionToken ? { sessionToken: SessionToken } : {}),
    },
    expiresAt,
  };
}

function credentialsFromJson(what: string, text: string): TimedCredentials {
  let data: Record<string, unknown> = {};
  try {
    data = JSON.parse(text);
  } catch { /* described below */ }
  const { AccessKeyId, SecretAccessKey, Token } = data;
  if (
    typeof AccessKeyId !== "string" || typeof SecretAccessKey !== "string" || !AccessKeyId || !SecretAccessKey
  ) {
    throw new BedrockCredentialsError(`${what} gave no AccessKeyId/SecretAccessKey`);
  }
  return {
    credentials: {
      accessKeyId: AccessKeyId,
      secretAccessKey: SecretAccessKey,
      ...(typeof Token === "string" && Token ? { sessionToken: Token } : {}),
    },
    expiresAt: parseExpiry(data.Expiration),
  };
}

const CONTAINER_HOSTS = new Set(["169.254.170.2", "169.254.170.23", "[fd00:ec2::23]", "localhost", "[::1]"]);

/** The container credentials URL of the environment, if one is set. */
export function containerCredentialsUrl(env: Env): string | undefined {
  const relative = providerEnvValue("AWS_CONTAINER_CREDENTIALS_RELATIVE_URI", env);
  if (relative) return `http://169.254.170.2${relative}`;
  return providerEnvValue("AWS_CONTAINER_CREDENTIALS_FULL_URI", env);
}

/** Credentials from the ECS/EKS container endpoint (undefined when none is configured). */
export async function containerCredentials(env: Env): Promise<TimedCredentials | undefined> {
  const raw = containerCredentialsUrl(env);
  if (!raw) return undefined;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new BedrockCredentialsError(`${raw} is not a valid container metadata service URL`);
  }
  // The AWS SDK's rule: HTTPS, or plain HTTP to a loopback or the ECS/EKS link-local host.
  const loopback = /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(url.hostname);
  if (
    url.protocol !== "https:" &&
    !(url.protocol === "http:" && (loopback || CONTAINER_HOSTS.has(url.hostname)))
  ) {
    throw new BedrockCredentialsError(
      `Container credentials URL ${url.origin} not accepted: it must be HTTPS, a loopback address or the ECS/EKS container host`,
    );
  }
  const tokenFile = providerEnvValue("AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE", env);
  let token = providerEnvValue("AWS_CONTAINER_AUTHORIZATION_TOKEN", env);
  if (tokenFile) {
    try {
      token = await Deno.readTextFile(tokenFile);
    } catch (error) {
      throw new BedrockCredentialsError(
        `Could not read AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE ${tokenFile}: ${(error as Error).name}`,
      );
    }
  }
  if (token?.includes("\r\n")) {
    throw new BedrockCredentialsError(
      "The container authorization token contains an invalid \\r\\n sequence",
    );
  }
  const what = `Container credentials endpoint ${url.origin}${url.pathname}`;
  let lastError: unknown;
  // As the AWS SDK: up to three retries a second apart, but only while the endpoint is unreachable or failing.
  for (let attempt = 0; attempt < 4; attempt++) {
    if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, 1000));
    try {
      const answer = await awsFetch(
        what,
        url.href,
        { headers: token ? { authorization: token } : {} },
        1000,
        [token],
      );
      if (answer.status === 200) return credentialsFromJson(what, answer.text);
      lastError = new BedrockCredentialsError(`${what} answered HTTP ${answer.status}`);
      if (answer.status < 500) break;
    } catch (error) {
      lastError = error;
    }
  }
  throw lastError;
}

/** The instance metadata endpoint of the environment. */
export function imdsEndpoint(env: Env): string {
  const explicit = providerEnvValue("AWS_EC2_METADATA_SERVICE_ENDPOINT", env);
  if (explicit) return explicit.replace(/\/+$/, "");
  const mode = providerEnvValue("AWS_EC2_METADATA_SERVICE_ENDPOINT_MODE", env) ?? "IPv4";
  if (mode === "IPv4") return "http://169.254.169.254";
  if (mode === "IPv6") return "http://[fd00:ec2::254]";
  throw new BedrockCredentialsError(`Unsupported endpoint mode: ${mode}. Select from IPv4, IPv6`);
}

/** True unless AWS_EC2_METADATA_DISABLED turns the instance metadata service off. */
export function imdsEnabled(env: Env): boolean {
  const disabled = providerEnvValue("AWS_EC2_METADATA_DISABLED", env);
  return !disabled || disabled === "false";
}

const IMDS_PATH = "/latest/meta-data/iam/security-credentials/";

/**
 * Credentials of the EC2 instance role; undefined when no metadata service answers (not on EC2).
 * Each call waits at most a second, as the AWS SDK's default.
 */
export async function imdsCredentials(env: Env): Promise<TimedCredentials | undefined> {
  const base = imdsEndpoint(env);
  const what = `EC2 instance metadata service ${base}`;
  let token: string | undefined;
  let tokenAnswer: { status: number; text: string };
  try {
    tokenAnswer = await awsFetch(
      what,
      `${base}/latest/api/token`,
      {
        method: "PUT",
        headers: { "x-aws-ec2-metadata-token-ttl-seconds": "21600" },
      },
      1000,
      [],
    );
  } catch {
    return undefined; // nothing answers: not on EC2
  }
  if (tokenAnswer.status === 200) token = tokenAnswer.text;
  else if (tokenAnswer.status === 400) {
    throw new BedrockCredentialsError("EC2 Metadata token request returned error");
  }
  if (token === undefined) {
    const v1Disabled = providerEnvValue("AWS_EC2_METADATA_V1_DISABLED", env);
    if (v1Disabled && v1Disabled !== "false") {
      throw new BedrockCredentialsError(
        "AWS EC2 Metadata v1 fallback has been blocked by AWS SDK configuration in the following: [process environment variable (AWS_EC2_METADATA_V1_DISABLED)].",
      );
    }
  }
  const headers: Record<string, string> = token ? { "x-aws-ec2-metadata-token": token } : {};
  let role: { status: number; text: string };
  try {
    role = await awsFetch(what, `${base}${IMDS_PATH}`, { headers }, 1000, [token]);
  } catch {
    return undefined;
  }
  if (role.status !== 200) {
    throw new BedrockCredentialsError(`${what} answered HTTP ${role.status} for the instance role`);
  }
  const name = role.text.trim();
  const answer = await awsFetch(what, `${base}${IMDS_PATH}${encodeURIComponent(name)}`, { headers }, 1000, [
    token,
  ]);
  if (answer.status !== 200) {
    throw new BedrockCredentialsError(`${what} answered HTTP ${answer.status} for role ${name}`);
  }
  return credentialsFromJson(`${what} (role ${name})`, answer.text);
}
