/**
 * One WebSocket of the Codex transport at the level of frames: opening it with request headers
 * (Deno's WebSocket takes them as an option), a connect timeout and abort, reading its JSON
 * frames until a terminal event, and the wording of its failures (pi-ai 1.6.0's).
 *
 * @module
 */
import { CodexStreamError } from "./openai_codex_events.ts";

/** Default wait for the socket to open. */
export const DEFAULT_CONNECT_TIMEOUT_MS = 15_000;
const TERMINAL_EVENTS = new Set(["response.completed", "response.done", "response.incomplete"]);

export function closeQuietly(socket: WebSocket, reason = "done"): void {
  try {
    socket.close(1000, reason);
  } catch { /* already closed */ }
}

export function isOpen(socket: WebSocket): boolean {
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

export function connect(
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

/**
 * The socket's JSON frames until a terminal event; a close, error, abort or silence longer than
 * `idleTimeoutMs` before it is an error.
 */
export async function* frames(
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
