/**
 * Model selection: `--model`/`--provider` resolution, `--models`/`enabledModels` scoping with globs and
 * `:thinking` suffixes, the initial-model order and restoring a session's model (CLI-15, CLI-16, PROV-10).
 *
 * @module
 */

import { dim, yellow } from "../util/style.ts";
import { modelsAreEqual } from "../ai/model_equality.ts";
import type { Model, ModelThinkingLevel } from "../ai/types.ts";
import type { ModelRegistry } from "./model_registry.ts";

/** Thinking level used when nothing else picks one. */
export const DEFAULT_THINKING_LEVEL: ModelThinkingLevel = "medium";

const VALID_THINKING_LEVELS: readonly string[] = ["off", "minimal", "low", "medium", "high", "xhigh", "max"];

/** Whether `level` names a thinking level (`off` and 1.6.0's `max` included). */
export function isValidThinkingLevel(level: string): level is ModelThinkingLevel {
  return VALID_THINKING_LEVELS.includes(level);
}

/** Preferred chat model per provider (pi 1.6.0); key order is the search order for a default. */
export const defaultModelPerProvider: Readonly<Record<string, string>> = {
  "amazon-bedrock": "us.anthropic.claude-opus-5-5",
  "ant-ling": "Ring-2.6-1T",
  anthropic: "claude-opus-5-5",
  openai: "gpt-6.2-sol",
  azure: "gpt-6.2-sol",
  "openai-codex": "gpt-6.2-sol",
  radius: "balanced",
  nvidia: "nvidia/nemotron-3.5-super-vl-120b-a12b",
  deepseek: "deepseek-v4-pro",
  google: "gemini-4-argon",
  "google-vertex": "gemini-4-argon",
  "github-copilot": "gpt-6.1-sol",
  openrouter: "moonshotai/kimi-k2.7-code",
  "vercel-ai-gateway": "zai/glm-5.3",
  xai: "grok-4.7",
  groq: "openai/gpt-oss-120b",
  cerebras: "gpt-oss-120b",
  zai: "glm-5.3",
  "zai-coding-cn": "glm-5.3",
  mistral: "devstral-medium-latest",
  minimax: "MiniMax-M3",
  "minimax-cn": "MiniMax-M3",
  moonshotai: "kimi-k2.7-code",
  "moonshotai-cn": "kimi-k2.7-code",
  huggingface: "moonshotai/Kimi-K2.7-Code",
  fireworks: "accounts/fireworks/models/kimi-k3",
  together: "moonshotai/Kimi-K3",
  baseten: "zai-org/GLM-5.3",
  opencode: "kimi-k2.7-code",
  "opencode-go": "kimi-k3.1-pro",
  "kimi-coding": "kimi-for-coding",
  meta: "muse-spark-1.3",
  "cloudflare-workers-ai": "@cf/moonshotai/kimi-k2.7-code",
  "cloudflare-ai-gateway": "workers-ai/@cf/moonshotai/kimi-k2.7-code",
  "qwen-token-plan": "qwen3.8-max",
  "qwen-token-plan-cn": "qwen3.8-max",
  "qwen-token-plan-individual": "qwen3.8-max",
  "qwen-token-plan-individual-cn": "qwen3.8-max",
  xiaomi: "mimo-v2.6-pro",
  "xiaomi-token-plan-cn": "mimo-v2.6-pro",
  "xiaomi-token-plan-ams": "mimo-v2.6-pro",
  "xiaomi-token-plan-sgp": "mimo-v2.6-pro",
};

/** A model picked by `--models`, with the thinking level its pattern asked for. */
export interface ScopedModel {
  /** The model. */
  model: Model;
  /** The thinking level its pattern asked for. */
  thinkingLevel?: ModelThinkingLevel;
}

// ---------------------------------------------------------------------------------------------------------
// Resolving one model reference (1.6.0's rules).

/** How a `:suffix` is treated: never a thinking level, only a valid one, or an invalid one warns. */
type ThinkingSuffixMode = "none" | "strict" | "lenient";

interface ReferenceRequest {
  text: string;
  /** Canonical provider id that constrains the search (`--provider`). */
  provider?: string;
  thinkingSuffix: ThinkingSuffixMode;
  fuzzy: boolean;
}

/** Where an unknown id would go: a known provider and the id (and level) the user typed. */
interface FallbackTarget {
  provider: string;
  providerModels: Model[];
  modelText: string;
  modelId: string;
  thinkingLevel?: ModelThinkingLevel;
}

type ReferenceResult =
  | { status: "resolved"; model: Model; thinkingLevel?: ModelThinkingLevel; warning?: string }
  | {
    status: "ambiguous";
    candidates: Model[];
    usableCount: number;
    thinkingLevel?: ModelThinkingLevel;
    warning?: string;
  }
  | { status: "not-found"; target?: FallbackTarget };

function splitThinkingSuffix(text: string): { base: string; thinkingLevel: ModelThinkingLevel } | undefined {
  const colon = text.lastIndexOf(":");
  const suffix = text.substring(colon + 1);
  if (colon === -1 || !isValidThinkingLevel(suffix)) return undefined;
  return { base: text.substring(0, colon), thinkingLevel: suffix };
}

/** `provider/rest` for a known provider id; provider ids may contain "/" themselves, so the longest wins. */
function splitProviderPrefix(
  text: string,
  models: readonly Model[],
): { provider: string; modelText: string } | undefined {
  const lowerText = text.toLowerCase();
  let best: { provider: string; modelText: string } | undefined;
  for (const { provider } of models) {
    const prefix = provider.trim().toLowerCase();
    if (!prefix || (best && best.provider.length >= provider.length)) continue;
    const slash = lowerText.indexOf("/", prefix.length);
    if (slash === -1 || lowerText.substring(0, slash).trim() !== prefix) continue;
    const modelText = text.substring(slash + 1).trim();
    if (modelText) best = { provider, modelText };
  }
  return best;
}

/** Ids without a `-YYYYMMDD` suffix (or ending in `-latest`) are aliases, preferred over dated snapshots. */
function isAlias(id: string): boolean {
  return id.endsWith("-latest") || !/-\d{8}$/.test(id);
}

function fuzzyMatches(text: string, models: readonly Model[]): Model[] {
  const lower = text.toLowerCase();
  return models.filter((m) => m.id.toLowerCase().includes(lower) || m.name?.toLowerCase().includes(lower));
}

/** Aliases before dated versions, then the latest (greatest id). */
function bestFuzzyMatch(matches: readonly Model[]): Model | undefined {
  const aliases = matches.filter((m) => isAlias(m.id));
  return [...(aliases.length > 0 ? aliases : matches)].sort((a, b) => b.id.localeCompare(a.id))[0];
}

function selectFuzzy(matches: Model[], usable: (provider: string) => boolean): ReferenceResult | undefined {
  if (matches.length === 0) return undefined;
  const multipleProviders = new Set(matches.map((m) => m.provider)).size > 1;
  const usableMatches = multipleProviders ? matches.filter((m) => usable(m.provider)) : [];
  const pool = usableMatches.length > 0 ? usableMatches : matches;
  const best = bestFuzzyMatch(pool);
  if (!best) return undefined;
  // The same id on several providers would otherwise be decided by catalog order.
  const tied = pool.filter((m) => m.id === best.id);
  if (new Set(tied.map((m) => m.provider)).size === 1) return { status: "resolved", model: best };
  return { status: "ambiguous", candidates: tied, usableCount: usableMatches.length > 0 ? tied.length : 0 };
}

/**
 * `provider/rest` is a hint: the whole text may also be an id on another provider (gateway ids such as
 * `zai/glm-5`). The named provider wins when usable; otherwise a sole usable raw match; an unusable named
 * match still beats unusable raw ones, so `--api-key` can set the named provider up.
 */
function selectReference(
  text: string,
  pool: readonly Model[],
  fuzzy: boolean,
  usable: (provider: string) => boolean,
): ReferenceResult | undefined {
  const lowerText = text.toLowerCase();
  const raw = pool.filter((m) => m.id.toLowerCase() === lowerText);
  const split = splitProviderPrefix(text, pool);
  let named: Model | undefined;
  if (split) {
    const providerModels = pool.filter((m) => m.provider === split.provider);
    const lowerModelText = split.modelText.toLowerCase();
    named = providerModels.find((m) => m.id.toLowerCase() === lowerModelText) ??
      raw.find((m) => m.provider === split.provider) ??
      (fuzzy ? bestFuzzyMatch(fuzzyMatches(split.modelText, providerModels)) : undefined);
  }
  const others = raw.filter((m) => m !== named);
  const candidates = named ? [named, ...others] : others;
  if (candidates.length === 0) return undefined;
  if (new Set(candidates.map((m) => m.provider)).size === 1) {
    return { status: "resolved", model: candidates[0] };
  }
  if (named && usable(named.provider)) return { status: "resolved", model: named };
  const usableOthers = others.filter((m) => usable(m.provider));
  if (usableOthers.length === 1) return { status: "resolved", model: usableOthers[0] };
  if (usableOthers.length === 0 && named) return { status: "resolved", model: named };
  return { status: "ambiguous", candidates, usableCount: usableOthers.length };
}

function resolveText(
  text: string,
  request: ReferenceRequest,
  pool: readonly Model[],
  usable: (provider: string) => boolean,
): ReferenceResult {
  const reference = selectReference(text, pool, request.fuzzy, usable);
  if (reference) return reference;
  if (request.fuzzy) {
    const fuzzy = selectFuzzy(fuzzyMatches(text, pool), usable);
    if (fuzzy) return fuzzy;
  }
  if (request.thinkingSuffix === "none") return { status: "not-found" };
  const thinking = splitThinkingSuffix(text);
  if (thinking) {
    const inner = resolveText(thinking.base, request, pool, usable);
    if (inner.status === "not-found") return inner;
    return { ...inner, thinkingLevel: inner.warning ? undefined : thinking.thinkingLevel };
  }
  // An invalid suffix stays part of the id and fails, rather than resolving a different model.
  if (request.thinkingSuffix === "strict") return { status: "not-found" };
  const colon = text.lastIndexOf(":");
  if (colon === -1) return { status: "not-found" };
  const suffix = text.substring(colon + 1);
  const inner = resolveText(text.substring(0, colon), request, pool, usable);
  if (inner.status === "not-found") return inner;
  return {
    ...inner,
    thinkingLevel: undefined,
    warning: `Invalid thinking level "${suffix}" in pattern "${text}". Using default instead.`,
  };
}

/**
 * Resolves one reference against `models`. `usable` (has credentials) only breaks ties between providers,
 * so a unique match resolves even without credentials (`--api-key` first-time setup).
 */
function resolveModelReference(
  request: ReferenceRequest,
  models: readonly Model[],
  usable: (provider: string) => boolean,
): ReferenceResult {
  const text = request.text.trim();
  if (!text) return { status: "not-found" };
  const constraint = request.provider?.toLowerCase();
  const pool = constraint ? models.filter((m) => m.provider.toLowerCase() === constraint) : models;
  const result = resolveText(text, request, pool, usable);
  if (result.status !== "not-found") return result;
  const split = splitProviderPrefix(text, pool);
  const anchor = constraint ? pool[0] : pool.find((m) => m.provider === split?.provider);
  if (!anchor) return result;
  const modelText = split?.modelText ?? text;
  const suffix = request.thinkingSuffix === "none" ? undefined : splitThinkingSuffix(modelText);
  return {
    status: "not-found",
    target: {
      provider: anchor.provider,
      providerModels: [anchor, ...pool.filter((m) => m.provider === anchor.provider && m !== anchor)],
      modelText,
      modelId: suffix?.base ?? modelText,
      thinkingLevel: suffix?.thinkingLevel,
    },
  };
}

/** Exact `provider/id` or bare id (case-insensitive, trimmed), with no thinking suffix or fuzzy matching. */
export function findExactModelReferenceMatch(modelReference: string, models: Model[]): Model | undefined {
  const result = resolveModelReference(
    { text: modelReference, thinkingSuffix: "none", fuzzy: false },
    models,
    () => true,
  );
  return result.status === "resolved" ? result.model : undefined;
}

/** Result of {@link parseModelPattern}. */
export interface ParsedModelPattern {
  /** The model found, if any. */
  model: Model | undefined;
  /** The thinking level from a `:level` suffix. */
  thinkingLevel: ModelThinkingLevel | undefined;
  /** Why the suffix was ignored, if it was. */
  warning: string | undefined;
}

/**
 * One pattern as `--models` reads it: exact, then fuzzy, with a `:level` suffix (an invalid suffix warns, or
 * with `allowInvalidThinkingLevelFallback: false` makes the pattern fail). Ambiguous matches give no model.
 */
export function parseModelPattern(
  pattern: string,
  models: Model[],
  options?: { allowInvalidThinkingLevelFallback?: boolean },
): ParsedModelPattern {
  const lenient = options?.allowInvalidThinkingLevelFallback ?? true;
  const result = resolveModelReference(
    { text: pattern, thinkingSuffix: lenient ? "lenient" : "strict", fuzzy: true },
    models,
    () => true,
  );
  if (result.status !== "resolved") return { model: undefined, thinkingLevel: undefined, warning: undefined };
  return { model: result.model, thinkingLevel: result.thinkingLevel, warning: result.warning };
}

function buildFallbackModel(providerModels: Model[], modelId: string): Model {
  const defaultId = defaultModelPerProvider[providerModels[0].provider];
  const base = defaultId
    ? (providerModels.find((m) => m.id === defaultId) ?? providerModels[0])
    : providerModels[0];
  return { ...base, id: modelId, name: modelId };
}

// ---------------------------------------------------------------------------------------------------------
// Scopes (`--models`, `enabledModels`).

/** A problem with one scope pattern. */
export interface ModelScopeDiagnostic {
  /** Diagnostic kind. */
  type: "warning";
  /** What went wrong. */
  code: "no-match" | "ambiguous" | "invalid-thinking-level";
  /** Message for people. */
  message: string;
  /** The pattern it concerns. */
  pattern: string;
}

type Picomatch = typeof import("npm:picomatch@4.0.7").default;

/**
 * Resolves scope patterns against `models` (all usable, so credentials cannot choose between providers
 * offering the same id: all of them are added, with an `ambiguous` warning). Globs (`*?[`) match
 * `provider/id` or the bare id, unless the text is itself an exact id (`bracketed-model[1m]`).
 */
export async function resolveModelScopeFromModels(
  patterns: string[],
  models: Model[],
): Promise<{ scopedModels: ScopedModel[]; diagnostics: ModelScopeDiagnostic[] }> {
  const scopedModels: ScopedModel[] = [];
  const diagnostics: ModelScopeDiagnostic[] = [];
  const add = (model: Model, thinkingLevel: ModelThinkingLevel | undefined) => {
    if (!scopedModels.some((s) => modelsAreEqual(s.model, model))) {
      scopedModels.push({ model, thinkingLevel });
    }
  };
  const noMatch = (pattern: string) =>
    diagnostics.push({
      type: "warning",
      code: "no-match",
      message: `No models match pattern "${pattern}"`,
      pattern,
    });
  const ambiguous = (pattern: string, candidates: Model[]) => {
    const providers = [...new Set(candidates.map((m) => m.provider))].sort((a, b) => a.localeCompare(b));
    diagnostics.push({
      type: "warning",
      code: "ambiguous",
      message: `Pattern "${pattern}" matches several providers: ${
        providers.join(", ")
      }. Use provider/id to choose one.`,
      pattern,
    });
  };
  const isGlob = (p: string) => p.includes("*") || p.includes("?") || p.includes("[");
  // The glob matcher loads only when a pattern needs it.
  const picomatch: Picomatch | undefined = patterns.some(isGlob)
    ? (await import("npm:picomatch@4.0.7")).default
    : undefined;
  for (const pattern of patterns) {
    if (isGlob(pattern)) {
      const thinking = splitThinkingSuffix(pattern);
      const globPattern = thinking?.base ?? pattern;
      const exact = resolveModelReference(
        { text: globPattern, thinkingSuffix: "none", fuzzy: false },
        models,
        () => true,
      );
      let matches: Model[];
      if (exact.status === "resolved") matches = [exact.model];
      else if (exact.status === "ambiguous") {
        matches = exact.candidates;
        ambiguous(pattern, matches);
      } else {
        const isMatch = picomatch!(globPattern, { nocase: true });
        matches = models.filter((m) => isMatch(`${m.provider}/${m.id}`) || isMatch(m.id));
      }
      if (matches.length === 0) noMatch(pattern);
      for (const model of matches) add(model, thinking?.thinkingLevel);
      continue;
    }
    const result = resolveModelReference(
      { text: pattern, thinkingSuffix: "lenient", fuzzy: true },
      models,
      () => true,
    );
    if (result.status === "not-found") {
      noMatch(pattern);
      continue;
    }
    if (result.warning) {
      diagnostics.push({ type: "warning", code: "invalid-thinking-level", message: result.warning, pattern });
    }
    if (result.status === "ambiguous") ambiguous(pattern, result.candidates);
    const matches = result.status === "resolved" ? [result.model] : result.candidates;
    for (const model of matches) add(model, result.thinkingLevel);
  }
  return { scopedModels, diagnostics };
}

/** {@link resolveModelScopeFromModels} over the models with configured auth. */
export function resolveModelScopeWithDiagnostics(
  patterns: string[],
  modelRegistry: ModelRegistry,
): Promise<{ scopedModels: ScopedModel[]; diagnostics: ModelScopeDiagnostic[] }> {
  return resolveModelScopeFromModels(patterns, modelRegistry.getAvailable());
}

/** Resolves scope patterns against models with configured auth, printing each diagnostic as a warning on stderr. */
export async function resolveModelScope(
  patterns: string[],
  modelRegistry: ModelRegistry,
): Promise<ScopedModel[]> {
  const { scopedModels, diagnostics } = await resolveModelScopeWithDiagnostics(patterns, modelRegistry);
  for (const d of diagnostics) console.warn(yellow(`Warning: ${d.message}`));
  return scopedModels;
}

// ---------------------------------------------------------------------------------------------------------
// `--provider` / `--model`.

/** Result of {@link resolveCliModel}: a model (maybe with a warning), or an error message. */
export interface CliModelResolution {
  /** The model chosen, if any. */
  model: Model | undefined;
  /** The thinking level asked for, if any. */
  thinkingLevel?: ModelThinkingLevel;
  /** A warning to show, if any. */
  warning: string | undefined;
  /** An error to show; then `model` is undefined. */
  error: string | undefined;
}

/**
 * Resolves `--provider`/`--model` against ALL models (so `--api-key` works for first-time setup): exact and
 * `provider/id` references, fuzzy matching, strict `:level` suffixes, and an unknown id of a known provider
 * (cloned from the provider's default model, with a warning). When several providers match, the one with
 * credentials wins; otherwise it is an error listing them. `inlineApiKey` (`--api-key`) keeps stored
 * credentials from choosing; `cliThinking` (`--thinking`) keeps a `:suffix` part of a custom id.
 */
export function resolveCliModel(options: {
  cliProvider?: string;
  cliModel?: string;
  cliThinking?: ModelThinkingLevel;
  inlineApiKey?: boolean;
  modelRegistry: ModelRegistry;
}): CliModelResolution {
  const { cliProvider, cliModel, cliThinking, inlineApiKey, modelRegistry } = options;
  if (!cliModel) return { model: undefined, warning: undefined, error: undefined };
  const models = modelRegistry.getAll();
  if (models.length === 0) {
    return {
      model: undefined,
      warning: undefined,
      error: "No models available. Check your installation or add models to models.json.",
    };
  }
  const provider = cliProvider
    ? models.find((m) => m.provider.toLowerCase() === cliProvider.toLowerCase())?.provider
    : undefined;
  if (cliProvider && !provider) {
    return {
      model: undefined,
      warning: undefined,
      error: `Unknown provider "${cliProvider}". Use --list-models to see available providers/models.`,
    };
  }
  const firstByProvider = new Map<string, Model>();
  for (const m of models) if (!firstByProvider.has(m.provider)) firstByProvider.set(m.provider, m);
  const usable = inlineApiKey ? () => false : (providerId: string) => {
    const sample = firstByProvider.get(providerId);
    return sample ? modelRegistry.hasConfiguredAuth(sample) : false;
  };
  const result = resolveModelReference(
    { text: cliModel, provider, thinkingSuffix: "strict", fuzzy: true },
    models,
    usable,
  );
  if (result.status === "resolved") {
    return {
      model: result.model,
      thinkingLevel: result.thinkingLevel,
      warning: result.warning,
      error: undefined,
    };
  }
  if (result.status === "ambiguous") {
    const matches = result.candidates.map((m) => `${m.provider}/${m.id}`).sort((a, b) => a.localeCompare(b))
      .join(", ");
    const authHint = inlineApiKey
      ? "--api-key does not choose a provider."
      : result.usableCount === 0
      ? "No matching provider is authenticated."
      : "More than one matching provider is authenticated.";
    return {
      model: undefined,
      warning: undefined,
      error:
        `Model "${cliModel}" is ambiguous across providers: ${matches}. ${authHint} Use --provider or provider/model.`,
    };
  }
  const { target } = result;
  if (!target) {
    return {
      model: undefined,
      warning: undefined,
      error: `Model "${cliModel}" not found. Use --list-models to see available models.`,
    };
  }
  // With --thinking the suffix stays part of the custom id ("zai-org/GLM-5.1-FP8:high").
  const modelId = cliThinking ? target.modelText : target.modelId;
  const fallbackThinking = cliThinking ? undefined : target.thinkingLevel;
  const fallbackModel = buildFallbackModel(target.providerModels, modelId);
  const requested = cliThinking ?? fallbackThinking;
  return {
    model: requested && requested !== "off" ? { ...fallbackModel, reasoning: true } : fallbackModel,
    thinkingLevel: fallbackThinking,
    warning: `Model "${modelId}" not found for provider "${target.provider}". Using custom model id.`,
    error: undefined,
  };
}

/** Inputs to {@link findInitialModel}. */
export interface InitialModelOptions {
  /** Models from `--models`. */
  scopedModels: ScopedModel[];
  /** Whether an existing session is continued. */
  isContinuing: boolean;
  /** Provider from the settings. */
  defaultProvider?: string;
  /** Model id from the settings. */
  defaultModelId?: string;
  /** Thinking level from the settings. */
  defaultThinkingLevel?: ModelThinkingLevel;
  /** `modelThinkingLevels` from settings, keyed `provider/id`. */
  modelThinkingLevels?: Readonly<Record<string, ModelThinkingLevel>>;
  /** Models and their credentials. */
  modelRegistry: ModelRegistry;
}

/** The chosen model and thinking level. */
export interface InitialModelResult {
  /** The model chosen, if any. */
  model: Model | undefined;
  /** The thinking level chosen. */
  thinkingLevel: ModelThinkingLevel;
  /** Why the preferred model was not used, if it was not. */
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
 * Initial model (1.6.0): the first scoped model for a new session → the saved default when its provider has
 * credentials → the first available `defaultModelPerProvider` match → the first available model. A model's
 * entry in `modelThinkingLevels` wins over `defaultThinkingLevel`. `--model` is resolved by the caller.
 */
export function findInitialModel(options: InitialModelOptions): Promise<InitialModelResult> {
  const { scopedModels, isContinuing, defaultProvider, defaultModelId } = options;
  const { defaultThinkingLevel, modelThinkingLevels, modelRegistry } = options;
  if (scopedModels.length > 0 && !isContinuing) {
    const scoped = scopedModels[0];
    const perModel = modelThinkingLevels?.[`${scoped.model.provider}/${scoped.model.id}`];
    return Promise.resolve({
      model: scoped.model,
      thinkingLevel: scoped.thinkingLevel ?? perModel ?? defaultThinkingLevel ?? DEFAULT_THINKING_LEVEL,
      fallbackMessage: undefined,
    });
  }
  if (defaultProvider && defaultModelId) {
    const found = modelRegistry.find(defaultProvider, defaultModelId);
    if (found && modelRegistry.hasConfiguredAuth(found)) {
      const perModel = modelThinkingLevels?.[`${defaultProvider}/${defaultModelId}`];
      return Promise.resolve({
        model: found,
        thinkingLevel: perModel ?? defaultThinkingLevel ?? DEFAULT_THINKING_LEVEL,
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
