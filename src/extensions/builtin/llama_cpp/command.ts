/**
 * `/llama`: the llama.cpp router's models and what can be done with them, as pi 1.6.0's built-in
 * extension offers, drawn with `ctx.ui`'s dialogs. The list shows the router's current state
 * (loaded first, then by id, each with its state and context) and "Download model…"; choosing an
 * unloaded model loads it (asking first whether to unload the loaded ones, and loading them back
 * when the new load fails), a loaded or sleeping one is unloaded after a confirmation, and a
 * download searches Hugging Face (or takes `owner/repository[:quant]` as typed) and lets the
 * router fetch the chosen quantization. After each action the provider's models are refreshed so
 * `/model` offers what is loaded. A router that cannot be reached offers Retry and Close. Only the
 * interactive mode has it; elsewhere it says so.
 *
 * A load or download shows its progress (progress.ts); Escape stops it after a question.
 *
 * @module
 */
import type { ModelRegistry } from "../../../config/model_registry.ts";
import type { ExtensionUIContext } from "../../types.ts";
import { LlamaClient, type RouterModel } from "./client.ts";
import { type ProgressUi, runWithProgress } from "./progress.ts";
import { findHuggingFaceToken, HuggingFaceClient } from "./huggingface.ts";
import { refreshLlamaModels, registryLlamaConnection } from "./provider.ts";
import { formatBytes, LLAMA_PROVIDER_ID } from "./server_url.ts";

/** What `/llama` works with. */
export interface LlamaCommandContext {
  /** `tui` in the interactive mode. */
  mode: string;
  ui:
    & Pick<ExtensionUIContext, "select" | "confirm" | "input" | "notify" | "setStatus">
    & Pick<ProgressUi, "custom">;
  modelRegistry: ModelRegistry;
  agentDir: string;
  /** The environment (for the Hugging Face token). */
  env(name: string): string | undefined;
}

const DOWNLOAD = "Download model…";
const EXACT_REPOSITORY = /^[^/\s]+\/[^:\s]+(?::[^\s:]+)?$/u;

function isLoaded(model: RouterModel): boolean {
  return model.status.value === "loaded" || model.status.value === "sleeping";
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Failures 1.6.0 words as "Could not connect to the server." (a timeout, a network error); an
 * unreachable router keeps its own message, which names the server and the cause.
 */
function isConnectionError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const text = `${error.name} ${error.message}`.toLowerCase();
  return text.includes("fetch failed") || text.includes("timeout") || text.includes("network");
}

function compactContext(tokens: number): string {
  return tokens >= 1000 ? `${Math.round(tokens / 1000)}k` : String(tokens);
}

/** "loaded · 33k context", "loading", or "" for an unloaded model. */
export function describeRouterModel(model: RouterModel): string {
  const details: string[] = [];
  const loaded = isLoaded(model);
  if (loaded) details.push("loaded");
  else if (model.status.value !== "unloaded") details.push(model.status.value);
  if (loaded) {
    let context = model.meta?.n_ctx ?? model.meta?.n_ctx_train;
    const args = model.status.args ?? [];
    for (let index = 0; !context && index < args.length - 1; index++) {
      if (args[index] !== "--ctx-size" && args[index] !== "-c" && args[index] !== "-ctx") continue;
      const value = Number(args[index + 1]);
      if (Number.isFinite(value) && value > 0) context = value;
    }
    if (context) details.push(`${compactContext(context)} context`);
  }
  return details.join(" · ");
}

/** The list's rows: loaded models first, then by id; the id column is 36 wide, as 1.6.0's list. */
function modelRows(models: RouterModel[]): { label: string; model?: RouterModel }[] {
  const sorted = [...models].sort((left, right) =>
    Number(right.status.value === "loaded") - Number(left.status.value === "loaded") ||
    left.id.localeCompare(right.id)
  );
  const row = (label: string, description: string) =>
    description ? `${label.padEnd(36)}  ${description}` : label;
  return [
    ...sorted.map((model) => ({ label: row(model.id, describeRouterModel(model)), model })),
    { label: row(DOWNLOAD, "Hugging Face owner/repository[:quant]") },
  ];
}

/** Runs `/llama`. */
export async function runLlamaCommand(ctx: LlamaCommandContext): Promise<void> {
  if (ctx.mode !== "tui") {
    ctx.ui.notify("/llama is available in interactive mode", "warning");
    return;
  }
  const connection = registryLlamaConnection(ctx.modelRegistry);
  if (!connection) {
    ctx.ui.notify(`Configure llama.cpp with /login ${LLAMA_PROVIDER_ID}`, "warning");
    return;
  }
  const client = new LlamaClient(connection.serverUrl, connection.apiKey);
  const sync = async (catalog?: RouterModel[]): Promise<RouterModel[]> => {
    const signal = AbortSignal.timeout(15_000);
    const current = catalog ?? await client.list({ signal });
    await refreshLlamaModels(ctx.modelRegistry, ctx.agentDir, connection, signal, current);
    return current;
  };
  const readCatalog = async (): Promise<RouterModel[] | undefined> => {
    for (;;) {
      try {
        return await sync();
      } catch (error) {
        const message = isConnectionError(error) ? "Could not connect to the server." : messageOf(error);
        const choice = await ctx.ui.select(`llama.cpp unavailable\n${client.serverUrl}\n\n${message}`, [
          "Retry",
          "Close",
        ]);
        if (choice !== "Retry") return undefined;
      }
    }
  };

  const load = async (catalog: RouterModel[], target: RouterModel) => {
    const loaded = catalog.filter((model) => model.id !== target.id && isLoaded(model));
    let replace = false;
    if (loaded.length > 0) {
      const choice = await ctx.ui.select(
        `${loaded.length} model${loaded.length === 1 ? " is" : "s are"} loaded`,
        ["Unload all and load", "Keep loaded and load", "Cancel"],
      );
      if (!choice || choice === "Cancel") return;
      replace = choice === "Unload all and load";
    }
    if (replace) {
      for (const model of loaded) await client.unloadAndWait(model.id);
    }
    const restore = async () => {
      ctx.ui.notify("Restoring previously loaded models");
      for (const model of loaded) await client.loadAndWait(model.id, () => {});
      await sync();
    };
    try {
      const result = await runWithProgress(ctx.ui, {
        title: "Loading model",
        model: target.id,
        cancelTitle: "Stop loading?",
        run: (signal, update) => client.loadAndWait(target.id, update, signal),
        cancel: () => client.unload(target.id),
      });
      if (result.cancelled) {
        if (replace) await restore();
        return;
      }
    } catch (error) {
      if (replace) {
        try {
          await restore();
        } catch {
          // The load's own error is the one to report.
        }
      }
      throw error;
    }
    const refreshed = await sync();
    const now = refreshed.find((model) => model.id === target.id);
    ctx.ui.notify(now?.status.value === "loaded" ? `Loaded ${target.id}` : `Load started for ${target.id}`);
  };

  const unload = async (model: RouterModel) => {
    if (!(await ctx.ui.confirm("Unload model?", model.id))) return;
    await client.unloadAndWait(model.id);
    await sync();
    ctx.ui.notify(`Unloaded ${model.id}`);
  };

  const download = async () => {
    const query = (await ctx.ui.input("Download model\nModel name or owner/repository[:quant]"))?.trim();
    if (!query) return;
    // HF_ENDPOINT (Hugging Face's own variable for a mirror) is not read by 1.6.0; the tests use it.
    const huggingFace = new HuggingFaceClient(
      await findHuggingFaceToken(ctx.env),
      ctx.env("HF_ENDPOINT") || undefined,
    );
    let selected = query;
    if (!EXACT_REPOSITORY.test(query)) {
      const results = await huggingFace.search(query);
      if (results.length === 0) {
        ctx.ui.notify("No GGUF models found", "warning");
        return;
      }
      const labels = results.map((result) => `${result.id}  ${result.downloads} downloads`);
      const choice = await ctx.ui.select("Download model", labels);
      if (!choice) return;
      selected = results[labels.indexOf(choice)].id;
    }
    const colon = selected.indexOf(":", selected.indexOf("/") + 1);
    const repository = colon < 0 ? selected : selected.slice(0, colon);
    let quantization = colon < 0 ? undefined : selected.slice(colon + 1);
    const details = await huggingFace.details(repository);
    if (details.gated) {
      const approval = details.gated === "manual" ? "Manual approval is required" : "Accept the access terms";
      const choice = await ctx.ui.select(
        `Hugging Face access required\n${details.id}\n\n${approval} at:\nhttps://huggingface.co/${details.id}\n\nThe llama.cpp server needs HF_TOKEN with access.`,
        ["Continue", "Back"],
      );
      if (choice !== "Continue") return;
    }
    if (!quantization && details.quantizations.length > 0) {
      const options = details.quantizations.map((entry) => {
        const detail = [
          entry.size === undefined ? undefined : formatBytes(entry.size),
          entry.name === "Q4_K_M" ? "recommended" : undefined,
        ].filter(Boolean).join(" · ");
        return detail ? `${entry.name} · ${detail}` : entry.name;
      });
      const choice = await ctx.ui.select(`Select quantization\n${details.id}`, options);
      if (!choice) return;
      quantization = details.quantizations[options.indexOf(choice)]?.name;
      if (!quantization) return;
    }
    const model = quantization ? `${details.id}:${quantization}` : details.id;
    const result = await runWithProgress(ctx.ui, {
      title: "Downloading model",
      model,
      cancelTitle: "Stop download?",
      run: (signal, update) => client.downloadAndWait(model, update, signal),
      cancel: () => client.unload(model),
    });
    if (result.cancelled) return;
    await sync(result.value);
    ctx.ui.notify(`Downloaded ${model}`);
  };

  let catalog = await readCatalog();
  while (catalog) {
    const rows = modelRows(catalog);
    const choice = await ctx.ui.select(
      `llama.cpp models\n${client.serverUrl}`,
      rows.map((row) => row.label),
    );
    if (choice === undefined) return;
    const picked = rows.find((row) => row.label === choice);
    let failure: unknown;
    try {
      if (!picked?.model) await download();
      else if (isLoaded(picked.model)) await unload(picked.model);
      else if (picked.model.status.value === "unloaded") await load(catalog, picked.model);
      else ctx.ui.notify(`${picked.model.id} is ${picked.model.status.value}`, "warning");
    } catch (error) {
      failure = error;
    }
    catalog = await readCatalog();
    // A lost connection shows as the Retry dialog already.
    if (catalog && failure !== undefined && !isConnectionError(failure)) {
      ctx.ui.notify(messageOf(failure), "error");
    }
  }
}
