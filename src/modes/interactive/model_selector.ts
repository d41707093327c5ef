/**
 * The /model selector (also the app.model.select key) in pi 1.6.0's layout: a search field over
 * the available models with fuzzy matching, the current model first and ticked, the default
 * marked, the highlighted model's name below the list; ↑/↓ move, Enter picks for this session,
 * Ctrl+S picks and saves as default, Escape or Ctrl+C cancels. The scope switch (all / scoped)
 * comes with /scoped-models.
 *
 * @module
 */
import type { Model } from "../../ai/types.ts";
import {
  type Component,
  Container,
  type Focusable,
  fuzzyFilter,
  getKeybindings,
  Input,
  Spacer,
  Text,
} from "../../tui/mod.ts";
import { matchesAction } from "./app_keys.ts";
import type { Theme } from "./theme.ts";

const MAX_VISIBLE = 10;

/** The text a model is found by: provider, `provider/id`, id and name (1.6.0's order). */
export function modelSearchText(model: Model): string {
  const name = model.name ? ` ${model.name}` : "";
  return `${model.provider} ${model.provider}/${model.id} ${model.provider} ${model.id}${name}`;
}

/**
 * The text `/model <text>`'s argument completion finds a model by: 1.6.0 puts the id first there
 * (its getModelSearchText), which ranks an id match above a provider match.
 */
export function modelArgumentSearchText(model: Model): string {
  return `${model.id} ${modelSearchText(model)}`;
}

const words = (value: string) => value.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(Boolean);

/** The model's name when it says more than its id (1.6.0 shows it in brackets), else undefined. */
export function distinctModelName(model: { id: string; name?: string }): string | undefined {
  const name = model.name?.trim();
  if (!name) return undefined;
  const idWords = words(model.id);
  const idTokens = new Set(idWords);
  const compact = idWords.join("");
  // One-letter words must match a whole id token: "4" is not in "mistral-small-2603".
  const covered = (word: string) => idTokens.has(word) || (word.length > 1 && compact.includes(word));
  return words(name).every(covered) ? undefined : name;
}

/** A full-width line in the border colour. */
export class BorderLine implements Component {
  /** A border drawn with `theme`. */
  constructor(private readonly theme: Theme) {}
  /** Nothing cached. */
  invalidate(): void {}
  /** One row of `─`. */
  render(width: number): string[] {
    return [this.theme.fg("border", "─".repeat(Math.max(1, width)))];
  }
}

/**
 * Lays out a selector as 1.6.0 does: border, heading rows, the search field, the list, the key
 * hint, border (blank rows between). Returns the list's child index (for replacing it).
 */
export function frameSelector(
  container: Container,
  theme: Theme,
  heading: Component[],
  search: Component,
  list: Component,
): number {
  const parts: Component[] = [
    new BorderLine(theme),
    new Spacer(1),
    ...heading,
    new Spacer(1),
    search,
    new Spacer(1),
  ];
  for (const part of parts) container.addChild(part);
  const index = container.children.length;
  container.addChild(list);
  container.addChild(new Spacer(1));
  const keys = "  Enter to select · Ctrl+S to set as default · Escape/Ctrl+C to cancel";
  container.addChild(new Text(theme.fg("dim", keys), 0, 0));
  container.addChild(new BorderLine(theme));
  return index;
}

/** What the selector needs to know besides the models. */
export interface ModelSelectorOptions {
  current: Model | undefined;
  /** The saved default (`provider`, `id`), for the `· default` mark. */
  defaultModel?: { provider: string; id: string };
  /** A models.json problem, shown instead of the refresh notice. */
  error?: string;
  initialSearch?: string;
  onSelect: (model: Model, asDefault: boolean) => void;
  onCancel: () => void;
}

const same = (a: { provider: string; id: string } | undefined, b: Model) =>
  !!a && a.provider === b.provider && a.id === b.id;

/** The model selector component. */
export class ModelSelector extends Container implements Focusable {
  /** Set by the TUI when it takes focus; passed on to the search field. */
  focused = false;
  #search = new Input();
  #list = new Container();
  #models: Model[];
  #filtered: Model[] = [];
  #selected = 0;

  /** Lists `models` with `options`. */
  constructor(
    private readonly theme: Theme,
    models: Model[],
    private readonly options: ModelSelectorOptions,
  ) {
    super();
    const rank = (m: Model) => same(options.current, m) ? 0 : same(options.defaultModel, m) ? 1 : 2;
    this.#models = [...models].sort((a, b) => rank(a) - rank(b) || a.provider.localeCompare(b.provider));
    const hint = "Only showing models from configured providers. Use /login to add providers.";
    frameSelector(this, theme, [new Text(theme.fg("warning", hint), 0, 0)], this.#search, this.#list);
    this.#search.setValue(options.initialSearch ?? "");
    this.#filter();
  }

  #filter(): void {
    const query = this.#search.getValue();
    this.#filtered = fuzzyFilter(this.#models, query, modelSearchText);
    const current = query ? -1 : this.#filtered.findIndex((m) => same(this.options.current, m));
    this.#selected = current >= 0 ? current : 0;
    this.#renderList();
  }

  #renderList(): void {
    const theme = this.theme;
    this.#list.clear();
    const count = this.#filtered.length;
    const start = Math.max(0, Math.min(this.#selected - Math.floor(MAX_VISIBLE / 2), count - MAX_VISIBLE));
    const end = Math.min(start + MAX_VISIBLE, count);
    for (let i = start; i < end; i++) {
      const model = this.#filtered[i];
      const selected = i === this.#selected;
      const cursor = selected ? theme.fg("accent", "→ ") : "  ";
      const tick = same(this.options.current, model) ? theme.fg("accent", "✓ ") : "  ";
      const id = selected ? theme.fg("accent", model.id) : model.id;
      const name = distinctModelName(model);
      const nameText = name ? theme.fg("muted", ` (${name})`) : "";
      const badge = same(this.options.defaultModel, model) ? theme.fg("muted", " · default") : "";
      const provider = theme.fg("muted", `[${model.provider}]`);
      this.#list.addChild(new Text(`${cursor}${tick}${id}${nameText} ${provider}${badge}`, 0, 0));
    }
    if (start > 0 || end < count) {
      this.#list.addChild(new Text(theme.fg("muted", `  (${this.#selected + 1}/${count})`), 0, 0));
    }
    if (this.options.error) {
      for (const line of this.options.error.split("\n")) {
        this.#list.addChild(new Text(theme.fg("error", line), 0, 0));
      }
    } else if (count === 0) {
      this.#list.addChild(new Text(theme.fg("muted", "  No matching models"), 0, 0));
    } else {
      this.#list.addChild(new Spacer(1));
      const model = this.#filtered[this.#selected];
      this.#list.addChild(new Text(theme.fg("muted", `  Model Name: ${model.name ?? model.id}`), 0, 0));
    }
    if (!this.options.error) {
      // The registry re-read models.json when the selector opened (1.6.0 refreshes remote catalogs too).
      this.#list.addChild(new Spacer(1));
      this.#list.addChild(new Text(theme.fg("success", "  Model catalogs refreshed."), 0, 0));
    }
  }

  /** Keys: ↑/↓ move (wrapping), Enter picks, Ctrl+S picks as default, Escape cancels, others search. */
  handleInput(data: string): void {
    const kb = getKeybindings();
    const count = this.#filtered.length;
    if (kb.matches(data, "tui.select.up")) {
      if (count > 0) this.#selected = this.#selected === 0 ? count - 1 : this.#selected - 1;
      this.#renderList();
    } else if (kb.matches(data, "tui.select.down")) {
      if (count > 0) this.#selected = this.#selected === count - 1 ? 0 : this.#selected + 1;
      this.#renderList();
    } else if (kb.matches(data, "tui.select.confirm") || matchesAction(data, "app.models.save")) {
      const model = this.#filtered[this.#selected];
      if (model) this.options.onSelect(model, matchesAction(data, "app.models.save"));
    } else if (kb.matches(data, "tui.select.cancel")) {
      this.options.onCancel();
    } else {
      this.#search.handleInput(data);
      this.#filter();
    }
  }

  override render(width: number): string[] {
    (this.#search as { focused?: boolean }).focused = this.focused;
    return super.render(width) as string[];
  }
}
