/**
 * Recognises "the prompt no longer fits" across providers, so the session can compact and
 * retry instead of surfacing a raw error (LOOP-12).
 *
 * @module
 */
import type { AssistantMessage } from "./types.ts";

/** Error texts that mean the input exceeded the context window, one or more per provider. */
const OVERFLOW_PATTERNS: readonly RegExp[] = [
  /prompt is too long/i, // Anthropic: "prompt is too long: 213462 tokens > 200000 maximum"
  /request_too_large/i, // Anthropic: HTTP 413 on request byte size
  /input is too long for requested model/i, // Amazon Bedrock
  /exceeds the context window/i, // OpenAI Completions and Responses
  /input token count.*exceeds the maximum/i, // Google Gemini
  /maximum prompt length is \d+/i, // xAI
  /reduce the length of the messages/i, // Groq
  /maximum context length is \d+ tokens/i, // OpenRouter
  /exceeds the limit of \d+/i, // GitHub Copilot
  /exceeds the available context size/i, // llama.cpp
  /greater than the context length/i, // LM Studio
  /context window exceeds limit/i, // MiniMax
  /exceeded model token limit/i, // Kimi For Coding
  /too large for model with \d+ maximum context length/i, // Mistral
  /model_context_window_exceeded/i, // z.ai finish reason surfaced as error text
  /prompt too long; exceeded (?:max )?context length/i, // Ollama
  /context[_ ]length[_ ]exceeded/i, // generic
  /too many tokens/i, // generic
  /token limit exceeded/i, // generic
  /^4(?:00|13)\s*(?:status code)?\s*\(no body\)/i, // Cerebras: empty 400/413
];

/**
 * Texts that rule overflow out even when an overflow pattern matches, e.g. Bedrock's
 * "ThrottlingException: Too many tokens, please wait".
 */
const NON_OVERFLOW_PATTERNS: readonly RegExp[] = [
  /^(Throttling error|Service unavailable):/i,
  /rate limit/i,
  /too many requests/i,
];

/**
 * True when `message` shows a context overflow: an error text matching a known pattern; or,
 * given `contextWindow`, a successful reply whose input (incl. cache reads) exceeds it
 * (providers that accept overflow silently); or a "length" stop with no output after input
 * filled at least 99% of it (providers that truncate the prompt to fit).
 */
export function isContextOverflow(message: AssistantMessage, contextWindow?: number): boolean {
  const text = message.errorMessage;
  if (message.stopReason === "error" && text) {
    const excluded = NON_OVERFLOW_PATTERNS.some((p) => p.test(text));
    if (!excluded && OVERFLOW_PATTERNS.some((p) => p.test(text))) return true;
  }
  if (!contextWindow) return false;
  const input = message.usage.input + message.usage.cacheRead;
  if (message.stopReason === "stop" && input > contextWindow) return true;
  if (message.stopReason === "length" && message.usage.output === 0 && input >= contextWindow * 0.99) {
    return true;
  }
  return false;
}

/** A copy of the overflow patterns (for tests and diagnostics). */
export function getOverflowPatterns(): RegExp[] {
  return [...OVERFLOW_PATTERNS];
}
