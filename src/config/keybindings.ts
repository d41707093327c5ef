/**
 * keybindings.json (`<agentDir>/keybindings.json`) as pi 1.6.0 reads it: `{ "<id>": "<key>" | ["<key>", …] }`
 * with 1.6.0's ids (`app.*`, `tui.*`, e.g. `app.message.copy`, `app.thinking.save`, `tui.altScreen.*`,
 * `tui.editor.historyPrevious`), old unprefixed names (`cursorUp`, `submit`, …) renamed, and keys written
 * as `[ctrl+][shift+][alt+][super+]<key>`. The TUI (a later issue) applies the bindings; this module only
 * parses and validates.
 *
 * 1.6.0 silently drops an unreadable file or an invalid value; we drop them too but say so, naming the file.
 *
 * @module
 */

import { describeJsonError } from "./json_error.ts";

/** The binding ids pi 1.6.0 defines (its schemas/keybindings.schema.json). */
export const KEYBINDING_IDS: readonly string[] = [
  "app.clear",
  "app.clipboard.pasteImage",
  "app.editor.external",
  "app.exit",
  "app.interrupt",
  "app.message.copy",
  "app.message.dequeue",
  "app.message.followUp",
  "app.model.cycleBackward",
  "app.model.cycleForward",
  "app.model.select",
  "app.models.clearAll",
  "app.models.enableAll",
  "app.models.reorderDown",
  "app.models.reorderUp",
  "app.models.save",
  "app.models.toggleProvider",
  "app.session.delete",
  "app.session.deleteNoninvasive",
  "app.session.fork",
  "app.session.new",
  "app.session.rename",
  "app.session.resume",
  "app.session.toggleNamedFilter",
  "app.session.togglePath",
  "app.session.toggleSort",
  "app.session.tree",
  "app.suspend",
  "app.thinking.cycle",
  "app.thinking.save",
  "app.thinking.toggle",
  "app.tools.expand",
  "app.tree.editLabel",
  "app.tree.filter.all",
  "app.tree.filter.cycleBackward",
  "app.tree.filter.cycleForward",
  "app.tree.filter.default",
  "app.tree.filter.labeledOnly",
  "app.tree.filter.noTools",
  "app.tree.filter.userOnly",
  "app.tree.foldOrUp",
  "app.tree.toggleLabelTimestamp",
  "app.tree.unfoldOrDown",
  "tui.altScreen.bottom",
  "tui.altScreen.halfPageDown",
  "tui.altScreen.halfPageUp",
  "tui.altScreen.lineDown",
  "tui.altScreen.lineUp",
  "tui.altScreen.nextPrompt",
  "tui.altScreen.pageDown",
  "tui.altScreen.pageUp",
  "tui.altScreen.previousPrompt",
  "tui.altScreen.search",
  "tui.altScreen.searchClose",
  "tui.altScreen.searchNext",
  "tui.altScreen.searchPrevious",
  "tui.altScreen.top",
  "tui.editor.cursorDown",
  "tui.editor.cursorLeft",
  "tui.editor.cursorLineEnd",
  "tui.editor.cursorLineStart",
  "tui.editor.cursorRight",
  "tui.editor.cursorUp",
  "tui.editor.cursorWordLeft",
  "tui.editor.cursorWordRight",
  "tui.editor.deleteCharBackward",
  "tui.editor.deleteCharForward",
  "tui.editor.deleteToLineEnd",
  "tui.editor.deleteToLineStart",
  "tui.editor.deleteWordBackward",
  "tui.editor.deleteWordForward",
  "tui.editor.historyNext",
  "tui.editor.historyPrevious",
  "tui.editor.jumpBackward",
  "tui.editor.jumpForward",
  "tui.editor.pageDown",
  "tui.editor.pageUp",
  "tui.editor.undo",
  "tui.editor.yank",
  "tui.editor.yankPop",
  "tui.input.copy",
  "tui.input.newLine",
  "tui.input.submit",
  "tui.input.tab",
  "tui.select.cancel",
  "tui.select.confirm",
  "tui.select.down",
  "tui.select.pageDown",
  "tui.select.pageUp",
  "tui.select.up",
];

/** Pre-1.0 names and the ids that replaced them. */
export const LEGACY_KEYBINDING_NAMES: Readonly<Record<string, string>> = {
  cursorUp: "tui.editor.cursorUp",
  cursorDown: "tui.editor.cursorDown",
  cursorLeft: "tui.editor.cursorLeft",
  cursorRight: "tui.editor.cursorRight",
  cursorWordLeft: "tui.editor.cursorWordLeft",
  cursorWordRight: "tui.editor.cursorWordRight",
  cursorLineStart: "tui.editor.cursorLineStart",
  cursorLineEnd: "tui.editor.cursorLineEnd",
  jumpForward: "tui.editor.jumpForward",
  jumpBackward: "tui.editor.jumpBackward",
  pageUp: "tui.editor.pageUp",
  pageDown: "tui.editor.pageDown",
  deleteCharBackward: "tui.editor.deleteCharBackward",
  deleteCharForward: "tui.editor.deleteCharForward",
  deleteWordBackward: "tui.editor.deleteWordBackward",
  deleteWordForward: "tui.editor.deleteWordForward",
  deleteToLineStart: "tui.editor.deleteToLineStart",
  deleteToLineEnd: "tui.editor.deleteToLineEnd",
  yank: "tui.editor.yank",
  yankPop: "tui.editor.yankPop",
  undo: "tui.editor.undo",
  newLine: "tui.input.newLine",
  submit: "tui.input.submit",
  tab: "tui.input.tab",
  copy: "tui.input.copy",
  selectUp: "tui.select.up",
  selectDown: "tui.select.down",
  selectPageUp: "tui.select.pageUp",
  selectPageDown: "tui.select.pageDown",
  selectConfirm: "tui.select.confirm",
  selectCancel: "tui.select.cancel",
  interrupt: "app.interrupt",
  clear: "app.clear",
  exit: "app.exit",
  suspend: "app.suspend",
  cycleThinkingLevel: "app.thinking.cycle",
  cycleModelForward: "app.model.cycleForward",
  cycleModelBackward: "app.model.cycleBackward",
  selectModel: "app.model.select",
  expandTools: "app.tools.expand",
  toggleThinking: "app.thinking.toggle",
  toggleSessionNamedFilter: "app.session.toggleNamedFilter",
  externalEditor: "app.editor.external",
  followUp: "app.message.followUp",
  dequeue: "app.message.dequeue",
  pasteImage: "app.clipboard.pasteImage",
  newSession: "app.session.new",
  tree: "app.session.tree",
  fork: "app.session.fork",
  resume: "app.session.resume",
  treeFoldOrUp: "app.tree.foldOrUp",
  treeUnfoldOrDown: "app.tree.unfoldOrDown",
  treeEditLabel: "app.tree.editLabel",
  treeToggleLabelTimestamp: "app.tree.toggleLabelTimestamp",
  toggleSessionPath: "app.session.togglePath",
  toggleSessionSort: "app.session.toggleSort",
  renameSession: "app.session.rename",
  deleteSession: "app.session.delete",
  deleteSessionNoninvasive: "app.session.deleteNoninvasive",
};

const NAMED_KEYS = [
  "escape",
  "esc",
  "enter",
  "return",
  "tab",
  "space",
  "backspace",
  "delete",
  "insert",
  "clear",
  "home",
  "end",
  "pageUp",
  "pageDown",
  "up",
  "down",
  "left",
  "right",
  "f1",
  "f2",
  "f3",
  "f4",
  "f5",
  "f6",
  "f7",
  "f8",
  "f9",
  "f10",
  "f11",
  "f12",
  "`",
  "-",
  "=",
  "[",
  "]",
  "\\",
  ";",
  "'",
  ",",
  ".",
  "/",
  "!",
  "@",
  "#",
  "$",
  "%",
  "^",
  "&",
  "*",
  "(",
  ")",
  "_",
  "+",
  "|",
  "~",
  "{",
  "}",
  ":",
  "<",
  ">",
  "?",
];
const MODIFIERS = ["ctrl", "shift", "alt", "super"];
const escapeRegExp = (text: string) => text.replace(/[\\^$.*+?()[\]{}|]/g, "\\$&");
// Up to four distinct modifiers, then a letter, digit or named key (1.6.0's KeyId pattern).
const KEY_ID = new RegExp(
  `^(?!.*(?:${MODIFIERS.map((m) => `${m}\\+.*${m}\\+`).join("|")}))(?:(?:${MODIFIERS.join("|")})\\+){0,4}` +
    `(?:[a-z0-9]|${NAMED_KEYS.map(escapeRegExp).join("|")})$`,
);

/** A binding: one key or several. */
export type KeybindingValue = string | string[];

/** Whether `value` is a key id such as `ctrl+shift+c`. */
export function isKeyId(value: unknown): value is string {
  return typeof value === "string" && KEY_ID.test(value);
}

/** Whether `value` is a key id or a list of key ids. */
export function isKeybindingValue(value: unknown): value is KeybindingValue {
  return isKeyId(value) || (Array.isArray(value) && value.every(isKeyId));
}

/** The parsed user bindings and what was dropped (each message names the file). */
export interface KeybindingsLoadResult {
  bindings: Record<string, KeybindingValue>;
  warnings: string[];
}

/**
 * Parses keybindings.json text: renames legacy names (a legacy name loses to its new id when both are
 * present), keeps unknown ids (extensions define their own), skips `$schema`, and drops invalid values.
 */
export function parseKeybindings(text: string, path: string): KeybindingsLoadResult {
  const warnings: string[] = [];
  let raw: unknown;
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  try {
    raw = JSON.parse(body);
  } catch (error) {
    return {
      bindings: {},
      warnings: [`Ignoring keybindings.json (${path}): ${describeJsonError(body, error)}`],
    };
  }
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    return {
      bindings: {},
      warnings: [`Ignoring keybindings.json (${path}): expected an object of bindings`],
    };
  }
  const entries = raw as Record<string, unknown>;
  const bindings: Record<string, KeybindingValue> = {};
  for (const [key, value] of Object.entries(entries)) {
    if (key === "$schema") continue;
    const id = LEGACY_KEYBINDING_NAMES[key] ?? key;
    if (id !== key && Object.hasOwn(entries, id)) continue;
    if (!isKeybindingValue(value)) {
      warnings.push(
        `Ignoring "${key}" in keybindings.json (${path}): expected a key such as "ctrl+x" or a list of keys`,
      );
      continue;
    }
    bindings[id] = value;
  }
  return { bindings, warnings };
}

/** Reads `path`; a missing file is no bindings and no warning. */
export function loadKeybindingsFile(path: string): KeybindingsLoadResult {
  let text: string;
  try {
    text = Deno.readTextFileSync(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return { bindings: {}, warnings: [] };
    return { bindings: {}, warnings: [`Ignoring keybindings.json (${path}): ${(error as Error).message}`] };
  }
  return parseKeybindings(text, path);
}
