/**
 * The /model selector (also the app.model.select key): a search field over the available models
 * with fuzzy matching, the current model ticked, ↑/↓ to move, Enter to pick, Escape to cancel —
 * pi 1.6.0's layout without its scope switch and default-model save (those come with
 * /scoped-models and /settings).
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
import type { Theme } from "./theme.ts";

const MAX_VISIBLE = 10;

/** The text a model is found by: provider, `provider/id`, id and name. */
export function modelSearchText(model: Model): string {
  const name = model.name ? ` ${model.name}` : "";
  return `${model.provider} ${model.provider}/${model.id} ${model.provider} ${model.id}${name}`;
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

/** The model selector component. */
export class ModelSelector extends Container implements Focusable {
  /** Set by the TUI when it takes focus; passed on to the search field. */
  focused = false;
  #search = new Input();
  #list = new Container();
  #filtered: Model[] = [];
  #selected = 0;

  /** Lists `models`; `onSelect`/`onCancel` end the selection. */
  constructor(
    private readonly theme: Theme,
    private readonly models: Model[],
    private readonly current: Model | undefined,
    private readonly onSelect: (model: Model) => void,
    private readonly onCancel: () => void,
    initialSearch = "",
  ) {
    super();
    this.addChild(new BorderLine(theme));
    this.addChild(new Spacer(1));
    this.addChild(this.#search);
    this.addChild(new Spacer(1));
    this.addChild(this.#list);
    this.addChild(new Spacer(1));
    this.addChild(new Text(theme.fg("dim", "  Enter to select · Escape to cancel"), 0, 0));
    this.addChild(new BorderLine(theme));
    this.#search.setValue(initialSearch);
    this.#filter();
  }

  #filter(): void {
    const query = this.#search.getValue();
    this.#filtered = fuzzyFilter(this.models, query, modelSearchText);
    const currentIndex = query ? -1 : this.#filtered.findIndex((m) => this.#isCurrent(m));
    this.#selected = currentIndex >= 0 ? currentIndex : 0;
    this.#renderList();
  }

  #isCurrent(model: Model): boolean {
    return !!this.current && this.current.provider === model.provider && this.current.id === model.id;
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
      const tick = this.#isCurrent(model) ? theme.fg("accent", "✓ ") : "  ";
      const id = selected ? theme.fg("accent", model.id) : model.id;
      this.#list.addChild(
        new Text(`${cursor}${tick}${id} ${theme.fg("muted", `[${model.provider}]`)}`, 0, 0),
      );
    }
    if (start > 0 || end < count) {
      this.#list.addChild(new Text(theme.fg("muted", `  (${this.#selected + 1}/${count})`), 0, 0));
    }
    if (count === 0) this.#list.addChild(new Text(theme.fg("muted", "  No matching models"), 0, 0));
  }

  /** Keys: ↑/↓ move (wrapping), Enter picks, Escape cancels, anything else edits the search. */
  handleInput(data: string): void {
    const kb = getKeybindings();
    const count = this.#filtered.length;
    if (kb.matches(data, "tui.select.up")) {
      if (count > 0) this.#selected = this.#selected === 0 ? count - 1 : this.#selected - 1;
      this.#renderList();
    } else if (kb.matches(data, "tui.select.down")) {
      if (count > 0) this.#selected = this.#selected === count - 1 ? 0 : this.#selected + 1;
      this.#renderList();
    } else if (kb.matches(data, "tui.select.confirm")) {
      const model = this.#filtered[this.#selected];
      if (model) this.onSelect(model);
    } else if (kb.matches(data, "tui.select.cancel")) {
      this.onCancel();
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
