/**
 * The OAuth login flows built into pi (1.6.0's list), each loaded on first use: nothing here imports
 * a flow at start-up. A flow is loaded when a login asks for it or when auth.json holds an OAuth
 * credential for its provider and a key is needed; it then registers itself in oauth_registry.ts.
 *
 * Adding a flow: one entry in {@link BUILTIN_OAUTH_FLOWS} with a literal `import("./<file>.ts")` (a
 * static specifier, so `deno check` and `deno compile` see the module).
 *
 * @module
 */

import type { OAuthProviderInterface } from "../oauth_registry.ts";
import { getOAuthProvider, registerBuiltinOAuthProvider } from "../oauth_registry.ts";

/** A built-in flow: the provider's name for people (known without loading) and its loader. */
export interface BuiltinOAuthFlow {
  /** 1.6.0's display name, e.g. "Anthropic (Claude Pro/Max)". */
  name: string;
  /** Imports the flow's module and returns its provider. */
  load: () => Promise<OAuthProviderInterface>;
  /**
   * The provider has `modifyModels` (e.g. an account-specific base URL): with a stored login its flow
   * must be loaded before the model registry is built, see {@link loadModelModifyingOAuthFlows}.
   */
  modifiesModels?: boolean;
}

/** Built-in flows by provider id. */
export const BUILTIN_OAUTH_FLOWS: Readonly<Record<string, BuiltinOAuthFlow>> = {
  anthropic: {
    name: "Anthropic (Claude Pro/Max)",
    load: async () => (await import("./anthropic.ts")).anthropicOAuth,
  },
  "openai-codex": {
    name: "OpenAI (ChatGPT Plus/Pro)",
    load: async () => (await import("./openai_codex.ts")).openaiCodexOAuth,
  },
  "github-copilot": {
    name: "GitHub Copilot",
    load: async () => (await import("./github_copilot.ts")).githubCopilotOAuth,
  },
  openai: {
    name: "OpenAI (ChatGPT subscription)",
    load: async () => (await import("./openai_chatgpt.ts")).openaiChatGPTOAuth,
  },
  openrouter: {
    name: "OpenRouter OAuth",
    load: async () => (await import("./openrouter.ts")).openRouterOAuth,
  },
  xai: {
    name: "xAI (Grok/X subscription)",
    load: async () => (await import("./xai.ts")).xaiOAuth,
  },
  "kimi-coding": {
    name: "Kimi Code (subscription)",
    load: async () => (await import("./kimi_coding.ts")).kimiCodingOAuth,
  },
  meta: {
    name: "Meta (Muse subscription)",
    load: async () => (await import("./meta.ts")).metaOAuth,
  },
  radius: {
    name: "Radius",
    // 1.6.0's default gateway; a configured gateway registers its own provider at runtime. Tests send
    // the gateway's requests to a fake server with PI_RADIUS_OAUTH_URL, as the other flows' variables.
    load: async () => {
      const { oauthEndpoint } = await import("./endpoint_override.ts");
      const gateway = oauthEndpoint("https://radius.pi.dev", "PI_RADIUS_OAUTH_URL");
      return (await import("./radius.ts")).createRadiusOAuth({ name: "Radius", gateway });
    },
  },
};

/** Ids of the built-in flows, sorted. */
export function builtinOAuthProviderIds(): string[] {
  return Object.keys(BUILTIN_OAUTH_FLOWS).sort();
}

/** Whether `id` has a built-in flow (loaded or not). */
export function hasBuiltinOAuthFlow(id: string): boolean {
  return Object.hasOwn(BUILTIN_OAUTH_FLOWS, id);
}

/**
 * The OAuth provider for `id`: a runtime registration or an already loaded flow as is, else the
 * built-in flow, loaded and registered now. Undefined when `id` has neither.
 */
export async function loadOAuthProvider(id: string): Promise<OAuthProviderInterface | undefined> {
  const registered = getOAuthProvider(id);
  if (registered) return registered;
  if (!hasBuiltinOAuthFlow(id)) return undefined;
  const provider = await BUILTIN_OAUTH_FLOWS[id].load();
  registerBuiltinOAuthProvider(provider);
  return getOAuthProvider(id);
}

/** Loads the built-in flows of every id in `ids` that has one (e.g. the OAuth entries of auth.json). */
export async function loadBuiltinOAuthProviders(ids: Iterable<string>): Promise<void> {
  await Promise.all([...ids].filter(hasBuiltinOAuthFlow).map((id) => loadOAuthProvider(id)));
}

/**
 * Loads the flows among `ids` (e.g. the providers with an OAuth entry in auth.json) whose provider
 * changes its models after login, so that the next model-registry refresh applies `modifyModels`.
 * Flows that only turn the login into a key stay unloaded until a request needs them.
 */
export async function loadModelModifyingOAuthFlows(ids: Iterable<string>): Promise<void> {
  const wanted = [...ids].filter((id) => hasBuiltinOAuthFlow(id) && BUILTIN_OAUTH_FLOWS[id].modifiesModels);
  await loadBuiltinOAuthProviders(wanted);
}
