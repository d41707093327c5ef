/**
 * Describes a JSON syntax error for a config file message: where it is (line and column) and what was
 * wrong, never quoting the file. V8's messages can quote a slice of the text (`Unexpected token 'k',
 * "{"key": sk-live-…" is not valid JSON`), and config files hold API keys.
 *
 * @module
 */

/** Line and column (1-based) of a character offset. */
function lineColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text[i] === "\n") {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}

/**
 * `line L, column C: <what was wrong>` for a `JSON.parse` error on `text`, or just the reason when V8 gives
 * no position (end of input). Quoted snippets of the text are dropped; a single offending character is kept
 * when it is punctuation, since that cannot leak a secret and says what to fix.
 */
export function describeJsonError(text: string, error: unknown): string {
  const raw = error instanceof Error ? error.message : String(error);
  // `Unexpected token 'x', "…text…" is not valid JSON`: keep the token only when it is punctuation.
  const token = raw.match(/^Unexpected token '(.)', ".*" is not valid JSON$/s);
  let reason = raw
    .replace(/, ".*" is not valid JSON$/s, "")
    .replace(/ in JSON at position \d+.*$/s, "")
    .replace(/ at position \d+.*$/s, "")
    .replace(/ \(line \d+ column \d+\)$/, "");
  if (token) reason = /[\p{L}\p{N}]/u.test(token[1]) ? "Unexpected token" : `Unexpected token '${token[1]}'`;
  const position = raw.match(/at position (\d+)/);
  let offset = position ? Number(position[1]) : undefined;
  if (offset === undefined && token) offset = firstInvalidOffset(text);
  if (offset === undefined) return reason;
  const { line, column } = lineColumn(text, offset);
  return `line ${line}, column ${column}: ${reason}`;
}

/** The offset where strict parsing fails, found by parsing ever longer prefixes' failure points (V8 omits it for tokens). */
function firstInvalidOffset(text: string): number | undefined {
  // Binary search for the shortest prefix whose error is no longer "end of input": that is the bad token.
  let low = 0;
  let high = text.length;
  const failsBefore = (length: number): boolean => {
    try {
      JSON.parse(text.slice(0, length));
      return false;
    } catch (error) {
      const message = error instanceof Error ? error.message : "";
      return !/end of JSON input|Unterminated string/.test(message);
    }
  };
  if (!failsBefore(high)) return undefined;
  while (low < high) {
    const mid = (low + high) >> 1;
    if (failsBefore(mid + 1)) high = mid;
    else low = mid + 1;
  }
  return low;
}
