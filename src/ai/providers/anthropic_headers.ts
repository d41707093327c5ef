/**
 * Endpoint and HTTP headers of an Anthropic Messages request. Authentication differs by
 * credential: API keys use `x-api-key`; Claude subscription OAuth tokens (`sk-ant-oat…`) use a
 * bearer token and must present themselves as Claude Code; GitHub Copilot and Cloudflare's AI
 * Gateway proxy the same API with their own schemes.
 *
 * @module
 */
import type { Context, Model } from "../types.ts";
import { anthropicCompat, supportsAdaptiveThinking } from "./anthropic_request.ts";
import { copilotDynamicHeaders, fillBaseUrlPlaceholders } from "./provider_headers.ts";

/** The Anthropic API version every request declares. */
export const ANTHROPIC_VERSION = "2023-06-01";
/** Claude Code release whose identity OAuth requests present. */
export const CLAUDE_CODE_VERSION = "2.1.75";
const FINE_GRAINED_TOOL_STREAMING_BETA = "fine-grained-tool-streaming-2025-05-14";
const INTERLEAVED_THINKING_BETA = "interleaved-thinking-2025-05-14";
const DEFAULT_BASE_URL = "https://api.anthropic.com";

/** True for Claude subscription OAuth access tokens. */
export function isOAuthToken(apiKey: string): boolean {
  return apiKey.includes("sk-ant-oat");
}

/** Where a request goes and what it carries besides the body. */
export interface AnthropicEndpoint {
  url: string;
  headers: Record<string, string>;
  /** Whether the request authenticates as Claude Code (changes system prompt and tool names). */
  isOAuth: boolean;
}

type HeaderSource = Record<string, string | null> | undefined;

// Header names are case-insensitive; later sources win and a null value removes a header.
function mergeHeaders(...sources: HeaderSource[]): Record<string, string> {
  const merged = new Map<string, [string, string]>();
  for (const source of sources) {
    for (const [name, value] of Object.entries(source ?? {})) {
      if (value === null) merged.delete(name.toLowerCase());
      else merged.set(name.toLowerCase(), [name, value]);
    }
  }
  return Object.fromEntries([...merged.values()]);
}

/** Fills `{VAR}` placeholders of a Cloudflare base URL from the environment. */
export function resolveCloudflareBaseUrl(model: Model): string {
  return fillBaseUrlPlaceholders(model);
}

export { copilotDynamicHeaders };

/** URL and headers for `model`; `model.headers` and then `extraHeaders` override the defaults. */
export function anthropicEndpoint(
  model: Model,
  context: Context,
  apiKey: string,
  interleavedThinking: boolean,
  extraHeaders?: Record<string, string | null>,
  sessionId?: string,
): AnthropicEndpoint {
  const betas: string[] = [];
  if (context.tools?.length && !anthropicCompat(model).supportsEagerToolInputStreaming) {
    betas.push(FINE_GRAINED_TOOL_STREAMING_BETA);
  }
  // Adaptive-thinking models interleave by default; the beta is deprecated for them.
  if (interleavedThinking && !supportsAdaptiveThinking(model)) betas.push(INTERLEAVED_THINKING_BETA);
  const betaHeader: HeaderSource = betas.length > 0 ? { "anthropic-beta": betas.join(",") } : undefined;
  const base = {
    "accept": "application/json",
    "content-type": "application/json",
    "anthropic-version": ANTHROPIC_VERSION,
    "anthropic-dangerous-direct-browser-access": "true",
  };
  let baseUrl = model.baseUrl;
  let auth: Record<string, string>;
  let identity: HeaderSource;
  let dynamic: HeaderSource;
  let isOAuth = false;
  if (model.provider === "cloudflare-ai-gateway") {
    baseUrl = resolveCloudflareBaseUrl(model);
    auth = { "cf-aig-authorization": `Bearer ${apiKey}` };
  } else if (model.provider === "github-copilot") {
    auth = { "authorization": `Bearer ${apiKey}` };
    dynamic = copilotDynamicHeaders(context.messages);
  } else if (isOAuthToken(apiKey)) {
    isOAuth = true;
    auth = { "authorization": `Bearer ${apiKey}` };
    identity = {
      "anthropic-beta": ["claude-code-20250219", "oauth-2025-04-20", ...betas].join(","),
      "user-agent": `claude-cli/${CLAUDE_CODE_VERSION}`,
      "x-app": "cli",
    };
  } else {
    auth = { "x-api-key": apiKey };
  }
  // Session affinity (pi-ai 1.x): OpenRouter routes a session to one upstream by `x-session-id`.
  const compat = anthropicCompat(model);
  const affinity: HeaderSource = sessionId && compat.sendSessionAffinityHeaders
    ? { [compat.sessionAffinityFormat === "openrouter" ? "x-session-id" : "x-session-affinity"]: sessionId }
    : undefined;
  const headers = mergeHeaders(
    base,
    auth,
    betaHeader,
    identity,
    affinity,
    model.headers,
    dynamic,
    extraHeaders,
  );
  const root = (baseUrl || DEFAULT_BASE_URL).replace(/\/$/, "");
  // pi-ai 1.x sends through the SDK's beta client, which adds `?beta=true`.
  return { url: `${root}/v1/messages?beta=true`, headers, isOAuth };
}
