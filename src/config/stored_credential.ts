/**
 * `readStoredCredential`: pi 1.6.0's one-off read of an auth.json entry, for SDK code that only
 * wants to know what is stored (the SDK no longer exports the credential store itself).
 *
 * @module
 */
import { join } from "../util/path.ts";
import type { AuthCredential } from "./auth_storage.ts";
import { getAgentDir } from "./paths.ts";

/**
 * The credential auth.json stores for `providerId`, as written: `$VAR` and `!command` key values
 * are not resolved, expired OAuth tokens are not refreshed, no lock is taken. A missing or
 * unreadable file, or one that is not JSON, reads as "nothing stored" (undefined), as in 1.6.0.
 *
 * @param providerId Provider id, e.g. `"anthropic"`.
 * @param authPath auth.json to read (default: `<agentDir>/auth.json`).
 *
 * @example
 * ```ts
 * import { readStoredCredential } from "@pi-deno/coding-agent";
 *
 * const stored = readStoredCredential("anthropic");
 * console.log(stored ? `stored: ${stored.type}` : "nothing stored for anthropic");
 * ```
 */
export function readStoredCredential(
  providerId: string,
  authPath: string = join(getAgentDir(), "auth.json"),
): AuthCredential | undefined {
  try {
    const text = Deno.readTextFileSync(authPath).replace(/^\uFEFF/, "");
    const data: unknown = JSON.parse(text);
    if (typeof data !== "object" || data === null || Array.isArray(data)) return undefined;
    // Own keys only: a provider named like an Object.prototype member is not "stored".
    return Object.hasOwn(data, providerId)
      ? (data as Record<string, AuthCredential>)[providerId] ?? undefined
      : undefined;
  } catch {
    return undefined;
  }
}
