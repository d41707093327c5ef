/**
 * `pi update --models` (pi 1.6.0 docs/cli.md): refreshes the cached catalogs of the built-in
 * providers that have credentials (auth.json, an environment key, or a models.json key) and prints
 * 1.6.0's texts: "Model catalogs refreshed" in green, or
 * "Error: Could not refresh model catalogs: <provider>: <message>; …" in red with exit code 1.
 * A failed provider keeps its cached models.
 *
 * @module
 */
import { builtinProviders, loadBuiltinModels } from "../ai/model_catalog.ts";
import { AuthStorage } from "../config/auth_storage.ts";
import { refreshModelCatalogs } from "../config/model_catalog_refresh.ts";
import { ensureModelsStore, ModelRegistry } from "../config/model_registry.ts";
import { readEnv } from "../util/env.ts";
import { join } from "../util/path.ts";
import { green, red } from "../util/style.ts";
import type { SubcommandContext } from "./subcommand_context.ts";

/** The built-in providers 1.6.0 asks the catalog server about: those with credentials ("radius" never). */
async function providersWithCredentials(agentDir: string): Promise<string[]> {
  await loadBuiltinModels();
  const registry = ModelRegistry.create(
    AuthStorage.create(join(agentDir, "auth.json")),
    join(agentDir, "models.json"),
  );
  const all = registry.getAll();
  return builtinProviders().filter((provider) => {
    if (provider === "radius") return false;
    const model = all.find((m) => m.provider === provider);
    return model !== undefined && registry.hasConfiguredAuth(model);
  });
}

/** Runs `pi update --models` and resolves with the exit code. */
export async function runUpdateModels(ctx: SubcommandContext): Promise<number> {
  const { io } = ctx;
  // 1.6.0 opens (and so creates) the store before it asks anything.
  ensureModelsStore(ctx.agentDir);
  try {
    const result = await refreshModelCatalogs({
      agentDir: ctx.agentDir,
      providers: await providersWithCredentials(ctx.agentDir),
      baseUrl: readEnv("PI_MODEL_CATALOG_URL") || undefined,
    });
    if (result.timedOut) throw new Error("Model catalog refresh timed out.");
    if (result.failures.length > 0) {
      const list = result.failures.map(({ provider, message }) => `${provider}: ${message}`).join("; ");
      throw new Error(`Could not refresh model catalogs: ${list}`);
    }
  } catch (error) {
    const message = error instanceof Error ? error.message : "Unknown model catalog refresh error";
    io.stderr(`${red(`Error: ${message}`)}\n`);
    return 1;
  }
  io.stdout(`${green("Model catalogs refreshed")}\n`);
  return 0;
}
