/**
 * `matchesKey`: does this input from the terminal mean this key id? Every key is tried in each form
 * a terminal may send it: legacy bytes (some of which only mean the key while the kitty protocol is
 * off), kitty CSI u / CSI ~ / CSI 1;mods, and xterm's modifyOtherKeys.
 *
 * @module
 */
import { readEnv } from "../util/env.ts";
import { CP, formatKeyId, type KeyId, MOD, NAMED_CP, parseKeyId, SYMBOL_KEYS } from "./keys_ids.ts";
import {
  isKittyProtocolActive,
  matchesKittySequence,
  matchesModifyOtherKeys,
  matchesPrintableModifyOtherKeys,
} from "./keys_kitty.ts";
import { legacyKeyId } from "./keys_legacy.ts";

/**
 * Windows Terminal sends a bare BS (0x08) for Ctrl+Backspace, where other terminals (and tmux)
 * send it for plain Backspace. Over SSH the far end's terminal is unknown, so the hint is not
 * trusted there.
 */
export function isWindowsTerminalSession(): boolean {
  return Boolean(readEnv("WT_SESSION")) && !readEnv("SSH_CONNECTION") && !readEnv("SSH_CLIENT") &&
    !readEnv("SSH_TTY");
}

/** Lower-cased key names → the spelling NAMED_CP and the legacy table use. */
const CANONICAL_NAMES: Readonly<Record<string, string>> = { pageup: "pageUp", pagedown: "pageDown" };

/** The control byte Ctrl+key sends in a legacy terminal (Ctrl+- is Ctrl+_ on a US keyboard). */
function controlByte(key: string): string | undefined {
  const code = key.charCodeAt(0);
  if ((code >= 97 && code <= 122) || key === "[" || key === "\\" || key === "]" || key === "_") {
    return String.fromCharCode(code & 0x1f);
  }
  return key === "-" ? "\x1f" : undefined;
}

function matchesEnter(data: string, modifier: number, kitty: boolean): boolean {
  if (
    matchesKittySequence(data, CP.enter, modifier) || matchesKittySequence(data, CP.kpEnter, modifier) ||
    (modifier !== 0 && matchesModifyOtherKeys(data, CP.enter, modifier))
  ) {
    return true;
  }
  switch (modifier) {
    case 0:
      // ESC O M is the keypad Enter in application keypad mode.
      return data === "\r" || data === "\x1bOM" || (!kitty && data === "\n");
    case MOD.shift:
      // With kitty on, these bytes come from user mappings: kitty's "map shift+enter send_text all \e\r"
      // and Ghostty's "keybind = shift+enter=text:\n".
      return kitty && (data === "\x1b\r" || data === "\n");
    case MOD.alt:
      return !kitty && data === "\x1b\r";
  }
  return false;
}

function matchesBackspace(data: string, modifier: number): boolean {
  if (
    matchesKittySequence(data, CP.backspace, modifier) || matchesModifyOtherKeys(data, CP.backspace, modifier)
  ) {
    return true;
  }
  switch (modifier) {
    case 0:
      return data === "\x7f" || (data === "\b" && !isWindowsTerminalSession());
    case MOD.ctrl:
      return data === "\b" && isWindowsTerminalSession();
    case MOD.alt:
      return data === "\x1b\x7f" || data === "\x1b\b";
  }
  return false;
}

function matchesSpace(data: string, modifier: number, kitty: boolean): boolean {
  if (modifier === 0 && data === " ") return true;
  if (!kitty && modifier === MOD.ctrl && data === "\x00") return true;
  if (!kitty && modifier === MOD.alt && data === "\x1b ") return true;
  return matchesKittySequence(data, CP.space, modifier) || matchesModifyOtherKeys(data, CP.space, modifier);
}

function matchesTab(data: string, modifier: number): boolean {
  if (modifier === 0 && data === "\t") return true;
  if (modifier === MOD.shift && data === "\x1b[Z") return true;
  return matchesKittySequence(data, CP.tab, modifier) ||
    (modifier !== 0 && matchesModifyOtherKeys(data, CP.tab, modifier));
}

/** Letters, digits and symbols: legacy control bytes and ESC prefixes, then CSI u and modifyOtherKeys. */
function matchesTextKey(data: string, key: string, modifier: number, kitty: boolean): boolean {
  const isLetter = key >= "a" && key <= "z";
  const control = controlByte(key);
  if (modifier === 0 && data === key) return true;
  if (modifier === MOD.shift && isLetter && data === key.toUpperCase()) return true;
  if (modifier === MOD.ctrl && control !== undefined && data === control) return true;
  // Alt is ESC before the key in legacy terminals; with kitty on these bytes are something else.
  if (!kitty && modifier === MOD.alt && data === `\x1b${key}`) return true;
  if (!kitty && modifier === (MOD.ctrl | MOD.alt) && control !== undefined && data === `\x1b${control}`) {
    return true;
  }
  const codepoint = key.charCodeAt(0);
  return matchesKittySequence(data, codepoint, modifier) ||
    matchesPrintableModifyOtherKeys(data, codepoint, modifier);
}

function isTextKey(key: string): boolean {
  return key.length === 1 &&
    ((key >= "a" && key <= "z") || (key >= "0" && key <= "9") || SYMBOL_KEYS.has(key));
}

/**
 * Match input data against a key identifier string.
 *
 * Supported key identifiers:
 * - Single keys: "escape", "tab", "enter", "backspace", "delete", "home", "end", "space"
 * - Arrow keys: "up", "down", "left", "right"
 * - Ctrl combinations: "ctrl+c", "ctrl+z", etc.
 * - Shift combinations: "shift+tab", "shift+enter"
 * - Alt combinations: "alt+enter", "alt+backspace"
 * - Super combinations: "super+k", "super+enter"
 * - Combined modifiers: "shift+ctrl+p", "ctrl+alt+x", "ctrl+super+k"
 *
 * Use the Key helper for autocomplete: Key.ctrl("c"), Key.escape, Key.ctrlShift("p"), Key.super("k")
 *
 * @param data - Raw input data from terminal
 * @param keyId - Key identifier (e.g., "ctrl+c", "escape", Key.ctrl("c"))
 */
export function matchesKey(data: string, keyId: KeyId): boolean {
  const parsed = parseKeyId(keyId);
  if (!parsed) return false;
  const { modifier } = parsed;
  const key = CANONICAL_NAMES[parsed.key] ?? parsed.key;
  const kitty = isKittyProtocolActive();
  switch (key) {
    case "escape":
    case "esc":
      return modifier === 0 &&
        (data === "\x1b" || matchesKittySequence(data, CP.escape, 0) ||
          matchesModifyOtherKeys(data, CP.escape, 0));
    case "enter":
    case "return":
      return matchesEnter(data, modifier, kitty);
    case "backspace":
      return matchesBackspace(data, modifier);
    case "space":
      return matchesSpace(data, modifier, kitty);
    case "tab":
      return matchesTab(data, modifier);
    case "clear":
      // Clear (keypad 5 without Num Lock) has no kitty form this kit reads.
      return legacyKeyId(data, kitty) === formatKeyId(key, modifier);
  }
  const named = Object.hasOwn(NAMED_CP, key) ? NAMED_CP[key] : undefined;
  if (named !== undefined) {
    return legacyKeyId(data, kitty) === formatKeyId(key, modifier) ||
      matchesKittySequence(data, named, modifier);
  }
  return isTextKey(key) && matchesTextKey(data, key, modifier, kitty);
}
