/**
 * The WebSocket transport of the Codex Responses API (pi-ai 1.6.0's default, "auto"): one
 * `response.create` frame per request and the Responses events back as JSON frames. With a
 * session the socket is kept (per session and account) for the session's next requests, closed
 * after 5 idle minutes or 45 minutes of age, and — with "auto" or "websocket-cached" — a request
 * that only adds to the previous one sends just the new items with `previous_response_id`.
 *
 * A socket that cannot be used marks the session for server-sent events from then on; the caller
 * falls back to them when nothing had streamed yet.
 *
 * @module
 */
import { registerSessionResourceCleanup } from "../session_resources.ts";
import type { AssistantMessage, Model } from "../types.ts";
import { convertResponsesMessages, type ResponsesInputItem } from "./openai_responses_convert.ts";
import { CODEX_TOOL_CALL_PROVIDERS } from "./openai_codex_request.ts";
import { closeQuietly, connect, frames, isOpen } from "./openai_codex_socket.ts";

const IDLE_CLOSE_MS = 5 * 60 * 1000;
// The server closes a socket after 60 minutes, even mid-answer; new requests open a fresh one
// after 45, leaving 15 minutes for long answers.
const MAX_AGE_MS = 45 * 60 * 1000;

interface Continuation {
  lastRequestBody: Record<string, unknown>;
  lastResponseId: string;
  lastResponseItems: ResponsesInputItem[];
}

interface Entry {
  socket: WebSocket;
  busy: boolean;
  createdAt: number;
  idleTimer?: ReturnType<typeof setTimeout>;
  continuation?: Continuation;
}

/** Kept sockets: session id → account id → socket. */
const sessions = new Map<string, Map<string, Entry>>();
/** Sessions whose socket failed: they use server-sent events from then on. */
const sseSessions = new Set<string>();

/** Whether `sessionId` fell back to server-sent events earlier. */
export function usesSseFallback(sessionId: string | undefined): boolean {
  return sessionId !== undefined && sseSessions.has(sessionId);
}

/** Marks `sessionId` for server-sent events after its socket failed. */
export function recordWebSocketFailure(sessionId: string | undefined): void {
  if (sessionId !== undefined) sseSessions.add(sessionId);
}

/** Closes the kept sockets of one session (or all) and forgets their fallbacks. */
export function closeCodexWebSockets(sessionId?: string): void {
  for (const [id, accounts] of sessions) {
    if (sessionId !== undefined && id !== sessionId) continue;
    for (const entry of accounts.values()) {
      clearTimeout(entry.idleTimer);
      closeQuietly(entry.socket, "session_closed");
    }
    sessions.delete(id);
  }
  if (sessionId === undefined) sseSessions.clear();
  else sseSessions.delete(sessionId);
}

// A disposed session closes its sockets at once instead of after the idle timer.
registerSessionResourceCleanup(closeCodexWebSockets);

interface Lease {
  socket: WebSocket;
  entry?: Entry;
  release(keep: boolean): void;
}

function forget(sessionId: string, accountId: string, entry: Entry): void {
  const accounts = sessions.get(sessionId);
  if (accounts?.get(accountId) === entry) accounts.delete(accountId);
  if (accounts?.size === 0) sessions.delete(sessionId);
}

function keptLease(sessionId: string, accountId: string, entry: Entry): Lease {
  return {
    socket: entry.socket,
    entry,
    release: (keep) => {
      if (!keep || !isOpen(entry.socket)) {
        clearTimeout(entry.idleTimer);
        closeQuietly(entry.socket);
        forget(sessionId, accountId, entry);
        return;
      }
      entry.busy = false;
      clearTimeout(entry.idleTimer);
      entry.idleTimer = setTimeout(() => {
        if (entry.busy) return;
        closeQuietly(entry.socket, "idle_timeout");
        forget(sessionId, accountId, entry);
      }, IDLE_CLOSE_MS);
    },
  };
}

/** The session's kept socket when it is free and usable, else a new one (kept unless another request holds the old). */
async function acquire(
  url: string,
  headers: Record<string, string>,
  sessionId: string | undefined,
  accountId: string,
  signal: AbortSignal | undefined,
  timeoutMs: number,
): Promise<Lease> {
  const oneShot = async (): Promise<Lease> => {
    const socket = await connect(url, headers, signal, timeoutMs);
    return { socket, release: () => closeQuietly(socket) };
  };
  if (sessionId === undefined) return await oneShot();
  const cached = sessions.get(sessionId)?.get(accountId);
  if (cached) {
    clearTimeout(cached.idleTimer);
    cached.idleTimer = undefined;
    if (cached.busy) return await oneShot();
    if (isOpen(cached.socket) && Date.now() - cached.createdAt < MAX_AGE_MS) {
      cached.busy = true;
      return keptLease(sessionId, accountId, cached);
    }
    closeQuietly(cached.socket, "connection_age_limit");
    forget(sessionId, accountId, cached);
  }
  const socket = await connect(url, headers, signal, timeoutMs);
  const entry: Entry = { socket, busy: true, createdAt: Date.now() };
  let accounts = sessions.get(sessionId);
  if (!accounts) sessions.set(sessionId, accounts = new Map());
  accounts.set(accountId, entry);
  return keptLease(sessionId, accountId, entry);
}

/**
 * The body to send on a kept socket: only the items added since the previous answer (with its
 * `previous_response_id`) when everything else is unchanged and the input extends the previous
 * input plus the answer's items; otherwise the whole body (and the continuation is dropped).
 */
function continuationBody(entry: Entry, body: Record<string, unknown>): Record<string, unknown> {
  const previous = entry.continuation;
  if (!previous) return body;
  const withoutInput = ({ input: _i, previous_response_id: _p, ...rest }: Record<string, unknown>) =>
    JSON.stringify(rest);
  const input = (body.input ?? []) as unknown[];
  const baseline = [...((previous.lastRequestBody.input ?? []) as unknown[]), ...previous.lastResponseItems];
  const extends_ = withoutInput(body) === withoutInput(previous.lastRequestBody) &&
    input.length >= baseline.length &&
    JSON.stringify(input.slice(0, baseline.length)) === JSON.stringify(baseline);
  if (!extends_) {
    entry.continuation = undefined;
    return body;
  }
  return { ...body, previous_response_id: previous.lastResponseId, input: input.slice(baseline.length) };
}

/** What one request over the socket needs. */
export interface CodexWebSocketRequest {
  url: string;
  headers: Record<string, string>;
  body: Record<string, unknown>;
  /** The raw session id (cache key), when the request belongs to a session. */
  sessionId: string | undefined;
  accountId: string;
  /** Whether a kept socket may send only the new items ("auto", "websocket-cached"). */
  useContinuation: boolean;
  signal?: AbortSignal;
  connectTimeoutMs: number;
  idleTimeoutMs?: number;
  model: Model;
  output: AssistantMessage;
  /** Reads the answer's events (Codex's mapping and the shared Responses reader). */
  consume(events: AsyncIterable<Record<string, unknown>>): Promise<void>;
}

/** Sends one request over a (kept) socket and reads its answer through `consume`. */
export async function requestOverWebSocket(request: CodexWebSocketRequest): Promise<void> {
  const { body, signal, output } = request;
  const lease = await acquire(
    request.url,
    request.headers,
    request.sessionId,
    request.accountId,
    signal,
    request.connectTimeoutMs,
  );
  const entry = lease.entry;
  let keep = true;
  try {
    const sent = request.useContinuation && entry ? continuationBody(entry, body) : body;
    lease.socket.send(JSON.stringify({ type: "response.create", ...sent }));
    await request.consume(frames(lease.socket, signal, request.idleTimeoutMs));
    if (signal?.aborted) keep = false;
    else if (request.useContinuation && entry && output.responseId) {
      // The answer's own items as the next request will replay them (tool results excluded:
      // they are the caller's, sent as new items next time).
      const items = convertResponsesMessages(
        request.model,
        { messages: [output] },
        CODEX_TOOL_CALL_PROVIDERS,
        {
          includeSystemPrompt: false,
        },
      ).filter((item) => item.type !== "function_call_output" && item.type !== "custom_tool_call_output");
      entry.continuation = {
        lastRequestBody: body,
        lastResponseId: output.responseId,
        lastResponseItems: items,
      };
    }
  } catch (error) {
    if (entry) entry.continuation = undefined;
    keep = false;
    throw error;
  } finally {
    lease.release(keep);
  }
}
