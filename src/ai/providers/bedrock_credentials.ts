/**
 * Where a Bedrock request's AWS identity comes from, in pi-ai 1.6.0's order (its own checks, then
 * the AWS SDK's default chain): AWS_BEDROCK_SKIP_AUTH, a bearer token (Bedrock API key), a
 * profile named by pi's settings, access keys in the environment, the profile of AWS_PROFILE (or
 * "default") in ~/.aws/config and ~/.aws/credentials, web identity (AWS_WEB_IDENTITY_TOKEN_FILE),
 * the container endpoint (ECS/EKS), and the EC2 instance metadata service.
 *
 * A profile resolves as the SDK's `fromIni`: role assumption (`role_arn` with `source_profile`
 * chains or `credential_source`), static keys, `web_identity_token_file`, `credential_process`,
 * IAM Identity Center (SSO), console login sessions (`login_session`). Temporary credentials are kept until five minutes before they expire.
 * Secrets never reach an error message.
 *
 * @module
 */
import { AMBIENT_CREDENTIALS, type ProviderEnv, providerEnvValue } from "../env_api_keys.ts";
import type { AwsCredentials } from "./bedrock_sigv4.ts";
import {
  type AwsSharedFiles,
  BedrockCredentialsError,
  isSsoProfile,
  loadAwsSharedFiles,
} from "./bedrock_credentials_files.ts";
import { cachedCredentials, cachedOptional, type TimedCredentials } from "./bedrock_credentials_http.ts";

export {
  BedrockCredentialsError,
  loadAwsProfile,
  parseAwsIni,
  profileRegion,
} from "./bedrock_credentials_files.ts";

type Env = ProviderEnv | undefined;

/** How a request authenticates. */
export type BedrockAuth =
  | { kind: "bearer"; token: string }
  | { kind: "sigv4"; credentials: AwsCredentials; source: string };

/** Options that choose the identity. */
export interface BedrockAuthOptions {
  apiKey?: string;
  bearerToken?: string;
  profile?: string;
  /** The Bedrock client's region: STS calls use it when the profile names none. */
  region?: string;
  env?: Record<string, string>;
}

interface ChainContext {
  env: Env;
  files: AwsSharedFiles;
  /** The calling client's region (STS and web identity default to it). */
  region: string;
}

function envCredentials(env: Env): TimedCredentials | undefined {
  const accessKeyId = providerEnvValue("AWS_ACCESS_KEY_ID", env);
  const secretAccessKey = providerEnvValue("AWS_SECRET_ACCESS_KEY", env);
  if (!accessKeyId || !secretAccessKey) return undefined;
  const sessionToken = providerEnvValue("AWS_SESSION_TOKEN", env);
  return { credentials: { accessKeyId, secretAccessKey, ...(sessionToken ? { sessionToken } : {}) } };
}

function isStatic(settings: Record<string, string>): boolean {
  return settings.aws_access_key_id !== undefined && settings.aws_secret_access_key !== undefined;
}

function staticCredentials(settings: Record<string, string>): TimedCredentials {
  return {
    credentials: {
      accessKeyId: settings.aws_access_key_id,
      secretAccessKey: settings.aws_secret_access_key,
      ...(settings.aws_session_token ? { sessionToken: settings.aws_session_token } : {}),
    },
  };
}

/** A profile that assumes a role: `role_arn` with exactly one of `source_profile`/`credential_source`. */
function isAssumeRole(settings: Record<string, string>): boolean {
  return settings.role_arn !== undefined &&
    ((settings.source_profile !== undefined) !== (settings.credential_source !== undefined));
}

async function credentialSource(name: string, profile: string, ctx: ChainContext): Promise<TimedCredentials> {
  const remote = await import("./bedrock_credentials_remote.ts");
  let found: TimedCredentials | undefined;
  if (name === "Environment") found = envCredentials(ctx.env);
  else if (name === "EcsContainer") found = await remote.containerCredentials(ctx.env);
  else if (name === "Ec2InstanceMetadata") found = await remote.imdsCredentials(ctx.env);
  else {
    throw new BedrockCredentialsError(
      `Unsupported credential source in profile ${profile}. Got ${name}, expected EcsContainer or Ec2InstanceMetadata or Environment.`,
    );
  }
  if (!found) {
    throw new BedrockCredentialsError(
      `credential_source ${name} of AWS profile "${profile}" gave no credentials`,
    );
  }
  return found;
}

async function assumeRoleProfile(
  profile: string,
  ctx: ChainContext,
  visited: Set<string>,
): Promise<TimedCredentials> {
  const settings = ctx.files.profiles.get(profile)!;
  const sourceProfile = settings.source_profile;
  if (sourceProfile !== undefined && visited.has(sourceProfile)) {
    throw new BedrockCredentialsError(
      `Detected a cycle attempting to resolve credentials for AWS profile "${profile}". Profiles visited: ${
        [...visited].join(", ")
      }`,
    );
  }
  const source = async () => {
    if (sourceProfile === undefined) return await credentialSource(settings.credential_source, profile, ctx);
    const next = ctx.files.profiles.get(sourceProfile);
    if (!next) {
      throw new BedrockCredentialsError(
        `AWS profile "${profile}" names source_profile "${sourceProfile}", which was not found in ~/.aws/credentials or ~/.aws/config`,
      );
    }
    const chained = new Set([...visited, sourceProfile]);
    // A source profile with credential_source and no role_arn hands over that source's credentials.
    if (!next.role_arn && next.credential_source) return await assumeRoleProfile(sourceProfile, ctx, chained);
    return await resolveProfile(sourceProfile, ctx, chained);
  };
  if (!settings.role_arn) return await source();
  if (settings.mfa_serial) {
    // pi-ai 1.6.0 gives the AWS SDK no MFA code callback either; it cannot prompt mid-request.
    throw new BedrockCredentialsError(
      `AWS profile "${profile}" requires multi-factor authentication (mfa_serial), which pi cannot prompt for; ` +
        "assume the role beforehand (e.g. with aws sts assume-role) and use the temporary keys, or use credential_process",
    );
  }
  const sourceCredentials = (await source()).credentials;
  const region = settings.region || ctx.region;
  const sts = await import("./bedrock_credentials_sts.ts");
  const duration = Number.parseInt(settings.duration_seconds || "3600", 10);
  const key = [
    "assume-role",
    settings.role_arn,
    settings.role_session_name ?? "",
    settings.external_id ?? "",
    duration,
    sourceCredentials.accessKeyId,
    sts.stsEndpoint(region, ctx.env),
  ].join("|");
  return await cachedCredentials(key, () =>
    sts.assumeRole(
      sourceCredentials,
      {
        RoleArn: settings.role_arn,
        RoleSessionName: settings.role_session_name || `aws-sdk-js-${Date.now()}`,
        DurationSeconds: duration,
        ...(settings.external_id !== undefined ? { ExternalId: settings.external_id } : {}),
      },
      region,
      ctx.env,
    ));
}

async function webIdentity(
  tokenFile: string,
  roleArn: string,
  sessionName: string | undefined,
  origin: string,
  ctx: ChainContext,
): Promise<TimedCredentials> {
  const sts = await import("./bedrock_credentials_sts.ts");
  const key = ["web-identity", roleArn, tokenFile, sessionName ?? "", sts.stsEndpoint(ctx.region, ctx.env)]
    .join("|");
  return await cachedCredentials(key, async () => {
    let token: string;
    try {
      token = (await Deno.readTextFile(tokenFile)).trim();
    } catch (error) {
      const why = error instanceof Deno.errors.NotFound
        ? "does not exist"
        : `cannot be read (${(error as Error).name})`;
      throw new BedrockCredentialsError(`The web identity token file ${tokenFile} (${origin}) ${why}`);
    }
    if (!token) {
      throw new BedrockCredentialsError(`The web identity token file ${tokenFile} (${origin}) is empty`);
    }
    return await sts.assumeRoleWithWebIdentity(
      {
        RoleArn: roleArn,
        RoleSessionName: sessionName || `aws-sdk-js-session-${Date.now()}`,
        WebIdentityToken: token,
      },
      ctx.region,
      ctx.env,
    );
  });
}

/** True when a profile can give credentials by itself. */
function hasCredentialSettings(settings: Record<string, string>): boolean {
  return isAssumeRole(settings) || isStatic(settings) || settings.credential_process !== undefined ||
    (settings.web_identity_token_file !== undefined && settings.role_arn !== undefined) ||
    settings.login_session !== undefined || isSsoProfile(settings);
}

/** Credentials of one profile, as the AWS SDK's `fromIni` resolves it. */
async function resolveProfile(
  profile: string,
  ctx: ChainContext,
  visited: Set<string> = new Set(),
): Promise<TimedCredentials> {
  const settings = ctx.files.profiles.get(profile);
  if (!settings) {
    throw new BedrockCredentialsError(
      `AWS profile "${profile}" was not found in ~/.aws/credentials or ~/.aws/config`,
    );
  }
  if (visited.size > 0 && isStatic(settings)) return staticCredentials(settings);
  if (isAssumeRole(settings)) return await assumeRoleProfile(profile, ctx, new Set([...visited, profile]));
  if (isStatic(settings)) return staticCredentials(settings);
  if (settings.web_identity_token_file !== undefined && settings.role_arn !== undefined) {
    return await webIdentity(
      settings.web_identity_token_file,
      settings.role_arn,
      settings.role_session_name,
      `web_identity_token_file of AWS profile "${profile}"`,
      ctx,
    );
  }
  if (settings.credential_process !== undefined) {
    const { processCredentials } = await import("./bedrock_credentials_remote.ts");
    return await cachedCredentials(
      `process|${settings.credential_process}`,
      () => processCredentials(profile, settings.credential_process),
    );
  }
  if (isSsoProfile(settings)) {
    const sso = await import("./bedrock_credentials_sso.ts");
    const key = [
      "sso",
      ctx.files.configPath ?? "",
      profile,
      settings.sso_session ?? settings.sso_start_url ?? "",
      settings.sso_account_id ?? "",
      settings.sso_role_name ?? "",
    ]
      .join("|");
    return await cachedCredentials(key, () => sso.ssoCredentials(profile, settings, ctx.files, ctx.env));
  }
  if (settings.login_session !== undefined) {
    const { loginCredentials, loginTokenPath } = await import("./bedrock_credentials_login.ts");
    return await cachedCredentials(
      `login|${await loginTokenPath(settings.login_session, ctx.env)}`,
      () => loginCredentials(profile, settings, ctx.region, ctx.env),
    );
  }
  throw new BedrockCredentialsError(`AWS profile "${profile}" has no credentials`);
}

function sigv4(found: TimedCredentials, source: string): BedrockAuth {
  return { kind: "sigv4", credentials: found.credentials, source };
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
  const ambientProfile = providerEnvValue("AWS_PROFILE", env);
  let loaded: ChainContext | undefined;
  // The shared files are read only once a source needs them (access keys in the environment do not).
  const chain = (): ChainContext => {
    if (!loaded) {
      const files = loadAwsSharedFiles(env);
      const regionProfile = explicitProfile ?? ambientProfile ?? "default";
      const region = options.region || providerEnvValue("AWS_REGION", env) ||
        providerEnvValue("AWS_DEFAULT_REGION", env) || files.profiles.get(regionProfile)?.region ||
        "us-east-1";
      loaded = { env, files, region };
    }
    return loaded;
  };

  if (explicitProfile) return sigv4(await resolveProfile(explicitProfile, chain()), "profile");
  const fromEnv = envCredentials(env);
  if (fromEnv) return sigv4(fromEnv, "environment");
  const context = chain();
  const profile = ambientProfile ?? "default";
  const settings = context.files.profiles.get(profile);
  // A profile with no credential settings (say, only a region) lets the chain go on, as the SDK's does.
  if ((ambientProfile !== undefined && !settings) || (settings && hasCredentialSettings(settings))) {
    return sigv4(await resolveProfile(profile, context), "profile");
  }
  const tokenFile = providerEnvValue("AWS_WEB_IDENTITY_TOKEN_FILE", env);
  const roleArn = providerEnvValue("AWS_ROLE_ARN", env);
  if (tokenFile && roleArn) {
    const sessionName = providerEnvValue("AWS_ROLE_SESSION_NAME", env);
    return sigv4(
      await webIdentity(tokenFile, roleArn, sessionName, "AWS_WEB_IDENTITY_TOKEN_FILE", context),
      "web-identity",
    );
  }
  const remote = await import("./bedrock_credentials_remote.ts");
  const containerUrl = remote.containerCredentialsUrl(env);
  if (containerUrl) {
    const found = await cachedOptional(`container|${containerUrl}`, () => remote.containerCredentials(env));
    if (found) return sigv4(found, "container");
  }
  if (remote.imdsEnabled(env)) {
    const endpoint = remote.imdsEndpoint(env);
    const found = await cachedOptional(`imds|${endpoint}`, () => remote.imdsCredentials(env));
    if (found) return sigv4(found, "instance-metadata");
  }
  throw new BedrockCredentialsError(
    "No AWS credentials for Amazon Bedrock: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, AWS_PROFILE, " +
      "or AWS_BEARER_TOKEN_BEDROCK",
  );
}
