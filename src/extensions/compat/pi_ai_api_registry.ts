/**
 * 1.6.0 pi-ai's compat-entry registry controls for extensions: registering the built-in API
 * implementations (without replacing an override an extension or test registered) and resetting
 * the registry to just them. Each built-in is registered as a wrapper that loads the provider
 * module on its first request, so registering costs no module loads.
 *
 * @module
 */
import type { ApiProvider } from "../../ai/api_provider.ts";
import {
  builtinApis,
  clearApiProviders,
  getApiProvider,
  loadBuiltinApiProvider,
  registerApiProvider,
} from "../../ai/api_registry.ts";
import type { Api } from "../../ai/types.ts";
import { lazyProviderStreams } from "./pi_ai_lazy_api.ts";

function lazyBuiltin(api: Api): ApiProvider {
  return {
    api,
    ...lazyProviderStreams(async () => {
      const provider = await loadBuiltinApiProvider(api);
      if (!provider) throw new Error(`No built-in implementation of API ${api}`);
      return provider;
    }),
  };
}

/** Registers every built-in API implementation whose API has none registered yet. */
export function registerBuiltInApiProviders(): void {
  for (const api of builtinApis()) {
    if (!getApiProvider(api)) registerApiProvider(lazyBuiltin(api));
  }
}

/** Removes every registered implementation (overrides included) and registers the built-ins again. */
export function resetApiProviders(): void {
  clearApiProviders();
  registerBuiltInApiProviders();
}
