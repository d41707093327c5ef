/**
 * Where a Bedrock request's AWS identity and region come from, in pi-ai 1.6.0's order: a bearer
 * token (Bedrock API key), a profile named in pi's settings, access keys in the environment, the
 * profile of AWS_PROFILE (or "default") in ~/.aws/credentials and ~/.aws/config (static keys or
 * `credential_process`), and container credentials (ECS). Secrets never reach an error message.
 *
 * @module
 */
import { AMBIENT_CREDENTIALS, providerEnvValue } from "../env_api_keys.ts";
import type { AwsCredentials } from "./bedrock_sigv4.ts";

type Env = Record<string, string> | undefined;

/** How a request authenticates. */
export type BedrockAuth =
  | { kind: "bearer"; token: string }
  | { kind: "sigv4"; credentials: AwsCredentials; source: string };

/** A credential problem; its message names the source and never holds a secret. */
export class BedrockCredentialsError extends Error {
  override name = "BedrockCredentialsError";
}

type IniSections = Map<string, Record<string, string>>;

/** Parses an AWS shared config/credentials file (INI: `[section]`, `key = value`, `#`/`;` comments). */
export function parseAwsIni(text: string): IniSections {
  const sections: IniSections = new Map();
  let current: Record<string, string> | undefined;
  let lastKey: string | undefined;
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.replace(/^\s*[#;].*$/, "");
    if (line.trim() === "") continue;
    const section = /^\s*\[([^\]]+)\]\s*$/.exec(line);
    if (section) {
      const name = section[1].trim();
      current = sections.get(name) ?? {};
      sections.set(name, current);
      lastKey = undefined;
      continue;
    }
    if (!current) continue;
    // Indented lines continue a nested block (e.g. `s3 =` sub-settings); they are not needed here.
    if (/^\s/.test(raw) && lastKey !== undefined) continue;
    const eq = line.indexOf("=");
    if (eq < 0) continue;
    lastKey = line.slice(0, eq).trim().toLowerCase();
    current[lastKey] = line.slice(eq + 1).trim();
  }
  return sections;
}

function homeDir(env: Env): string | undefined {
  return providerEnvValue("HOME", env) ?? providerEnvValue("USERPROFILE", env);
}

function readIni(path: string | undefined): IniSections {
  if (!path) return new Map();
  try {
    return parseAwsIni(Deno.readTextFileSync(path));
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return new Map();
    throw new BedrockCredentialsError(`Could not read AWS file ${path}: ${(error as Error).message}`);
  }
}

/** The settings of `profile` from ~/.aws/config and ~/.aws/credentials (credentials win). */
export function loadAwsProfile(profile: string, env: Env): Record<string, string> | undefined {
  const home = homeDir(env);
  const configPath = providerEnvValue("AWS_CONFIG_FILE", env) ?? (home ? `${home}/.aws/config` : undefined);
  const credentialsPath = providerEnvValue("AWS_SHARED_CREDENTIALS_FILE", env) ??
    (home ? `${home}/.aws/credentials` : undefined);
  const config = readIni(configPath);
  const credentials = readIni(credentialsPath);
  const fromConfig = config.get(profile === "default" ? "default" : `profile ${profile}`) ??
    (profile === "default" ? config.get("profile default") : undefined);
  const fromCredentials = credentials.get(profile);
  if (!fromConfig && !fromCredentials) return undefined;
  return { ...fromConfig, ...fromCredentials };
}

async function runCredentialProcess(profile: string, command: string): Promise<AwsCredentials> {
  const output = await new Deno.Command("sh", { args: ["-c", command], stdout: "piped", stderr: "piped" })
    .output()
    .catch((error: Error) => {
      throw new BedrockCredentialsError(
        `credential_process of AWS profile "${profile}" could not start: ${error.message}`,
      );
    });
  if (output.code !== 0) {
    throw new BedrockCredentialsError(
      `credential_process of AWS profile "${profile}" exited with code ${output.code}`,
    );
  }
  let parsed: { AccessKeyId?: string; SecretAccessKey?: string; SessionToken?: string };
  try {
    parsed = JSON.parse(new TextDecoder().decode(output.stdout));
  } catch {
    throw new BedrockCredentialsError(`credential_process of AWS profile "${profile}" printed no valid JSON`);
  }
  if (!parsed.AccessKeyId || !parsed.SecretAccessKey) {
    throw new BedrockCredentialsError(
      `credential_process of AWS profile "${profile}" gave no AccessKeyId/SecretAccessKey`,
    );
  }
  return {
    accessKeyId: parsed.AccessKeyId,
    secretAccessKey: parsed.SecretAccessKey,
    ...(parsed.SessionToken ? { sessionToken: parsed.SessionToken } : {}),
  };
}

async function profileCredentials(
  profile: string,
  env: Env,
  required: boolean,
): Promise<AwsCredentials | undefined> {
  const settings = loadAwsProfile(profile, env);
  if (!settings) {
    if (!required) return undefined;
    throw new BedrockCredentialsError(
      `AWS profile "${profile}" was not found in ~/.aws/credentials or ~/.aws/config`,
    );
  }
  if (settings.aws_access_key_id && settings.aws_secret_access_key) {
    return {
      accessKeyId: settings.aws_access_key_id,
      secretAccessKey: settings.aws_secret_access_key,
      ...(settings.aws_session_token ? { sessionToken: settings.aws_session_token } : {}),
    };
  }
  if (settings.credential_process) return await runCredentialProcess(profile, settings.credential_process);
  const kind = settings.role_arn
    ? "role assumption (role_arn)"
    : settings.sso_session || settings.sso_start_url
    ? "IAM Identity Center (SSO)"
    : undefined;
  if (kind) {
    throw new BedrockCredentialsError(
      `AWS profile "${profile}" uses ${kind}, which is not available in this build yet; ` +
        "use access keys, credential_process or AWS_BEARER_TOKEN_BEDROCK",
    );
  }
  throw new BedrockCredentialsError(`AWS profile "${profile}" has no credentials`);
}

async function containerCredentials(env: Env): Promise<AwsCredentials | undefined> {
  const relative = providerEnvValue("AWS_CONTAINER_CREDENTIALS_RELATIVE_URI", env);
  const full = providerEnvValue("AWS_CONTAINER_CREDENTIALS_FULL_URI", env);
  const url = relative ? `http://169.254.170.2${relative}` : full;
  if (!url) return undefined;
  const token = providerEnvValue("AWS_CONTAINER_AUTHORIZATION_TOKEN", env);
  let response: Response;
  try {
    response = await fetch(url, {
      headers: token ? { authorization: token } : {},
      signal: AbortSignal.timeout(5000),
    });
  } catch (error) {
    throw new BedrockCredentialsError(
      `Container credentials endpoint unreachable: ${(error as Error).message}`,
    );
  }
  if (!response.ok) {
    await response.body?.cancel();
    throw new BedrockCredentialsError(`Container credentials endpoint answered HTTP ${response.status}`);
  }
  const data = await response.json() as { AccessKeyId?: string; SecretAccessKey?: string; Token?: string };
  if (!data.AccessKeyId || !data.SecretAccessKey) {
    throw new BedrockCredentialsError("Container credentials endpoint gave no AccessKeyId/SecretAccessKey");
  }
  return {
    accessKeyId: data.AccessKeyId,
    secretAccessKey: data.SecretAccessKey,
    ...(data.Token ? { sessionToken: data.Token } : {}),
  };
}

/** Options that choose the identity. */
export interface BedrockAuthOptions {
  apiKey?: string;
  bearerToken?: string;
  profile?: string;
  env?: Record<string, string>;
}

/** Resolves how to authenticate, as pi-ai 1.6.0 orders the sources. */
export async function resolveBedrockAuth(options: BedrockAuthOptions): Promise<BedrockAuth> {
  const env = options.env;
  const skipAuth = providerEnvValue("AWS_BEDROCK_SKIP_AUTH", env) === "1";
  if (skipAuth) {
    // Proxies that need no authentication still get a well-formed (dummy) signature.
    return {
      kind: "sigv4",
      credentials: { accessKeyId: "dummy-access-key", secretAccessKey: "dummy-secret-key" },
      source: "AWS_BEDROCK_SKIP_AUTH",
    };
  }
  // "<authenticated>" marks ambient AWS credentials, not a key.
  const apiKey = options.apiKey === AMBIENT_CREDENTIALS ? undefined : options.apiKey;
  const bearer = options.bearerToken || apiKey || providerEnvValue("AWS_BEARER_TOKEN_BEDROCK", env);
  if (bearer) return { kind: "bearer", token: bearer };

  const explicitProfile = options.profile || (env && env.AWS_PROFILE) || undefined;
  if (explicitProfile) {
    return {
      kind: "sigv4",
      credentials: (await profileCredentials(explicitProfile, env, true))!,
      source: "profile",
    };
  }
  const accessKeyId = providerEnvValue("AWS_ACCESS_KEY_ID", env);
  const secretAccessKey = providerEnvValue("AWS_SECRET_ACCESS_KEY", env);
  if (accessKeyId && secretAccessKey) {
    const sessionToken = providerEnvValue("AWS_SESSION_TOKEN", env);
    return {
      kind: "sigv4",
      credentials: { accessKeyId, secretAccessKey, ...(sessionToken ? { sessionToken } : {}) },
      source: "environment",
    };
  }
  const ambientProfile = providerEnvValue("AWS_PROFILE", env);
  const fromProfile = await profileCredentials(
    ambientProfile ?? "default",
    env,
    ambientProfile !== undefined,
  );
  if (fromProfile) return { kind: "sigv4", credentials: fromProfile, source: "profile" };
  const fromContainer = await containerCredentials(env);
  if (fromContainer) return { kind: "sigv4", credentials: fromContainer, source: "container" };
  if (providerEnvValue("AWS_WEB_IDENTITY_TOKEN_FILE", env)) {
    throw new BedrockCredentialsError(
      "AWS web identity credentials (AWS_WEB_IDENTITY_TOKEN_FILE) are not available in this build yet; " +
        "use access keys, a profile or AWS_BEARER_TOKEN_BEDROCK",
    );
  }
  throw new BedrockCredentialsError(
    "No AWS credentials for Amazon Bedrock: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, AWS_PROFILE, " +
      "or AWS_BEARER_TOKEN_BEDROCK",
  );
}

/** The region of `profile` in ~/.aws/config, if any. */
export function profileRegion(profile: string, env: Env): string | undefined {
  try {
    return loadAwsProfile(profile, env)?.region || undefined;
  } catch {
    return undefined;
  }
}
