/**
 * The agent loop and Agent class: event order, tool execution, errors, queues, abort.
 * IDs: LOOP-01…06, EVT-01…05.
 */
import { assert, assertEquals, assertRejects, assertStringIncludes } from "../support/assert.ts";
import { Agent } from "../../src/agent/agent.ts";
import type { AgentEvent, AgentMessage, AgentTool } from "../../src/agent/types.ts";
import type { AssistantMessage, ToolResultMessage } from "../../src/ai/types.ts";
import { FAUX_MODEL, type FauxReply, fauxStream } from "../support/faux_stream.ts";

function echoTool(log: string[] = [], delayMs = 0): AgentTool<{ text: string }> {
  return {
    name: "echo",
    label: "Echo",
    description: "Echoes text",
    parameters: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
    execute: async (_id, params, signal) => {
      log.push(`start:${params.text}`);
      if (delayMs) {
        await new Promise<void>((resolve, reject) => {
          const t = setTimeout(resolve, delayMs);
          signal?.addEventListener("abort", () => {
            clearTimeout(t);
            reject(new Error("Command aborted"));
          });
        });
      }
      log.push(`end:${params.text}`);
      return {
        content: [{ type: "text", text: `echo: ${params.text}` }],
        details: { length: params.text.length },
      };
    },
  };
}

function makeAgent(replies: FauxReply[], tools: AgentTool[] = [echoTool()]) {
  const { streamFn, contexts } = fauxStream(replies);
  const agent = new Agent({ initialState: { model: FAUX_MODEL, systemPrompt: "sys", tools }, streamFn });
  const events: AgentEvent[] = [];
  agent.subscribe((e) => void events.push(e));
  return { agent, events, contexts };
}

function types(events: AgentEvent[]): string[] {
  return events.map((e) => {
    if (e.type === "message_start" || e.type === "message_end") return `${e.type}:${e.message.role}`;
    if (e.type === "message_update") return `${e.type}:${e.assistantMessageEvent.type}`;
    return e.type;
  });
}

Deno.test("EVT-01 EVT-03 EVT-04 a text prompt emits the reference's event order", async () => {
  const { agent, events, contexts } = makeAgent([{ text: "hello" }]);
  await agent.prompt("hi");
  assertEquals(types(events), [
    "agent_start",
    "turn_start",
    "message_start:user",
    "message_end:user",
    "message_start:assistant",
    "message_update:text_start",
    "message_update:text_delta",
    "message_update:text_end",
    "message_end:assistant",
    "turn_end",
    "agent_end",
  ]);
  assertEquals(contexts[0].systemPrompt, "sys");
  assertEquals(contexts[0].messages.length, 1);
  assertEquals(agent.state.messages.map((m) => m.role), ["user", "assistant"]);
  assertEquals(agent.state.isStreaming, false);
});

Deno.test("LOOP-02 EVT-05 tool calls run in parallel, results come back in call order, then the model is asked again", async () => {
  const log: string[] = [];
  const { agent, events, contexts } = makeAgent(
    [
      {
        toolCalls: [
          { id: "c1", name: "echo", arguments: { text: "slow" } },
          { id: "c2", name: "echo", arguments: { text: "fast" } },
        ],
      },
      { text: "done" },
    ],
    [{ ...echoTool(log, 30), name: "echo" }],
  );
  await agent.prompt("go");
  // Both started before either finished: parallel.
  assertEquals(log.slice(0, 2), ["start:slow", "start:fast"]);
  const results = agent.state.messages.filter((m): m is ToolResultMessage => m.role === "toolResult");
  assertEquals(results.map((r) => r.toolCallId), ["c1", "c2"]);
  assertEquals(results[0].content, [{ type: "text", text: "echo: slow" }]);
  assertEquals(results[0].details, { length: 4 });
  assertEquals(results[0].isError, false);
  assertEquals(contexts.length, 2);
  assertEquals(contexts[1].messages.map((m) => m.role), ["user", "assistant", "toolResult", "toolResult"]);
  const turnEnds = events.filter((e) => e.type === "turn_end");
  assertEquals(turnEnds.length, 2);
  assertEquals(types(events).filter((t) => t.startsWith("tool_execution")), [
    "tool_execution_start",
    "tool_execution_start",
    "tool_execution_end",
    "tool_execution_end",
  ]);
});

Deno.test("LOOP-02 sequential tools run one at a time", async () => {
  const log: string[] = [];
  const tool = { ...echoTool(log, 10), executionMode: "sequential" as const };
  const { agent } = makeAgent([
    {
      toolCalls: [{ id: "a", name: "echo", arguments: { text: "1" } }, {
        id: "b",
        name: "echo",
        arguments: { text: "2" },
      }],
    },
    { text: "ok" },
  ], [tool]);
  await agent.prompt("go");
  assertEquals(log, ["start:1", "end:1", "start:2", "end:2"]);
});

Deno.test("LOOP-04 LOOP-05 unknown tools, invalid arguments and thrown errors become error results", async () => {
  const failing: AgentTool = {
    name: "fail",
    label: "Fail",
    description: "always fails",
    parameters: { type: "object", properties: {} },
    execute: () => Promise.reject(new Error("boom")),
  };
  const { agent } = makeAgent([
    {
      toolCalls: [
        { id: "u", name: "nope", arguments: {} },
        { id: "v", name: "echo", arguments: { text: 42, extra: true } },
        { id: "w", name: "echo", arguments: {} },
        { id: "x", name: "fail", arguments: {} },
      ],
    },
    { text: "ok" },
  ], [echoTool(), failing]);
  await agent.prompt("go");
  const results = agent.state.messages.filter((m): m is ToolResultMessage => m.role === "toolResult");
  const text = (r: ToolResultMessage) => (r.content[0] as { text: string }).text;
  assertEquals(results.map((r) => r.isError), [true, false, true, true]);
  assertEquals(text(results[0]), "Tool nope not found");
  // 42 is coerced to "42" as the reference does.
  assertEquals(text(results[1]), "echo: 42");
  assertEquals(
    text(results[2]),
    'Validation failed for tool "echo":\n  - text: missing\n\nReceived arguments:\n{}',
  );
  assertEquals(text(results[3]), "boom");
  assertEquals(results[3].details, {});
});

Deno.test("LOOP-04 beforeToolCall can block a call; afterToolCall can rewrite the result", async () => {
  const { streamFn } = fauxStream([
    {
      toolCalls: [{ id: "a", name: "echo", arguments: { text: "x" } }, {
        id: "b",
        name: "echo",
        arguments: { text: "y" },
      }],
    },
    { text: "ok" },
  ]);
  const agent = new Agent({
    initialState: { model: FAUX_MODEL, tools: [echoTool()] },
    streamFn,
    beforeToolCall: (ctx) =>
      Promise.resolve((ctx.args as { text: string }).text === "x" ? { block: true } : undefined),
    afterToolCall: () => Promise.resolve({ content: [{ type: "text", text: "rewritten" }] }),
  });
  await agent.prompt("go");
  const results = agent.state.messages.filter((m): m is ToolResultMessage => m.role === "toolResult");
  assertEquals(results.map((r) => (r.content[0] as { text: string }).text), [
    "Tool execution was blocked",
    "rewritten",
  ]);
});

Deno.test("LOOP-03 steering messages are delivered after the turn's tool calls; follow-ups when it would stop", async () => {
  const { agent, contexts } = makeAgent([
    { toolCalls: [{ id: "a", name: "echo", arguments: { text: "x" } }] },
    { text: "after steer" },
    { text: "after follow-up" },
  ]);
  const user = (text: string): AgentMessage => ({ role: "user", content: text, timestamp: Date.now() });
  agent.subscribe((e) => {
    if (e.type === "tool_execution_start") {
      agent.steer(user("steer"));
      agent.followUp(user("follow"));
    }
  });
  await agent.prompt("go");
  assertEquals(contexts.length, 3);
  const lastUser = (i: number) => {
    const m = contexts[i].messages.filter((m) => m.role === "user");
    return m[m.length - 1].content;
  };
  assertEquals(lastUser(1), "steer");
  assertEquals(contexts[1].messages.map((m) => m.role), ["user", "assistant", "toolResult", "user"]);
  assertEquals(lastUser(2), "follow");
});

Deno.test("LOOP-03 one-at-a-time delivers one queued message per turn; all delivers together", async () => {
  for (const mode of ["one-at-a-time", "all"] as const) {
    const { streamFn, contexts } = fauxStream([{ text: "1" }, { text: "2" }, { text: "3" }]);
    const agent = new Agent({ initialState: { model: FAUX_MODEL }, streamFn, followUpMode: mode });
    agent.followUp({ role: "user", content: "a", timestamp: 1 });
    agent.followUp({ role: "user", content: "b", timestamp: 2 });
    await agent.prompt("go");
    assertEquals(contexts.length, mode === "all" ? 2 : 3, mode);
  }
});

Deno.test("LOOP-06 abort ends the run with stopReason aborted and kills running tools", async () => {
  const log: string[] = [];
  const { agent, events } = makeAgent([
    { toolCalls: [{ id: "a", name: "echo", arguments: { text: "long" } }] },
    { text: "never", delayMs: 1000 },
  ], [echoTool(log, 5000)]);
  const run = agent.prompt("go");
  await new Promise((r) => setTimeout(r, 50));
  agent.abort();
  await run;
  const results = agent.state.messages.filter((m): m is ToolResultMessage => m.role === "toolResult");
  assertEquals((results[0].content[0] as { text: string }).text, "Command aborted");
  const last = agent.state.messages[agent.state.messages.length - 1] as AssistantMessage;
  assertEquals(last.stopReason, "aborted");
  assertEquals(events[events.length - 1].type, "agent_end");
});

Deno.test("LOOP-02 an error reply ends the run and sets errorMessage", async () => {
  const { agent } = makeAgent([{ error: "500 upstream" }]);
  await agent.prompt("go");
  assertEquals(agent.state.errorMessage, "500 upstream");
});

Deno.test("LOOP-01 prompt while running is refused; continue() resumes from a user message", async () => {
  const { agent, contexts } = makeAgent([{ text: "slow", delayMs: 50 }, { text: "again" }]);
  const run = agent.prompt("go");
  await assertRejects(() => agent.prompt("again"), "Agent is already processing a prompt");
  await run;
  await assertRejects(() => agent.continue(), "Cannot continue from message role: assistant");
  agent.state.messages = [...agent.state.messages, { role: "user", content: "more", timestamp: 3 }];
  await agent.continue();
  assertEquals(contexts.length, 2);
  assert(agent.state.messages.length === 4);
  assertStringIncludes(JSON.stringify(agent.state.messages[3]), "again");
});
