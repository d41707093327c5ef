/**
 * Which built-in providers' model data a CLI run loads (see src/ai/model_catalog.ts). A `-p`,
 * `--mode json` or `--mode rpc` run that names its model as `provider/id` or with `--provider` loads
 * only the providers that could match; everything else — no `--model`, a bare id, `--models`,
 * `--list-models`, a resumed or forked session, the interactive mode — loads the whole catalog. RPC
 * loads the rest before the first command that lists, searches or switches models or sessions
 * (src/modes/rpc/rpc_mode.ts), and at once when extensions are loaded.
 *
 * A resumed or forked session does not widen the scope (whatever the list above says): `--model` wins over the session's model, and a `-p` or
 * `--mode json` resume without `--model` loads only the provider of the model it restores (checked
 * by {@link scopeResolvesModel}; anything else loads the whole catalog).
 *
 * @module
 */
import { builtinProviders, providersWithSlashId } from "../ai/model_catalog.ts";
import { findExactModelReferenceMatch } from "../config/model_resolver.ts";
import type { ModelRegistry } from "../config/model_registry.ts";
import { isVirtualModel } from "../config/virtual_models.ts";
import type { CliArgs } from "./args.ts";

/** The model a resumed session restores (its context's model), when the session has messages. */
export interface SessionModelRef {
  provider: string;
  modelId: string;
}

/**
 * The built-in providers to load first, or undefined for all of them. `sessionModel`: the model of
 * the resumed session, when it has messages.
 */
export function catalogScope(args: CliArgs, sessionModel?: SessionModelRef | null): string[] | undefined {
  const scoped = args.print === true || args.mode === "json" || args.mode === "rpc";
  if (!scoped || args.listModels !== undefined || args.models) return undefined;
  if (!args.model) {
    // Without --model a resumed one-shot run restores the session's model (sdk.ts): its provider.
    if (!sessionModel || args.provider || args.mode === "rpc") return undefined;
    return builtinProviders().includes(sessionModel.provider) ? [sessionModel.provider] : [];
  }
  const builtIns = new Set(builtinProviders());
  if (args.provider) {
    const named = args.provider.toLowerCase();
    return [...builtIns].filter((p) => p === named);
  }
  const text = args.model.trim().toLowerCase();
  const slash = text.indexOf("/");
  if (slash === -1) return undefined; // A bare id can name a model of any provider.
  const prefix = text.substring(0, slash).trim();
  // Built-in provider names have no "/": only the text before the first one can name one. The full
  // text can also be another provider's id (openrouter's "anthropic/claude-…").
  const scope = new Set(providersWithSlashId(args.model.trim()));
  if (builtIns.has(prefix)) scope.add(prefix);
  return [...scope];
}

/**
 * Whether the providers loaded for {@link catalogScope} resolve `--model` exactly as the whole catalog
 * would: `--provider` names a provider that has models, or the text is an exact `provider/id` or id
 * whose every candidate is loaded. Otherwise (fuzzy matches, a `:level` suffix, not found) the caller
 * loads everything and resolves again. Without `--model`: whether `sessionModel` restores.
 */
export function scopeResolvesModel(
  args: CliArgs,
  registry: ModelRegistry,
  sessionModel?: SessionModelRef | null,
): boolean {
  if (!args.model) {
    // The session's model restores as sdk.ts does it: known and with credentials, and no virtual
    // model whose routing may pick another one (otherwise sdk.ts falls back to any model).
    if (!sessionModel || args.provider || registry.getAll().some(isVirtualModel)) return false;
    const restored = registry.find(sessionModel.provider, sessionModel.modelId);
    return restored !== undefined && registry.hasConfiguredAuth(restored);
  }
  const models = registry.getAll();
  if (args.provider) {
    const named = args.provider.toLowerCase();
    return models.some((m) => m.provider.toLowerCase() === named);
  }
  return findExactModelReferenceMatch(args.model, models) !== undefined;
}
