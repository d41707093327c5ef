import { hasBuiltinApi, registerApiProvider, unregisterApiProviders } from "../../src/ai/api_registry.ts";
import { AssistantMessageEventStream } from "../../src/ai/event_stream.ts";
import { getModel, getModels, getProviders } from "../../src/ai/models.ts";
import { createOutputMessage } from "../../src/ai/provider_utils.ts";
import { complete, completeSimple, stream, streamSimple } from "../../src/ai/stream.ts";
import type { AssistantMessageEvent, Context, Model, StreamOptions } from "../../src/ai/types.ts";
import { assert, assertEquals } from "../support/assert.ts";

function model(api: string, provider = "test-provider"): Model {
  return {
    id: "m1",
    name: "M1",
    api,
    provider,
    baseUrl: "http://127.0.0.1:9",
    reasoning: false,
    input: ["text"],
    cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
    contextWindow: 1000,
    maxTokens: 100,
  };
}

const CONTEXT: Context = { messages: [{ role: "user", content: "hi", timestamp: 1 }] };

async function drain(s: AssistantMessageEventStream): Promise<AssistantMessageEvent[]> {
  const events: AssistantMessageEvent[] = [];
  for await (const e of s) events.push(e);
  return events;
}

/** A custom provider that answers "ok" and records the options it got. */
function echoProvider(api: string, seen: (StreamOptions | undefined)[]) {
  const run = (m: Model, _c: Context, options?: StreamOptions) => {
    seen.push(options);
    const s = new AssistantMessageEventStream();
    const out = createOutputMessage(m);
    queueMicrotask(() => {
      s.push({ type: "start", partial: out });
      out.content.push({ type: "text", text: "ok" });
      s.push({ type: "done", reason: "stop", message: out });
      s.end();
    });
    return s;
  };
  return { api, stream: run, streamSimple: run };
}

Deno.test("PROV-01 every built-in model's wire API has an implementation (pi-messages included)", () => {
  const missing = getProviders().flatMap((p) => getModels(p)).filter((m) => !hasBuiltinApi(m.api))
    .map((m) => `${m.provider}/${m.id}: ${m.api}`);
  assertEquals(missing, []);
  assertEquals(getModel("radius", "balanced")?.api, "pi-messages");
});

Deno.test("stream with an unknown API ends in an error event instead of throwing", async () => {
  const s = stream(model("no-such-api"), CONTEXT);
  const events = await drain(s);
  assertEquals(events.length, 1);
  const [event] = events;
  assertEquals(event.type === "error" && [event.reason, event.error.errorMessage, event.error.stopReason], [
    "error",
    "No API provider registered for api: no-such-api",
    "error",
  ]);
  assertEquals((await complete(model("no-such-api"), CONTEXT)).stopReason, "error");
});

Deno.test("stream dispatches to a registered provider and complete resolves its final message", async () => {
  const seen: (StreamOptions | undefined)[] = [];
  registerApiProvider(echoProvider("echo-api", seen), "stream-test");
  try {
    const events = await drain(stream(model("echo-api"), CONTEXT, { apiKey: "k1" }));
    assertEquals(events.map((e) => e.type), ["start", "done"]);
    const final = await complete(model("echo-api"), CONTEXT, { apiKey: "k2" });
    assertEquals(final.content, [{ type: "text", text: "ok" }]);
    assertEquals(seen.map((o) => o?.apiKey), ["k1", "k2"]);
  } finally {
    unregisterApiProviders("stream-test");
  }
});

Deno.test("PROV-03 the API key falls back to the provider's environment variable", async () => {
  const seen: (StreamOptions | undefined)[] = [];
  registerApiProvider(echoProvider("echo-env-api", seen), "stream-test-env");
  // The environment is passed explicitly (pi-ai's `env` option); the process's is not touched.
  const env = { GROQ_API_KEY: "gsk-from-env" };
  try {
    await complete(model("echo-env-api", "groq"), CONTEXT, { env });
    await completeSimple(model("echo-env-api", "groq"), CONTEXT, { apiKey: "explicit", env });
    await complete(model("echo-env-api", "groq"), CONTEXT, { env: { GROQ_API_KEY: "" } });
    assertEquals(seen.map((o) => o?.apiKey), ["gsk-from-env", "explicit", undefined]);
  } finally {
    unregisterApiProviders("stream-test-env");
  }
});

Deno.test("streamSimple on a built-in API without any key reports the missing key", async () => {
  const m = model("openai-completions", "provider-without-env-var");
  const events = await drain(streamSimple(m, CONTEXT));
  assertEquals(events.length, 1);
  const [event] = events;
  assertEquals(
    event.type === "error" && event.error.errorMessage,
    "No API key for provider: provider-without-env-var",
  );
  assertEquals(
    (await completeSimple(m, CONTEXT)).errorMessage,
    "No API key for provider: provider-without-env-var",
  );
});

Deno.test("a provider that throws synchronously becomes an error event", async () => {
  registerApiProvider({
    api: "throwing-api",
    stream: () => {
      throw new Error("misconfigured");
    },
    streamSimple: () => {
      throw new Error("misconfigured");
    },
  }, "stream-test-throw");
  try {
    const final = await complete(model("throwing-api"), CONTEXT);
    assertEquals([final.stopReason, final.errorMessage], ["error", "misconfigured"]);
  } finally {
    unregisterApiProviders("stream-test-throw");
  }
});

Deno.test("a built-in API loads lazily and its stream is piped to a single terminal event", async () => {
  // Nothing listens on port 9: whatever the built-in does, exactly one terminal event arrives
  // and the key stays out of the error text.
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), 5000);
  try {
    const events = await drain(
      stream(model("openai-completions"), CONTEXT, {
        apiKey: "sk-secret-123",
        maxRetries: 0,
        signal: controller.signal,
      }),
    );
    const terminal = events.filter((e) => e.type === "done" || e.type === "error");
    assertEquals(terminal.length, 1);
    assertEquals(events.at(-1), terminal[0]);
    const last = terminal[0];
    if (last.type === "error") assert(!(last.error.errorMessage ?? "").includes("sk-secret-123"));
  } finally {
    clearTimeout(timer);
  }
});
