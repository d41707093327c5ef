/**
 * What the AWS credential sources share: temporary credentials with their expiry, a per-process
 * cache that keeps them until five minutes before they expire (the AWS SDK's refresh window), the
 * endpoint of an AWS service honouring AWS_ENDPOINT_URL_<SERVICE> and AWS_ENDPOINT_URL, and a
 * fetch whose failures name the endpoint but never a secret.
 *
 * @module
 */
import { type ProviderEnv, providerEnvValue } from "../env_api_keys.ts";
import { redactSecrets } from "../provider_utils.ts";
import type { AwsCredentials } from "./bedrock_sigv4.ts";
import { BedrockCredentialsError } from "./bedrock_credentials_files.ts";

/** Credentials and, for temporary ones, when they expire (epoch ms). */
export interface TimedCredentials {
  credentials: AwsCredentials;
  expiresAt?: number;
}

/** The AWS SDK treats credentials as expired this long before their expiry. */
export const REFRESH_WINDOW_MS = 5 * 60_000;

const cache = new Map<string, TimedCredentials>();

/**
 * `load()` once per `key` until the credentials are within {@link REFRESH_WINDOW_MS} of expiring;
 * credentials without an expiry are not kept (they are fetched afresh, as 1.6.0 does), nor is
 * "nothing found".
 */
export async function cachedOptional(
  key: string,
  load: () => Promise<TimedCredentials | undefined>,
): Promise<TimedCredentials | undefined> {
  const hit = cache.get(key);
  if (hit?.expiresAt !== undefined && hit.expiresAt - REFRESH_WINDOW_MS > Date.now()) return hit;
  cache.delete(key);
  const fresh = await load();
  if (fresh?.expiresAt !== undefined) cache.set(key, fresh);
  return fresh;
}

/** {@link cachedOptional} for a loader that always finds credentials (or throws). */
export async function cachedCredentials(
  key: string,
  load: () => Promise<TimedCredentials>,
): Promise<TimedCredentials> {
  return (await cachedOptional(key, load))!;
}

/** Forgets every cached credential (tests). */
export function clearCredentialCache(): void {
  cache.clear();
}

/**
 * The endpoint of AWS `service` (`STS`, `SSO`, `SSO_OIDC`): AWS_ENDPOINT_URL_<SERVICE>, then
 * AWS_ENDPOINT_URL, then the regional default.
 */
export function awsServiceEndpoint(service: string, fallback: string, env: ProviderEnv | undefined): string {
  const url = providerEnvValue(`AWS_ENDPOINT_URL_${service}`, env) ??
    providerEnvValue("AWS_ENDPOINT_URL", env) ??
    fallback;
  return url.replace(/\/+$/, "");
}

/** The `amazonaws.com` domain of a region (China regions end in `.com.cn`). */
export function awsDomain(region: string): string {
  return region.startsWith("cn-") ? "amazonaws.com.cn" : "amazonaws.com";
}

/** A response's status and text; network failures become a message naming `what` and the URL. */
export async function awsFetch(
  what: string,
  url: string,
  init: RequestInit,
  timeoutMs: number,
  secrets: (string | undefined)[],
): Promise<{ status: number; text: string }> {
  let response: Response;
  try {
    response = await fetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
  } catch (error) {
    const reason = error instanceof DOMException && error.name === "TimeoutError"
      ? `no answer within ${timeoutMs} ms`
      : (error as Error).message;
    throw new BedrockCredentialsError(redactSecrets(`${what}: could not reach ${url}: ${reason}`, secrets));
  }
  return { status: response.status, text: await response.text() };
}

/** The UTC time of an ISO 8601 / RFC 3339 timestamp or epoch milliseconds, if valid. */
export function parseExpiry(value: unknown): number | undefined {
  if (typeof value === "number" && Number.isFinite(value)) return value;
  if (typeof value !== "string" || !value) return undefined;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? undefined : ms;
}
