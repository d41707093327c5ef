/**
 * A shortcut past `JSON.parse` for the bulk of a Chat Completions stream. A long answer is
 * thousands of chunks that differ from the one before only in the text of
 * `choices[0].delta.content`: same id, model, fingerprint, `"finish_reason":null`. Once such a
 * "plain content" chunk has been parsed, its JSON text is split around that string into a prefix
 * and a suffix; a later event whose data starts with the prefix and ends with the suffix, and
 * whose middle holds no `"`, `\` or control character, is exactly that chunk with the middle as
 * its content (the bytes outside the string are the same, and a JSON string without escapes is
 * its own text). Anything else (escapes, unicode escapes, another field order, a finish reason,
 * usage, tool calls, reasoning) goes through `JSON.parse` as before; a plain content chunk in
 * another layout becomes the next template. Applying a recognised chunk is appending its text:
 * the rest of a plain content chunk (id, model, no usage, no finish reason) changes nothing that
 * applying the template did not already. A stream whose chunks never repeat a layout (a random
 * field in each) stops trying after a few templates, so it pays for no second parse.
 * Tests: tests/ai/completions_delta_test.ts compares with the full parse.
 *
 * @module
 */

/** How many templates in a row may go unused before a stream stops learning them. */
const MAX_UNUSED_TEMPLATES = 4;

/**
 * The content of a plain content chunk (one choice, a delta of `content` alone, non-empty; no
 * finish reason, usage or error), else undefined.
 */
export function plainContent(chunk: Record<string, unknown>): string | undefined {
  if (chunk.usage || "error" in chunk) return undefined;
  const choices = chunk.choices;
  if (!Array.isArray(choices) || choices.length !== 1) return undefined;
  const choice = choices[0] as Record<string, unknown> | null;
  if (typeof choice !== "object" || choice === null || choice.finish_reason || choice.usage) return undefined;
  const delta = choice.delta as Record<string, unknown> | null;
  if (typeof delta !== "object" || delta === null) return undefined;
  const keys = Object.keys(delta);
  if (keys.length !== 1 || keys[0] !== "content") return undefined;
  const content = delta.content;
  return typeof content === "string" && content.length > 0 ? content : undefined;
}

/** `"`, `\` and the control characters JSON strings must escape. */
// deno-lint-ignore no-control-regex
const NEEDS_PARSE = /["\\\u0000-\u001f]/;

/**
 * Learns the layout of plain content chunks ({@link learn}) and recognises later ones from their
 * text alone ({@link match}). One per stream.
 */
export class ContentDeltaShortcut {
  #prefix = "";
  #suffix = "";
  #active = false;
  #used = false;
  #unused = 0;

  /**
   * The content text of `data` when it is the learnt chunk with another content string, else
   * undefined (parse it, then {@link learn} from it).
   */
  match(data: string): string | undefined {
    if (!this.#active) return undefined;
    const prefix = this.#prefix;
    const suffix = this.#suffix;
    const end = data.length - suffix.length;
    if (end <= prefix.length) return undefined;
    // Equality of slices compares whole runs at once; startsWith/endsWith went character by
    // character and cost as much as the parse they replace.
    if (data.slice(0, prefix.length) !== prefix || data.slice(end) !== suffix) return undefined;
    const middle = data.slice(prefix.length, end);
    if (NEEDS_PARSE.test(middle)) return undefined;
    this.#used = true;
    // A fresh copy: a slice would keep the whole event text alive for as long as the answer is.
    return JSON.parse(`"${middle}"`);
  }

  /**
   * Takes `chunk` (parsed from `data`) as the template when it is a plain content chunk in
   * another layout whose content string appears exactly once in `data`, written without escapes;
   * any other chunk leaves the template as it is. Checked once per template with a parse of a
   * probe.
   */
  learn(data: string, chunk: Record<string, unknown>): void {
    if (this.#unused >= MAX_UNUSED_TEMPLATES) return;
    const prefix = this.#prefix;
    // The template's own layout, with an escape in the content: nothing new to learn.
    if (this.#active && data.slice(0, prefix.length) === prefix && data.endsWith(this.#suffix)) return;
    const content = plainContent(chunk);
    if (content === undefined || NEEDS_PARSE.test(content)) return;
    const slot = `"delta":{"content":"${content}"}`;
    const at = data.indexOf(slot);
    if (at < 0 || data.indexOf(slot, at + 1) >= 0) return;
    const start = at + `"delta":{"content":"`.length;
    const newPrefix = data.slice(0, start);
    const newSuffix = data.slice(start + content.length);
    // The slot must be choices[0].delta.content itself, not a look-alike elsewhere in the chunk.
    let probe: unknown;
    try {
      probe = JSON.parse(`${newPrefix}?${newSuffix}`);
    } catch {
      return;
    }
    if (plainContent(probe as Record<string, unknown>) !== "?") return;
    if (this.#active && !this.#used) this.#unused++;
    else this.#unused = 0;
    this.#prefix = newPrefix;
    this.#suffix = newSuffix;
    this.#active = true;
    this.#used = false;
  }
}
