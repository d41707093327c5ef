/**
 * Workload and workforce identity federation for Vertex, as google-auth-library handles an
 * `external_account` file: a subject token read from a file or fetched from a URL (text, or a
 * JSON field), or printed by an executable (only with GOOGLE_EXTERNAL_ACCOUNT_ALLOW_EXECUTABLES=1),
 * traded at the file's `token_url` (RFC 8693 token exchange at sts.googleapis.com), then, with
 * `service_account_impersonation_url`, for a service account's token. An
 * `external_account_authorized_user` file (gcloud's workforce login) trades its refresh token
 * with HTTP Basic client authentication. AWS-sourced subject tokens are built in
 * google_vertex_auth_aws.ts; certificate-sourced (mTLS) files are refused as not available yet.
 *
 * @module
 */
import type { ProviderEnv } from "../env_api_keys.ts";
import { providerEnvValue } from "../env_api_keys.ts";
import {
  CLOUD_PLATFORM_SCOPE,
  describe,
  field,
  generateAccessToken,
  type GoogleToken,
  optionalField,
  postTokenForm,
} from "./google_vertex_auth_common.ts";

const TOKEN_EXCHANGE = "urn:ietf:params:oauth:grant-type:token-exchange";
const ACCESS_TOKEN_TYPE = "urn:ietf:params:oauth:token-type:access_token";
const EXECUTABLE_TIMEOUT_MS = 30_000;

type Json = Record<string, unknown>;

function asObject(value: unknown): Json | undefined {
  return value && typeof value === "object" && !Array.isArray(value) ? value as Json : undefined;
}

function pickSubjectToken(text: string, format: Json | undefined, where: string, path: string): string {
  if (format?.type !== "json") return text;
  const name = typeof format.subject_token_field_name === "string" ? format.subject_token_field_name : "";
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new Error(`The subject token from ${where} (credential_source of ${path}) is not valid JSON`);
  }
  const token = asObject(parsed)?.[name];
  if (typeof token !== "string" || !token) {
    throw new Error(`The subject token from ${where} (credential_source of ${path}) has no "${name}" field`);
  }
  return token;
}

async function executableToken(source: Json, path: string, json: Json, env?: ProviderEnv): Promise<string> {
  const executable = asObject(source.executable)!;
  if (providerEnvValue("GOOGLE_EXTERNAL_ACCOUNT_ALLOW_EXECUTABLES", env) !== "1") {
    throw new Error(
      `The credential_source of ${path} runs an executable; set GOOGLE_EXTERNAL_ACCOUNT_ALLOW_EXECUTABLES=1 to allow it`,
    );
  }
  const command = typeof executable.command === "string" ? executable.command : "";
  if (!command) throw new Error(`The executable credential_source of ${path} has no command`);
  const timeout = typeof executable.timeout_millis === "number"
    ? executable.timeout_millis
    : EXECUTABLE_TIMEOUT_MS;
  const outputFile = typeof executable.output_file === "string" ? executable.output_file : undefined;
  const readResponse = (text: string, from: string): string | undefined => {
    let data: Json | undefined;
    try {
      data = asObject(JSON.parse(text));
    } catch { /* described below */ }
    if (!data) throw new Error(`The executable of ${path} gave no JSON response (${from})`);
    if (data.success === false) {
      throw new Error(`The executable of ${path} failed: ${data.code ?? ""} ${data.message ?? ""}`.trim());
    }
    const expires = typeof data.expiration_time === "number" ? data.expiration_time * 1000 : undefined;
    if (expires !== undefined && expires <= Date.now()) return undefined;
    const token = data.token_type === "urn:ietf:params:oauth:token-type:saml2"
      ? data.saml_response
      : data.id_token;
    if (typeof token !== "string" || !token) {
      throw new Error(`The executable of ${path} gave no token (${from})`);
    }
    return token;
  };
  if (outputFile) {
    const cached = await Deno.readTextFile(outputFile).catch(() => undefined);
    const token = cached ? readResponse(cached, `output_file ${outputFile}`) : undefined;
    if (token) return token;
  }
  const childEnv: Record<string, string> = {
    GOOGLE_EXTERNAL_ACCOUNT_AUDIENCE: String(json.audience ?? ""),
    GOOGLE_EXTERNAL_ACCOUNT_TOKEN_TYPE: String(json.subject_token_type ?? ""),
    GOOGLE_EXTERNAL_ACCOUNT_INTERACTIVE: "0",
    ...(outputFile ? { GOOGLE_EXTERNAL_ACCOUNT_OUTPUT_FILE: outputFile } : {}),
    ...(typeof json.service_account_impersonation_url === "string"
      ? {
        GOOGLE_EXTERNAL_ACCOUNT_IMPERSONATED_EMAIL:
          /([^/]+):generateAccessToken$/.exec(json.service_account_impersonation_url)?.[1] ?? "",
      }
      : {}),
  };
  const child = new Deno.Command("sh", {
    args: ["-c", command],
    env: childEnv,
    stdout: "piped",
    stderr: "null",
    signal: AbortSignal.timeout(timeout),
  });
  let output: Deno.CommandOutput;
  try {
    output = await child.output();
  } catch (error) {
    throw new Error(`The executable of ${path} could not run: ${describe(error)}`);
  }
  if (output.code !== 0) throw new Error(`The executable of ${path} exited with code ${output.code}`);
  const token = readResponse(new TextDecoder().decode(output.stdout), "its output");
  if (!token) throw new Error(`The executable of ${path} returned an expired token`);
  return token;
}

async function subjectToken(
  json: Json,
  path: string,
  env?: ProviderEnv,
  signal?: AbortSignal,
): Promise<string> {
  const source = asObject(json.credential_source);
  if (!source) {
    throw new Error(`The incoming JSON object does not contain a credential_source field (${path})`);
  }
  const format = asObject(source.format);
  if (typeof source.environment_id === "string" && source.environment_id.startsWith("aws")) {
    const { awsSourcedSubjectToken } = await import("./google_vertex_auth_aws.ts");
    return await awsSourcedSubjectToken(source, String(json.audience ?? ""), path, env);
  }
  if (typeof source.file === "string") {
    let text: string;
    try {
      text = await Deno.readTextFile(source.file);
    } catch (error) {
      const why = error instanceof Deno.errors.NotFound
        ? "does not exist"
        : `cannot be read (${describe(error)})`;
      throw new Error(`The subject token file ${source.file} (credential_source of ${path}) ${why}`);
    }
    const token = pickSubjectToken(text, format, `file ${source.file}`, path);
    if (!token.trim()) {
      throw new Error(`The subject token file ${source.file} (credential_source of ${path}) is empty`);
    }
    return token;
  }
  if (typeof source.url === "string") {
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(asObject(source.headers) ?? {})) headers[name] = String(value);
    if (format?.type === "json") headers.accept = "application/json";
    let response: Response;
    try {
      response = await fetch(source.url, { headers, signal });
    } catch (error) {
      if (signal?.aborted) throw error;
      throw new Error(
        `Could not reach the subject token URL ${source.url} (credential_source of ${path}): ${
          describe(error)
        }`,
      );
    }
    const text = await response.text();
    if (!response.ok) {
      throw new Error(
        `The subject token URL ${source.url} (credential_source of ${path}) answered HTTP ${response.status}`,
      );
    }
    return pickSubjectToken(text, format, `URL ${source.url}`, path);
  }
  if (asObject(source.executable)) return await executableToken(source, path, json, env);
  if (asObject(source.certificate)) {
    throw new Error(
      `Google credentials of ${path} use an X.509 certificate credential_source, which is not available in this build yet`,
    );
  }
  throw new Error(`The credential_source of ${path} names no file, url, executable or AWS environment`);
}

/** An access token from an `external_account` file. */
export async function externalAccountToken(
  json: Json,
  path: string,
  env?: ProviderEnv,
  signal?: AbortSignal,
): Promise<GoogleToken> {
  const audience = field(json, "audience", path);
  const subjectTokenType = field(json, "subject_token_type", path);
  const universe = optionalField(json, "universe_domain") ?? "googleapis.com";
  const tokenUrl = optionalField(json, "token_url") ?? `https://sts.${universe}/v1/token`;
  const impersonationUrl = optionalField(json, "service_account_impersonation_url");
  const userProject = optionalField(json, "workforce_pool_user_project");
  const subject = await subjectToken(json, path, env, signal);
  const clientId = optionalField(json, "client_id");
  const clientSecret = optionalField(json, "client_secret");
  const form: [string, string][] = [
    ["grant_type", TOKEN_EXCHANGE],
    ["audience", audience],
    ["scope", CLOUD_PLATFORM_SCOPE],
    ["requested_token_type", ACCESS_TOKEN_TYPE],
    ["subject_token", subject],
    ["subject_token_type", subjectTokenType],
  ];
  // The workforce pool's user project rides along only when no service account is impersonated.
  if (userProject && !impersonationUrl) form.push(["options", JSON.stringify({ userProject })]);
  const sts = await postTokenForm(
    "Google STS token exchange",
    tokenUrl,
    form,
    [subject, clientSecret],
    signal,
    clientId ? { authorization: `Basic ${btoa(`${clientId}:${clientSecret ?? ""}`)}` } : {},
  );
  if (!impersonationUrl) return sts;
  const lifetime = asObject(json.service_account_impersonation)?.token_lifetime_seconds;
  return await generateAccessToken(impersonationUrl, sts.token, {
    scope: [CLOUD_PLATFORM_SCOPE],
    lifetime: `${typeof lifetime === "number" ? lifetime : 3600}s`,
  }, signal);
}

/** An access token from an `external_account_authorized_user` file. */
export async function externalAuthorizedUserToken(
  json: Json,
  path: string,
  signal?: AbortSignal,
): Promise<GoogleToken> {
  const refreshToken = field(json, "refresh_token", path);
  const clientId = field(json, "client_id", path);
  const clientSecret = field(json, "client_secret", path);
  const universe = optionalField(json, "universe_domain") ?? "googleapis.com";
  const tokenUrl = optionalField(json, "token_url") ?? `https://sts.${universe}/v1/oauthtoken`;
  return await postTokenForm(
    "Google token endpoint",
    tokenUrl,
    [["grant_type", "refresh_token"], ["refresh_token", refreshToken]],
    [refreshToken, clientSecret],
    signal,
    { authorization: `Basic ${btoa(`${clientId}:${clientSecret}`)}` },
  );
}
