/**
 * One-line formatting of the LaTeX renderer's pieces: Unicode sub/superscripts with a `_(…)`/`^(…)` fallback,
 * `a/b` fractions and `√x` roots, each parenthesised when the operand is more than a plain word or number.
 *
 * @module
 */
import { lookup, SUBSCRIPTS, SUPERSCRIPTS } from "./latex_symbols.ts";

/** Which script a value is written as. */
export type ScriptKind = "sub" | "sup";

/** Every character of `value` mapped through the table, or undefined when one has no entry. */
function mapEvery(value: string, table: Readonly<Record<string, string>>): string | undefined {
  let out = "";
  for (const character of value) {
    const mapped = lookup(table, character);
    if (mapped === undefined) return undefined;
    out += mapped;
  }
  return out;
}

/** A script's text with the spaces around `=`, `+` and `-` removed (`n + 1` → `n+1`). */
function tightenScript(value: string): string {
  return value.trim().replace(/\s*([=+-])\s*/g, "$1");
}

/** The script in Unicode sub/superscript characters, or undefined when some character has none. */
export function unicodeScript(value: string, kind: ScriptKind): string | undefined {
  return mapEvery(tightenScript(value), kind === "sub" ? SUBSCRIPTS : SUPERSCRIPTS);
}

/** The script in Unicode when possible, else `_x`/`^x` for one character (or a word subscript), else `_(…)`. */
export function scriptText(value: string, kind: ScriptKind): string {
  const tight = tightenScript(value);
  const unicode = unicodeScript(tight, kind);
  if (unicode !== undefined) return unicode;
  const marker = kind === "sub" ? "_" : "^";
  const single = Array.from(tight).length === 1;
  if (single || (kind === "sub" && /^[A-Za-z]+$/.test(tight))) return marker + tight;
  return `${marker}(${tight})`;
}

// Built on first use: V8 expands \p{L} into a range table when a regex is created.
let plainOperand: RegExp | undefined;
const isPlainOperand = (text: string) => (plainOperand ??= /^[\p{L}\p{N}.]+$/u).test(text);

/** `a/b`, with a numerator that is not a plain word or number, or a longer non-numeric denominator, in brackets. */
export function inlineFraction(numerator: string, denominator: string): string {
  const top = numerator.trim();
  const bottom = denominator.trim();
  const plainTop = isPlainOperand(top);
  const plainBottom = /^[\p{N}.]+$/u.test(bottom) || Array.from(bottom).length === 1;
  return `${plainTop ? top : `(${top})`}/${plainBottom ? bottom : `(${bottom})`}`;
}

/** `√x` for a plain word or number, `√(…)` otherwise; `symbol` is the root sign (∛, ∜ for cube and fourth roots). */
export function rootText(value: string, symbol = "√"): string {
  const operand = value.trim();
  return isPlainOperand(operand) ? symbol + operand : `${symbol}(${operand})`;
}
