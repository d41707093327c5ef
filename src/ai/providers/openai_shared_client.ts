/**
 * Request set-up shared by the OpenAI-style providers: API key resolution, base URL
 * (Cloudflare placeholders filled from the environment), and the header merge order the
 * reference uses (model headers, Copilot's dynamic headers, session headers, then the
 * caller's headers).
 *
 * @module
 */
import { getEnvApiKey, type ProviderEnv, providerEnvValue } from "../env_api_keys.ts";
import type { CacheRetention, Context, Model } from "../types.ts";
import { copilotDynamicHeaders, fillBaseUrlPlaceholders } from "./provider_headers.ts";

/** The text of the error when no key can be found. */
export const MISSING_OPENAI_KEY =
  "OpenAI API key is required. Set OPENAI_API_KEY environment variable or pass it as an argument.";

/**
 * The key to send: explicit, else the provider's environment variable, else OPENAI_API_KEY
 * (`env` first, then the process environment).
 */
export function resolveOpenAIApiKey(model: Model, explicit?: string, env?: ProviderEnv): string {
  const key = explicit || getEnvApiKey(model.provider, env) || providerEnvValue("OPENAI_API_KEY", env);
  if (!key) throw new Error(MISSING_OPENAI_KEY);
  return key;
}

/** Cache retention with the reference's default: "short", or "long" when PI_CACHE_RETENTION=long. */
export function resolveCacheRetention(retention?: CacheRetention, env?: ProviderEnv): CacheRetention {
  if (retention) return retention;
  return providerEnvValue("PI_CACHE_RETENTION", env) === "long" ? "long" : "short";
}

/** True for the two Cloudflare providers, whose base URLs carry account placeholders. */
export function isCloudflareProvider(provider: string): boolean {
  return provider === "cloudflare-workers-ai" || provider === "cloudflare-ai-gateway";
}

/** The model's base URL with `{VAR}` placeholders (Cloudflare) filled from the environment. */
export function resolveBaseUrl(model: Model): string {
  if (!isCloudflareProvider(model.provider) || !model.baseUrl.includes("{")) return model.baseUrl;
  return fillBaseUrlPlaceholders(model);
}

/** `base + path` with exactly one slash between them, as the SDK joins them. */
export function joinUrl(base: string, path: string): string {
  return base.replace(/\/+$/, "") + path;
}

export { copilotDynamicHeaders };

/** Inputs of {@link buildOpenAIHeaders}. */
export interface OpenAIHeaderInput {
  model: Model;
  context: Context;
  apiKey: string;
  /** Per-request headers from the caller; they win over everything else. */
  optionsHeaders?: Record<string, string | null>;
  /** Session headers the provider decided to send. */
  sessionHeaders?: Record<string, string>;
}

/** The request headers, Authorization included (Cloudflare's gateway gets its own auth header). */
export function buildOpenAIHeaders(input: OpenAIHeaderInput): Record<string, string | null> {
  const { model, context, apiKey } = input;
  const headers: Record<string, string | null> = { Authorization: `Bearer ${apiKey}` };
  const extra: Record<string, string | null> = { ...model.headers };
  if (model.provider === "github-copilot") Object.assign(extra, copilotDynamicHeaders(context.messages));
  Object.assign(extra, input.sessionHeaders, input.optionsHeaders);
  if (model.provider === "cloudflare-ai-gateway") {
    // The gateway authenticates with its own header; Authorization only when given explicitly.
    headers.Authorization = extra.Authorization ?? null;
    extra["cf-aig-authorization"] = `Bearer ${apiKey}`;
  }
  return { ...headers, ...extra };
}
