/**
 * Turns the model, thinking and tool flags into `createAgentSession` options (CLI-14…16):
 * `--model` (with `--provider` and `:thinking`), the `--models` scope and its saved default,
 * `--thinking` (which wins over both), and the tool flags ({@link selectTools}).
 *
 * @module
 */
import { modelsAreEqual } from "../ai/model_equality.ts";
import type { Model, ModelThinkingLevel } from "../ai/types.ts";
import type { ModelRegistry } from "../config/model_registry.ts";
import { resolveCliModel, type ScopedModel } from "../config/model_resolver.ts";
import type { SettingsManager } from "../config/settings_manager.ts";
import type { CliArgs, CliDiagnostic } from "./args.ts";
import { selectTools } from "./tool_flags.ts";

/** The session inputs derived from the command line. */
export interface CliSessionOptions {
  model?: Model;
  thinkingLevel?: ModelThinkingLevel;
  scopedModels?: ScopedModel[];
  tools?: string[];
  noTools?: "all" | "builtin";
}

/** {@link buildSessionOptions}' result. */
export interface BuiltSessionOptions {
  options: CliSessionOptions;
  /** The thinking level came from a `--model x:level` suffix (so it must be re-applied). */
  cliThinkingFromModel: boolean;
  diagnostics: CliDiagnostic[];
}

/**
 * Resolves the flags against the registry. `hasExistingSession` keeps a resumed session's model
 * when only `--models` was given.
 */
export function buildSessionOptions(
  args: CliArgs,
  scopedModels: ScopedModel[],
  hasExistingSession: boolean,
  modelRegistry: ModelRegistry,
  settingsManager: SettingsManager,
): BuiltSessionOptions {
  const options: CliSessionOptions = {};
  const diagnostics: CliDiagnostic[] = [];
  let cliThinkingFromModel = false;

  if (args.provider && !args.model) {
    diagnostics.push({
      type: "error",
      message: `--provider requires --model (for example: --provider ${args.provider} --model <pattern>)`,
    });
  }
  if (args.model) {
    const resolved = resolveCliModel({ cliProvider: args.provider, cliModel: args.model, modelRegistry });
    if (resolved.warning) diagnostics.push({ type: "warning", message: resolved.warning });
    if (resolved.error) diagnostics.push({ type: "error", message: resolved.error });
    if (resolved.model) {
      options.model = resolved.model;
      // "--model x:high" is a shorthand; an explicit --thinking still wins below.
      if (!args.thinking && resolved.thinkingLevel) {
        options.thinkingLevel = resolved.thinkingLevel;
        cliThinkingFromModel = true;
      }
    }
  }

  if (!options.model && scopedModels.length > 0 && !hasExistingSession) {
    // The saved default stays selected when it is inside the scope; else the first scoped model.
    const savedProvider = settingsManager.getDefaultProvider();
    const savedId = settingsManager.getDefaultModel();
    const saved = savedProvider && savedId ? modelRegistry.find(savedProvider, savedId) : undefined;
    const pick = (saved && scopedModels.find((s) => modelsAreEqual(s.model, saved))) ?? scopedModels[0];
    options.model = pick.model;
    if (!args.thinking && pick.thinkingLevel) options.thinkingLevel = pick.thinkingLevel;
  }

  if (args.thinking) options.thinkingLevel = args.thinking;

  if (scopedModels.length > 0) {
    // An undefined level means "keep the session's level" when cycling.
    options.scopedModels = scopedModels.map((s) => ({ model: s.model, thinkingLevel: s.thinkingLevel }));
  }

  Object.assign(options, selectTools(args));

  return { options, cliThinkingFromModel, diagnostics };
}
