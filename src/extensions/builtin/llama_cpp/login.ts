/**
 * `/login llama.cpp` as pi 1.6.0's built-in extension has it: the router's URL (default
 * `LLAMA_BASE_URL`, else `http://127.0.0.1:9931`), an optional API key, a check that the router
 * answers its catalog, and the credential `{type: "api_key", key?, env: {LLAMA_BASE_URL}}`. After
 * the login 1.6.0 points to `/llama` and `/model`.
 *
 * @module
 */
import { LlamaClient } from "./client.ts";
import { DEFAULT_LLAMA_SERVER_URL, normalizeLlamaServerUrl } from "./server_url.ts";

/** The prompts a login flow asks (the login dialog answers them). */
export interface LlamaLoginInteraction {
  prompt(
    prompt: { type: "text" | "secret"; message: string; placeholder?: string; signal?: AbortSignal },
  ): Promise<
    string
  >;
  signal?: AbortSignal;
}

/** The credential `/login llama.cpp` stores in auth.json. */
export interface LlamaCredential {
  type: "api_key";
  key?: string;
  env: { LLAMA_BASE_URL: string };
}

/** Asks for the router and its key, checks that the router answers, and returns the credential. */
export async function llamaLoginCredential(
  interaction: LlamaLoginInteraction,
  env: (name: string) => string | undefined,
): Promise<LlamaCredential> {
  const fallback = env("LLAMA_BASE_URL") || DEFAULT_LLAMA_SERVER_URL;
  const entered = await interaction.prompt({
    type: "text",
    message: "llama.cpp server URL",
    placeholder: env("LLAMA_BASE_URL") ?? DEFAULT_LLAMA_SERVER_URL,
    signal: interaction.signal,
  });
  const serverUrl = normalizeLlamaServerUrl(entered.trim() || fallback);
  const apiKey = (await interaction.prompt({
    type: "secret",
    message: "API key (optional)",
    signal: interaction.signal,
  })).trim();
  await new LlamaClient(serverUrl, apiKey || undefined).list({ signal: interaction.signal });
  return { type: "api_key", ...(apiKey ? { key: apiKey } : {}), env: { LLAMA_BASE_URL: serverUrl } };
}

/** What 1.6.0 says after a llama.cpp login when no model was selected before. */
export function llamaPostLoginGuidance(action: string, loadedModels: number): string {
  return loadedModels === 0
    ? `${action}. No llama.cpp models are loaded. Use /llama to load a model, then /model to select it.`
    : `${action}. Use /model to select a loaded llama.cpp model, or /llama to manage models.`;
}
