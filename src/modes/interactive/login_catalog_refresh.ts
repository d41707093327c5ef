/**
 * After a `/login`, the provider's model catalog is asked for anew (pi 1.6.0's
 * completeProviderAuthentication): the catalog server's newest models for that provider land in
 * models-store.json and in the model list, so `/model` offers them straight away. Runs in the
 * background with 1.6.0's 15 s limit; a timeout or failure keeps the cached models and says so in
 * 1.6.0's words. Nothing is asked while `PI_OFFLINE` is set (1.6.0 then has no model network).
 *
 * @module
 */
import { builtinProviders } from "../../ai/model_catalog.ts";
import { refreshModelCatalogs } from "../../config/model_catalog_refresh.ts";
import { ensureModelsStore } from "../../config/model_registry.ts";
import { getAgentDir } from "../../config/paths.ts";
import { readEnv } from "../../util/env.ts";
import type { CommandHost } from "./command_host.ts";

/**
 * Refreshes `providerId`'s catalog and then the session's model list; `action` starts the warning
 * lines (`Logged in to X` / `Saved API key for X`). Resolves when done (never rejects).
 */
export async function refreshCatalogAfterLogin(
  app: CommandHost,
  providerId: string,
  action: string,
): Promise<void> {
  if (readEnv("PI_OFFLINE") !== undefined) return;
  // Only built-in providers have a catalog on the server; "radius" lists its models itself.
  const known = providerId !== "radius" && builtinProviders().includes(providerId);
  try {
    if (known) {
      ensureModelsStore(getAgentDir());
      const result = await refreshModelCatalogs({
        agentDir: getAgentDir(),
        providers: [providerId],
        baseUrl: readEnv("PI_MODEL_CATALOG_URL") || undefined,
      });
      if (result.timedOut) {
        app.chat.addNotice(
          "warning",
          `${action}, but its model catalog refresh timed out; using cached models.`,
        );
      } else if (result.failures.length > 0) {
        app.chat.addNotice(
          "warning",
          `${action}, but its model catalog could not be refreshed; using cached models.`,
        );
      }
    }
    await app.session.modelRuntime.refresh();
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    app.chat.addNotice("warning", `${action}, but its model catalog could not be refreshed: ${message}`);
  }
  app.requestRender();
}
