/**
 * Tolerant JSON parsing for tool-call arguments, which arrive in fragments while streaming
 * and are sometimes slightly malformed (raw control characters, stray backslashes).
 *
 * @module
 */
import { parsePartialJson } from "./partial_json.ts";

const JSON_ESCAPES = new Set(['"', "\\", "/", "b", "f", "n", "r", "t", "u"]);

const CONTROL_ESCAPES: Record<string, string> = {
  "\b": "\\b",
  "\f": "\\f",
  "\n": "\\n",
  "\r": "\\r",
  "\t": "\\t",
};

function escapeControl(char: string): string {
  return CONTROL_ESCAPES[char] ?? `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`;
}

/**
 * Fixes string literals that models emit invalidly: raw control characters get escaped and a
 * backslash before a character that is no JSON escape is doubled (kept literally).
 */
export function repairJson(json: string): string {
  let out = "";
  let inString = false;
  for (let i = 0; i < json.length; i++) {
    const char = json[i];
    if (!inString) {
      out += char;
      if (char === '"') inString = true;
      continue;
    }
    if (char === '"') {
      out += char;
      inString = false;
      continue;
    }
    if (char === "\\") {
      const next = json[i + 1];
      if (next === undefined) {
        out += "\\\\";
        continue;
      }
      if (next === "u" && /^[0-9a-fA-F]{4}$/.test(json.slice(i + 2, i + 6))) {
        out += json.slice(i, i + 6);
        i += 5;
        continue;
      }
      if (JSON_ESCAPES.has(next)) {
        out += `\\${next}`;
        i += 1;
        continue;
      }
      out += "\\\\";
      continue;
    }
    const code = char.charCodeAt(0);
    out += code <= 0x1f ? escapeControl(char) : char;
  }
  return out;
}

/** `JSON.parse`, retried once on the repaired text; throws the original error if both fail. */
export function parseJsonWithRepair<T = unknown>(json: string): T {
  try {
    return JSON.parse(json) as T;
  } catch (error) {
    const repaired = repairJson(json);
    if (repaired !== json) return JSON.parse(repaired) as T;
    throw error;
  }
}

/**
 * Best-effort object from possibly incomplete JSON; `{}` when nothing can be recovered, so
 * callers can render partial tool arguments while they stream.
 */
// deno-lint-ignore no-explicit-any
export function parseStreamingJson<T = Record<string, any>>(text: string | undefined): T {
  if (!text || text.trim() === "") return {} as T;
  try {
    return parseJsonWithRepair<T>(text);
  } catch {
    for (const candidate of [text, repairJson(text)]) {
      try {
        return (parsePartialJson(candidate) ?? {}) as T;
      } catch {
        // try the next candidate
      }
    }
    return {} as T;
  }
}
