/**
 * Test hook shared by the login flows: a per-provider environment variable that sends every request of
 * that flow to another origin (a fake OAuth server), keeping each URL's path and query. Unset in normal
 * use; the variables are named in docs/providers.md (`PI_<PROVIDER>_OAUTH_URL`).
 *
 * @module
 */

import { readEnv } from "../../util/env.ts";

/**
 * `url` with its origin replaced by `origin` when given, else by the value of environment variable
 * `envName` (e.g. `http://127.0.0.1:8080`, trailing slashes ignored) when that is set; `url` itself
 * otherwise. The variable is read on every call, so a long-running process follows it. In-process
 * tests pass `origin` (through the flows' factories) instead of changing the environment.
 */
export function oauthEndpoint(url: string, envName: string, origin?: string): string {
  origin = origin?.trim() || readEnv(envName)?.trim();
  if (!origin) return url;
  const parsed = new URL(url);
  return `${origin.replace(/\/+$/, "")}${parsed.pathname}${parsed.search}`;
}
