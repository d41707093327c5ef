/**
 * WebSocket side of the fake provider, for the Codex Responses WebSocket transport: the server
 * accepts an upgrade on a path an encoder serves, records every text frame the client sends as a
 * request (method "WS", body = the parsed frame, headers = the upgrade request's), and answers
 * each with the scripted turn's events, one JSON text frame per SSE record. Faults: an HTTP fault
 * becomes an `error` event, a drop destroys the socket, a stall holds the answer.
 *
 * The framing is RFC 6455's, written out here (server frames unmasked, client frames masked).
 *
 * @module
 */
import { createHash } from "node:crypto";
import type { IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";
import type { RecordedRequest, ScriptedTurn } from "./script.ts";
import type { WireEncoder } from "./server.ts";

const GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11";

/** What the HTTP server lends the WebSocket handler. */
export interface WebSocketHost {
  encoderFor(method: string, path: string): WireEncoder | undefined;
  record(request: RecordedRequest): void;
  nextTurn(): ScriptedTurn | undefined;
}

/** Completes the handshake and serves the socket; unknown paths are refused with 404. */
export function handleUpgrade(req: IncomingMessage, socket: Duplex, host: WebSocketHost): void {
  const url = req.url ?? "/";
  const path = url.split("?")[0];
  const encoder = host.encoderFor("POST", path);
  const key = req.headers["sec-websocket-key"];
  if (!encoder || typeof key !== "string") {
    socket.end("HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\n\r\n");
    return;
  }
  const accept = createHash("sha1").update(key + GUID).digest("base64");
  socket.write(
    `HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ${accept}\r\n\r\n`,
  );
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(req.headers)) headers[k] = Array.isArray(v) ? v.join(", ") : String(v);
  let buffer: Uint8Array = new Uint8Array(0);
  let closed = false;
  socket.on("close", () => (closed = true));
  socket.on("error", () => (closed = true));
  const send = (opcode: number, payload: Uint8Array) => {
    if (!closed) socket.write(frame(opcode, payload));
  };
  socket.on("data", (chunk: Uint8Array) => {
    buffer = concat(buffer, chunk);
    for (let parsed = parseFrame(buffer); parsed; parsed = parseFrame(buffer)) {
      buffer = buffer.subarray(parsed.size);
      if (parsed.opcode === 8) {
        send(8, parsed.payload.subarray(0, 2));
        socket.end();
        return;
      }
      if (parsed.opcode === 9) send(10, parsed.payload);
      if (parsed.opcode !== 1) continue;
      const text = new TextDecoder().decode(parsed.payload);
      let body: unknown = text;
      try {
        body = JSON.parse(text);
      } catch { /* keep the text */ }
      const request: RecordedRequest = { method: "WS", path, url, headers, body };
      host.record(request);
      void answer(
        encoder,
        host.nextTurn(),
        request,
        (data) => send(1, new TextEncoder().encode(data)),
        () => {
          closed = true;
          socket.destroy();
        },
      );
    }
  });
}

async function answer(
  encoder: WireEncoder,
  turn: ScriptedTurn | undefined,
  request: RecordedRequest,
  send: (data: string) => void,
  drop: () => void,
): Promise<void> {
  if (!turn) {
    send(JSON.stringify({ type: "error", error: { message: "fake provider: script exhausted" } }));
    return;
  }
  const fault = turn.fault;
  if (fault?.kind === "http") {
    const body = encoder.errorBody(fault.status, fault.message) as { error?: unknown };
    send(JSON.stringify({ type: "error", status: fault.status, error: body.error ?? body }));
    return;
  }
  let chunks = encoder.chunks(turn, request).map((c) =>
    typeof c === "string" ? c : new TextDecoder().decode(c)
  );
  let ending: "normal" | "drop" | "stall" = "normal";
  if (fault) {
    const marker = fault.kind === "stall" ? fault.afterChunkContaining : undefined;
    const markerAt = marker === undefined ? -1 : chunks.findIndex((c) => c.includes(marker));
    const keep = markerAt >= 0
      ? markerAt + 1
      : Math.min(fault.afterChunks ?? Math.floor(chunks.length / 2), chunks.length);
    chunks = chunks.slice(0, keep);
    if (fault.kind === "error_event") {
      const chunk = encoder.errorChunk(fault.message);
      chunks.push(typeof chunk === "string" ? chunk : new TextDecoder().decode(chunk));
    } else if (fault.kind === "drop" || fault.kind === "stall") ending = fault.kind;
  }
  for (const chunk of chunks) {
    if (turn.chunkDelayMs) await new Promise((r) => setTimeout(r, turn.chunkDelayMs));
    for (const data of sseData(chunk)) send(data);
  }
  if (ending === "drop") drop();
}

/** The `data:` payloads of SSE records. */
function sseData(chunk: string): string[] {
  return chunk.split("\n\n").map((record) =>
    record.split("\n").filter((l) => l.startsWith("data:")).map((l) => l.slice(5).trim()).join("\n")
  ).filter((data) => data.length > 0 && data !== "[DONE]");
}

function frame(opcode: number, payload: Uint8Array): Uint8Array {
  const length = payload.length;
  const head = length < 126 ? 2 : length < 65536 ? 4 : 10;
  const out = new Uint8Array(head + length);
  out[0] = 0x80 | opcode;
  if (length < 126) out[1] = length;
  else if (length < 65536) {
    out[1] = 126;
    new DataView(out.buffer).setUint16(2, length);
  } else {
    out[1] = 127;
    new DataView(out.buffer).setBigUint64(2, BigInt(length));
  }
  out.set(payload, head);
  return out;
}

function parseFrame(buffer: Uint8Array): { opcode: number; payload: Uint8Array; size: number } | undefined {
  if (buffer.length < 2) return undefined;
  const view = new DataView(buffer.buffer, buffer.byteOffset, buffer.byteLength);
  const opcode = buffer[0] & 0x0f;
  const masked = (buffer[1] & 0x80) !== 0;
  let length = buffer[1] & 0x7f;
  let offset = 2;
  if (length === 126) {
    if (buffer.length < 4) return undefined;
    length = view.getUint16(2);
    offset = 4;
  } else if (length === 127) {
    if (buffer.length < 10) return undefined;
    length = Number(view.getBigUint64(2));
    offset = 10;
  }
  const maskAt = offset;
  if (masked) offset += 4;
  if (buffer.length < offset + length) return undefined;
  const payload = buffer.slice(offset, offset + length);
  if (masked) { for (let i = 0; i < payload.length; i++) payload[i] ^= buffer[maskAt + (i % 4)]; }
  return { opcode, payload, size: offset + length };
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}
