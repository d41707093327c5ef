/**
 * `/logout` as pi 1.6.0 has it: a selector of the providers with credentials stored in auth.json
 * ("Select provider to logout:", a search field, ↑/↓, Enter, Escape); choosing one removes its
 * credential and says `Logged out of <provider>` (an account login) or `Removed stored API key for
 * <provider>. …`. Environment variables and models.json stay as they are. Without stored credentials
 * it only says so.
 *
 * @module
 */
import { Container, fuzzyFilter, getKeybindings, Input, Spacer, TruncatedText } from "../../tui/mod.ts";
import type { CommandHost } from "./command_host.ts";
import { BorderLine } from "./model_selector.ts";
import type { Theme } from "./theme.ts";

/** One stored credential offered for removal. */
export interface LogoutOption {
  id: string;
  name: string;
  authType: "api_key" | "oauth";
}

/** pi 1.6.0's partner providers, listed first (in this order) and marked with ✦. */
const PREFERRED_PROVIDERS = ["radius", "openrouter"];
/** Providers whose account login is a subscription (1.6.0's `isSubscription`); other logins are "account". */
const SUBSCRIPTION_PROVIDERS = new Set([
  "anthropic",
  "github-copilot",
  "kimi-coding",
  "meta",
  "openai",
  "openai-codex",
  "xai",
]);
const MAX_VISIBLE = 8;

/** Partners first in their order, then by name (1.6.0's compareProviders). */
export function compareLogoutOptions(a: LogoutOption, b: LogoutOption): number {
  const rank = (id: string) => {
    const index = PREFERRED_PROVIDERS.indexOf(id);
    return index === -1 ? PREFERRED_PROVIDERS.length : index;
  };
  return rank(a.id) - rank(b.id) || a.name.localeCompare(b.name);
}

/** What 1.6.0 says when nothing is stored. */
export const NOTHING_TO_LOG_OUT =
  "No stored credentials to remove. /logout only removes credentials saved by /login; environment variables and models.json config are unchanged.";

/** The /logout selector. */
export class LogoutSelector extends Container {
  #selected = 0;
  #filtered: LogoutOption[];
  readonly #search = new Input();
  readonly #list = new Container();
  readonly #showTypes: boolean;
  #focused = false;

  /** A selector over `options` (already sorted). */
  constructor(
    private readonly theme: Theme,
    private readonly options: LogoutOption[],
    private readonly onSelect: (option: LogoutOption) => void,
    private readonly onCancel: () => void,
  ) {
    super();
    this.#filtered = options;
    this.#showTypes = new Set(options.map((o) => o.authType)).size > 1;
    this.addChild(new BorderLine(theme));
    this.addChild(new Spacer(1));
    this.addChild(new TruncatedText(theme.fg("accent", theme.bold("Select provider to logout:")), 1, 0));
    this.addChild(new Spacer(1));
    this.#search.onSubmit = () => this.#choose();
    this.addChild(this.#search);
    this.addChild(new Spacer(1));
    this.addChild(this.#list);
    this.addChild(new Spacer(1));
    this.addChild(new BorderLine(theme));
    this.#renderList();
  }

  /** Focus goes to the search field (its cursor). */
  get focused(): boolean {
    return this.#focused;
  }
  set focused(value: boolean) {
    this.#focused = value;
    this.#search.focused = value;
  }

  #choose(): void {
    const option = this.#filtered[this.#selected];
    if (option) this.onSelect(option);
  }

  #filter(query: string): void {
    this.#filtered = query
      ? fuzzyFilter(this.options, query, (o) => `${o.name} ${o.id} ${o.authType}`)
      : this.options;
    this.#selected = query ? 0 : Math.min(this.#selected, Math.max(0, this.#filtered.length - 1));
    this.#renderList();
  }

  #renderList(): void {
    const { theme } = this;
    this.#list.clear();
    const start = Math.max(
      0,
      Math.min(this.#selected - Math.floor(MAX_VISIBLE / 2), this.#filtered.length - MAX_VISIBLE),
    );
    const end = Math.min(start + MAX_VISIBLE, this.#filtered.length);
    for (let i = start; i < end; i++) {
      const option = this.#filtered[i];
      const partner = PREFERRED_PROVIDERS.includes(option.id) ? theme.fg("muted", " ✦") : "";
      const kind = option.authType === "api_key"
        ? "API key"
        : SUBSCRIPTION_PROVIDERS.has(option.id)
        ? "subscription"
        : "account";
      const type = this.#showTypes ? theme.fg("muted", ` [${kind}]`) : "";
      const status = theme.fg("success", " ✓ configured");
      const name = i === this.#selected
        ? theme.fg("accent", "→ ") + theme.fg("accent", option.name)
        : `  ${theme.fg("text", option.name)}`;
      this.#list.addChild(new TruncatedText(name + partner + type + status, 1, 0));
    }
    if (start > 0 || end < this.#filtered.length) {
      this.#list.addChild(
        new TruncatedText(theme.fg("muted", `  (${this.#selected + 1}/${this.#filtered.length})`), 1, 0),
      );
    }
    if (this.#filtered.length === 0) {
      const message = this.options.length === 0
        ? "No providers logged in. Use /login first."
        : "No matching providers";
      this.#list.addChild(new TruncatedText(theme.fg("muted", `  ${message}`), 1, 0));
    }
  }

  /** ↑/↓ move, Enter removes, Escape cancels; other keys edit the search. */
  handleInput(data: string): void {
    const kb = getKeybindings();
    if (kb.matches(data, "tui.select.up")) {
      if (this.#filtered.length === 0) return;
      this.#selected = Math.max(0, this.#selected - 1);
      this.#renderList();
    } else if (kb.matches(data, "tui.select.down")) {
      if (this.#filtered.length === 0) return;
      this.#selected = Math.min(this.#filtered.length - 1, this.#selected + 1);
      this.#renderList();
    } else if (kb.matches(data, "tui.select.confirm")) {
      this.#choose();
    } else if (kb.matches(data, "tui.select.cancel")) {
      this.onCancel();
    } else {
      const before = this.#search.getValue();
      this.#search.handleInput(data);
      const query = this.#search.getValue();
      if (query !== before) this.#filter(query);
    }
  }
}

/** Opens the /logout selector in place of the editor, or says that nothing is stored. */
export async function showLogoutSelector(app: CommandHost): Promise<void> {
  const runtime = app.session.modelRuntime;
  const stored = await runtime.listCredentials();
  if (stored.length === 0) {
    app.chat.addNotice("status", NOTHING_TO_LOG_OUT);
    app.requestRender();
    return;
  }
  const options = stored.map(({ providerId, type }) => ({
    id: providerId,
    name: runtime.modelRegistry.getProviderDisplayName(providerId),
    authType: type,
  })).sort(compareLogoutOptions);
  const selector: LogoutSelector = new LogoutSelector(
    app.theme,
    options,
    (option) => {
      close();
      runtime.logout(option.id).then(
        () =>
          app.chat.addNotice(
            "status",
            option.authType === "oauth"
              ? `Logged out of ${option.name}`
              : `Removed stored API key for ${option.name}. Environment variables and models.json config are unchanged.`,
          ),
        (error) =>
          app.chat.addNotice(
            "error",
            `Logout failed: ${error instanceof Error ? error.message : String(error)}`,
          ),
      ).finally(() => app.requestRender());
    },
    () => {
      close();
      app.requestRender();
    },
  );
  const close = app.showSelector(selector);
}
