/**
 * Garbage in an SSE stream (data that is not the JSON the API promises) ends the reply with an
 * error that names the stream, the event and what was wrong, and quotes the data, cut short.
 * pi 1.6.0 says only "Unexpected end of JSON input" (Google) or "Error reading response:
 * malformed server-sent event JSON." (OpenAI); its Anthropic wording is kept.
 */
import type { ScriptedTurn } from "../support/fake_provider/mod.ts";
import { assert, assertEquals } from "../support/assert.ts";
import { runOurs, type WireApi } from "./stream_reference.ts";

const CONTEXT = { messages: [{ role: "user" as const, content: "hi", timestamp: 1 }] };

function garbage(api: WireApi, data: string): ScriptedTurn {
  return {
    content: [{ type: "text", text: "Hello there, friend" }],
    fault: {
      kind: "garbage",
      afterChunks: 3,
      data,
      event: api === "anthropic-messages" ? "content_block_delta" : undefined,
    },
  };
}

async function errorOf(
  api: WireApi,
  data: string,
): Promise<{ stopReason: unknown; errorMessage: unknown; types: unknown[] }> {
  const [outcome] = await runOurs([{ name: api, api, context: CONTEXT, turn: garbage(api, data) }]);
  return {
    stopReason: outcome.final.stopReason,
    errorMessage: outcome.final.errorMessage,
    types: outcome.events.map((e) => e.type),
  };
}

const EXPECTED: Record<WireApi, string> = {
  "anthropic-messages":
    'Could not parse Anthropic SSE event content_block_delta: Unexpected end of JSON input; data={"oops": tru; raw=event: content_block_delta\\ndata: {"oops": tru',
  "openai-completions":
    'Could not parse OpenAI Chat Completions stream event: Unexpected end of JSON input; data={"oops": tru',
  "openai-responses":
    'Could not parse OpenAI Responses stream event: Unexpected end of JSON input; data={"oops": tru',
  "google-generative-ai":
    'Could not parse Google stream event: Unexpected end of JSON input; data={"oops": tru',
};

for (const api of Object.keys(EXPECTED) as WireApi[]) {
  Deno.test(`PROV-ERR ${api}: a broken JSON event is an error naming the stream, the event and the data`, async () => {
    const got = await errorOf(api, '{"oops": tru');
    assertEquals(got.stopReason, "error");
    assertEquals(got.errorMessage, EXPECTED[api]);
    assertEquals(got.types.at(-1), "error");
  });
}

Deno.test("PROV-ERR a long garbage payload is quoted only up to 200 characters", async () => {
  const data = "<html>" + "x".repeat(1000);
  const got = await errorOf("openai-completions", data);
  const quoted = data.slice(0, 200);
  const message = String(got.errorMessage);
  // The middle is the JSON parser's own wording.
  assert(message.startsWith("Could not parse OpenAI Chat Completions stream event: "), message);
  assert(message.endsWith(`; data=${quoted}… (806 more characters)`), message);
});
