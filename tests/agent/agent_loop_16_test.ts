/**
 * Agent-loop behaviour that came with pi 1.6.0's agent core: tool durations and structured
 * results, `Operation aborted` for calls an abort overtook, `finishTurn` decisions,
 * `prepareNextTurn`, the thinking level on assistant messages, and refusing tool calls of a reply
 * cut off by the output limit. IDs: LOOP-02, LOOP-04, LOOP-06, EVT-05.
 */
import { assert, assertEquals } from "../support/assert.ts";
import { Agent, type AgentOptions } from "../../src/agent/agent.ts";
import type { AgentEvent, AgentTool } from "../../src/agent/types.ts";
import type { AssistantMessage, JsonValue, ToolResultMessage } from "../../src/ai/types.ts";
import { FAUX_MODEL, type FauxReply, fauxStream } from "../support/faux_stream.ts";

type Json = Record<string, unknown>;

function tool(
  name: string,
  run: (signal?: AbortSignal) => Promise<unknown>,
  extra: Partial<AgentTool> = {},
): AgentTool {
  return {
    name,
    label: name,
    description: name,
    parameters: { type: "object", properties: {} },
    execute: async (_id, _params, signal) => {
      const structured = await run(signal);
      return {
        content: [{ type: "text", text: `${name} ran` }],
        details: {},
        structuredContent: structured as JsonValue,
      };
    },
    ...extra,
  };
}

function makeAgent(replies: FauxReply[], tools: AgentTool[], options: Partial<AgentOptions> = {}) {
  const { streamFn, contexts } = fauxStream(replies);
  const agent = new Agent({
    initialState: { model: FAUX_MODEL, systemPrompt: "sys", tools },
    streamFn,
    ...options,
  });
  const events: AgentEvent[] = [];
  agent.subscribe((e) => void events.push(e));
  return { agent, events, contexts };
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const t = setTimeout(resolve, ms);
    signal?.addEventListener("abort", () => {
      clearTimeout(t);
      reject(new Error("Command aborted"));
    });
  });

Deno.test("EVT-05 tool_execution_end carries durationMs and structuredContent; the result message durationMs", async () => {
  const { agent, events } = makeAgent(
    [{ toolCalls: [{ id: "c1", name: "slow", arguments: {} }] }, { text: "ok" }],
    [tool("slow", async () => {
      await sleep(40);
      return { rows: 2 };
    })],
  );
  await agent.prompt("go");
  const end = events.find((e) => e.type === "tool_execution_end") as Json;
  assertEquals(Object.keys(end), ["type", "toolCallId", "toolName", "result", "isError", "durationMs"]);
  assert(
    (end.durationMs as number) >= 35 && (end.durationMs as number) < 5000,
    `durationMs ${end.durationMs}`,
  );
  assertEquals((end.result as Json).structuredContent, { rows: 2 });
  const result = agent.state.messages.find((m) => m.role === "toolResult") as ToolResultMessage & Json;
  assertEquals(result.durationMs, end.durationMs);
  assertEquals("structuredContent" in result, false, "the model-facing message has no structured content");
});

Deno.test("EVT-05 a tool that did not run (unknown) has no durationMs", async () => {
  const { agent, events } = makeAgent(
    [{ toolCalls: [{ id: "c1", name: "nope", arguments: {} }] }, { text: "ok" }],
    [],
  );
  await agent.prompt("go");
  const end = events.find((e) => e.type === "tool_execution_end") as Json;
  assertEquals("durationMs" in end, false);
  assertEquals((end.result as Json).content, [{ type: "text", text: "Tool nope not found" }]);
});

Deno.test("LOOP-04 afterToolCall replacing content drops the old structuredContent", async () => {
  const { agent, events } = makeAgent(
    [{ toolCalls: [{ id: "c1", name: "t", arguments: {} }] }, { text: "ok" }],
    [tool("t", () => Promise.resolve({ old: true }))],
    { afterToolCall: () => Promise.resolve({ content: [{ type: "text", text: "rewritten" }] }) },
  );
  await agent.prompt("go");
  const end = events.find((e) => e.type === "tool_execution_end") as unknown as { result: Json };
  assertEquals(end.result.content, [{ type: "text", text: "rewritten" }]);
  assertEquals("structuredContent" in end.result, false);
});

Deno.test("LOOP-06 abort mid-batch: a call that had not started gets 'Operation aborted'", async () => {
  const holder: { agent?: Agent } = {};
  const { agent } = makeAgent(
    [{
      toolCalls: [
        { id: "a", name: "first", arguments: {} },
        { id: "b", name: "second", arguments: {} },
      ],
    }, { text: "never" }],
    [tool("first", (signal) => sleep(5000, signal)), tool("second", (signal) => sleep(5000, signal))],
    {
      // Abort while the batch is being prepared: the first call is prepared, the second not yet.
      beforeToolCall: (ctx) => {
        if (ctx.toolCall.id === "b") holder.agent?.abort();
        return Promise.resolve(undefined);
      },
    },
  );
  holder.agent = agent;
  await agent.prompt("go");
  const results = agent.state.messages.filter((m): m is ToolResultMessage => m.role === "toolResult");
  assertEquals(results.map((r) => [r.toolCallId, (r.content[0] as { text: string }).text, r.isError]), [
    ["a", "Operation aborted", true],
    ["b", "Operation aborted", true],
  ]);
});

Deno.test("LOOP-02 finishTurn {action:'end'} ends the run after turn_end without asking again", async () => {
  const { agent, events, contexts } = makeAgent(
    [{ toolCalls: [{ id: "c1", name: "t", arguments: {} }] }, { text: "never" }],
    [tool("t", () => Promise.resolve(undefined))],
    { finishTurn: () => ({ action: "end" }) },
  );
  await agent.prompt("go");
  assertEquals(contexts.length, 1);
  assertEquals(events.slice(-2).map((e) => e.type), ["turn_end", "agent_end"]);
});

Deno.test("LOOP-02 finishTurn {action:'continue'} after a text reply asks the model once more", async () => {
  let turns = 0;
  const { agent, contexts } = makeAgent(
    [{ text: "first" }, { text: "second" }],
    [],
    { finishTurn: () => (++turns === 1 ? { action: "continue" } : undefined) },
  );
  await agent.prompt("go");
  assertEquals(contexts.length, 2);
  assertEquals(contexts[1].messages.map((m) => m.role), ["user", "assistant"]);
});

Deno.test("LOOP-02 prepareNextTurn can append messages before the next request", async () => {
  const { agent, events, contexts } = makeAgent(
    [{ toolCalls: [{ id: "c1", name: "t", arguments: {} }] }, { text: "ok" }],
    [tool("t", () => Promise.resolve(undefined))],
    {
      prepareNextTurn: () => ({
        messages: [{ role: "user", content: [{ type: "text", text: "note" }], timestamp: 1 }],
      }),
    },
  );
  await agent.prompt("go");
  assertEquals(contexts[1].messages.map((m) => m.role), ["user", "assistant", "toolResult", "user"]);
  const starts = events.filter((e) => e.type === "turn_start");
  assertEquals(starts.length, 2);
});

Deno.test("LOOP-02 assistant messages record the thinking level they were requested with", async () => {
  const { agent, events } = makeAgent([{ text: "hi" }], []);
  agent.state.thinkingLevel = "high";
  await agent.prompt("go");
  const end = events.filter((e) => e.type === "message_end").at(-1) as unknown as {
    message: AssistantMessage & Json;
  };
  assertEquals(end.message.thinkingLevel, "high");
  assertEquals(Object.keys(end.message).at(-1), "thinkingLevel");
  const { agent: off, events: offEvents } = makeAgent([{ text: "hi" }], []);
  await off.prompt("go");
  const offEnd = offEvents.filter((e) => e.type === "message_end").at(-1) as unknown as { message: Json };
  assertEquals(offEnd.message.thinkingLevel, "off");
});
