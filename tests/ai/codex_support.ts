/**
 * Shared pieces of the Codex tests: a fake ChatGPT OAuth access token (a JWT whose claims carry
 * the account id; its signature is never checked) and Codex models pointed at the fake server.
 *
 * @module
 */
import type { Model } from "../../src/ai/types.ts";

/** The account id inside {@link CODEX_TOKEN}. */
export const CODEX_ACCOUNT_ID = "acct-fake-0001";

function base64Url(text: string): string {
  return btoa(text).replace(/=+$/, "").replace(/\+/g, "-").replace(/\//g, "_");
}

/** A JWT-shaped token with the `chatgpt_account_id` claim (padded so plain `atob` reads it). */
export const CODEX_TOKEN = [
  base64Url(JSON.stringify({ alg: "none", typ: "JWT" })),
  btoa(JSON.stringify({ "https://api.openai.com/auth": { chatgpt_account_id: CODEX_ACCOUNT_ID }, x: "ab" })),
  "fake-signature",
].join(".");

/** The compat flags 1.6.0's catalog gives the GPT-6 Codex models. */
export const GPT6_COMPAT = {
  supportsOpenAIGrammarTools: true,
  supportsAdditionalTools: true,
  supportsToolSearch: true,
  supportsMidConvoSystemMessages: true,
  supportsMidConvoEffort: true,
};

/** A Codex model at `<url>/backend-api`. */
export function codexModel(id: string, extra: Partial<Model> = {}): (url: string) => Model {
  return (url) => ({
    id,
    name: id,
    api: "openai-codex-responses",
    provider: "openai-codex",
    baseUrl: `${url}/backend-api`,
    reasoning: true,
    input: ["text", "image"],
    cost: { input: 1.25, output: 10, cacheRead: 0.125, cacheWrite: 0 },
    contextWindow: 400000,
    maxTokens: 128000,
    ...extra,
  });
}

/** A plain text answer. */
export const TEXT_TURN = { content: [{ type: "text" as const, text: "Hello there, friend." }] };

/** An answer with a reasoning item (encrypted content) before its text, and cached input. */
export const REASONING_TURN = {
  content: [
    { type: "thinking" as const, thinking: "Greet.", signature: "enc-reasoning-1" },
    { type: "text" as const, text: "Hi! How can I help?" },
  ],
  usage: { input: 100, output: 20, cacheRead: 40 },
};
