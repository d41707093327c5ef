/**
 * The loop's `prepareRequest` hook, which routes a virtual model (pi 1.6.0, EXT-VM): the model and
 * thinking level it returns apply to that one request, whose assistant message records them; the
 * agent's own model stays the selection. A rejection ends the run with an error reply that goes
 * through message_start, message_end and turn_end like any other (1.6.0's run-failure order).
 */
import { assertEquals } from "../support/assert.ts";
import { Agent } from "../../src/agent/agent.ts";
import type { AgentEvent, AgentRequest } from "../../src/agent/types.ts";
import type { AssistantMessage, Model } from "../../src/ai/types.ts";
import { FAUX_MODEL, fauxStream } from "../support/faux_stream.ts";

const ROUTED: Model = { ...FAUX_MODEL, id: "routed-1", provider: "routed", reasoning: true };

Deno.test("EXT-VM-LOOP-01 prepareRequest's model and level apply per request; the reply records them", async () => {
  const { streamFn } = fauxStream([
    { toolCalls: [{ id: "c1", name: "missing", arguments: {} }] },
    { text: "done" },
  ]);
  const agent = new Agent({ initialState: { model: FAUX_MODEL, thinkingLevel: "low", tools: [] }, streamFn });
  const seen: string[] = [];
  agent.prepareRequest = (request: AgentRequest) => {
    seen.push(`${request.model.provider}/${request.model.id} ${request.thinkingLevel}`);
    return { model: ROUTED, thinkingLevel: "high" };
  };
  await agent.prompt("go");
  // Each request asks again, from the selection, not from the previous request's route.
  assertEquals(seen, ["faux/faux-1 low", "faux/faux-1 low"]);
  const replies = agent.state.messages.filter((m): m is AssistantMessage => m.role === "assistant");
  assertEquals(replies.map((m) => `${m.provider}/${m.model} ${m.thinkingLevel}`), [
    "routed/routed-1 high",
    "routed/routed-1 high",
  ]);
  assertEquals(`${agent.state.model.provider}/${agent.state.model.id}`, "faux/faux-1");
});

Deno.test("EXT-VM-LOOP-02 a rejecting prepareRequest ends the run with an error reply, events as 1.6.0", async () => {
  const { streamFn, contexts } = fauxStream([{ text: "never sent" }]);
  const agent = new Agent({ initialState: { model: FAUX_MODEL, tools: [] }, streamFn });
  agent.prepareRequest = () => Promise.reject(new Error("No model for this prompt"));
  const events: AgentEvent[] = [];
  agent.subscribe((e) => void events.push(e));
  await agent.prompt("go");
  assertEquals(contexts.length, 0);
  assertEquals(events.map((e) => "message" in e ? `${e.type}:${e.message.role}` : e.type), [
    "agent_start",
    "turn_start",
    "message_start:user",
    "message_end:user",
    "message_start:assistant",
    "message_end:assistant",
    "turn_end:assistant",
    "agent_end",
  ]);
  const last = agent.state.messages.at(-1) as AssistantMessage;
  assertEquals([last.provider, last.model, last.stopReason, last.errorMessage], [
    "faux",
    "faux-1",
    "error",
    "No model for this prompt",
  ]);
  assertEquals(agent.state.errorMessage, "No model for this prompt");
});
