/**
 * A Chat Completions server for measuring the JSON stream rather than the server: it answers
 * every request with one long streamed text reply whose SSE body (the fake provider's own
 * chunks) is built once and sent in large writes. The scripted fake provider spends ~75 µs per
 * chunk, which would dominate a 100,000-delta run; this one does not. Used by the JSON-mode
 * growth test and by scripts/bench/json_stream.ts.
 *
 * @module
 */
import { completionsChunks } from "../support/fake_provider/openai_completions.ts";
import type { RecordedRequest } from "../support/fake_provider/mod.ts";

/** A running bulk server. */
export interface BulkSseServer {
  /** Base URL (`http://127.0.0.1:port`); the API lives under `/v1`. */
  url: string;
  /** Requests answered so far. */
  readonly requests: number;
  close(): Promise<void>;
}

/** Bytes handed to the response stream at a time. */
const CHUNK_BYTES = 64 * 1024;

/**
 * Serves `text` streamed in `deltaSize`-character deltas (with a usage chunk) to every chat
 * completion request. The body is built before the server starts, so timing a client measures
 * the client.
 */
export function startBulkSseServer(text: string, deltaSize: number): BulkSseServer {
  const model: RecordedRequest = {
    method: "POST",
    path: "/v1/chat/completions",
    url: "/v1/chat/completions",
    headers: {},
    body: { model: "test-model", stream_options: { include_usage: true } },
  };
  const chunks = completionsChunks({ content: [{ type: "text", text }], deltaSize }, model);
  const body = new TextEncoder().encode(chunks.join(""));
  let requests = 0;
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (request) => {
    await request.body?.cancel();
    requests++;
    // Handed out as copies of the prebuilt body, 64 KiB at a time (a stream takes ownership of
    // what it is given, so never the body itself): the whole 30 MB buffer given to Response was
    // now and then answered ~110 ms late (seen with curl too), a server stall that timed runs of
    // the client would have counted.
    let offset = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (offset >= body.length) return controller.close();
        controller.enqueue(body.slice(offset, offset + CHUNK_BYTES));
        offset += CHUNK_BYTES;
      },
    });
    return new Response(stream, { headers: { "content-type": "text/event-stream" } });
  });
  const { port } = server.addr as Deno.NetAddr;
  return {
    url: `http://127.0.0.1:${port}`,
    get requests() {
      return requests;
    },
    close: () => server.shutdown(),
  };
}
