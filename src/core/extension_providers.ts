/**
 * Where extensions' `pi.registerProvider()` calls land (pi 1.6.0): the queue of the loading phase goes to the
 * run's model registry as soon as the CLI has it (before `--model`, `--models` and `--list-models` are
 * resolved), and once a session is bound each later call changes the registry at once and refreshes the
 * session's current model, so a redirected `baseUrl` applies to its next request.
 *
 * @module
 */
import type { ModelRegistry } from "../config/model_registry.ts";
import type { ExtensionRuntime } from "../extensions/api.ts";
import type { ExtensionError } from "../extensions/types.ts";
import type { AgentSession } from "./agent_session.ts";

/**
 * Applies the registrations queued while extensions loaded to `registry` and sends later ones there. Returns
 * the refused ones as 1.6.0 words them at start-up: `Extension "<path>" error: <message>`.
 */
export function applyExtensionProviders(runtime: ExtensionRuntime, registry: ModelRegistry): string[] {
  const errors = runtime.providers?.bind(registry) ?? [];
  return errors.map((error: ExtensionError) => `Extension "${error.extensionPath}" error: ${error.error}`);
}

/**
 * Sends the extensions' later registrations to `session`'s registry, each followed by a refresh of the
 * session's model from it (1.6.0's `_refreshCurrentModelFromRegistry`). Registrations still queued (a host
 * built without {@link applyExtensionProviders}) are applied first; their errors are reported.
 */
export function bindExtensionProviders(
  runtime: ExtensionRuntime,
  session: AgentSession,
  report: (error: ExtensionError) => void,
): void {
  const registry = session.modelRegistry;
  const refreshModel = () => {
    const current = session.model;
    if (!current) return;
    const fresh = registry.find(current.provider, current.id);
    if (fresh && fresh !== current) session.agent.state.model = fresh;
  };
  const errors = runtime.providers?.bind({
    registerProvider: (name, config) => {
      registry.registerProvider(name, config);
      refreshModel();
    },
    unregisterProvider: (name) => {
      registry.unregisterProvider(name);
      refreshModel();
    },
  }) ?? [];
  for (const error of errors) report(error);
}
