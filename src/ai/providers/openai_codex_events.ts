/**
 * Codex's mapping of the Responses events in front of the shared reader (both transports): an
 * `error` or `response.failed` event ends the reply with the server's words as a
 * {@link CodexApiError}, and `response.done` / `response.incomplete` count as completion.
 *
 * @module
 */
import type { AssistantMessage } from "../types.ts";

const RESPONSE_STATUSES = new Set([
  "completed",
  "incomplete",
  "failed",
  "cancelled",
  "queued",
  "in_progress",
]);

/** An error the Codex server reported (an `error` or `response.failed` event): never a transport failure. */
export class CodexApiError extends Error {
  /** The server's error code, when it sent one. */
  readonly code?: string;
  constructor(message: string, code?: string) {
    super(message);
    this.name = "CodexApiError";
    this.code = code;
  }
}

/** A frame that is not JSON, or an `onProviderStreamEvent` callback that threw: not a transport failure. */
export class CodexStreamError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "CodexStreamError";
  }
}

/** Whether an error is the server's or the caller's rather than the socket's. */
export function isCodexNonTransportError(error: unknown): boolean {
  return error instanceof CodexApiError || error instanceof CodexStreamError;
}

/**
 * Codex's event mapping in front of the shared reader: error events end the reply with the
 * server's words, and the three terminal events all read as `response.completed` (with an
 * unknown status dropped).
 */
export async function* codexEvents(
  events: AsyncIterable<Record<string, unknown>>,
  output: AssistantMessage,
  onEvent: ((event: Record<string, unknown>) => unknown) | undefined,
): AsyncGenerator<Record<string, unknown>> {
  for await (const event of events) {
    try {
      await onEvent?.(event);
    } catch (error) {
      // Kept apart from socket failures, so a throwing callback never triggers the SSE fallback.
      throw new CodexStreamError(error instanceof Error ? error.message || error.name : String(error), {
        cause: error,
      });
    }
    const type = typeof event.type === "string" ? event.type : undefined;
    if (!type) continue;
    if (type === "error") {
      const nested = event.error && typeof event.error === "object"
        ? event.error as Record<string, unknown>
        : undefined;
      const message = typeof event.message === "string"
        ? event.message
        : typeof nested?.message === "string"
        ? nested.message
        : undefined;
      const code = typeof event.code === "string"
        ? event.code
        : typeof nested?.code === "string"
        ? nested.code
        : undefined;
      throw new CodexApiError(`Codex error: ${message || code || JSON.stringify(event)}`, code);
    }
    if (type === "response.failed") {
      const error = (event.response as { error?: { message?: unknown; code?: unknown } } | undefined)?.error;
      throw new CodexApiError(
        typeof error?.message === "string" && error.message ? error.message : "Codex response failed",
        typeof error?.code === "string" ? error.code : undefined,
      );
    }
    if (type === "response.done" || type === "response.completed" || type === "response.incomplete") {
      const response = event.response as Record<string, unknown> | undefined;
      if (typeof response?.end_turn === "boolean") output.endTurn = response.end_turn;
      const status = typeof response?.status === "string" && RESPONSE_STATUSES.has(response.status)
        ? response.status
        : undefined;
      yield { ...event, type: "response.completed", response: response && { ...response, status } };
      return;
    }
    yield event;
  }
}

/** Passes events through, calling `onFirst` before the first one. */
export async function* onFirstEvent<T>(events: AsyncIterable<T>, onFirst: () => void): AsyncGenerator<T> {
  let first = true;
  for await (const event of events) {
    if (first) onFirst();
    first = false;
    yield event;
  }
}
