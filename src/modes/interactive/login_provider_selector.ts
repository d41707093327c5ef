/**
 * `/login`'s provider list as pi 1.6.0 shows it ("Select provider to configure:"): a search field,
 * partners first (✦), a `[subscription]`/`[account]`/`[API key]` label when both kinds are listed, and
 * each option's state (` • not configured`, ` ✓ configured`, ` ✓ env: NAME`, or the other kind
 * configured in warning colour). ↑/↓, Enter, Escape.
 *
 * @module
 */
import { Container, fuzzyFilter, getKeybindings, Input, Spacer, TruncatedText } from "../../tui/mod.ts";
import { BorderLine } from "./model_selector.ts";
import type { Theme } from "./theme.ts";

/** One way to sign in to one provider. */
export interface LoginOption {
  id: string;
  name: string;
  authType: "oauth" | "api_key";
  /** Whether the account login is a subscription (else "account"). */
  subscription: boolean;
  /** How the provider is configured now, if it is. */
  status?: { type: "oauth" | "api_key"; source?: string };
}

const PREFERRED = ["radius", "openrouter"];
const MAX_VISIBLE = 8;

/** `API key`, `subscription` or `account` (1.6.0's type label). */
export function loginTypeLabel(authType: "oauth" | "api_key", subscription: boolean): string {
  return authType === "api_key" ? "API key" : subscription ? "subscription" : "account";
}

/** The themed state suffix of an option, e.g. ` ✓ configured` (1.6.0's wording). */
export function loginStatusText(theme: Theme, option: LoginOption): string {
  const status = option.status;
  if (!status) return theme.fg("muted", " • not configured");
  if (status.type !== option.authType) {
    return theme.fg("muted", " • ") +
      theme.fg("warning", `${loginTypeLabel(status.type, option.subscription)} configured`);
  }
  if (!status.source || status.source === "stored") return theme.fg("success", " ✓ configured");
  const source = /^[A-Z][A-Z0-9_]*(?:, [A-Z][A-Z0-9_]*)*$/.test(status.source)
    ? `env: ${status.source}`
    : status.source;
  return theme.fg("success", ` ✓ ${source}`);
}

/** Partners first in their order, then by name; stable, so an account option stays above its key option. */
export function compareLoginOptions(a: LoginOption, b: LoginOption): number {
  const rank = (id: string) => {
    const index = PREFERRED.indexOf(id);
    return index === -1 ? PREFERRED.length : index;
  };
  return rank(a.id) - rank(b.id) || a.name.localeCompare(b.name);
}

/** The provider selector of /login. */
export class LoginProviderSelector extends Container {
  #selected = 0;
  #filtered: LoginOption[];
  readonly #search = new Input();
  readonly #list = new Container();
  readonly #showTypes: boolean;
  #focused = false;

  /** A selector over `options` (sorted), its search field pre-filled with `initialSearch`. */
  constructor(
    private readonly theme: Theme,
    private readonly options: LoginOption[],
    private readonly onSelect: (option: LoginOption) => void,
    private readonly onCancel: () => void,
    initialSearch?: string,
  ) {
    super();
    this.#filtered = options;
    this.#showTypes = new Set(options.map((o) => o.authType)).size > 1;
    this.addChild(new BorderLine(theme));
    this.addChild(new Spacer(1));
    this.addChild(new TruncatedText(theme.fg("accent", theme.bold("Select provider to configure:")), 1, 0));
    this.addChild(new Spacer(1));
    if (initialSearch) this.#search.setValue(initialSearch);
    this.#search.onSubmit = () => this.#choose();
    this.addChild(this.#search);
    this.addChild(new Spacer(1));
    this.addChild(this.#list);
    this.addChild(new Spacer(1));
    this.addChild(new BorderLine(theme));
    this.#filter(initialSearch ?? "");
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
      const partner = PREFERRED.includes(option.id) ? theme.fg("muted", " ✦") : "";
      const type = this.#showTypes
        ? theme.fg("muted", ` [${loginTypeLabel(option.authType, option.subscription)}]`)
        : "";
      const name = i === this.#selected
        ? theme.fg("accent", "→ ") + theme.fg("accent", option.name)
        : `  ${theme.fg("text", option.name)}`;
      this.#list.addChild(new TruncatedText(name + partner + type + loginStatusText(theme, option), 1, 0));
    }
    if (start > 0 || end < this.#filtered.length) {
      this.#list.addChild(
        new TruncatedText(theme.fg("muted", `  (${this.#selected + 1}/${this.#filtered.length})`), 1, 0),
      );
    }
    if (this.#filtered.length === 0) {
      const message = this.options.length === 0 ? "No providers available" : "No matching providers";
      this.#list.addChild(new TruncatedText(theme.fg("muted", `  ${message}`), 1, 0));
    }
  }

  /** ↑/↓ move, Enter chooses, Escape cancels; other keys edit the search. */
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
