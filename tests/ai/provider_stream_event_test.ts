/**
 * `onProviderStreamEvent` (pi-ai 1.x) sees each parsed provider payload, in order, before pi's
 * events are made from it, on all four wire APIs.
 */
import { streamSimple } from "../../src/ai/stream.ts";
import { startFakeProvider } from "../support/fake_provider/mod.ts";
import { assertEquals } from "../support/assert.ts";
import { fakeModel, WIRE_APIS } from "./stream_reference.ts";

const FIRST_EVENT: Record<string, (data: Record<string, unknown>) => unknown> = {
  "anthropic-messages": (d) => d.type,
  "openai-completions": (d) => d.object,
  "openai-responses": (d) => d.type,
  "google-generative-ai": (d) => Array.isArray(d.candidates),
};

const EXPECTED_FIRST: Record<string, unknown> = {
  "anthropic-messages": "message_start",
  "openai-completions": "chat.completion.chunk",
  "openai-responses": "response.created",
  "google-generative-ai": true,
};

// What the fake server sends for this script (every SSE payload, `[DONE]` excluded).
const PAYLOADS: Record<string, number> = {
  "anthropic-messages": 8,
  "openai-completions": 6,
  "openai-responses": 11,
  "google-generative-ai": 3,
};

for (const api of WIRE_APIS) {
  Deno.test(`PROV-02 ${api}: onProviderStreamEvent sees every parsed payload before pi's events`, async () => {
    const server = await startFakeProvider([{ content: [{ type: "text", text: "Hello there, friend" }] }]);
    try {
      const seen: unknown[] = [];
      const s = streamSimple(fakeModel(api, server.url), {
        messages: [{ role: "user", content: "hi", timestamp: 1 }],
      }, {
        apiKey: "k",
        onProviderStreamEvent: (data) => void seen.push(data),
      });
      for await (const _ of s) { /* drain */ }
      assertEquals((await s.result()).stopReason, "stop");
      assertEquals(FIRST_EVENT[api](seen[0] as Record<string, unknown>), EXPECTED_FIRST[api]);
      assertEquals(seen.length, PAYLOADS[api]);
    } finally {
      await server.close();
    }
  });
}
