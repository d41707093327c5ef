/**
 * The hook through which extensions' `before_provider_headers` handlers see and edit a request's
 * headers (pi 1.6.0 runs it in its model runtime, after the credential's headers are merged in).
 * Kept out of src/ai and src/agent: the session's stream function asks this registry per
 * request, and the extension host installs the hook.
 *
 * @module
 */
import type { Agent } from "../agent/agent.ts";

/** Edits the merged request headers; a `null` value removes that header. */
export type ProviderHeadersHook = (
  headers: Record<string, string | null>,
) => Promise<Record<string, string | null>>;

const hooks = new WeakMap<Agent, ProviderHeadersHook>();

/** Installs (or, with undefined, removes) `agent`'s header hook. */
export function setProviderHeadersHook(agent: Agent, hook: ProviderHeadersHook | undefined): void {
  if (hook) hooks.set(agent, hook);
  else hooks.delete(agent);
}

/** Applies `agent`'s header hook, if any, to a copy of `headers`. */
export async function transformProviderHeaders(
  agent: Agent,
  headers: Record<string, string | null> | undefined,
): Promise<Record<string, string | null> | undefined> {
  const hook = hooks.get(agent);
  if (!hook) return headers;
  // Null values go on to the provider, whose header merge drops them (1.6.0's contract).
  return await hook({ ...headers });
}
