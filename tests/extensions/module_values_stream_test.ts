/**
 * The streaming values of pi-ai that extensions get (issue 16, export conformance), end to end
 * against the fake provider: `anthropicMessagesApi()` streams through our Anthropic provider with
 * 1.6.0's transcript context (the prompt and tools as system messages), the built-ins that
 * `resetApiProviders()` registers stream when first used, pi-coding-agent's `generateSummary`
 * returns the model's summary text, and an extension runs a tool from `createReadToolDefinition`.
 *
 * @module
 */
import { getModel } from "../../src/ai/models.ts";
import type { AssistantMessage, Context, Model } from "../../src/ai/types.ts";
import { type ModuleNamespace, publishHostImport } from "../../src/extensions/host_modules.ts";
import { assertEquals } from "../support/assert.ts";
import { startFakeProvider } from "../support/fake_provider/mod.ts";

interface Streams {
  streamSimple(model: Model, context: unknown, options?: Record<string, unknown>): {
    result(): Promise<AssistantMessage>;
  };
}

async function piAi(): Promise<ModuleNamespace> {
  const namespace = await publishHostImport({ name: "@earendil-works/pi-ai", names: "*" });
  if (!namespace) throw new Error("no pi-ai namespace");
  return namespace;
}

function anthropicAt(url: string): Model {
  return { ...getModel("anthropic", "claude-opus-4-6")!, baseUrl: url };
}

const TOOL = { name: "read", description: "Read a file", parameters: { type: "object", properties: {} } };

Deno.test("EXT-MODULES anthropicMessagesApi() streams a transcript context: system messages become the prompt and tools", async () => {
  const ai = await piAi();
  const server = await startFakeProvider([{
    content: [{ type: "text", text: "Hi there" }],
    usage: { input: 3, output: 2 },
  }]);
  try {
    const normalizeContext = ai.normalizeContext as (context: Context) => { messages: unknown[] };
    const transcript = normalizeContext({
      systemPrompt: "You are terse.",
      tools: [TOOL],
      messages: [{ role: "user", content: "hello", timestamp: 1 }],
    });
    const api = (ai.anthropicMessagesApi as () => Streams)();
    const message = await api.streamSimple(anthropicAt(server.url), transcript, {
      apiKey: "sk-ant-test",
      maxRetries: 0,
    })
      .result();
    assertEquals([message.stopReason, message.content], ["stop", [{ type: "text", text: "Hi there" }]]);
    const body = server.requests[0].body as {
      system: { text: string }[];
      tools: { name: string }[];
      messages: { role: string }[];
    };
    assertEquals(body.system.map((block) => block.text).join(""), "You are terse.");
    assertEquals(body.tools.map((tool) => tool.name), ["read"]);
    assertEquals(body.messages.map((m) => m.role), ["user"]);
  } finally {
    await server.close();
  }
});

Deno.test("EXT-MODULES after resetApiProviders() the registered built-in loads its provider on first use and streams", async () => {
  const ai = await piAi();
  const server = await startFakeProvider([{ content: [{ type: "text", text: "Loaded" }] }]);
  try {
    (ai.resetApiProviders as () => void)();
    const provider = (ai.getApiProvider as (api: string) => Streams | undefined)("anthropic-messages")!;
    const context: Context = { messages: [{ role: "user", content: "hello", timestamp: 1 }] };
    const message = await provider.streamSimple(anthropicAt(server.url), context, {
      apiKey: "k",
      maxRetries: 0,
    })
      .result();
    assertEquals([message.stopReason, message.content], ["stop", [{ type: "text", text: "Loaded" }]]);
    assertEquals(server.requests.length, 1);
  } finally {
    await server.close();
    (ai.resetApiProviders as () => void)();
  }
});

Deno.test("EXT-MODULES pi-coding-agent's generateSummary returns the summary text of generateSummaryWithUsage", async () => {
  const coding = await publishHostImport({ name: "@earendil-works/pi-coding-agent", names: "*" });
  const generateSummary = coding!.generateSummary as (
    messages: unknown[],
    model: Model,
    reserveTokens: number | undefined,
    apiKey: string,
  ) => Promise<string>;
  const server = await startFakeProvider([{ content: [{ type: "text", text: "## Goal\nSay hi." }] }]);
  try {
    const summary = await generateSummary(
      [{ role: "user", content: "hi", timestamp: 1 }],
      anthropicAt(server.url),
      undefined,
      "sk-ant-test",
    );
    assertEquals([summary, server.requests.length], ["## Goal\nSay hi.", 1]);
  } finally {
    await server.close();
  }
});

Deno.test("EXT-MODULES an extension reads a file with createReadToolDefinition from @earendil-works/pi-coding-agent", async () => {
  const { loadExtensions } = await import("../../src/extensions/loader.ts");
  const dir = await Deno.makeTempDir({ prefix: "pi-tool-definition-" });
  try {
    await Deno.writeTextFile(`${dir}/notes.txt`, "first\nsecond\nthird\n");
    await Deno.writeTextFile(
      `${dir}/ext.ts`,
      [
        'import { createReadToolDefinition } from "@earendil-works/pi-coding-agent";',
        "export default async function () {",
        `  const read = createReadToolDefinition(${JSON.stringify(dir)});`,
        '  const result = await read.execute("call-1", { path: "notes.txt", offset: 2, limit: 1 });',
        "  (globalThis as Record<string, unknown>).__piToolDefinitionSeen = {",
        "    name: read.name,",
        "    snippet: read.promptSnippet,",
        "    text: result.content[0].text,",
        "  };",
        "}",
      ].join("\n"),
    );
    const result = await loadExtensions([{ path: "ext.ts", resolvedPath: `${dir}/ext.ts` }], {
      cwd: dir,
      cacheDir: `${dir}/cache`,
      factoryTimeoutMs: 10_000,
    });
    assertEquals(result.errors, []);
    assertEquals((globalThis as Record<string, unknown>).__piToolDefinitionSeen, {
      name: "read",
      snippet: "Read file contents",
      text: "second\n\n[2 more lines in file. Use offset=3 to continue.]",
    });
  } finally {
    delete (globalThis as Record<string, unknown>).__piToolDefinitionSeen;
    await Deno.remove(dir, { recursive: true });
  }
});
