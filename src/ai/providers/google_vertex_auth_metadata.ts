/**
 * The Compute Engine metadata server as google-auth-library uses it when no credentials file
 * exists (GCE, GKE, Cloud Run, Cloud Functions): METADATA_SERVER_DETECTION (`assume-present`,
 * `none`, `bios-only`, `ping-only`) or, unset, the BIOS vendor / serverless variables or a ping of
 * the server (3 s; the IP and metadata.google.internal raced unless GCE_METADATA_HOST or
 * GCE_METADATA_IP names the server); then the default service account's token with the
 * cloud-platform scope. Every answer must carry `Metadata-Flavor: Google`.
 *
 * @module
 */
import { type ProviderEnv, providerEnvValue } from "../env_api_keys.ts";
import { CLOUD_PLATFORM_SCOPE, describe, type GoogleToken } from "./google_vertex_auth_common.ts";

const DETECTION = ["assume-present", "none", "bios-only", "ping-only"];
const PING_TIMEOUT_MS = 3000;

/** The metadata server's `computeMetadata/v1` base URL. */
export function metadataBase(env?: ProviderEnv, host?: string): string {
  let base = host ?? providerEnvValue("GCE_METADATA_IP", env) ?? providerEnvValue("GCE_METADATA_HOST", env) ??
    "169.254.169.254";
  if (!/^https?:\/\//.test(base)) base = `http://${base}`;
  return new URL("/computeMetadata/v1", base).href;
}

function onGoogleCloud(env?: ProviderEnv): boolean {
  if (
    providerEnvValue("CLOUD_RUN_JOB", env) || providerEnvValue("FUNCTION_NAME", env) ||
    providerEnvValue("K_SERVICE", env)
  ) {
    return true;
  }
  if (Deno.build.os !== "linux") return false;
  try {
    return /Google/.test(Deno.readTextFileSync("/sys/class/dmi/id/bios_vendor"));
  } catch {
    return false;
  }
}

async function ping(base: string): Promise<void> {
  const response = await fetch(`${base}/instance`, {
    headers: { "metadata-flavor": "Google" },
    signal: AbortSignal.timeout(PING_TIMEOUT_MS),
  });
  await response.body?.cancel();
  if (!response.ok || response.headers.get("metadata-flavor") !== "Google") {
    throw new Error("not a metadata server");
  }
}

let detected: Promise<boolean> | undefined;
let detectedFor: string | undefined;

/** Whether a metadata server is there, as google-auth-library decides (remembered per server). */
export async function metadataServerAvailable(env?: ProviderEnv): Promise<boolean> {
  const setting = providerEnvValue("METADATA_SERVER_DETECTION", env)?.trim().toLowerCase();
  if (setting !== undefined && !DETECTION.includes(setting)) {
    throw new Error(
      `Unknown \`METADATA_SERVER_DETECTION\` env variable. Got \`${setting}\`, but it should be \`${
        DETECTION.join("`, `")
      }\`, or unset`,
    );
  }
  if (setting === "assume-present") return true;
  if (setting === "none") return false;
  if (setting === "bios-only") return onGoogleCloud(env);
  if (setting === undefined && onGoogleCloud(env)) return true;
  const base = metadataBase(env);
  const overridden = providerEnvValue("GCE_METADATA_IP", env) ?? providerEnvValue("GCE_METADATA_HOST", env);
  if (detected === undefined || detectedFor !== base) {
    detectedFor = base;
    const pings = [ping(base)];
    // As gcp-metadata: the IP is tarpitted on most laptops, the name slow on some GCP hosts; race both.
    if (!overridden) pings.push(ping(metadataBase(env, "metadata.google.internal.")));
    detected = Promise.any(pings).then(() => true, () => false);
  }
  return await detected;
}

/** The default service account's access token from the metadata server. */
export async function metadataServerToken(env?: ProviderEnv, signal?: AbortSignal): Promise<GoogleToken> {
  const url = `${metadataBase(env)}/instance/service-accounts/default/token?${new URLSearchParams({
    scopes: CLOUD_PLATFORM_SCOPE,
  })}`;
  let response: Response;
  try {
    response = await fetch(url, { headers: { "metadata-flavor": "Google" }, signal });
  } catch (error) {
    if (signal?.aborted) throw error;
    throw new Error(`Could not reach the metadata server ${metadataBase(env)}: ${describe(error)}`);
  }
  const text = await response.text();
  if (!response.ok) {
    throw new Error(`The metadata server answered HTTP ${response.status} for the access token`);
  }
  if (response.headers.get("metadata-flavor") !== "Google") {
    throw new Error("Invalid response from metadata service: incorrect Metadata-Flavor header.");
  }
  let data: { access_token?: unknown; expires_in?: unknown } = {};
  try {
    data = JSON.parse(text);
  } catch { /* described below */ }
  if (typeof data.access_token !== "string" || !data.access_token) {
    throw new Error("The metadata server answered without an access_token");
  }
  return {
    token: data.access_token,
    expiresInS: typeof data.expires_in === "number" ? data.expires_in : 3600,
  };
}
