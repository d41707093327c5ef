/**
 * The /scoped-models selector of pi 1.6.0 ("Model Configuration"): every available model with a
 * tick when it is in the Ctrl+P cycle. Enter toggles one, Ctrl+A enables all (the filtered ones
 * while searching), Ctrl+X clears, Ctrl+P toggles the highlighted model's provider, Alt+↑/↓ move
 * an enabled model in the cycle order, Ctrl+S saves the selection as `enabledModels`; typing
 * filters. Changes apply to the session at once and stay session-only until saved.
 *
 * An enabled list of `null` means "all models" (no scope), as in 1.6.0.
 *
 * @module
 */
import type { Model } from "../../ai/types.ts";
import {
  Container,
  type Focusable,
  fuzzyFilter,
  getKeybindings,
  getSelectPageIndex,
  Input,
  matchesKey,
  Spacer,
  Text,
} from "../../tui/mod.ts";
import { APP_KEYS, type AppAction, matchesAction } from "./app_keys.ts";
import { keyDisplayText } from "./hotkeys.ts";
import { BorderLine, distinctModelName, modelSearchText } from "./model_selector.ts";
import type { Theme } from "./theme.ts";

/** Enabled `provider/id`s in cycle order, or null for all. */
export type EnabledIds = string[] | null;

/** What the selector reports. */
export interface ScopedModelsCallbacks {
  /** The selection changed (applied to the session at once). */
  onChange(enabled: EnabledIds): void;
  /** Ctrl+S: save the selection to settings. */
  onPersist(enabled: EnabledIds): void;
  onCancel(): void;
}

interface Item {
  fullId: string;
  model?: Model;
  enabled: boolean;
}

const MAX_VISIBLE = 8;
const isEnabled = (enabled: EnabledIds, id: string) => enabled === null || enabled.includes(id);

/** An explicit list that covers every model collapses back to null (all). */
function normalize(result: string[], all: string[]): EnabledIds {
  return result.length === all.length && result.every((id) => all.includes(id)) ? null : result;
}

function toggle(enabled: EnabledIds, all: string[], id: string): EnabledIds {
  if (enabled === null) return all.filter((m) => m !== id);
  return enabled.includes(id) ? enabled.filter((m) => m !== id) : normalize([...enabled, id], all);
}

function enableAll(enabled: EnabledIds, all: string[], targets?: string[]): EnabledIds {
  if (enabled === null) return null;
  const result = [...enabled];
  for (const id of targets ?? all) if (!result.includes(id)) result.push(id);
  return normalize(result, all);
}

function clearAll(enabled: EnabledIds, all: string[], targets?: string[]): EnabledIds {
  if (enabled === null) return targets ? all.filter((id) => !targets.includes(id)) : [];
  const drop = new Set(targets ?? enabled);
  return enabled.filter((id) => !drop.has(id));
}

/** The selector component. */
export class ScopedModelsSelector extends Container implements Focusable {
  readonly #search = new Input();
  readonly #list = new Container();
  readonly #footer = new Text("", 0, 0);
  readonly #status: Text;
  #models = new Map<string, Model>();
  #all: string[] = [];
  #enabled: EnabledIds;
  #items: Item[] = [];
  #selected = 0;
  #dirty = false;
  #focused = false;

  /** Lists `models` with `enabled` ticked; `status` is the catalog refresh line. */
  constructor(
    private readonly theme: Theme,
    models: Model[],
    enabled: EnabledIds,
    status: { text: string; kind: "success" | "warning" },
    private readonly callbacks: ScopedModelsCallbacks,
  ) {
    super();
    for (const model of models) {
      const id = `${model.provider}/${model.id}`;
      this.#models.set(id, model);
      this.#all.push(id);
    }
    this.#enabled = enabled === null ? null : [...enabled];
    const save = keyDisplayText(APP_KEYS["app.models.save"]);
    this.addChild(new BorderLine(theme));
    this.addChild(new Spacer(1));
    this.addChild(new Text(theme.fg("accent", theme.bold("Model Configuration")), 0, 0));
    this.addChild(new Text(theme.fg("muted", `Session-only. ${save} to save to settings.`), 0, 0));
    this.addChild(new Spacer(1));
    this.addChild(this.#search);
    this.addChild(new Spacer(1));
    this.addChild(this.#list);
    this.addChild(new Spacer(1));
    this.#status = new Text(theme.fg(status.kind, `  ${status.text}`), 0, 0);
    this.addChild(this.#status);
    this.addChild(this.#footer);
    this.addChild(new BorderLine(theme));
    this.#refresh();
  }

  /** Passed on to the search field, which draws the cursor. */
  get focused(): boolean {
    return this.#focused;
  }
  set focused(value: boolean) {
    this.#focused = value;
    this.#search.focused = value;
  }

  #buildItems(): Item[] {
    const enabled = this.#enabled;
    const ids = enabled === null
      ? this.#all
      : [...enabled, ...this.#all.filter((id) => !enabled.includes(id))];
    return ids.map((id) => ({ fullId: id, model: this.#models.get(id), enabled: isEnabled(enabled, id) }));
  }

  #footerText(): string {
    const enabled = this.#enabled;
    const available = enabled?.filter((id) => this.#models.has(id)).length ?? this.#all.length;
    const unavailable = enabled?.filter((id) => !this.#models.has(id)).length ?? 0;
    const count = enabled === null
      ? "all enabled"
      : `${available}/${this.#all.length} enabled${unavailable ? ` · ${unavailable} unavailable` : ""}`;
    const k = (action: AppAction) => keyDisplayText(APP_KEYS[action]);
    const parts = [
      `${keyDisplayText(getKeybindings().getKeys("tui.select.confirm"))} toggle`,
      `${k("app.models.enableAll")} all`,
      `${k("app.models.clearAll")} clear`,
      `${k("app.models.toggleProvider")} provider`,
      `${k("app.models.reorderUp")}/${k("app.models.reorderDown")} reorder`,
      `${k("app.models.save")} save`,
      count,
    ];
    const text = `  ${parts.join(" · ")}`;
    return this.#dirty
      ? this.theme.fg("dim", `${text} `) + this.theme.fg("warning", "(unsaved)")
      : this.theme.fg("dim", text);
  }

  #refresh(): void {
    const query = this.#search.getValue();
    const items = this.#buildItems();
    this.#items = query
      ? fuzzyFilter(items, query, (item) => item.model ? modelSearchText(item.model) : item.fullId)
      : items;
    this.#selected = Math.min(this.#selected, Math.max(0, this.#items.length - 1));
    this.#renderList();
    this.#footer.setText(this.#footerText());
  }

  #renderList(): void {
    const theme = this.theme;
    this.#list.clear();
    const count = this.#items.length;
    if (count === 0) {
      this.#list.addChild(new Text(theme.fg("muted", "  No matching models"), 0, 0));
      return;
    }
    const start = Math.max(0, Math.min(this.#selected - Math.floor(MAX_VISIBLE / 2), count - MAX_VISIBLE));
    const end = Math.min(start + MAX_VISIBLE, count);
    for (let i = start; i < end; i++) {
      const item = this.#items[i];
      const selected = i === this.#selected;
      const prefix = selected ? theme.fg("accent", "→ ") : "  ";
      const id = item.model?.id ?? item.fullId;
      const styled = item.model ? id : theme.strikethrough(id);
      const name = item.model ? distinctModelName(item.model) : undefined;
      const nameText = name ? theme.fg("muted", ` (${name})`) : "";
      const badge = theme.fg("muted", item.model ? ` [${item.model.provider}]` : " [unavailable]");
      const tick = item.model && item.enabled ? theme.fg("accent", "✓ ") : "  ";
      this.#list.addChild(
        new Text(
          `${prefix}${tick}${selected ? theme.fg("accent", styled) : styled}${nameText}${badge}`,
          0,
          0,
        ),
      );
    }
    if (start > 0 || end < count) {
      this.#list.addChild(new Text(theme.fg("muted", `  (${this.#selected + 1}/${count})`), 0, 0));
    }
    const chosen = this.#items[this.#selected];
    this.#list.addChild(new Spacer(1));
    const about = chosen.model ? `Model Name: ${chosen.model.name ?? chosen.model.id}` : "Model unavailable";
    this.#list.addChild(new Text(theme.fg("muted", `  ${about}`), 0, 0));
  }

  #changed(enabled: EnabledIds): void {
    this.#enabled = enabled;
    this.#dirty = true;
    this.#refresh();
    this.callbacks.onChange(enabled === null ? null : [...enabled]);
  }

  /** The keys listed in the footer; anything else edits the search. */
  handleInput(data: string): void {
    const kb = getKeybindings();
    const count = this.#items.length;
    if (kb.matches(data, "tui.select.up") || kb.matches(data, "tui.select.down")) {
      if (count === 0) return;
      const up = kb.matches(data, "tui.select.up");
      this.#selected = up
        ? (this.#selected === 0 ? count - 1 : this.#selected - 1)
        : (this.#selected + 1) % count;
      return this.#renderList();
    }
    const page = getSelectPageIndex(kb, data, this.#selected, count, MAX_VISIBLE);
    if (page !== undefined) {
      if (count === 0) return;
      this.#selected = page;
      return this.#renderList();
    }
    const item = this.#items[this.#selected];
    const up = matchesAction(data, "app.models.reorderUp");
    if (up || matchesAction(data, "app.models.reorderDown")) {
      const enabled = this.#enabled;
      if (enabled === null || !item || !enabled.includes(item.fullId)) return;
      const from = enabled.indexOf(item.fullId);
      const to = from + (up ? -1 : 1);
      if (to < 0 || to >= enabled.length) return;
      const moved = [...enabled];
      [moved[from], moved[to]] = [moved[to], moved[from]];
      this.#selected += up ? -1 : 1;
      return this.#changed(moved);
    }
    if (kb.matches(data, "tui.select.confirm")) {
      if (item) this.#changed(toggle(this.#enabled, this.#all, item.fullId));
      return;
    }
    const filtered = this.#search.getValue() ? this.#items.map((i) => i.fullId) : undefined;
    if (matchesAction(data, "app.models.enableAll")) {
      return this.#changed(enableAll(this.#enabled, this.#all, filtered));
    }
    if (matchesAction(data, "app.models.clearAll")) {
      return this.#changed(clearAll(this.#enabled, this.#all, filtered));
    }
    if (matchesAction(data, "app.models.toggleProvider")) {
      if (!item?.model) return;
      const provider = item.model.provider;
      const ids = this.#all.filter((id) => this.#models.get(id)?.provider === provider);
      const allOn = ids.every((id) => isEnabled(this.#enabled, id));
      return this.#changed(
        allOn ? clearAll(this.#enabled, this.#all, ids) : enableAll(this.#enabled, this.#all, ids),
      );
    }
    if (matchesAction(data, "app.models.save")) {
      this.callbacks.onPersist(this.#enabled === null ? null : [...this.#enabled]);
      this.#dirty = false;
      this.#footer.setText(this.#footerText());
      return;
    }
    if (matchesKey(data, "ctrl+c")) {
      if (!this.#search.getValue()) return this.callbacks.onCancel();
      this.#search.setValue("");
      return this.#refresh();
    }
    if (matchesKey(data, "escape")) return this.callbacks.onCancel();
    const before = this.#search.getValue();
    this.#search.handleInput(data);
    const query = this.#search.getValue();
    // A new query highlights the best match; cursor keys leave the selection where it is.
    if (query === before) return;
    if (query) this.#selected = 0;
    this.#refresh();
  }
}
