/**
 * The `httpProxy` setting. Deno's fetch already routes through `HTTP_PROXY` / `HTTPS_PROXY` (and
 * honours `NO_PROXY`), reading them when its HTTP client is first used, so the setting becomes
 * those variables before the first request — as pi 1.6.0 does, and with the same precedence: a
 * variable already set in the environment wins. Commands the bash tool runs inherit them too.
 *
 * @module
 */
import { readEnv } from "../util/env.ts";

/**
 * Sets `HTTP_PROXY` and `HTTPS_PROXY` to `proxy` where the environment sets neither that name nor its
 * lower-case spelling.
 */
export function applyHttpProxySetting(proxy: string | undefined): void {
  const value = proxy?.trim();
  if (!value) return;
  for (const name of ["HTTP_PROXY", "HTTPS_PROXY"]) {
    if (readEnv(name) === undefined && readEnv(name.toLowerCase()) === undefined) Deno.env.set(name, value);
  }
}
