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
    return new Response(body, { headers: { "content-type": "text/event-stream" } });
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
