/**
 * Key identifiers ("ctrl+shift+p", "pageUp", "f5"), the `Key` helper that spells them with
 * autocomplete, and the numbers both the parser and the matcher speak in: modifier bits and the
 * codepoints the kitty keyboard protocol gives non-text keys.
 *
 * @module
 */

type Letter =
  | "a"
  | "b"
  | "c"
  | "d"
  | "e"
  | "f"
  | "g"
  | "h"
  | "i"
  | "j"
  | "k"
  | "l"
  | "m"
  | "n"
  | "o"
  | "p"
  | "q"
  | "r"
  | "s"
  | "t"
  | "u"
  | "v"
  | "w"
  | "x"
  | "y"
  | "z";
type Digit = "0" | "1" | "2" | "3" | "4" | "5" | "6" | "7" | "8" | "9";
type SymbolKey =
  | "`"
  | "-"
  | "="
  | "["
  | "]"
  | "\\"
  | ";"
  | "'"
  | ","
  | "."
  | "/"
  | "!"
  | "@"
  | "#"
  | "$"
  | "%"
  | "^"
  | "&"
  | "*"
  | "("
  | ")"
  | "_"
  | "+"
  | "|"
  | "~"
  | "{"
  | "}"
  | ":"
  | "<"
  | ">"
  | "?";
type SpecialKey =
  | "escape"
  | "esc"
  | "enter"
  | "return"
  | "tab"
  | "space"
  | "backspace"
  | "delete"
  | "insert"
  | "clear"
  | "home"
  | "end"
  | "pageUp"
  | "pageDown"
  | "up"
  | "down"
  | "left"
  | "right"
  | "f1"
  | "f2"
  | "f3"
  | "f4"
  | "f5"
  | "f6"
  | "f7"
  | "f8"
  | "f9"
  | "f10"
  | "f11"
  | "f12";

/** A key without modifiers: a letter, digit, symbol or named key. */
export type BaseKey = Letter | Digit | SymbolKey | SpecialKey;

type ModifierName = "ctrl" | "shift" | "alt" | "super";

/**
 * Every spelling of `Base` with one or more distinct modifiers in any order: each step picks a
 * modifier not used yet, so "ctrl+shift+x" and "shift+ctrl+x" are both valid, "ctrl+ctrl+x" is not.
 */
type WithModifiers<Base extends string, Left extends ModifierName = ModifierName> = {
  [M in Left]: `${M}+${Base}` | `${M}+${WithModifiers<Base, Exclude<Left, M>>}`;
}[Left];

/**
 * Union type of all valid key identifiers.
 * Provides autocomplete and catches typos at compile time.
 */
export type KeyId = BaseKey | WithModifiers<BaseKey>;

/**
 * Event types from Kitty keyboard protocol (flag 2)
 * 1 = key press, 2 = key repeat, 3 = key release
 */
export type KeyEventType = "press" | "repeat" | "release";

function prefixed<P extends string>(prefix: P): <K extends BaseKey>(key: K) => `${P}${K}` {
  return <K extends BaseKey>(key: K) => `${prefix}${key}` as `${P}${K}`;
}

/**
 * Helper object for creating typed key identifiers with autocomplete.
 *
 * Usage:
 * - Key.escape, Key.enter, Key.tab, etc. for special keys
 * - Key.backtick, Key.comma, Key.period, etc. for symbol keys
 * - Key.ctrl("c"), Key.alt("x"), Key.super("k") for single modifiers
 * - Key.ctrlShift("p"), Key.ctrlAlt("x"), Key.ctrlSuper("k") for combined modifiers
 */
export const Key = {
  escape: "escape",
  esc: "esc",
  enter: "enter",
  return: "return",
  tab: "tab",
  space: "space",
  backspace: "backspace",
  delete: "delete",
  insert: "insert",
  clear: "clear",
  home: "home",
  end: "end",
  pageUp: "pageUp",
  pageDown: "pageDown",
  up: "up",
  down: "down",
  left: "left",
  right: "right",
  f1: "f1",
  f2: "f2",
  f3: "f3",
  f4: "f4",
  f5: "f5",
  f6: "f6",
  f7: "f7",
  f8: "f8",
  f9: "f9",
  f10: "f10",
  f11: "f11",
  f12: "f12",
  backtick: "`",
  hyphen: "-",
  equals: "=",
  leftbracket: "[",
  rightbracket: "]",
  backslash: "\\",
  semicolon: ";",
  quote: "'",
  comma: ",",
  period: ".",
  slash: "/",
  exclamation: "!",
  at: "@",
  hash: "#",
  dollar: "$",
  percent: "%",
  caret: "^",
  ampersand: "&",
  asterisk: "*",
  leftparen: "(",
  rightparen: ")",
  underscore: "_",
  plus: "+",
  pipe: "|",
  tilde: "~",
  leftbrace: "{",
  rightbrace: "}",
  colon: ":",
  lessthan: "<",
  greaterthan: ">",
  question: "?",
  ctrl: prefixed("ctrl+"),
  shift: prefixed("shift+"),
  alt: prefixed("alt+"),
  super: prefixed("super+"),
  ctrlShift: prefixed("ctrl+shift+"),
  shiftCtrl: prefixed("shift+ctrl+"),
  ctrlAlt: prefixed("ctrl+alt+"),
  altCtrl: prefixed("alt+ctrl+"),
  shiftAlt: prefixed("shift+alt+"),
  altShift: prefixed("alt+shift+"),
  ctrlSuper: prefixed("ctrl+super+"),
  superCtrl: prefixed("super+ctrl+"),
  shiftSuper: prefixed("shift+super+"),
  superShift: prefixed("super+shift+"),
  altSuper: prefixed("alt+super+"),
  superAlt: prefixed("super+alt+"),
  ctrlShiftAlt: prefixed("ctrl+shift+alt+"),
  ctrlShiftSuper: prefixed("ctrl+shift+super+"),
} as const;

/** Modifier bits as the kitty protocol and xterm number them (the wire value is 1 + these bits). */
export const MOD = { shift: 1, alt: 2, ctrl: 4, super: 8 } as const;

/** Caps Lock and Num Lock: reported by kitty, never part of a binding. */
export const LOCK_MASK = 64 + 128;

/** Symbols that can be bound by name ("ctrl+/", "alt+."). */
export const SYMBOL_KEYS: ReadonlySet<string> = new Set("`-=[]\\;',./!@#$%^&*()_+|~{}:<>?");

/** The symbols a US keyboard types with Shift held (modifyOtherKeys reports them with the Shift bit). */
export const SHIFTED_SYMBOL_KEYS: ReadonlySet<string> = new Set("~!@#$%^&*()_+|{}:<>?");

/** Codepoints of text-like keys as kitty reports them. */
export const CP = {
  escape: 27,
  tab: 9,
  enter: 13,
  space: 32,
  backspace: 127,
  /** Numpad Enter in the kitty protocol. */
  kpEnter: 57414,
} as const;

/**
 * Our own negative codepoints for keys that have none (arrows, editing keys, F1–F12), so one
 * number names a key whether it came as CSI u, CSI ~ or CSI 1;mod letter.
 */
export const NAMED_CP: Readonly<Record<string, number>> = {
  up: -1,
  down: -2,
  right: -3,
  left: -4,
  delete: -10,
  insert: -11,
  pageUp: -12,
  pageDown: -13,
  home: -14,
  end: -15,
  f1: -21,
  f2: -22,
  f3: -23,
  f4: -24,
  f5: -25,
  f6: -26,
  f7: -27,
  f8: -28,
  f9: -29,
  f10: -30,
  f11: -31,
  f12: -32,
};

/** The one-character string of a BMP codepoint, or "" for anything else (never a truncated one). */
export function charOf(codepoint: number): string {
  return codepoint >= 0 && codepoint <= 0xffff ? String.fromCharCode(codepoint) : "";
}

/** Lower-case Latin letter, digit or bindable symbol: a key whose codepoint names it outright. */
export function isNamedTextCodepoint(codepoint: number): boolean {
  return (codepoint >= 97 && codepoint <= 122) || (codepoint >= 48 && codepoint <= 57) ||
    SYMBOL_KEYS.has(charOf(codepoint));
}

/** A key identifier taken apart: the lower-cased key and its modifier bits. */
export interface ParsedKeyId {
  key: string;
  modifier: number;
}

const MODIFIER_PREFIXES: ReadonlyArray<readonly [string, number]> = [
  ["shift+", MOD.shift],
  ["alt+", MOD.alt],
  ["ctrl+", MOD.ctrl],
  ["super+", MOD.super],
];

/** Splits "Ctrl+Shift+P" into { key: "p", modifier: ctrl|shift }; undefined for a malformed id. */
export function parseKeyId(keyId: string): ParsedKeyId | undefined {
  let rest = keyId.toLowerCase();
  let modifier = 0;
  for (;;) {
    const prefix = MODIFIER_PREFIXES.find(([p]) => rest.startsWith(p));
    if (!prefix) break;
    if (modifier & prefix[1]) return undefined;
    modifier |= prefix[1];
    rest = rest.slice(prefix[0].length);
  }
  // "+" alone is the plus key; any other "+" left over is a typo such as "ctrl++x".
  if (!rest || (rest !== "+" && rest.includes("+"))) return undefined;
  return { key: rest, modifier };
}

/** "shift+ctrl+alt+super+name" in the one canonical order parseKey reports; undefined for other bits. */
export function formatKeyId(name: string, modifier: number): string | undefined {
  const bits = modifier & ~LOCK_MASK;
  if (bits & ~(MOD.shift | MOD.ctrl | MOD.alt | MOD.super)) return undefined;
  let prefix = "";
  if (bits & MOD.shift) prefix += "shift+";
  if (bits & MOD.ctrl) prefix += "ctrl+";
  if (bits & MOD.alt) prefix += "alt+";
  if (bits & MOD.super) prefix += "super+";
  return prefix + name;
}
