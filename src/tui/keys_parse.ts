/**
 * `parseKey`: the key id one complete input sequence stands for ("ctrl+c", "shift+up", "a"), in
 * the canonical modifier order shift, ctrl, alt, super.
 *
 * @module
 */
import {
  charOf,
  CP,
  formatKeyId,
  isNamedTextCodepoint,
  NAMED_CP,
  SHIFTED_SYMBOL_KEYS,
  SYMBOL_KEYS,
} from "./keys_ids.ts";
import {
  isKittyProtocolActive,
  keypadToMain,
  lowerShiftedLetter,
  parseKittySequence,
  parseModifyOtherKeys,
  shiftedSymbol,
} from "./keys_kitty.ts";
import { legacyKeyId } from "./keys_legacy.ts";
import { isWindowsTerminalSession } from "./keys_match.ts";

/** Bytes that name one key in every mode. */
const FIXED: ReadonlyMap<string, string> = new Map([
  ["\x1b", "escape"],
  ["\x1c", "ctrl+\\"],
  ["\x1d", "ctrl+]"],
  ["\x1f", "ctrl+-"],
  ["\x1b\x1b", "ctrl+alt+["],
  ["\x1b\x1c", "ctrl+alt+\\"],
  ["\x1b\x1d", "ctrl+alt+]"],
  ["\x1b\x1f", "ctrl+alt+-"],
  ["\t", "tab"],
  ["\r", "enter"],
  ["\x1bOM", "enter"],
  ["\x00", "ctrl+space"],
  [" ", "space"],
  ["\x7f", "backspace"],
  ["\x1b[Z", "shift+tab"],
  ["\x1b\x7f", "alt+backspace"],
  ["\x1b\b", "alt+backspace"],
]);

/** Bytes whose meaning depends on the protocol: with kitty on, ESC CR and LF are user mappings of Shift+Enter. */
const KITTY_MODE: ReadonlyMap<string, string> = new Map([
  ["\x1b\r", "shift+enter"],
  ["\n", "shift+enter"],
]);
const LEGACY_MODE: ReadonlyMap<string, string> = new Map([
  ["\x1b\r", "alt+enter"],
  ["\n", "enter"],
  ["\x1b ", "alt+space"],
]);

/** Names of the codepoints NAMED_CP and CP give keys without text. */
const CODEPOINT_NAMES: ReadonlyMap<number, string> = new Map([
  [CP.escape, "escape"],
  [CP.tab, "tab"],
  [CP.enter, "enter"],
  [CP.kpEnter, "enter"],
  [CP.space, "space"],
  [CP.backspace, "backspace"],
  ...Object.entries(NAMED_CP).map(([name, codepoint]) => [codepoint, name] as [number, string]),
]);

/**
 * The key id of a codepoint and modifiers from a CSI sequence. The base layout key (flag 4) names
 * the key only when the codepoint itself is no Latin letter, digit or symbol: remapped layouts
 * (Dvorak, Colemak) must report what they type, not where the key sits on QWERTY.
 */
function formatCodepoint(codepoint: number, modifier: number, baseLayoutKey?: number): string | undefined {
  const own = lowerShiftedLetter(keypadToMain(codepoint), modifier);
  const effective = isNamedTextCodepoint(own) ? own : (baseLayoutKey ?? own);
  const name = CODEPOINT_NAMES.get(effective) ??
    (isNamedTextCodepoint(effective) ? charOf(effective) : undefined);
  return name === undefined ? undefined : formatKeyId(name, modifier);
}

/** Whether `code` follows ESC as a legacy Alt key: a letter, digit or bindable symbol. */
function isAltKeyCode(code: number): boolean {
  return (code >= 97 && code <= 122) || (code >= 48 && code <= 57) ||
    SYMBOL_KEYS.has(String.fromCharCode(code));
}

/**
 * Parse input data and return the key identifier if recognized.
 *
 * @param data - Raw input data from terminal
 * @returns Key identifier string (e.g., "ctrl+c") or undefined
 */
export function parseKey(data: string): string | undefined {
  const kittyKey = parseKittySequence(data);
  if (kittyKey) {
    const logical = shiftedSymbol(kittyKey.shiftedKey, kittyKey.modifier, SYMBOL_KEYS);
    return formatCodepoint(
      logical?.codepoint ?? kittyKey.codepoint,
      logical?.modifier ?? kittyKey.modifier,
      kittyKey.baseLayoutKey,
    );
  }
  const xtermKey = parseModifyOtherKeys(data);
  if (xtermKey) {
    const logical = shiftedSymbol(xtermKey.codepoint, xtermKey.modifier, SHIFTED_SYMBOL_KEYS);
    return formatCodepoint(logical?.codepoint ?? xtermKey.codepoint, logical?.modifier ?? xtermKey.modifier);
  }
  const kitty = isKittyProtocolActive();
  const named = (kitty ? KITTY_MODE : LEGACY_MODE).get(data) ?? legacyKeyId(data, kitty) ?? FIXED.get(data);
  if (named) return named;
  if (data === "\b") return isWindowsTerminalSession() ? "ctrl+backspace" : "backspace";
  if (data.length === 2 && data[0] === "\x1b" && !kitty) {
    const code = data.charCodeAt(1);
    if (code >= 1 && code <= 26) return `ctrl+alt+${String.fromCharCode(code + 96)}`;
    if (isAltKeyCode(code)) return `alt+${data[1]}`;
  }
  if (data.length === 1) {
    const code = data.charCodeAt(0);
    if (code >= 1 && code <= 26) return `ctrl+${String.fromCharCode(code + 96)}`;
    if (code >= 32 && code <= 126) return data;
  }
  return undefined;
}
