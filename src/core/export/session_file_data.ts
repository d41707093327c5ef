/**
 * The fast way to the page's session data for `pi --export <file>`: the JSON of
 * `{header, entries, leafId}` written straight from the file's lines into a base64 stream.
 *
 * The straightforward way (SessionManager.open, then JSON.stringify of the entries) parses every
 * line and serialises it again; on a 50 MB session that is most of the export's time and memory.
 * Here a line already in JSON.stringify's form (canonical_json.ts: what pi itself writes) is
 * copied byte for byte; any other line is parsed and re-serialised on its own, and lines the load
 * would skip (malformed, torn, not an object) are skipped with the same warnings. The result is
 * the same page, byte for byte.
 *
 * Only files whose first entry is a header of the current version take this way: an older file
 * is migrated (and rewritten) by the load, a blank one gets a header, one without a header is an
 * error: those go the straightforward way, which does all of that.
 *
 * @module
 */
import { CURRENT_SESSION_VERSION } from "../../session/entries.ts";
import { doubled } from "../../session/lazy_session_file.ts";
import type { Base64Sink } from "./base64_sink.ts";
import { CanonicalLineScanner } from "./canonical_json.ts";

const CHUNK_SIZE = 1 << 20;
const NEWLINE = 0x0a;
const QUOTE = 0x22;
const COMMA = new Uint8Array([0x2c]);
const SESSION_TYPE = new TextEncoder().encode('"session"');
const CURRENT_VERSION = new TextEncoder().encode(String(CURRENT_SESSION_VERSION));

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** Whitespace only, as the session loader's quick test judges it. */
function isBlank(b: Uint8Array, s: number, e: number): boolean {
  for (let i = s; i < e; i++) {
    const c = b[i];
    if (c !== 0x20 && c !== 0x09 && c !== 0x0d && c !== 0x0a && c !== 0x0b && c !== 0x0c) return false;
  }
  return true;
}

function rangeEquals(b: Uint8Array, s: number, e: number, expected: Uint8Array): boolean {
  if (s < 0 || e - s !== expected.length) return false;
  for (let k = 0; k < expected.length; k++) if (b[s + k] !== expected[k]) return false;
  return true;
}

/**
 * Writes the session data of the session file `path` into the sink `begin` returns, and returns
 * the load warnings (`file:line: why`, the same texts as SessionManager's). `begin` is called
 * once the file's header is known to be of the current version; when it is not (or the file has
 * no entry at all), nothing is written and null is returned: the caller must take the
 * straightforward way. `path` should be absolute (it is part of the warnings).
 */
export function writeSessionFileData(path: string, begin: () => Base64Sink): string[] | null {
  const warnings: string[] = [];
  const scanner = new CanonicalLineScanner();
  const decoder = new TextDecoder();
  let sink: Base64Sink | undefined;
  let lineNumber = 0;
  let entryCount = 0;
  /** The JSON of the last entry's id (`undefined`: it had none, so the page has no leafId). */
  let leaf: Uint8Array | string | undefined = "null";

  /** Takes one line `b[s..e)`; false when the file must go the straightforward way. */
  const take = (b: Uint8Array, s: number, e: number, terminated: boolean): boolean => {
    lineNumber++;
    if (e === s || (e - s < 64 && isBlank(b, s, e))) return true;
    let parsed: Record<string, unknown> | undefined;
    // An unterminated last line is parsed: the scan relies on the `\n` after a line.
    if (!terminated || !scanner.scan(b, s, e)) {
      const text = decoder.decode(b.subarray(s, e));
      if (!text.trim()) return true;
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch {
        warnings.push(
          terminated
            ? `${path}:${lineNumber}: skipped malformed line`
            : `${path}:${lineNumber}: ignored incomplete last line (${text.length} chars, interrupted write?)`,
        );
        return true;
      }
      if (!isObject(value)) {
        warnings.push(`${path}:${lineNumber}: skipped line that is not a JSON object`);
        return true;
      }
      parsed = value;
    }
    if (!sink) {
      const current = parsed
        ? parsed.type === "session" && typeof parsed.id === "string" &&
          parsed.version === CURRENT_SESSION_VERSION
        : rangeEquals(b, scanner.typeStart, scanner.typeEnd, SESSION_TYPE) && b[scanner.idStart] === QUOTE &&
          rangeEquals(b, scanner.versionStart, scanner.versionEnd, CURRENT_VERSION);
      if (!current) return false;
      sink = begin();
      sink.writeText('{"header":');
      if (parsed) sink.writeText(JSON.stringify(parsed));
      else sink.write(b.subarray(s, e));
      sink.writeText(',"entries":[');
      return true;
    }
    // Later headers are not entries (and do not move the leaf).
    if (
      parsed ? parsed.type === "session" : rangeEquals(b, scanner.typeStart, scanner.typeEnd, SESSION_TYPE)
    ) {
      return true;
    }
    if (entryCount++ > 0) sink.write(COMMA);
    if (parsed) {
      sink.writeText(JSON.stringify(parsed));
      leaf = JSON.stringify(parsed.id) as string | undefined;
    } else {
      sink.write(b.subarray(s, e));
      leaf = scanner.idStart < 0 ? undefined : b.slice(scanner.idStart, scanner.idEnd);
    }
    return true;
  };

  const file = Deno.openSync(path, { read: true });
  try {
    let buf = new Uint8Array(CHUNK_SIZE);
    let filled = 0;
    for (;;) {
      // One line fills the buffer: grow it (the longest line bounds the memory).
      if (filled === buf.length) buf = doubled(buf);
      const n = file.readSync(buf.subarray(filled));
      if (n === null || n === 0) break;
      const end = filled + n;
      const view = buf.subarray(0, end);
      let start = 0;
      for (;;) {
        const nl = view.indexOf(NEWLINE, start === 0 ? filled : start);
        if (nl < 0) break;
        if (!take(buf, start, nl, true)) return null;
        start = nl + 1;
      }
      buf.copyWithin(0, start, end);
      filled = end - start;
    }
    if (filled > 0 && !take(buf, 0, filled, false)) return null;
  } finally {
    file.close();
  }
  if (!sink) return null;
  sink.writeText("]");
  if (leaf !== undefined) {
    sink.writeText(',"leafId":');
    if (typeof leaf === "string") sink.writeText(leaf);
    else sink.write(leaf);
  }
  sink.writeText("}");
  return warnings;
}
