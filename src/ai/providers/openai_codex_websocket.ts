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

const IDLE_CLOSE_MS = 5 * 60 * 1000;
// The server closes a socket after 60 minutes, even mid-answer; new requests open a fresh one
// after 45, leaving 15 minutes for long answers.
const MAX_AGE_MS = 45 * 60 * 1000;
/** Default wait for the socket to open. */
export const DEFAULT_CONNECT_TIMEOUT_MS = 15_000;
const TERMINAL_EVENTS = new Set(["response.completed", "response.done", "response.incomplete"]);
const CODEX_TOOL_CALL_PROVIDERS: ReadonlySet<string> = new Set(["openai", "openai-codex", "opencode"]);

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

function closeQuietly(socket: WebSocket, reason = "done"): void {
  try {
    socket.close(1000, reason);
  } catch { /* already closed */ }
}

function isOpen(socket: WebSocket): boolean {
  return socket.readyState === WebSocket.OPEN;
}

/** A time-ordered random id (UUID version 7) for requests without a session. */
export function uuidv7(now = Date.now()): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  let ms = now;
  for (let i = 5; i >= 0; i--) {
    bytes[i] = ms % 256;
    ms = Math.floor(ms / 256);
  }
  bytes[6] = (bytes[6] & 0x0f) | 0x70;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

function closeText(event: CloseEvent | undefined): string {
  const code = event?.code !== undefined ? ` ${event.code}` : "";
  let reason = event?.reason ? ` ${event.reason}` : "";
  if (!reason && event?.code === 1009) reason = " message too big";
  return `WebSocket closed${code}${reason}`.trim();
}

function errorText(event: Event): string {
  const message = (event as ErrorEvent).message;
  return typeof message === "string" && message.length > 0 ? message : "WebSocket error";
}

function connect(
  url: string,
  headers: Record<string, string>,
  signal: AbortSignal | undefined,
  timeoutMs: number,
): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    let socket: WebSocket;
    try {
      // Deno's WebSocket takes request headers as an option (the browser's does not).
      const Ctor = WebSocket as unknown as new (
        url: string,
        options: { headers: Record<string, string> },
      ) => WebSocket;
      socket = new Ctor(url, { headers });
    } catch (error) {
      reject(error instanceof Error ? error : new Error(String(error)));
      return;
    }
    let settled = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const finish = (error?: Error, closeReason?: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.removeEventListener("open", onOpen);
      socket.removeEventListener("error", onError);
      socket.removeEventListener("close", onClose);
      signal?.removeEventListener("abort", onAbort);
      if (!error) return resolve(socket);
      if (closeReason) closeQuietly(socket, closeReason);
      reject(error);
    };
    const onOpen = () => finish();
    const onError = (event: Event) => finish(new Error(errorText(event)));
    const onClose = (event: CloseEvent) => finish(new Error(closeText(event)));
    const onAbort = () => finish(new Error("Request was aborted"), "aborted");
    socket.addEventListener("open", onOpen);
    socket.addEventListener("error", onError);
    socket.addEventListener("close", onClose);
    signal?.addEventListener("abort", onAbort);
    if (timeoutMs > 0) {
      timer = setTimeout(
        () => finish(new Error(`WebSocket connect timeout after ${timeoutMs}ms`), "connect_timeout"),
        timeoutMs,
      );
    }
    if (signal?.aborted) onAbort();
  });
}

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
 * The socket's JSON frames until a terminal event; a close, error, abort or silence longer than
 * `idleTimeoutMs` before it is an error.
 */
async function* frames(
  socket: WebSocket,
  signal: AbortSignal | undefined,
  idleTimeoutMs: number | undefined,
): AsyncGenerator<Record<string, unknown>> {
  const queue: Record<string, unknown>[] = [];
  let done = false;
  let completed = false;
  let failure: Error | undefined;
  let wake: (() => void) | undefined;
  const notify = () => {
    const resume = wake;
    wake = undefined;
    resume?.();
  };
  const onMessage = (event: MessageEvent) => {
    void (async () => {
      const data = event.data;
      const text = typeof data === "string"
        ? data
        : data instanceof Blob
        ? await data.text()
        : new TextDecoder().decode(data as ArrayBuffer);
      try {
        const parsed = JSON.parse(text) as Record<string, unknown>;
        if (TERMINAL_EVENTS.has(String(parsed.type))) completed = done = true;
        queue.push(parsed);
      } catch (error) {
        failure = new CodexStreamError(
          `Invalid Codex WebSocket JSON: ${error instanceof Error ? error.message : String(error)}`,
          { cause: error },
        );
        done = true;
      }
      notify();
    })();
  };
  const onError = (event: Event) => {
    failure ??= new Error(errorText(event));
    done = true;
    notify();
  };
  const onClose = (event: CloseEvent) => {
    if (!completed) failure ??= new Error(closeText(event));
    done = true;
    notify();
  };
  const onAbort = () => {
    failure = new Error("Request was aborted");
    done = true;
    notify();
  };
  socket.addEventListener("message", onMessage);
  socket.addEventListener("error", onError);
  socket.addEventListener("close", onClose);
  signal?.addEventListener("abort", onAbort);
  try {
    while (true) {
      if (signal?.aborted) throw new Error("Request was aborted");
      if (queue.length > 0) {
        yield queue.shift()!;
        continue;
      }
      if (done) break;
      let timer: ReturnType<typeof setTimeout> | undefined;
      try {
        await new Promise<void>((resolve, reject) => {
          wake = resolve;
          if (idleTimeoutMs !== undefined && idleTimeoutMs > 0) {
            timer = setTimeout(() => {
              failure = new Error(`WebSocket idle timeout after ${idleTimeoutMs}ms`);
              done = true;
              wake = undefined;
              closeQuietly(socket, "idle_timeout");
              reject(failure);
            }, idleTimeoutMs);
          }
        });
      } finally {
        clearTimeout(timer);
      }
    }
    if (failure) throw failure;
    if (!completed) throw new Error("WebSocket stream closed before response.completed");
  } finally {
    socket.removeEventListener("message", onMessage);
    socket.removeEventListener("error", onError);
    socket.removeEventListener("close", onClose);
    signal?.removeEventListener("abort", onAbort);
  }
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
