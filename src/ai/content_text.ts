/**
 * The text of a message's content: its text blocks joined, images, thinking and tool calls left
 * out. One helper for the providers, sessions, compaction and core, which all need it.
 *
 * @module
 */

/** A content block as far as its text goes (text, image, thinking and tool-call blocks all fit). */
export interface ContentBlockLike {
  /** The block's kind; only `"text"` blocks count. */
  type: string;
  /** The text of a text block. */
  text?: unknown;
}

/**
 * The text blocks of `content` joined with `separator` (a string is returned as is). A text
 * block whose `text` is not a string (a damaged session line) counts as empty.
 *
 * @example
 * ```ts
 * contentText([{ type: "text", text: "a" }, { type: "image" }, { type: "text", text: "b" }], "\n"); // "a\nb"
 * ```
 */
export function contentText(content: string | readonly ContentBlockLike[], separator = ""): string {
  if (typeof content === "string") return content;
  return content.filter((b) => b.type === "text").map((b) => (typeof b.text === "string" ? b.text : "")).join(
    separator,
  );
}
