/**
 * Named, user-configurable keybindings: the `tui.*` actions of the kit with their default keys,
 * and the manager that applies a user's overrides (keybindings.json) and reports keys two
 * overrides both claim.
 *
 * @module
 */
import { type KeyId, matchesKey } from "./keys.ts";

/**
 * Global keybinding registry.
 * Downstream packages can add keybindings via declaration merging.
 */
export interface Keybindings {
  "tui.editor.cursorUp": true;
  "tui.editor.cursorDown": true;
  "tui.editor.historyPrevious": true;
  "tui.editor.historyNext": true;
  "tui.editor.cursorLeft": true;
  "tui.editor.cursorRight": true;
  "tui.editor.cursorWordLeft": true;
  "tui.editor.cursorWordRight": true;
  "tui.editor.cursorLineStart": true;
  "tui.editor.cursorLineEnd": true;
  "tui.editor.jumpForward": true;
  "tui.editor.jumpBackward": true;
  "tui.editor.pageUp": true;
  "tui.editor.pageDown": true;
  "tui.editor.deleteCharBackward": true;
  "tui.editor.deleteCharForward": true;
  "tui.editor.deleteWordBackward": true;
  "tui.editor.deleteWordForward": true;
  "tui.editor.deleteToLineStart": true;
  "tui.editor.deleteToLineEnd": true;
  "tui.editor.yank": true;
  "tui.editor.yankPop": true;
  "tui.editor.undo": true;
  "tui.input.newLine": true;
  "tui.input.submit": true;
  "tui.input.tab": true;
  "tui.input.copy": true;
  "tui.select.up": true;
  "tui.select.down": true;
  "tui.select.pageUp": true;
  "tui.select.pageDown": true;
  "tui.select.confirm": true;
  "tui.select.cancel": true;
  "tui.altScreen.pageUp": true;
  "tui.altScreen.pageDown": true;
  "tui.altScreen.halfPageUp": true;
  "tui.altScreen.halfPageDown": true;
  "tui.altScreen.lineUp": true;
  "tui.altScreen.lineDown": true;
  "tui.altScreen.previousPrompt": true;
  "tui.altScreen.nextPrompt": true;
  "tui.altScreen.search": true;
  "tui.altScreen.searchNext": true;
  "tui.altScreen.searchPrevious": true;
  "tui.altScreen.searchClose": true;
  "tui.altScreen.top": true;
  "tui.altScreen.bottom": true;
}

/** The id of a registered keybinding ("tui.editor.undo"). */
export type Keybinding = keyof Keybindings;

/** A keybinding's default key or keys, and what it does. */
export interface KeybindingDefinition {
  defaultKeys: KeyId | KeyId[];
  description?: string;
}

/** Keybinding definitions by id. */
export type KeybindingDefinitions = Record<string, KeybindingDefinition>;

/** A user's overrides by id: one key, several, or none (an empty list unbinds). */
export type KeybindingsConfig = Record<string, KeyId | KeyId[] | undefined>;

/** One definition with its literal types kept (tuples stay mutable tuples, as pi-tui declares them). */
function def<const K extends KeyId | KeyId[], const D extends string>(
  defaultKeys: K,
  description: D,
): { readonly defaultKeys: K; readonly description: D } {
  return { defaultKeys, description };
}

/** The kit's keybindings with their default keys; ids and keys are what users' keybindings.json names. */
export const TUI_KEYBINDINGS = {
  "tui.editor.cursorUp": def("up", "Move cursor up"),
  "tui.editor.cursorDown": def("down", "Move cursor down"),
  "tui.editor.historyPrevious": def([], "Select previous prompt history entry"),
  "tui.editor.historyNext": def([], "Select next prompt history entry"),
  "tui.editor.cursorLeft": def(["left", "ctrl+b"], "Move cursor left"),
  "tui.editor.cursorRight": def(["right", "ctrl+f"], "Move cursor right"),
  "tui.editor.cursorWordLeft": def(["alt+left", "ctrl+left", "alt+b"], "Move cursor word left"),
  "tui.editor.cursorWordRight": def(["alt+right", "ctrl+right", "alt+f"], "Move cursor word right"),
  "tui.editor.cursorLineStart": def(["home", "ctrl+a"], "Move to line start"),
  "tui.editor.cursorLineEnd": def(["end", "ctrl+e"], "Move to line end"),
  "tui.editor.jumpForward": def("ctrl+]", "Jump forward to character"),
  "tui.editor.jumpBackward": def("ctrl+alt+]", "Jump backward to character"),
  "tui.editor.pageUp": def(["pageUp", "ctrl+pageUp"], "Page up"),
  "tui.editor.pageDown": def(["pageDown", "ctrl+pageDown"], "Page down"),
  "tui.editor.deleteCharBackward": def("backspace", "Delete character backward"),
  "tui.editor.deleteCharForward": def(["delete", "ctrl+d"], "Delete character forward"),
  "tui.editor.deleteWordBackward": def(["ctrl+w", "alt+backspace"], "Delete word backward"),
  "tui.editor.deleteWordForward": def(["alt+d", "alt+delete"], "Delete word forward"),
  "tui.editor.deleteToLineStart": def("ctrl+u", "Delete to line start"),
  "tui.editor.deleteToLineEnd": def("ctrl+k", "Delete to line end"),
  "tui.editor.yank": def("ctrl+y", "Yank"),
  "tui.editor.yankPop": def("alt+y", "Yank pop"),
  "tui.editor.undo": def("ctrl+-", "Undo"),
  "tui.input.newLine": def(["shift+enter", "ctrl+j"], "Insert newline"),
  "tui.input.submit": def("enter", "Submit input"),
  "tui.input.tab": def("tab", "Tab / autocomplete"),
  "tui.input.copy": def("ctrl+c", "Copy selection"),
  "tui.select.up": def("up", "Move selection up"),
  "tui.select.down": def("down", "Move selection down"),
  "tui.select.pageUp": def("pageUp", "Selection page up"),
  "tui.select.pageDown": def("pageDown", "Selection page down"),
  "tui.select.confirm": def("enter", "Confirm selection"),
  "tui.select.cancel": def(["escape", "ctrl+c"], "Cancel selection"),
  // The alternate screen's page keys shadow the editor's unmodified ones on purpose.
  "tui.altScreen.pageUp": def("pageUp", "Scroll viewport up one page"),
  "tui.altScreen.pageDown": def("pageDown", "Scroll viewport down one page"),
  "tui.altScreen.halfPageUp": def([], "Scroll viewport up half a page"),
  "tui.altScreen.halfPageDown": def([], "Scroll viewport down half a page"),
  "tui.altScreen.lineUp": def([], "Scroll viewport up one line"),
  "tui.altScreen.lineDown": def([], "Scroll viewport down one line"),
  "tui.altScreen.previousPrompt": def(["ctrl+shift+up", "ctrl+up"], "Jump to previous semantic prompt"),
  "tui.altScreen.nextPrompt": def(["ctrl+shift+down", "ctrl+down"], "Jump to next semantic prompt"),
  "tui.altScreen.search": def("ctrl+shift+f", "Search the primary scroll view"),
  "tui.altScreen.searchNext": def(["enter", "ctrl+g"], "Select the next search match"),
  "tui.altScreen.searchPrevious": def(["shift+enter", "ctrl+shift+g"], "Select the previous search match"),
  "tui.altScreen.searchClose": def("escape", "Close transcript search"),
  "tui.altScreen.top": def("ctrl+home", "Scroll viewport to top"),
  "tui.altScreen.bottom": def("ctrl+end", "Scroll viewport to bottom"),
} as const;

/** A key that more than one user override claims. */
export interface KeybindingConflict {
  key: KeyId;
  keybindings: string[];
}

/** One key or several as a list without repeats, in first-seen order. */
function keyList(keys: KeyId | KeyId[] | undefined): KeyId[] {
  if (keys === undefined) return [];
  return [...new Set(Array.isArray(keys) ? keys : [keys])];
}

/**
 * Resolves every defined keybinding to its keys (the user's override where there is one, else the
 * defaults) and matches input against them. Conflicts are reported, not resolved: each claimant
 * keeps the key, as the user wrote it.
 */
export class KeybindingsManager {
  private definitions: KeybindingDefinitions;
  private userBindings: KeybindingsConfig;
  private keysById = new Map<string, KeyId[]>();
  private conflicts: KeybindingConflict[] = [];

  /** A manager of `definitions` with the user's overrides applied. */
  constructor(definitions: KeybindingDefinitions, userBindings: KeybindingsConfig = {}) {
    this.definitions = definitions;
    this.userBindings = userBindings;
    this.rebuild();
  }

  /** Resolves every definition's keys and collects the conflicts among the overrides. */
  private rebuild(): void {
    this.keysById.clear();
    // Only overrides can conflict: defaults overlap on purpose (Enter submits and confirms).
    const claimants = new Map<KeyId, Set<string>>();
    for (const [id, keys] of Object.entries(this.userBindings)) {
      if (!Object.hasOwn(this.definitions, id)) continue;
      for (const key of keyList(keys)) {
        const ids = claimants.get(key) ?? new Set<string>();
        ids.add(id);
        claimants.set(key, ids);
      }
    }
    this.conflicts = [...claimants]
      .filter(([, ids]) => ids.size > 1)
      .map(([key, ids]) => ({ key, keybindings: [...ids] }));
    for (const [id, definition] of Object.entries(this.definitions)) {
      const override = this.userBindings[id];
      this.keysById.set(id, keyList(override === undefined ? definition.defaultKeys : override));
    }
  }

  /** Whether input data is one of the keybinding's keys. */
  matches(data: string, keybinding: Keybinding): boolean {
    return (this.keysById.get(keybinding) ?? []).some((key) => matchesKey(data, key));
  }

  /** The keybinding's resolved keys (a copy). */
  getKeys(keybinding: Keybinding): KeyId[] {
    return [...(this.keysById.get(keybinding) ?? [])];
  }

  /** The keybinding's definition as registered. */
  getDefinition(keybinding: Keybinding): KeybindingDefinition {
    return this.definitions[keybinding];
  }

  /** Keys claimed by more than one user override (copies). */
  getConflicts(): KeybindingConflict[] {
    return this.conflicts.map((conflict) => ({ ...conflict, keybindings: [...conflict.keybindings] }));
  }

  /** Replaces the user's overrides and resolves again. */
  setUserBindings(userBindings: KeybindingsConfig): void {
    this.userBindings = userBindings;
    this.rebuild();
  }

  /** The user's overrides (a shallow copy). */
  getUserBindings(): KeybindingsConfig {
    return { ...this.userBindings };
  }

  /** Every defined keybinding's keys: a single key as itself, several (or none) as a list. */
  getResolvedBindings(): KeybindingsConfig {
    const resolved: KeybindingsConfig = {};
    for (const id of Object.keys(this.definitions)) {
      const keys = this.keysById.get(id) ?? [];
      resolved[id] = keys.length === 1 ? keys[0] : [...keys];
    }
    return resolved;
  }
}

/**
 * A keybindings manager as callers see it: the public methods only. Our class's `private` state
 * makes it nominal, so a parameter typed with the class would refuse a manager typed against
 * 1.6.0's declarations (which an extension passes); parameters take this instead.
 */
export type KeybindingsLike = Pick<KeybindingsManager, keyof KeybindingsManager>;

let current: KeybindingsManager | undefined;

/** Makes `keybindings` the manager every component consults. */
export function setKeybindings(keybindings: KeybindingsLike): void {
  // Components call only the public methods, which is all a KeybindingsLike must have.
  current = keybindings as KeybindingsManager;
}

/** The manager components consult; the kit's defaults until setKeybindings is called. */
export function getKeybindings(): KeybindingsManager {
  current ??= new KeybindingsManager(TUI_KEYBINDINGS);
  return current;
}

/**
 * Returns the selection index after a `tui.select.pageUp` or `tui.select.pageDown` key, moved by `pageSize` and
 * clamped to `0..itemCount - 1`. Returns undefined when `data` is not a selection page key, and 0 for a page key on
 * an empty list, so callers must still check that the list has items before selecting.
 */
export function getSelectPageIndex(
  keybindings: KeybindingsLike,
  data: string,
  selectedIndex: number,
  itemCount: number,
  pageSize: number,
): number | undefined {
  let direction: number;
  if (keybindings.matches(data, "tui.select.pageUp")) direction = -1;
  else if (keybindings.matches(data, "tui.select.pageDown")) direction = 1;
  else return undefined;
  return Math.max(0, Math.min(itemCount - 1, selectedIndex + direction * pageSize));
}
