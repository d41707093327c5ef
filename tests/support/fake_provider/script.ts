/**
 * The script language of the fake provider server: what the "model" answers on each request,
 * independent of the wire format. Each API's encoder turns a {@link ScriptedTurn} into that
 * API's SSE chunks.
 *
 * @module
 */

/** One block of a scripted answer. */
export type ScriptedBlock =
  | { type: "text"; text: string }
  | { type: "thinking"; thinking: string; signature?: string; redacted?: boolean }
  | { type: "toolCall"; id?: string; name: string; arguments: Record<string, unknown> };

/** Token counts the fake server reports. `input` excludes cache reads and writes. */
export interface ScriptedUsage {
  input: number;
  output: number;
  cacheRead?: number;
  cacheWrite?: number;
}

/** Something that goes wrong while answering. */
export type ScriptedFault =
  /**
   * Answer with an HTTP error status and the API's error body; `retryAfter` (seconds, or an
   * HTTP date when a string) and `retryAfterMs` become the `retry-after` / `retry-after-ms`
   * headers; `headers` adds any others.
   */
  | {
    kind: "http";
    status: number;
    message: string;
    retryAfter?: number | string;
    retryAfterMs?: number;
    headers?: Record<string, string>;
  }
  /**
   * Send `afterChunks` chunks, then one SSE record whose data is `data` as is (e.g. broken JSON),
   * with `event:` when given, then end the body.
   */
  | { kind: "garbage"; data: string; event?: string; afterChunks?: number }
  /** Send `afterChunks` chunks, then the API's in-stream error event. */
  | { kind: "error_event"; message: string; afterChunks?: number }
  /** Send `afterChunks` chunks, then destroy the socket (a network error for the client). */
  | { kind: "drop"; afterChunks?: number }
  /** Send `afterChunks` chunks, then end the body cleanly without the terminal event. */
  | { kind: "close"; afterChunks?: number }
  /**
   * Send `afterChunks` chunks (or up to and including the first chunk that contains
   * `afterChunkContaining`), then send nothing more until the client goes away.
   */
  | { kind: "stall"; afterChunks?: number; afterChunkContaining?: string };

/** One scripted answer to one request. */
export interface ScriptedTurn {
  content?: ScriptedBlock[];
  /** Defaults to "toolUse" when the content has tool calls, else "stop". */
  stopReason?: "stop" | "length" | "toolUse";
  usage?: ScriptedUsage;
  /** The model name the server reports; defaults to the requested one. */
  model?: string;
  fault?: ScriptedFault;
  /** Delay before each chunk, in ms. */
  chunkDelayMs?: number;
  /** Delay before the response headers, in ms (nothing of the reply has arrived meanwhile). */
  headersDelayMs?: number;
  /** Text and argument deltas are split into pieces of this many characters (default 8). */
  deltaSize?: number;
}

/** A request the fake server received, kept for assertions. */
export interface RecordedRequest {
  method: string;
  path: string;
  /** Path plus query string. */
  url: string;
  headers: Record<string, string>;
  body: unknown;
}

/** Splits a string into pieces of at most `size` characters (code points kept whole). */
export function splitDeltas(text: string, size = 8): string[] {
  const chars = Array.from(text);
  const out: string[] = [];
  for (let i = 0; i < chars.length; i += size) out.push(chars.slice(i, i + size).join(""));
  return out.length ? out : [""];
}

/** The stop reason a turn reports. */
export function stopReasonOf(turn: ScriptedTurn): "stop" | "length" | "toolUse" {
  if (turn.stopReason) return turn.stopReason;
  return turn.content?.some((b) => b.type === "toolCall") ? "toolUse" : "stop";
}

/** Default usage when a turn has none. */
export function usageOf(turn: ScriptedTurn): Required<ScriptedUsage> {
  const u = turn.usage ?? { input: 10, output: 5 };
  return { input: u.input, output: u.output, cacheRead: u.cacheRead ?? 0, cacheWrite: u.cacheWrite ?? 0 };
}
