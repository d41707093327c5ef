/**
 * A real HTTP server on 127.0.0.1 that answers like an LLM provider, driven by scripted turns.
 * Routing picks the wire format from the request path; each API's encoder lives in its own file
 * and produces SSE chunks, which this core sends with delays and faults applied.
 *
 * @example
 * ```ts
 * const server = await startFakeProvider([{ content: [{ type: "text", text: "hi" }] }]);
 * // point a model's baseUrl at server.url (+ "/v1" for OpenAI/Anthropic style paths)
 * await server.close();
 * ```
 *
 * @module
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { zstdDecompressSync } from "node:zlib";
import type { RecordedRequest, ScriptedTurn } from "./script.ts";
import { handleUpgrade } from "./websocket.ts";

/** What an API encoder must provide. */
export interface WireEncoder {
  /** True when this encoder serves the request. */
  matches(method: string, path: string): boolean;
  /** The SSE chunks (already framed, e.g. `event: x\ndata: {...}\n\n`) of a successful answer, or binary frames. */
  chunks(turn: ScriptedTurn, request: RecordedRequest): (string | Uint8Array)[];
  /** The in-stream error chunk. */
  errorChunk(message: string): string | Uint8Array;
  /** The JSON body of an HTTP error response. */
  errorBody(status: number, message: string): unknown;
  /** Content type of a successful answer (default `text/event-stream`). */
  contentType?: string;
  /** Extra headers of an HTTP error response (e.g. AWS's `x-amzn-errortype`). */
  errorHeaders?(status: number): Record<string, string>;
  /** The chunk a "garbage" fault sends (default: an SSE record with the fault's data). */
  garbageChunk?(data: string, event?: string): string | Uint8Array;
  /** Checks a request's credentials; an answer here is sent instead of the scripted turn (which stays queued). */
  authorize?(
    request: RecordedRequest,
    rawBody: string,
  ): { status: number; headers: Record<string, string>; body: unknown } | undefined;
}

const encoders: WireEncoder[] = [];

/** Registers a wire encoder (each API file calls this once at import). */
export function registerEncoder(encoder: WireEncoder): void {
  encoders.push(encoder);
}

/** A running fake provider. */
export interface FakeProvider {
  /** `http://127.0.0.1:PORT` (no trailing slash). */
  url: string;
  /** Every request received, in order. */
  requests: RecordedRequest[];
  /** Queues more turns. */
  push(...turns: ScriptedTurn[]): void;
  /** Turns not yet consumed. */
  pending(): number;
  close(): Promise<void>;
}

/** Starts the server on a random port. Requests beyond the script get HTTP 500 "script exhausted". */
export async function startFakeProvider(turns: ScriptedTurn[] = []): Promise<FakeProvider> {
  // Encoders register themselves on import; load them all so any API can be served.
  await import("./encoders.ts");
  const queue = [...turns];
  const requests: RecordedRequest[] = [];
  const openSockets = new Set<import("node:net").Socket>();

  const server = createServer((req, res) => {
    void handle(req, res).catch((err) => {
      try {
        res.writeHead(500, { "content-type": "application/json" });
        res.end(JSON.stringify({ error: { message: String(err) } }));
      } catch { /* socket gone */ }
    });
  });
  // WebSocket clients (the Codex Responses transport) upgrade on an encoder's path.
  server.on("upgrade", (req, socket) =>
    handleUpgrade(req, socket, {
      encoderFor: (method, path) => encoders.find((e) => e.matches(method, path)),
      record: (request) => void requests.push(request),
      nextTurn: () => queue.shift(),
    }));
  server.on("connection", (socket) => {
    openSockets.add(socket);
    socket.on("close", () => openSockets.delete(socket));
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    // The Codex client compresses its body with zstd (Content-Encoding: zstd); record it decoded.
    const raw = await readBody(req, req.headers["content-encoding"] === "zstd");
    const url = req.url ?? "/";
    const path = url.split("?")[0];
    let body: unknown = raw;
    try {
      body = raw ? JSON.parse(raw) : undefined;
    } catch { /* keep raw text */ }
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers)) {
      headers[k] = Array.isArray(v) ? v.join(", ") : String(v);
    }
    const request: RecordedRequest = { method: req.method ?? "GET", path, url, headers, body };
    requests.push(request);

    const encoder = encoders.find((e) => e.matches(request.method, path));
    if (!encoder) {
      res.writeHead(404, { "content-type": "application/json" });
      res.end(
        JSON.stringify({ error: { message: `fake provider: no route for ${request.method} ${path}` } }),
      );
      return;
    }
    const denied = encoder.authorize?.(request, raw);
    if (denied) {
      res.writeHead(denied.status, { "content-type": "application/json", ...denied.headers });
      res.end(JSON.stringify(denied.body));
      return;
    }
    const turn = queue.shift();
    if (!turn) {
      res.writeHead(500, { "content-type": "application/json" });
      res.end(JSON.stringify(encoder.errorBody(500, "fake provider: script exhausted")));
      return;
    }
    const fault = turn.fault;
    if (fault?.kind === "http") {
      const headers: Record<string, string> = {
        "content-type": "application/json",
        ...encoder.errorHeaders?.(fault.status),
        ...fault.headers,
      };
      if (fault.retryAfter !== undefined) headers["retry-after"] = String(fault.retryAfter);
      if (fault.retryAfterMs !== undefined) headers["retry-after-ms"] = String(fault.retryAfterMs);
      res.writeHead(fault.status, headers);
      res.end(JSON.stringify(encoder.errorBody(fault.status, fault.message)));
      return;
    }

    let chunks = encoder.chunks(turn, request);
    let ending: "normal" | "drop" | "close" | "stall" = "normal";
    if (fault) {
      const marker = fault.kind === "stall" ? fault.afterChunkContaining : undefined;
      const markerAt = marker === undefined
        ? -1
        : chunks.findIndex((c) => (typeof c === "string" ? c : new TextDecoder().decode(c)).includes(marker));
      const keep = markerAt >= 0
        ? markerAt + 1
        : Math.min(fault.afterChunks ?? Math.floor(chunks.length / 2), chunks.length);
      chunks = chunks.slice(0, keep);
      if (fault.kind === "error_event") chunks.push(encoder.errorChunk(fault.message));
      else if (fault.kind === "garbage") {
        chunks.push(
          encoder.garbageChunk?.(fault.data, fault.event) ??
            `${fault.event ? `event: ${fault.event}\n` : ""}data: ${fault.data}\n\n`,
        );
      } else ending = fault.kind;
    }

    // A model that takes long before anything arrives (the request is out, no reply yet).
    if (turn.headersDelayMs) await delay(turn.headersDelayMs);
    res.writeHead(200, {
      "content-type": encoder.contentType ?? "text/event-stream",
      "cache-control": "no-cache",
      "connection": "keep-alive",
    });
    res.flushHeaders();
    let clientGone = false;
    res.on("close", () => (clientGone = true));
    for (const chunk of chunks) {
      if (clientGone) return;
      if (turn.chunkDelayMs) await delay(turn.chunkDelayMs);
      res.write(chunk);
    }
    if (ending === "drop") {
      await delay(5);
      res.socket?.destroy();
      return;
    }
    if (ending === "stall") {
      // Hold the connection open until the client aborts or the server closes.
      await new Promise<void>((resolve) => res.on("close", () => resolve()));
      return;
    }
    res.end();
  }

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    push: (...more) => void queue.push(...more),
    pending: () => queue.length,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of openSockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

function readBody(req: IncomingMessage, zstd = false): Promise<string> {
  return new Promise((resolve, reject) => {
    const parts: Uint8Array[] = [];
    req.on("data", (c: Uint8Array) => parts.push(c));
    req.on("end", () => {
      const bytes = concat(parts);
      resolve(new TextDecoder().decode(zstd ? zstdDecompressSync(bytes) : bytes));
    });
    req.on("error", reject);
  });
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let off = 0;
  for (const p of parts) {
    out.set(p, off);
    off += p.length;
  }
  return out;
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Formats one SSE record. */
export function sse(data: unknown, event?: string): string {
  const payload = typeof data === "string" ? data : JSON.stringify(data);
  return `${event ? `event: ${event}\n` : ""}data: ${payload}\n\n`;
}
