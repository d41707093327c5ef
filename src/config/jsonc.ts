/**
 * JSON-with-comments helpers for config files. Strict JSON stays the fast path, so plain files parse and
 * fail with exactly the messages `JSON.parse` gives; comments and trailing commas are accepted on top.
 *
 * @module
 */

import type { FormattingOptions } from "npm:jsonc-parser@3.3.1";

type JsoncEditor = typeof import("npm:jsonc-parser@3.3.1");
let editor: JsoncEditor | undefined;

/**
 * Loads the comment-preserving editor (npm:jsonc-parser). It is only needed to rewrite JSONC files,
 * so it loads in the write path, never at start-up.
 */
export async function loadJsoncEditor(): Promise<void> {
  editor ??= await import("npm:jsonc-parser@3.3.1");
}

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
    let value: unknown;
    try {
      value = JSON.parse(stripJsoncSyntax(content));
    } catch {
      throw strictError;
    }
    if (value === undefined) throw strictError;
    return { value, isJsonc: true };
  }
}

/**
 * Turns JSONC into JSON: removes `//` and `/* *\/` comments and trailing commas outside strings
 * (replacing comments with spaces keeps positions stable).
 */
export function stripJsoncSyntax(input: string): string {
  let out = "";
  let i = 0;
  const n = input.length;
  while (i < n) {
    const c = input[i];
    if (c === '"') {
      let j = i + 1;
      while (j < n && input[j] !== '"') j += input[j] === "\\" ? 2 : 1;
      out += input.slice(i, j + 1);
      i = j + 1;
    } else if (c === "/" && input[i + 1] === "/") {
      while (i < n && input[i] !== "\n") i++;
    } else if (c === "/" && input[i + 1] === "*") {
      const end = input.indexOf("*/", i + 2);
      i = end === -1 ? n : end + 2;
      out += " ";
    } else if (c === ",") {
      let j = i + 1;
      // Look past whitespace and comments for a closing bracket.
      while (j < n) {
        if (/\s/.test(input[j])) j++;
        else if (input[j] === "/" && input[j + 1] === "/") { while (j < n && input[j] !== "\n") j++; }
        else if (input[j] === "/" && input[j + 1] === "*") {
          const end = input.indexOf("*/", j + 2);
          j = end === -1 ? n : end + 2;
        } else break;
      }
      if (input[j] !== "}" && input[j] !== "]") out += c;
      i++;
    } else {
      out += c;
      i++;
    }
  }
  return out;
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
  if (!editor) throw new Error("rewriteJsonc: call loadJsoncEditor() first");
  const { applyEdits, modify } = editor;
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
