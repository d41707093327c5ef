/**
 * What `/login` offers: every provider's account login and API key login (1.6.0's list: built-in
 * providers, those models.json or extensions add, and the account flows), and the `/login <provider>`
 * argument completion built from it.
 *
 * @module
 */
import { builtinProviders } from "../../ai/model_catalog.ts";
import { BUILTIN_OAUTH_FLOWS } from "../../config/oauth/builtin_oauth.ts";
import { getOAuthProviders } from "../../config/oauth_registry.ts";
import { fuzzyFilter } from "../../tui/mod.ts";
import type { AutocompleteItem } from "../../tui/mod.ts";
import { isLlamaEnabled } from "../../resources/builtin_extensions.ts";
import type { CommandHost } from "./command_host.ts";
import { compareLoginOptions, type LoginOption, loginTypeLabel } from "./login_provider_selector.ts";

/** 1.6.0 providers without an API key login (their only way in is the account sign-in). */
const ACCOUNT_ONLY = new Set(["openai-codex"]);
/** Account logins that are not subscriptions (1.6.0's `isSubscription: false`). */
const NOT_SUBSCRIPTION = new Set(["openrouter", "radius"]);

/** Every login option (account and API key), sorted as 1.6.0 lists them; `authType` keeps one kind. */
export function loginOptions(app: CommandHost, authType?: "oauth" | "api_key"): LoginOption[] {
  const runtime = app.session.modelRuntime;
  const oauthIds = new Set([...Object.keys(BUILTIN_OAUTH_FLOWS), ...getOAuthProviders().map((p) => p.id)]);
  // Built-in providers, then those models.json or extensions add (they take an API key too).
  const keyIds = new Set([...builtinProviders(), ...runtime.getAllModels().map((m) => m.provider)]);
  // The built-in llama.cpp extension's provider, even before it has models.
  if (isLlamaEnabled(app.session)) keyIds.add("llama.cpp");
  const ids = new Set([...keyIds, ...oauthIds]);
  // Extensions' OAuth providers (pi.registerProvider with `oauth`): 1.6.0 offers their API key login only
  // when a key is configured for them or they are built-in providers, and reads `isSubscription` from them.
  const extensionOAuth = new Map(
    getOAuthProviders().filter((p) => !(p.id in BUILTIN_OAUTH_FLOWS)).map((p) => [p.id, p]),
  );
  const builtins = new Set(builtinProviders());
  const options: LoginOption[] = [];
  for (const id of ids) {
    const auth = runtime.getProviderAuthStatus(id);
    const status = auth.configured
      ? {
        type: runtime.isUsingOAuth(id) ? "oauth" as const : "api_key" as const,
        source: auth.label ?? auth.source,
      }
      : undefined;
    const base = { id, name: runtime.modelRegistry.getProviderDisplayName(id), status };
    const extension = extensionOAuth.get(id);
    const subscription = extension ? extension.isSubscription === true : !NOT_SUBSCRIPTION.has(id);
    const keyLogin = !extension || builtins.has(id) || runtime.modelRegistry.hasConfiguredApiKey(id);
    if (authType !== "api_key" && oauthIds.has(id)) {
      options.push({ ...base, authType: "oauth", subscription });
    }
    if (authType !== "oauth" && keyIds.has(id) && !ACCOUNT_ONLY.has(id) && keyLogin) {
      options.push({ ...base, authType: "api_key", subscription });
    }
  }
  return options.sort(compareLoginOptions);
}

/**
 * `/login <prefix>` completions as 1.6.0 shows them: one per provider (id, then `Name · kinds`, e.g.
 * `GitHub Copilot · subscription/API key`), fuzzy-matched on id, name and kinds.
 */
export function loginCompletions(app: CommandHost, prefix: string): AutocompleteItem[] {
  const byId = new Map<string, { option: LoginOption; kinds: ("oauth" | "api_key")[] }>();
  for (const option of loginOptions(app)) {
    const entry = byId.get(option.id);
    if (!entry) byId.set(option.id, { option, kinds: [option.authType] });
    else if (!entry.kinds.includes(option.authType)) entry.kinds.push(option.authType);
  }
  // Account before key: loginOptions lists a provider's account option first.
  const entries = [...byId.values()];
  const label = (e: (typeof entries)[number]) => e.kinds.map((k) => loginTypeLabel(k, e.option.subscription));
  return fuzzyFilter(
    entries,
    prefix,
    (e) => `${e.option.id} ${e.option.name} ${e.kinds.map((k, i) => `${k} ${label(e)[i]}`).join(" ")}`,
  ).map((e) => ({
    value: e.option.id,
    label: e.option.id,
    description: e.option.name === e.option.id
      ? label(e).join("/")
      : `${e.option.name} · ${label(e).join("/")}`,
  }));
}
