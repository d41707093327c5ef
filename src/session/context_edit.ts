/**
 * Rules for `context_edit` entries (pi 1.6.0): which entries may be edited and how a
 * replacement is stored.
 *
 * @module
 */
import type { ContextEditReplacement, SessionEntry } from "./entries.ts";

/**
 * Checks an edit of `target` (the entry with id `targetId`, undefined when unknown) made on
 * `branch` (the current root-to-leaf path) and returns the replacement as stored: a string
 * becomes one text block for assistant and tool-result targets, whose content must be blocks.
 * Throws the reference's messages for a malformed replacement, an unknown target, one off the
 * branch, and one that gives the model no editable content (system messages, settings, labels…).
 */
export function checkContextEdit(
  target: SessionEntry | undefined,
  targetId: string,
  branch: readonly SessionEntry[],
  replacement: ContextEditReplacement | null,
): ContextEditReplacement | null {
  if (
    replacement !== null &&
    (typeof replacement !== "object" || !("content" in replacement) ||
      (typeof replacement.content !== "string" && !Array.isArray(replacement.content)))
  ) {
    throw new Error("Context edit replacement must be null or contain string/array content");
  }
  if (!target) throw new Error(`Entry ${targetId} not found`);
  if (!branch.some((e) => e.id === targetId)) {
    throw new Error(`Entry ${targetId} is not on the active branch`);
  }
  const role = target.type === "message"
    ? target.message.role
    : target.type === "custom_message"
    ? "custom"
    : "";
  if (role !== "user" && role !== "assistant" && role !== "toolResult" && role !== "custom") {
    throw new Error(`Entry ${targetId} does not contribute editable model content`);
  }
  if (
    replacement !== null && (role === "assistant" || role === "toolResult") &&
    typeof replacement.content === "string"
  ) {
    return { content: [{ type: "text", text: replacement.content }] };
  }
  return replacement;
}
