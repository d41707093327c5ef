/**
 * 1.6.0 pi-ai's `ToolCallArgumentsStream` for extensions that write their own providers: one
 * streamed tool call's argument text, its partial arguments while it streams (read by a
 * `StreamingJsonParser`) and the one full parse when it ends.
 *
 * @module
 */
import type { ToolCall } from "../../ai/types.ts";
import { type JsonValue, StreamingJsonParser } from "./pi_ai_streaming_json.ts";
import { parseToolCallArguments } from "./pi_ai_tool_arguments.ts";

/**
 * One streamed tool call's arguments: the raw text (for the one full parse at the end) and the
 * partial arguments meanwhile.
 */
export class ToolCallArgumentsStream {
  #text = "";
  #parser = new StreamingJsonParser();
  #seen: JsonValue | undefined = undefined;
  #arguments: ToolCall["arguments"] = {};

  /** The raw argument text so far. */
  get text(): string {
    return this.#text;
  }

  /** Adds a piece of argument text; returns the partial arguments (a new object when they changed). */
  append(delta: string): ToolCall["arguments"] {
    this.#text += delta;
    this.#parser.append(delta);
    return this.#partial();
  }

  /**
   * Takes the provider's whole argument text: when it extends the text so far, the missing piece is
   * `delta`; otherwise reading starts over (`delta` undefined).
   */
  replace(text: string): { readonly delta: string | undefined; readonly arguments: ToolCall["arguments"] } {
    if (text.startsWith(this.#text)) {
      const delta = text.slice(this.#text.length);
      return { delta, arguments: delta === "" ? this.#partial() : this.append(delta) };
    }
    this.#text = "";
    this.#parser = new StreamingJsonParser();
    return { delta: undefined, arguments: this.append(text) };
  }

  /** The final arguments, from one full parse of the text (malformed text gives `argumentsError`). */
  finish(): ReturnType<typeof parseToolCallArguments> {
    return parseToolCallArguments(this.#text);
  }

  #partial(): ToolCall["arguments"] {
    const snapshot = this.#parser.snapshot();
    if (snapshot === this.#seen) return this.#arguments;
    this.#seen = snapshot;
    // Arguments are an object: any other value so far counts as none yet.
    this.#arguments = typeof snapshot === "object" && snapshot !== null && !Array.isArray(snapshot)
      ? snapshot as ToolCall["arguments"]
      : {};
    return this.#arguments;
  }
}
