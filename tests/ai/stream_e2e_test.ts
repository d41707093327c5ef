import { complete, streamSimple } from "../../src/ai/stream.ts";
import { getModel } from "../../src/ai/models.ts";
import type { AssistantMessageEvent, Context, Model } from "../../src/ai/types.ts";
import { startFakeProvider } from "../support/fake_provider/mod.ts";
import { assert, assertEquals } from "../support/assert.ts";

const CONTEXT: Context = { messages: [{ role: "user", content: "hello", timestamp: 1 }] };

function anthropicAt(url: string): Model {
  return { ...getModel("anthropic", "claude-opus-4-6")!, baseUrl: url };
}

Deno.test("PROV-01 complete() streams a built-in provider end to end (anthropic-messages, fake server)", async () => {
  const server = await startFakeProvider([
    { content: [{ type: "text", text: "Hello from the fake server" }], usage: { input: 12, output: 5 } },
  ]);
  try {
    const message = await complete(anthropicAt(server.url), CONTEXT, {
      apiKey: "sk-ant-test-key",
      maxRetries: 0,
    });
    assertEquals(message.stopReason, "stop", message.errorMessage);
    assertEquals(message.content, [{ type: "text", text: "Hello from the fake server" }]);
    assertEquals([message.usage.input, message.usage.output], [12, 5]);
    // Priced with the catalog's per-million rates (5 in, 25 out).
    assertEquals(message.usage.cost.total, (12 * 5 + 5 * 25) / 1e6);
    assertEquals(server.requests.length, 1);
  } finally {
    await server.close();
  }
});

Deno.test("LOOP-07 an HTTP error surfaces as an error event with the status and no API key", async () => {
  const server = await startFakeProvider([{ fault: { kind: "http", status: 529, message: "Overloaded" } }]);
  try {
    const events: AssistantMessageEvent[] = [];
    const s = streamSimple(anthropicAt(server.url), CONTEXT, { apiKey: "sk-ant-secret-999", maxRetries: 0 });
    for await (const e of s) events.push(e);
    const last = events.at(-1)!;
    assert(last.type === "error");
    assert(last.error.errorMessage!.startsWith("529 "), last.error.errorMessage);
    assert(last.error.errorMessage!.includes("Overloaded"));
    assert(!last.error.errorMessage!.includes("sk-ant-secret-999"));
  } finally {
    await server.close();
  }
});
