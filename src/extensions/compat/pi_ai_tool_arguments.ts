/**
 * 1.6.0 pi-ai's parse of a finished tool call's arguments for extensions (custom providers use it
 * when a call's text is complete).
 *
 * @module
 */
import { parseJsonWithRepair } from "../../ai/json_parse.ts";
import type { ToolCall } from "../../ai/types.ts";

/**
 * The arguments of a finished tool call from the model's complete text (repaired like streamed
 * JSON): `{}` for blank text; for text that is not a JSON object, `{}` and an `argumentsError`
 * that quotes the text, so tool validation can tell the model.
 */
export function parseToolCallArguments(
  json: string | undefined,
): { arguments: ToolCall["arguments"]; argumentsError?: string } {
  if (!json?.trim()) return { arguments: {} };
  try {
    const parsed = parseJsonWithRepair(json);
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
      throw new Error("Tool arguments must be a JSON object");
    }
    return { arguments: parsed as ToolCall["arguments"] };
  } catch (error) {
    return {
      arguments: {},
      argumentsError: `${
        error instanceof Error ? error.message : String(error)
      }\n\nReceived arguments:\n${json}`,
    };
  }
}
