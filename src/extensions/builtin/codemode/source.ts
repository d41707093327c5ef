/**
 * A codemode script's text: JavaScript, optionally led by one `// @options: {...}` line with
 * `max_output_tokens` and `timeout_ms`. Checked as pi 1.6.0 checks it, with its messages; an options
 * line anywhere but the first line fails the call instead of being ignored.
 *
 * @module
 */

/** The options line's prefix. */
export const CODEMODE_OPTIONS_PREFIX = "// @options:";
const SUPPORTED_FIELDS = ["max_output_tokens", "timeout_ms"];
const SUPPORTED_FIELDS_TEXT = "`max_output_tokens` and `timeout_ms`";
/** The largest delay a timer takes, which bounds `timeout_ms`. */
const MAX_TIMEOUT_MS = 2_147_483_647;

/** A script's options. */
export interface CodemodeSourceOptions {
  maxOutputTokens?: number;
  timeoutMs?: number;
}

function isSafeCount(value: unknown): value is number {
  return typeof value === "number" && Number.isSafeInteger(value) && value >= 0;
}

function parseOptions(directive: string): CodemodeSourceOptions {
  const shape = `@options must be a JSON object with supported fields ${SUPPORTED_FIELDS_TEXT}`;
  if (directive === "") throw new Error(shape);
  let value: unknown;
  try {
    value = JSON.parse(directive);
  } catch (error) {
    throw new Error(
      `@options must be valid JSON with supported fields ${SUPPORTED_FIELDS_TEXT}: ${
        error instanceof Error ? error.message : String(error)
      }`,
    );
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw new Error(shape);
  const fields = value as Record<string, unknown>;
  for (const key of Object.keys(fields)) {
    if (!SUPPORTED_FIELDS.includes(key)) {
      throw new Error(`@options only supports ${SUPPORTED_FIELDS_TEXT}; got \`${key}\``);
    }
  }
  const options: CodemodeSourceOptions = {};
  if (fields.max_output_tokens !== undefined) {
    if (!isSafeCount(fields.max_output_tokens)) {
      throw new Error("@options field `max_output_tokens` must be a non-negative safe integer");
    }
    options.maxOutputTokens = fields.max_output_tokens;
  }
  if (fields.timeout_ms !== undefined) {
    const timeout = fields.timeout_ms;
    if (!isSafeCount(timeout) || timeout === 0 || timeout > MAX_TIMEOUT_MS) {
      throw new Error(`@options field \`timeout_ms\` must be a positive integer up to ${MAX_TIMEOUT_MS}`);
    }
    options.timeoutMs = timeout;
  }
  return options;
}

/**
 * Splits the options line from the script; the code keeps the line break, so line numbers in
 * errors are the input's. Throws for empty input, invalid options and a misplaced options line.
 */
export function parseCodemodeSource(input: string): { code: string; options: CodemodeSourceOptions } {
  if (input.trim() === "") {
    throw new Error(
      'Expected JavaScript source text (non-empty). Provide JS only, optionally with a first line `// @options: {"max_output_tokens": 1000}`.',
    );
  }
  const lines = input.split("\n");
  const misplaced = lines.findIndex((line, index) =>
    index > 0 && line.trimStart().startsWith(CODEMODE_OPTIONS_PREFIX)
  );
  if (misplaced !== -1) {
    throw new Error(
      `The ${CODEMODE_OPTIONS_PREFIX} line must be the first line of the input; found one on line ${
        misplaced + 1
      }`,
    );
  }
  const first = lines[0].replace(/\r$/, "").trimStart();
  if (!first.startsWith(CODEMODE_OPTIONS_PREFIX)) return { code: input, options: {} };
  const newline = input.indexOf("\n");
  const code = newline === -1 ? "" : input.slice(newline);
  if (code.trim() === "") {
    throw new Error("The @options line must be followed by JavaScript source on subsequent lines");
  }
  return { code, options: parseOptions(first.slice(CODEMODE_OPTIONS_PREFIX.length).trim()) };
}
