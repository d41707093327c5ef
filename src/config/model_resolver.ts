/**
 * Model selection: `--model`/`--provider` resolution, `--models`/`enabledModels` scoping with globs and
 * `:thinking` suffixes, the initial-model order and restoring a session's model (CLI-15, CLI-16, PROV-10).
 *
 * @module
 */

import { modelsAreEqual } from "../ai/models.ts";
import type { Model, ModelThinkingLevel } from "../ai/types.ts";
import type { ModelRegistry } from "./model_registry.ts";

/** Thinking level used when nothing else picks one. */
export const DEFAULT_THINKING_LEVEL: ModelThinkingLevel = "medium";

const VALID_THINKING_LEVELS: readonly string[] = ["off", "minimal", "low", "medium", "high", "xhigh"];

/** Whether `level` names a thinking level (`off` included). */
export function isValidThinkingLevel(level: string): level is ModelThinkingLevel {
  return VALID_THINKING_LEVELS.includes(level);
}

/** Preferred model per provider when choosing a default; key order is the search order. */
export const defaultModelPerProvider: Readonly<Record<string, string>> = {
  "amazon-bedrock": "us.anthropic.claude-opus-4-6-v1",
  anthropic: "claude-opus-4-7",
  openai: "gpt-5.4",
  "azure-openai-responses": "gpt-5.4",
  "openai-codex": "gpt-5.5",
  deepseek: "deepseek-v4-pro",
  google: "gemini-3.1-pro-preview",
  "google-vertex": "gemini-3.1-pro-preview",
  "github-copilot": "gpt-5.4",
  openrouter: "moonshotai/kimi-k2.6",
  "vercel-ai-gateway": "zai/glm-5.1",
  xai: "grok-4.20-0309-reasoning",
  groq: "openai/gpt-oss-120b",
  cerebras: "zai-glm-4.7",
  zai: "glm-5.1",
  mistral: "devstral-medium-latest",
  minimax: "MiniMax-M2.7",
  "minimax-cn": "MiniMax-M2.7",
  moonshotai: "kimi-k2.6",
  "moonshotai-cn": "kimi-k2.6",
  huggingface: "moonshotai/Kimi-K2.6",
  fireworks: "accounts/fireworks/models/kimi-k2p6",
  opencode: "kimi-k2.6",
  "opencode-go": "kimi-k2.6",
  "kimi-coding": "kimi-for-coding",
  "cloudflare-workers-ai": "@cf/moonshotai/kimi-k2.6",
  "cloudflare-ai-gateway": "workers-ai/@cf/moonshotai/kimi-k2.6",
  xiaomi: "mimo-v2.5-pro",
  "xiaomi-token-plan-cn": "mimo-v2.5-pro",
  "xiaomi-token-plan-ams": "mimo-v2.5-pro",
  "xiaomi-token-plan-sgp": "mimo-v2.5-pro",
};

/** A model picked by `--models`, with the thinking level its pattern asked for. */
export interface ScopedModel {
  model: Model;
  thinkingLevel?: ModelThinkingLevel;
}

function useColor(): boolean {
  try {
    if (Deno.env.get("NO_COLOR")) return false;
    return Deno.stdout.isTerminal();
  } catch {
    return false;
  }
}
const paint = (code: number, close: number) => (text: string) =>
  useColor() ? `\x1b[${code}m${text}\x1b[${close}m` : text;
const yellow = paint(33, 39);
const dim = paint(2, 22);

/** Ids without a `-YYYYMMDD` suffix (or ending in `-latest`) are aliases, preferred over dated snapshots. */
function isAlias(id: string): boolean {
  if (id.endsWith("-latest")) return true;
  return !/-\d{8}$/.test(id);
}

/**
 * Exact reference match: `provider/id` (case-insensitive) or a bare id; a bare id that exists under several
 * providers is ambiguous and matches nothing.
 */
export function findExactModelReferenceMatch(
  modelReference: string,
  availableModels: Model[],
): Model | undefined {
  const trimmed = modelReference.trim();
  if (!trimmed) return undefined;
  const normalized = trimmed.toLowerCase();
  const canonical = availableModels.filter((m) => `${m.provider}/${m.id}`.toLowerCase() === normalized);
  if (canonical.length === 1) return canonical[0];
  if (canonical.length > 1) return undefined;
  const slashIndex = trimmed.indexOf("/");
  if (slashIndex !== -1) {
    const provider = trimmed.substring(0, slashIndex).trim();
    const modelId = trimmed.substring(slashIndex + 1).trim();
    if (provider && modelId) {
      const matches = availableModels.filter((m) =>
        m.provider.toLowerCase() === provider.toLowerCase() && m.id.toLowerCase() === modelId.toLowerCase()
      );
      if (matches.length === 1) return matches[0];
      if (matches.length > 1) return undefined;
    }
  }
  const idMatches = availableModels.filter((m) => m.id.toLowerCase() === normalized);
  return idMatches.length === 1 ? idMatches[0] : undefined;
}

function tryMatchModel(modelPattern: string, availableModels: Model[]): Model | undefined {
  const exact = findExactModelReferenceMatch(modelPattern, availableModels);
  if (exact) return exact;
  const lower = modelPattern.toLowerCase();
  const matches = availableModels.filter((m) =>
    m.id.toLowerCase().includes(lower) || m.name?.toLowerCase().includes(lower)
  );
  if (matches.length === 0) return undefined;
  const aliases = matches.filter((m) => isAlias(m.id));
  const pool = aliases.length > 0 ? aliases : matches.filter((m) => !isAlias(m.id));
  pool.sort((a, b) => b.id.localeCompare(a.id));
  return pool[0];
}

function buildFallbackModel(provider: string, modelId: string, availableModels: Model[]): Model | undefined {
  const providerModels = availableModels.filter((m) => m.provider === provider);
  if (providerModels.length === 0) return undefined;
  const defaultId = defaultModelPerProvider[provider];
  const base = defaultId
    ? (providerModels.find((m) => m.id === defaultId) ?? providerModels[0])
    : providerModels[0];
  return { ...base, id: modelId, name: modelId };
}

/** Result of {@link parseModelPattern}. */
export interface ParsedModelPattern {
  model: Model | undefined;
  thinkingLevel: ModelThinkingLevel | undefined;
  warning: string | undefined;
}

/**
 * Matches a pattern, peeling `:suffix` parts off the end when the whole pattern does not match (model ids
 * may contain colons). A valid thinking-level suffix is returned; an invalid one warns (scope mode) or makes
 * the pattern fail (`allowInvalidThinkingLevelFallback: false`, used for `--model`).
 */
export function parseModelPattern(
  pattern: string,
  availableModels: Model[],
  options?: { allowInvalidThinkingLevelFallback?: boolean },
): ParsedModelPattern {
  const exact = tryMatchModel(pattern, availableModels);
  if (exact) return { model: exact, thinkingLevel: undefined, warning: undefined };
  const lastColon = pattern.lastIndexOf(":");
  if (lastColon === -1) return { model: undefined, thinkingLevel: undefined, warning: undefined };
  const prefix = pattern.substring(0, lastColon);
  const suffix = pattern.substring(lastColon + 1);
  if (isValidThinkingLevel(suffix)) {
    const result = parseModelPattern(prefix, availableModels, options);
    if (result.model) {
      return {
        model: result.model,
        thinkingLevel: result.warning ? undefined : suffix,
        warning: result.warning,
      };
    }
    return result;
  }
  if (!(options?.allowInvalidThinkingLevelFallback ?? true)) {
    return { model: undefined, thinkingLevel: undefined, warning: undefined };
  }
  const result = parseModelPattern(prefix, availableModels, options);
  if (result.model) {
    return {
      model: result.model,
      thinkingLevel: undefined,
      warning: `Invalid thinking level "${suffix}" in pattern "${pattern}". Using default instead.`,
    };
  }
  return result;
}

type Picomatch = typeof import("npm:picomatch@4.0.7").default;

function globMatches(picomatch: Picomatch, globPattern: string, model: Model): boolean {
  const isMatch = picomatch(globPattern, { nocase: true });
  return isMatch(`${model.provider}/${model.id}`) || isMatch(model.id);
}

/**
 * Resolves `--models` / `enabledModels` patterns against models with configured auth. Globs (`*?[`) match
 * `provider/id` or the bare id; other patterns use the fuzzy rules. Unmatched patterns warn on stderr.
 */
export async function resolveModelScope(
  patterns: string[],
  modelRegistry: ModelRegistry,
): Promise<ScopedModel[]> {
  const availableModels = modelRegistry.getAvailable();
  // The glob matcher loads only when a pattern needs it.
  const hasGlob = patterns.some((p) => p.includes("*") || p.includes("?") || p.includes("["));
  const picomatch: Picomatch | undefined = hasGlob
    ? (await import("npm:picomatch@4.0.7")).default
    : undefined;
  const scoped: ScopedModel[] = [];
  const add = (model: Model, thinkingLevel: ModelThinkingLevel | undefined) => {
    if (!scoped.find((s) => modelsAreEqual(s.model, model))) scoped.push({ model, thinkingLevel });
  };
  for (const pattern of patterns) {
    if (pattern.includes("*") || pattern.includes("?") || pattern.includes("[")) {
      const colon = pattern.lastIndexOf(":");
      let globPattern = pattern;
      let thinkingLevel: ModelThinkingLevel | undefined;
      if (colon !== -1) {
        const suffix = pattern.substring(colon + 1);
        if (isValidThinkingLevel(suffix)) {
          thinkingLevel = suffix;
          globPattern = pattern.substring(0, colon);
        }
      }
      const matching = availableModels.filter((m) => globMatches(picomatch!, globPattern, m));
      if (matching.length === 0) {
        console.warn(yellow(`Warning: No models match pattern "${pattern}"`));
        continue;
      }
      for (const model of matching) add(model, thinkingLevel);
      continue;
    }
    const { model, thinkingLevel, warning } = parseModelPattern(pattern, availableModels);
    if (warning) console.warn(yellow(`Warning: ${warning}`));
    if (!model) {
      console.warn(yellow(`Warning: No models match pattern "${pattern}"`));
      continue;
    }
    add(model, thinkingLevel);
  }
  return scoped;
}

/** Result of {@link resolveCliModel}: a model (maybe with a warning), or an error message. */
export interface CliModelResolution {
  model: Model | undefined;
  thinkingLevel?: ModelThinkingLevel;
  warning: string | undefined;
  error: string | undefined;
}

function exactIdOrReference(input: string, models: Model[]): Model | undefined {
  const lower = input.toLowerCase();
  return models.find((m) => m.id.toLowerCase() === lower || `${m.provider}/${m.id}`.toLowerCase() === lower);
}

/**
 * Resolves `--provider`/`--model` against ALL models (so `--api-key` works for first-time setup). Supports
 * `provider/pattern`, fuzzy matching, `:thinking` suffixes and unknown ids of a known provider (cloned from
 * the provider's default model, with a warning).
 */
export function resolveCliModel(
  options: { cliProvider?: string; cliModel?: string; modelRegistry: ModelRegistry },
): CliModelResolution {
  const { cliProvider, cliModel, modelRegistry } = options;
  if (!cliModel) return { model: undefined, warning: undefined, error: undefined };
  const availableModels = modelRegistry.getAll();
  if (availableModels.length === 0) {
    return {
      model: undefined,
      warning: undefined,
      error: "No models available. Check your installation or add models to models.json.",
    };
  }
  const providerMap = new Map<string, string>();
  for (const m of availableModels) providerMap.set(m.provider.toLowerCase(), m.provider);

  let provider = cliProvider ? providerMap.get(cliProvider.toLowerCase()) : undefined;
  if (cliProvider && !provider) {
    return {
      model: undefined,
      warning: undefined,
      error: `Unknown provider "${cliProvider}". Use --list-models to see available providers/models.`,
    };
  }

  // A known provider before the first slash wins over ids that merely contain slashes ("zai/glm-5").
  let pattern = cliModel;
  let inferredProvider = false;
  if (!provider) {
    const slashIndex = cliModel.indexOf("/");
    if (slashIndex !== -1) {
      const canonical = providerMap.get(cliModel.substring(0, slashIndex).toLowerCase());
      if (canonical) {
        provider = canonical;
        pattern = cliModel.substring(slashIndex + 1);
        inferredProvider = true;
      }
    }
  }
  if (!provider) {
    const exact = exactIdOrReference(cliModel, availableModels);
    if (exact) return { model: exact, warning: undefined, thinkingLevel: undefined, error: undefined };
  }
  if (cliProvider && provider) {
    const prefix = `${provider}/`;
    if (cliModel.toLowerCase().startsWith(prefix.toLowerCase())) pattern = cliModel.substring(prefix.length);
  }

  const candidates = provider ? availableModels.filter((m) => m.provider === provider) : availableModels;
  const { model, thinkingLevel, warning } = parseModelPattern(pattern, candidates, {
    allowInvalidThinkingLevelFallback: false,
  });
  if (model) return { model, thinkingLevel, warning, error: undefined };

  // "openai/gpt-4o:extended" may be an OpenRouter id rather than provider "openai".
  if (inferredProvider) {
    const exact = exactIdOrReference(cliModel, availableModels);
    if (exact) return { model: exact, warning: undefined, thinkingLevel: undefined, error: undefined };
    const fallback = parseModelPattern(cliModel, availableModels, {
      allowInvalidThinkingLevelFallback: false,
    });
    if (fallback.model) {
      return {
        model: fallback.model,
        thinkingLevel: fallback.thinkingLevel,
        warning: fallback.warning,
        error: undefined,
      };
    }
  }

  if (provider) {
    const fallbackModel = buildFallbackModel(provider, pattern, availableModels);
    if (fallbackModel) {
      const notFound = `Model "${pattern}" not found for provider "${provider}". Using custom model id.`;
      return {
        model: fallbackModel,
        thinkingLevel: undefined,
        warning: warning ? `${warning} ${notFound}` : notFound,
        error: undefined,
      };
    }
  }
  const display = provider ? `${provider}/${pattern}` : cliModel;
  return {
    model: undefined,
    thinkingLevel: undefined,
    warning,
    error: `Model "${display}" not found. Use --list-models to see available models.`,
  };
}

/** Inputs to {@link findInitialModel}. */
export interface InitialModelOptions {
  cliProvider?: string;
  cliModel?: string;
  scopedModels: ScopedModel[];
  isContinuing: boolean;
  defaultProvider?: string;
  defaultModelId?: string;
  defaultThinkingLevel?: ModelThinkingLevel;
  modelRegistry: ModelRegistry;
}

/** The chosen model and thinking level. */
export interface InitialModelResult {
  model: Model | undefined;
  thinkingLevel: ModelThinkingLevel;
  fallbackMessage: string | undefined;
}

function preferredAvailable(availableModels: Model[]): Model | undefined {
  for (const [provider, defaultId] of Object.entries(defaultModelPerProvider)) {
    const match = availableModels.find((m) => m.provider === provider && m.id === defaultId);
    if (match) return match;
  }
  return availableModels[0];
}

/**
 * Initial model: CLI `--provider`+`--model` (rejects with the resolver's error) → first scoped model for a
 * new session → saved default → first authed `defaultModelPerProvider` match → first available model.
 */
export function findInitialModel(options: InitialModelOptions): Promise<InitialModelResult> {
  const { cliProvider, cliModel, scopedModels, isContinuing, defaultProvider, defaultModelId } = options;
  const { defaultThinkingLevel, modelRegistry } = options;
  if (cliProvider && cliModel) {
    const resolved = resolveCliModel({ cliProvider, cliModel, modelRegistry });
    // A library function must not print or end the process: the caller decides (the CLI resolves
    // `--provider`/`--model` itself and prints the error).
    if (resolved.error) return Promise.reject(new Error(resolved.error));
    if (resolved.model) {
      return Promise.resolve({
        model: resolved.model,
        thinkingLevel: DEFAULT_THINKING_LEVEL,
        fallbackMessage: undefined,
      });
    }
  }
  if (scopedModels.length > 0 && !isContinuing) {
    return Promise.resolve({
      model: scopedModels[0].model,
      thinkingLevel: scopedModels[0].thinkingLevel ?? defaultThinkingLevel ?? DEFAULT_THINKING_LEVEL,
      fallbackMessage: undefined,
    });
  }
  if (defaultProvider && defaultModelId) {
    const found = modelRegistry.find(defaultProvider, defaultModelId);
    if (found) {
      return Promise.resolve({
        model: found,
        thinkingLevel: defaultThinkingLevel || DEFAULT_THINKING_LEVEL,
        fallbackMessage: undefined,
      });
    }
  }
  const model = preferredAvailable(modelRegistry.getAvailable());
  return Promise.resolve({ model, thinkingLevel: DEFAULT_THINKING_LEVEL, fallbackMessage: undefined });
}

/**
 * Restores a session's saved model if it still exists and has auth; otherwise falls back to the current
 * model or the preferred available one, with the reference's messages.
 */
export function restoreModelFromSession(
  savedProvider: string,
  savedModelId: string,
  currentModel: Model | undefined,
  shouldPrintMessages: boolean,
  modelRegistry: ModelRegistry,
): Promise<{ model: Model | undefined; fallbackMessage: string | undefined }> {
  const restored = modelRegistry.find(savedProvider, savedModelId);
  const hasAuth = restored ? modelRegistry.hasConfiguredAuth(restored) : false;
  if (restored && hasAuth) {
    if (shouldPrintMessages) console.log(dim(`Restored model: ${savedProvider}/${savedModelId}`));
    return Promise.resolve({ model: restored, fallbackMessage: undefined });
  }
  const reason = !restored ? "model no longer exists" : "no auth configured";
  if (shouldPrintMessages) {
    console.error(yellow(`Warning: Could not restore model ${savedProvider}/${savedModelId} (${reason}).`));
  }
  const fallback = currentModel ?? preferredAvailable(modelRegistry.getAvailable());
  if (!fallback) return Promise.resolve({ model: undefined, fallbackMessage: undefined });
  if (shouldPrintMessages) console.log(dim(`Falling back to: ${fallback.provider}/${fallback.id}`));
  return Promise.resolve({
    model: fallback,
    fallbackMessage:
      `Could not restore model ${savedProvider}/${savedModelId} (${reason}). Using ${fallback.provider}/${fallback.id}.`,
  });
}
