/**
 * The record of the tool calls a script made, which becomes `nestedCalls` on the codemode result
 * message as in pi 1.6.0: at most 256 calls, arguments kept up to 8 KiB a call and 32 KiB in all
 * (past that only their size), error texts up to 500 characters, and `complete` false when anything
 * was dropped or a call was still running when the script ended.
 *
 * @module
 */
import type { NestedToolCallRecord, NestedToolCalls } from "../../../ai/types.ts";

const MAX_CALLS = 256;
const MAX_ARGUMENT_BYTES_PER_CALL = 8 * 1024;
const MAX_ARGUMENT_BYTES_TOTAL = 32 * 1024;
const MAX_ERROR_CHARS = 500;

/** Collects the nested calls of one codemode call. */
export class NestedCallRecorder {
  #calls: NestedToolCallRecord[] = [];
  #startedAt = new Map<NestedToolCallRecord, number>();
  #complete = true;
  #argumentBytes = 0;

  /** Records a call as it starts; undefined when it is dropped. */
  start(id: string, name: string, args: unknown): NestedToolCallRecord | undefined {
    if (this.#calls.length >= MAX_CALLS) {
      this.#complete = false;
      return undefined;
    }
    const record: NestedToolCallRecord = { id, name, status: "unfinished" };
    const json = JSON.stringify(args ?? {});
    const bytes = new TextEncoder().encode(json).length;
    if (bytes > MAX_ARGUMENT_BYTES_PER_CALL || this.#argumentBytes + bytes > MAX_ARGUMENT_BYTES_TOTAL) {
      record.argumentsBytes = bytes;
      this.#complete = false;
    } else {
      record.arguments = JSON.parse(json);
      this.#argumentBytes += bytes;
    }
    this.#calls.push(record);
    this.#startedAt.set(record, performance.now());
    return record;
  }

  /** Records how a call ended. */
  finish(record: NestedToolCallRecord | undefined, isError: boolean, errorText: string): void {
    if (!record) return;
    record.status = isError ? "error" : "ok";
    record.durationMs = Math.round(performance.now() - (this.#startedAt.get(record) ?? performance.now()));
    this.#startedAt.delete(record);
    if (isError && errorText) record.error = errorText.slice(0, MAX_ERROR_CHARS);
  }

  /** The record so far, or undefined when no call was made. */
  snapshot(): NestedToolCalls | undefined {
    if (this.#calls.length === 0 && this.#complete) return undefined;
    const calls = this.#calls.map((call) => ({ ...call }));
    return { calls, complete: this.#complete && calls.every((call) => call.status !== "unfinished") };
  }
}
