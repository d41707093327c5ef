/**
 * AWS shared config and credentials files as the AWS SDK reads them for pi-ai 1.6.0: the INI
 * syntax, `[profile name]` / `[default]` sections of ~/.aws/config (AWS_CONFIG_FILE), profiles of
 * ~/.aws/credentials (AWS_SHARED_CREDENTIALS_FILE) that win key by key, and `[sso-session name]`
 * sections. A file that cannot be read is named in the error; a missing one is simply empty.
 *
 * @module
 */
import { type ProviderEnv, providerEnvValue } from "../env_api_keys.ts";

type Env = ProviderEnv | undefined;

/** A credential problem; its message names the source or file and never holds a secret. */
export class BedrockCredentialsError extends Error {
  override name = "BedrockCredentialsError";
}

/** Sections of one INI file by their header text. */
export type IniSections = Map<string, Record<string, string>>;

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

/** The home folder the AWS SDK uses (HOME, else USERPROFILE). */
export function awsHomeDir(env: Env): string | undefined {
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

/** Profiles and SSO sessions of the shared files, merged as the AWS SDK merges them. */
export interface AwsSharedFiles {
  profiles: Map<string, Record<string, string>>;
  ssoSessions: Map<string, Record<string, string>>;
  /** Where a setting may have come from, for messages. */
  configPath?: string;
  credentialsPath?: string;
}

/** Reads ~/.aws/config and ~/.aws/credentials (or the files the environment names). */
export function loadAwsSharedFiles(env: Env): AwsSharedFiles {
  const home = awsHomeDir(env);
  const configPath = providerEnvValue("AWS_CONFIG_FILE", env) ?? (home ? `${home}/.aws/config` : undefined);
  const credentialsPath = providerEnvValue("AWS_SHARED_CREDENTIALS_FILE", env) ??
    (home ? `${home}/.aws/credentials` : undefined);
  const profiles = new Map<string, Record<string, string>>();
  const ssoSessions = new Map<string, Record<string, string>>();
  for (const [header, values] of readIni(configPath)) {
    const [kind, ...rest] = header.split(/\s+/);
    const name = rest.join(" ");
    if (header === "default") profiles.set("default", { ...profiles.get("default"), ...values });
    else if (kind === "profile" && name) profiles.set(name, { ...profiles.get(name), ...values });
    else if (kind === "sso-session" && name) ssoSessions.set(name, values);
  }
  for (const [name, values] of readIni(credentialsPath)) {
    profiles.set(name, { ...profiles.get(name), ...values });
  }
  return { profiles, ssoSessions, configPath, credentialsPath };
}

/** The settings of `profile` from ~/.aws/config and ~/.aws/credentials (credentials win). */
export function loadAwsProfile(profile: string, env: Env): Record<string, string> | undefined {
  return loadAwsSharedFiles(env).profiles.get(profile);
}

/** True when a profile names any SSO setting (the AWS SDK's test). */
export function isSsoProfile(settings: Record<string, string>): boolean {
  return ["sso_start_url", "sso_account_id", "sso_session", "sso_region", "sso_role_name"].some((k) =>
    settings[k] !== undefined
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
