/**
 * 1.6.0 pi-ai's auth helpers for extensions defining providers: the default environment access
 * of auth resolution, the standard "key from the store, else the first set variable" api-key
 * auth, and a wrapper that loads an OAuth flow on first use.
 *
 * @module
 */
import { homeDir } from "../../util/os.ts";
import { readEnv } from "../../util/env.ts";
import type { ApiKeyAuth, AuthContext, OAuthAuth } from "./pi_ai_auth_types.ts";

/**
 * The default auth context: the process environment (a blank value counts as unset; without
 * env permission every variable is unset) and file existence, with `~` as the home directory.
 */
export function defaultProviderAuthContext(): AuthContext {
  return {
    env(name) {
      const value = readEnv(name);
      return Promise.resolve(typeof value === "string" && value.trim().length > 0 ? value : undefined);
    },
    async fileExists(path) {
      try {
        await Deno.stat(path.startsWith("~") ? homeDir() + path.slice(1) : path);
        return true;
      } catch {
        return false;
      }
    },
  };
}

/**
 * Api-key auth named `name`: a stored key wins, else the first of `envVars` that is set; its
 * `login` asks for the key as a secret.
 */
export function envApiKeyAuth(name: string, envVars: readonly string[]): ApiKeyAuth {
  return {
    name,
    login: async (interaction) => {
      interaction.signal.throwIfAborted();
      const key = await interaction.prompt({ type: "secret", message: `Enter ${name}` });
      interaction.signal.throwIfAborted();
      return { type: "api_key", key };
    },
    resolve: async ({ ctx, credential, signal }) => {
      signal.throwIfAborted();
      if (credential?.key) {
        return { auth: { apiKey: credential.key }, env: credential.env, source: "stored credential" };
      }
      for (const envVar of envVars) {
        const value = await ctx.env(envVar);
        signal.throwIfAborted();
        if (value) return { auth: { apiKey: value }, source: envVar };
      }
      return undefined;
    },
  };
}

/** OAuth auth whose flow `load` imports on the first `login`, `refresh` or `toAuth` (once). */
export function lazyOAuth(input: {
  name: string;
  isSubscription?: boolean;
  loginLabel?: string;
  load: () => Promise<OAuthAuth>;
}): OAuthAuth {
  let loading: Promise<OAuthAuth> | undefined;
  const loaded = () => loading ??= input.load();
  return {
    name: input.name,
    isSubscription: input.isSubscription,
    loginLabel: input.loginLabel,
    login: async (interaction, options) => (await loaded()).login(interaction, options),
    refresh: async (credential, signal) => (await loaded()).refresh(credential, signal),
    toAuth: async (credential) => (await loaded()).toAuth(credential),
  };
}
