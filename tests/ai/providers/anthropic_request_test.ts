/**
 * Request building of the anthropic-messages provider, observed on the fake server: history
 * conversion, cache markers, thinking parameters, OAuth identity, header merging, streamSimple.
 * Expected bodies were captured from the reference pi-ai against the same server.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { provider, streamSimpleAnthropic } from "../../../src/ai/providers/anthropic.ts";
import type { AssistantMessage, Context } from "../../../src/ai/types.ts";
import type { ScriptedTurn } from "../../support/fake_provider/mod.ts";
import { type Body, bodyOf, collect, hello, model, readTool, run, withServer } from "./anthropic_helpers.ts";

function assistant(
  content: AssistantMessage["content"],
  extra: Partial<AssistantMessage> = {},
): AssistantMessage {
  return {
    role: "assistant",
    content,
    api: "anthropic-messages",
    provider: "anthropic",
    model: "claude-sonnet-4-5",
    usage: {
      input: 0,
      output: 0,
      cacheRead: 0,
      cacheWrite: 0,
      totalTokens: 0,
      cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
    },
    stopReason: "toolUse",
    timestamp: 2,
    ...extra,
  };
}

const history: Context = {
  systemPrompt: "Sys",
  tools: [readTool, { name: "bash", description: "Bash", parameters: { type: "object", properties: {} } }],
  messages: [
    {
      role: "user",
      content: [{ type: "text", text: "look" }, { type: "image", data: "AAAA", mimeType: "image/png" }, {
        type: "text",
        text: "  ",
      }],
      timestamp: 1,
    },
    assistant([
      { type: "thinking", thinking: "think1", thinkingSignature: "sigA" },
      { type: "thinking", thinking: "", thinkingSignature: "opaque", redacted: true },
      { type: "thinking", thinking: "unsigned thought" },
      { type: "text", text: "ok" },
      { type: "toolCall", id: "toolu_1", name: "read", arguments: { path: "x" } },
      { type: "toolCall", id: "toolu_2", name: "bash", arguments: { command: "ls" } },
    ]),
    {
      role: "toolResult",
      toolCallId: "toolu_1",
      toolName: "read",
      content: [{ type: "text", text: "line1" }, { type: "text", text: "line2" }],
      isError: false,
      timestamp: 3,
    },
    {
      role: "toolResult",
      toolCallId: "toolu_2",
      toolName: "bash",
      content: [{ type: "image", data: "BBBB", mimeType: "image/jpeg" }],
      isError: true,
      timestamp: 4,
    },
    assistant([{ type: "text", text: "failed" }], { stopReason: "error", errorMessage: "x" }),
    { role: "user", content: "next", timestamp: 6 },
  ],
};

Deno.test("ANTH-17 history conversion: images, thinking replay, grouped tool results, long cache markers", async () => {
  await withServer([{ content: [{ type: "text", text: "x" }] }], async (server) => {
    await run(server, history, {
      cacheRetention: "long",
      temperature: 0.2,
      thinkingEnabled: false,
      toolChoice: "auto",
    });
    const body = bodyOf(server);
    const cache = { type: "ephemeral", ttl: "1h" };
    assertEquals(body.messages, [
      {
        role: "user",
        content: [{ type: "text", text: "look" }, {
          type: "image",
          source: { type: "base64", media_type: "image/png", data: "AAAA" },
        }],
      },
      {
        role: "assistant",
        content: [
          { type: "thinking", thinking: "think1", signature: "sigA" },
          { type: "redacted_thinking", data: "opaque" },
          { type: "text", text: "unsigned thought" },
          { type: "text", text: "ok" },
          { type: "tool_use", id: "toolu_1", name: "read", input: { path: "x" } },
          { type: "tool_use", id: "toolu_2", name: "bash", input: { command: "ls" } },
        ],
      },
      {
        role: "user",
        content: [
          { type: "tool_result", tool_use_id: "toolu_1", content: "line1\nline2", is_error: false },
          {
            type: "tool_result",
            tool_use_id: "toolu_2",
            content: [
              { type: "text", text: "(see attached image)" },
              { type: "image", source: { type: "base64", media_type: "image/jpeg", data: "BBBB" } },
            ],
            is_error: true,
          },
        ],
      },
      { role: "user", content: [{ type: "text", text: "next", cache_control: cache }] },
    ]);
    assertEquals(body.system, [{ type: "text", text: "Sys", cache_control: cache }]);
    assertEquals(body.tools[0].cache_control, undefined);
    assertEquals(body.tools[1].cache_control, cache);
    assertEquals(body.tools[1].input_schema, { type: "object", properties: {}, required: [] });
    assertEquals(body.temperature, 0.2);
    assertEquals(body.thinking, { type: "disabled" });
    assertEquals(body.tool_choice, { type: "auto" });
  });
});

Deno.test("ANTH-18 cacheRetention none: no markers; budget thinking drops temperature; compat betas", async () => {
  await withServer([{ content: [{ type: "text", text: "x" }] }], async (server) => {
    await run(
      server,
      history,
      {
        cacheRetention: "none",
        thinkingEnabled: true,
        thinkingBudgetTokens: 5000,
        temperature: 0.3,
        interleavedThinking: false,
      },
      { compat: { supportsEagerToolInputStreaming: false } },
    );
    const body = bodyOf(server);
    assert(!JSON.stringify(body).includes("cache_control"));
    assertEquals(body.messages.at(-1), { role: "user", content: "next" });
    assertEquals(body.thinking, { type: "enabled", budget_tokens: 5000, display: "summarized" });
    assertEquals(body.temperature, undefined);
    assertEquals(body.tools[0].eager_input_streaming, undefined);
    assertEquals(server.requests[0].headers["anthropic-beta"], "fine-grained-tool-streaming-2025-05-14");
  });
});

Deno.test("PROV-03 ANTH-19 OAuth token: bearer auth, Claude Code identity and tool names mapped both ways", async () => {
  const turn: ScriptedTurn = {
    content: [{ type: "toolCall", id: "toolu_x", name: "Read", arguments: { path: "p" } }],
  };
  await withServer([turn], async (server) => {
    const { final } = await run(server, history, {
      apiKey: "sk-ant-oat01-secret",
      headers: { "X-Extra": "1" },
    }, {
      headers: { "x-model-h": "m" },
    });
    const headers = server.requests[0].headers;
    assertEquals(headers["authorization"], "Bearer sk-ant-oat01-secret");
    assertEquals(headers["x-api-key"], undefined);
    // No interleaved-thinking beta while thinking is off (pi-ai 1.x).
    assertEquals(headers["anthropic-beta"], "claude-code-20250219,oauth-2025-04-20");
    assertEquals(headers["user-agent"], "claude-cli/2.1.75");
    assertEquals(headers["x-app"], "cli");
    assertEquals(headers["x-extra"], "1");
    assertEquals(headers["x-model-h"], "m");
    const body = bodyOf(server);
    assertEquals(body.system.map((b: Body) => b.text), [
      "You are Claude Code, Anthropic's official CLI for Claude.",
      "Sys",
    ]);
    assertEquals(body.tools.map((t: Body) => t.name), ["Read", "Bash"]);
    assertEquals(body.messages[1].content[4].name, "Read");
    assertEquals(final.content, [{
      type: "toolCall",
      id: "toolu_x",
      name: "read",
      arguments: { path: "p" },
    }]);
  });
});

Deno.test("ANTH-20 headers merge (options over model), onPayload replaces body, onResponse sees status", async () => {
  await withServer([{ content: [{ type: "text", text: "x" }] }], async (server) => {
    const statuses: number[] = [];
    await run(server, hello, {
      headers: { "anthropic-beta": "custom-beta", "X-Trace": "t1" },
      metadata: { user_id: "user-42", other: 1 },
      onPayload: (payload) => ({ ...(payload as Body), max_tokens: 7 }),
      onResponse: (response) => void statuses.push(response.status),
    }, { headers: { "X-Trace": "model", "x-model": "yes" } });
    const req = server.requests[0];
    assertEquals(req.headers["anthropic-beta"], "custom-beta");
    assertEquals(req.headers["x-trace"], "t1");
    assertEquals(req.headers["x-model"], "yes");
    assertEquals(bodyOf(server).max_tokens, 7);
    assertEquals(bodyOf(server).metadata, { user_id: "user-42" });
    assertEquals(statuses, [200]);
  });
});

Deno.test("LOOP-17 ANTH-21 streamSimple: budget thinking, adaptive effort, reasoning off", async () => {
  const turns = [0, 1, 2].map((): ScriptedTurn => ({ content: [{ type: "text", text: "x" }] }));
  await withServer(turns, async (server) => {
    const base = { apiKey: "sk-ant-api", maxRetries: 0, temperature: 0.5 };
    await collect(streamSimpleAnthropic(model(server.url), hello, { ...base, reasoning: "high" }));
    await collect(
      // 1.6.0 reads adaptive thinking from the catalog's compat, not from the id.
      streamSimpleAnthropic(
        model(server.url, { id: "claude-opus-4-6", compat: { forceAdaptiveThinking: true } }),
        hello,
        {
          ...base,
          reasoning: "minimal",
        },
      ),
    );
    await collect(provider.streamSimple(model(server.url), hello, base));
    const [budget, adaptive, off] = [0, 1, 2].map((i) => bodyOf(server, i));
    assertEquals(budget.thinking, { type: "enabled", budget_tokens: 16384, display: "summarized" });
    // 1.6.0: the model's own output limit (no 32000 cap), the budget inside it.
    assertEquals(budget.max_tokens, 64000);
    assertEquals(budget.temperature, undefined);
    assertEquals(adaptive.thinking, { type: "adaptive", display: "summarized" });
    assertEquals(adaptive.output_config, { effort: "low" });
    assertEquals(server.requests[1].headers["anthropic-beta"], undefined);
    assertEquals(off.thinking, { type: "disabled" });
    assertEquals(off.max_tokens, 64000);
    assertEquals(off.temperature, 0.5);
  });
});

Deno.test("ANTH-22 streamSimple without any API key ends in an error event", async () => {
  const { seq, final } = await collect(
    streamSimpleAnthropic(model("http://127.0.0.1:1", { provider: "no-such-provider" }), hello, {}),
  );
  assertEquals(seq, [["error"]]);
  assertEquals(final.errorMessage, "No API key for provider: no-such-provider");
});

Deno.test("ANTH-05 PI_CACHE_RETENTION=long in the request's own environment asks for 1-hour caching", async () => {
  const turns = [0, 1].map((): ScriptedTurn => ({ content: [{ type: "text", text: "x" }] }));
  await withServer(turns, async (server) => {
    await run(server, hello, { env: { PI_CACHE_RETENTION: "long" } });
    await run(server, hello, { env: { PI_CACHE_RETENTION: "" } });
    const [long, short] = [0, 1].map((i) => bodyOf(server, i));
    assertEquals(long.system[0].cache_control, { type: "ephemeral", ttl: "1h" });
    assertEquals(short.system[0].cache_control, { type: "ephemeral" });
  });
});
