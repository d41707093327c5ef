/**
 * The kitty keyboard protocol and xterm's modifyOtherKeys: reading `CSI codepoint;mods u`,
 * `CSI n;mods ~`, `CSI 1;mods A…`, and `CSI 27;mods;code ~` into a codepoint and modifier bits,
 * and whether the terminal was put in kitty mode (which changes how ambiguous legacy bytes read).
 *
 * @module
 */
import { charOf, LOCK_MASK, MOD, NAMED_CP, SHIFTED_SYMBOL_KEYS, SYMBOL_KEYS } from "./keys_ids.ts";

let kittyActive = false;

/**
 * Set the global Kitty keyboard protocol state.
 * Called by ProcessTerminal after detecting protocol support.
 */
export function setKittyProtocolActive(active: boolean): void {
  kittyActive = active;
}

/**
 * Query whether Kitty keyboard protocol is currently active.
 */
export function isKittyProtocolActive(): boolean {
  return kittyActive;
}

/** A key event read from a kitty or xterm CSI sequence. */
export interface CsiKey {
  /** Unicode codepoint, or one of NAMED_CP's negative numbers. */
  codepoint: number;
  /** Modifier bits (wire value minus one), lock bits included. */
  modifier: number;
  /** Flag 4 "alternate keys": what the key types with Shift held. */
  shiftedKey?: number;
  /** Flag 4: the key at this position on a US PC-101 layout. */
  baseLayoutKey?: number;
}

/** The parameters and final byte of a CSI sequence (what follows ESC [), or "" for anything else. */
function csiBody(data: string): string {
  return data.startsWith("\x1b[") ? data.slice(2) : "";
}

/** `CSI code[:shifted[:base]][;mods[:event]] u`; the shifted slot may be empty ("97::98"). */
const CSI_U = /^(\d+)(?::(\d*))?(?::(\d+))?(?:;(\d+))?(?::(\d+))?u$/;
/** `CSI 1;mods[:event] A-D/H/F/P/Q/S`; F1, F2 and F4 may also come without "1;mods". */
const CSI_LETTER = /^(?:1;(\d+)(?::(\d+))?)?([ABCDHFPQS])$/;
/** `CSI n[;mods][:event] ~`. */
const CSI_TILDE = /^(\d+)(?:;(\d+))?(?::(\d+))?~$/;
/** xterm modifyOtherKeys: `CSI 27;mods;code ~`. */
const MODIFY_OTHER_KEYS = /^27;(\d+);(\d+)~$/;

const LETTER_KEYS: Readonly<Record<string, number>> = {
  A: NAMED_CP.up,
  B: NAMED_CP.down,
  C: NAMED_CP.right,
  D: NAMED_CP.left,
  H: NAMED_CP.home,
  F: NAMED_CP.end,
  P: NAMED_CP.f1,
  Q: NAMED_CP.f2,
  S: NAMED_CP.f4,
};

/** The numbers of `CSI n ~` keys (F3 comes this way: `CSI 1;mods R` would read as a cursor report). */
const TILDE_KEYS: ReadonlyMap<number, number> = new Map([
  [2, NAMED_CP.insert],
  [3, NAMED_CP.delete],
  [5, NAMED_CP.pageUp],
  [6, NAMED_CP.pageDown],
  [7, NAMED_CP.home],
  [8, NAMED_CP.end],
  [11, NAMED_CP.f1],
  [12, NAMED_CP.f2],
  [13, NAMED_CP.f3],
  [14, NAMED_CP.f4],
  [15, NAMED_CP.f5],
  [17, NAMED_CP.f6],
  [18, NAMED_CP.f7],
  [19, NAMED_CP.f8],
  [20, NAMED_CP.f9],
  [21, NAMED_CP.f10],
  [23, NAMED_CP.f11],
  [24, NAMED_CP.f12],
]);

/** Kitty's private-use codepoints for functional keys (F13–F35, media, modifiers): never text. */
const KITTY_PUA_FIRST = 57344;
const KITTY_PUA_LAST = 63743;

/** Keypad keys reported with their own kitty codepoints, read as the main-keyboard key they mean. */
const KEYPAD_EQUIVALENTS: ReadonlyMap<number, number> = new Map([
  [57399, 48],
  [57400, 49],
  [57401, 50],
  [57402, 51],
  [57403, 52],
  [57404, 53],
  [57405, 54],
  [57406, 55],
  [57407, 56],
  [57408, 57],
  [57409, 46],
  [57410, 47],
  [57411, 42],
  [57412, 45],
  [57413, 43],
  [57415, 61],
  [57416, 44],
  [57417, NAMED_CP.left],
  [57418, NAMED_CP.right],
  [57419, NAMED_CP.up],
  [57420, NAMED_CP.down],
  [57421, NAMED_CP.pageUp],
  [57422, NAMED_CP.pageDown],
  [57423, NAMED_CP.home],
  [57424, NAMED_CP.end],
  [57425, NAMED_CP.insert],
  [57426, NAMED_CP.delete],
]);

/** Keypad digits, operators and arrows as the main-keyboard key (KP_1 → "1", KP_Up → up). */
export function keypadToMain(codepoint: number): number {
  return KEYPAD_EQUIVALENTS.get(codepoint) ?? codepoint;
}

/** Kitty reports Shift+a as "A" with the Shift bit; a binding names the key "shift+a". */
export function lowerShiftedLetter(codepoint: number, modifier: number): number {
  return (modifier & ~LOCK_MASK & MOD.shift) && codepoint >= 65 && codepoint <= 90
    ? codepoint + 32
    : codepoint;
}

/**
 * When Shift is held and the key produced a symbol in `allowed` (kitty's shifted key, or
 * modifyOtherKeys' code), the symbol itself with Shift consumed: "+" rather than "shift+=".
 */
export function shiftedSymbol(
  codepoint: number | undefined,
  modifier: number,
  allowed: ReadonlySet<string>,
): { codepoint: number; modifier: number } | undefined {
  if (codepoint === undefined || !(modifier & MOD.shift)) return undefined;
  const main = keypadToMain(codepoint);
  if (!allowed.has(charOf(main))) return undefined;
  return { codepoint: main, modifier: modifier & ~MOD.shift };
}

/** Reads a kitty-protocol key sequence (CSI u, CSI ~, CSI 1;mods letter); undefined for anything else. */
export function parseKittySequence(data: string): CsiKey | undefined {
  const body = csiBody(data);
  const u = CSI_U.exec(body);
  if (u) {
    return {
      codepoint: Number.parseInt(u[1], 10),
      shiftedKey: u[2] ? Number.parseInt(u[2], 10) : undefined,
      baseLayoutKey: u[3] ? Number.parseInt(u[3], 10) : undefined,
      modifier: u[4] ? Number.parseInt(u[4], 10) - 1 : 0,
    };
  }
  const letter = CSI_LETTER.exec(body);
  if (letter) {
    // Only F1, F2 and F4 are sent bare ("CSI P"); a bare "CSI A" is the legacy arrow.
    if (letter[1] === undefined && !"PQS".includes(letter[3])) return undefined;
    return {
      codepoint: LETTER_KEYS[letter[3]],
      modifier: letter[1] ? Number.parseInt(letter[1], 10) - 1 : 0,
    };
  }
  const tilde = CSI_TILDE.exec(body);
  if (tilde) {
    const codepoint = TILDE_KEYS.get(Number.parseInt(tilde[1], 10));
    if (codepoint !== undefined) {
      return { codepoint, modifier: tilde[2] ? Number.parseInt(tilde[2], 10) - 1 : 0 };
    }
  }
  return undefined;
}

/** Reads xterm's modifyOtherKeys form `CSI 27;mods;code ~`. */
export function parseModifyOtherKeys(data: string): CsiKey | undefined {
  const m = MODIFY_OTHER_KEYS.exec(csiBody(data));
  if (!m) return undefined;
  return { codepoint: Number.parseInt(m[2], 10), modifier: Number.parseInt(m[1], 10) - 1 };
}

/** Whether a kitty sequence is this key with exactly these modifiers (lock keys ignored). */
export function matchesKittySequence(data: string, codepoint: number, modifier: number): boolean {
  const parsed = parseKittySequence(data);
  if (!parsed) return false;
  const actualMod = parsed.modifier & ~LOCK_MASK;
  const wantedMod = modifier & ~LOCK_MASK;
  const actualKey = lowerShiftedLetter(keypadToMain(parsed.codepoint), parsed.modifier);
  if (actualMod === wantedMod && actualKey === lowerShiftedLetter(keypadToMain(codepoint), modifier)) {
    return true;
  }
  // Kitty reports "+" as Shift plus the physical "=": a binding that names "+" consumes that Shift
  // (the physical "shift+=" still matches above).
  const logical = shiftedSymbol(parsed.shiftedKey, actualMod, SYMBOL_KEYS);
  if (
    logical && (logical.modifier & ~LOCK_MASK) === wantedMod && logical.codepoint === keypadToMain(codepoint)
  ) {
    return true;
  }
  if (actualMod !== wantedMod) return false;
  // A non-Latin layout (Ctrl+С on a Russian keyboard) matches by its US-layout position, but a
  // codepoint that is itself a Latin letter or symbol is authoritative: on Dvorak or Colemak the
  // base layout key would make Ctrl+K match Ctrl+V.
  if (parsed.baseLayoutKey === undefined || parsed.baseLayoutKey !== codepoint) return false;
  return !((actualKey >= 97 && actualKey <= 122) || SYMBOL_KEYS.has(charOf(actualKey)));
}

/** modifyOtherKeys for a named key: the exact code and modifiers. */
export function matchesModifyOtherKeys(data: string, codepoint: number, modifier: number): boolean {
  const parsed = parseModifyOtherKeys(data);
  return parsed !== undefined && parsed.codepoint === codepoint && parsed.modifier === modifier;
}

/** modifyOtherKeys for a letter, digit or symbol: shifted letters and shifted symbols read logically. */
export function matchesPrintableModifyOtherKeys(data: string, codepoint: number, modifier: number): boolean {
  const parsed = parseModifyOtherKeys(data);
  if (!parsed) return false;
  if (
    parsed.modifier === modifier &&
    lowerShiftedLetter(parsed.codepoint, parsed.modifier) === lowerShiftedLetter(codepoint, modifier)
  ) {
    return true;
  }
  const logical = shiftedSymbol(parsed.codepoint, parsed.modifier, SHIFTED_SYMBOL_KEYS);
  return logical !== undefined && logical.modifier === modifier && logical.codepoint === codepoint;
}

/** Event-type suffixes kitty appends after the modifiers (":2" repeat, ":3" release). */
const EVENT_FINALS = "u~ABCDHFPQS";

function hasEventType(data: string, eventType: "2" | "3"): boolean {
  // Pasted text can hold ":3F" (a MAC address); the terminal hands pastes on wrapped in the
  // bracketed-paste start marker, so its presence means "not a key event".
  if (data.includes("\x1b[200~")) return false;
  for (const final of EVENT_FINALS) {
    if (data.includes(`:${eventType}${final}`)) return true;
  }
  return false;
}

/**
 * Check if the last parsed key event was a key release.
 * Only meaningful when Kitty keyboard protocol with flag 2 is active.
 */
export function isKeyRelease(data: string): boolean {
  return hasEventType(data, "3");
}

/**
 * Check if the last parsed key event was a key repeat.
 * Only meaningful when Kitty keyboard protocol with flag 2 is active.
 */
export function isKeyRepeat(data: string): boolean {
  return hasEventType(data, "2");
}

function textOf(codepoint: number): string | undefined {
  if (!Number.isFinite(codepoint) || codepoint < 32) return undefined;
  try {
    return String.fromCodePoint(codepoint);
  } catch {
    return undefined;
  }
}

/**
 * Decode a Kitty CSI-u sequence into a printable character, if applicable.
 *
 * When Kitty keyboard protocol flag 1 (disambiguate) is active, terminals send
 * CSI-u sequences for all keys, including plain printable characters. This
 * function extracts the printable character from such sequences.
 *
 * Only accepts plain or Shift-modified keys. Rejects Ctrl, Alt, and unsupported
 * modifier combinations (those are handled by keybinding matching instead).
 * Prefers the shifted keycode when Shift is held and a shifted key is reported.
 *
 * @param data - Raw input data from terminal
 * @returns The printable character, or undefined if not a printable CSI-u sequence
 */
export function decodeKittyPrintable(data: string): string | undefined {
  const m = CSI_U.exec(csiBody(data));
  if (!m) return undefined;
  const modifier = m[4] ? Number.parseInt(m[4], 10) - 1 : 0;
  // Only Shift and the lock keys may be held: anything else is a binding, and Super/Meta alone
  // would insert characters from modifier-only events.
  if (modifier & ~(MOD.shift | LOCK_MASK)) return undefined;
  let codepoint = Number.parseInt(m[1], 10);
  if (!Number.isFinite(codepoint)) return undefined;
  if (modifier & MOD.shift && m[2]) codepoint = Number.parseInt(m[2], 10);
  codepoint = keypadToMain(codepoint);
  if (codepoint >= KITTY_PUA_FIRST && codepoint <= KITTY_PUA_LAST) return undefined;
  return textOf(codepoint);
}

/** Text typed with modifyOtherKeys active (`CSI 27;2;65~` is "A"); Shift is the only modifier allowed. */
function decodeModifyOtherKeysPrintable(data: string): string | undefined {
  const parsed = parseModifyOtherKeys(data);
  if (!parsed || (parsed.modifier & ~LOCK_MASK & ~MOD.shift)) return undefined;
  return textOf(parsed.codepoint);
}

/** The text a key sequence types: a kitty CSI u or modifyOtherKeys sequence of a printable key. */
export function decodePrintableKey(data: string): string | undefined {
  return decodeKittyPrintable(data) ?? decodeModifyOtherKeysPrintable(data);
}
