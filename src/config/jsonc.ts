/**
 * JSON-with-comments helpers for config files. Strict JSON stays the fast path, so plain files parse and
 * fail with exactly the messages `JSON.parse` gives; comments and trailing commas are accepted on top.
 *
 * @module
 */

import { applyEdits, type FormattingOptions, modify, parse, type ParseError } from "jsonc-parser";

/**
 * Removes `//` line comments and trailing commas while leaving string literals alone. This is the exact
 * (deliberately simple) rule the reference applies to models.json; block comments are not supported there.
 */
export function stripJsonComments(input: string): string {
  return input
    .replace(/"(?:\\.|[^"\\])*"|\/\/[^\n]*/g, (m) => (m[0] === '"' ? m : ""))
    .replace(
      /"(?:\\.|[^"\\])*"|,(\s*[}\]])/g,
      (m, tail: string | undefined) => tail ?? (m[0] === '"' ? m : ""),
    );
}

/** Result of {@link parseJsonc}: the value and whether the text needed the JSONC extensions. */
export interface JsoncParseResult {
  value: unknown;
  /** True when the text is not strict JSON (comments / trailing commas), so rewrites must preserve it. */
  isJsonc: boolean;
}

/**
 * Parses strict JSON, falling back to JSONC (`//`, block comments, trailing commas). When the text is
 * broken even as JSONC, the original `JSON.parse` SyntaxError is thrown so messages match strict parsing.
 */
export function parseJsonc(content: string): JsoncParseResult {
  try {
    return { value: JSON.parse(content), isJsonc: false };
  } catch (strictError) {
    const errors: ParseError[] = [];
    const value = parse(content, errors, { allowTrailingComma: true, disallowComments: false });
    if (errors.length > 0 || value === undefined) throw strictError;
    return { value, isJsonc: true };
  }
}

const FORMATTING: FormattingOptions = { insertSpaces: true, tabSize: 2, eol: "\n" };

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * Rewrites a JSONC document so it holds `next` instead of `previous` (the document's parsed value), editing
 * only the properties that changed. Comments and layout elsewhere survive. Objects nested one level deep are
 * edited per key, which is as deep as the settings write model goes.
 */
export function rewriteJsonc(
  content: string,
  previous: Record<string, unknown>,
  next: Record<string, unknown>,
): string {
  let text = content;
  const apply = (path: string[], value: unknown) => {
    text = applyEdits(text, modify(text, path, value, { formattingOptions: FORMATTING }));
  };
  for (const key of Object.keys(previous)) {
    if (!(key in next) || next[key] === undefined) apply([key], undefined);
  }
  for (const [key, value] of Object.entries(next)) {
    if (value === undefined) continue;
    const before = previous[key];
    if (sameJson(before, value)) continue;
    if (isPlainObject(before) && isPlainObject(value)) {
      for (const sub of Object.keys(before)) {
        if (!(sub in value) || value[sub] === undefined) apply([key, sub], undefined);
      }
      for (const [sub, subValue] of Object.entries(value)) {
        if (subValue === undefined || sameJson(before[sub], subValue)) continue;
        apply([key, sub], subValue);
      }
    } else {
      apply([key], value);
    }
  }
  return text;
}
