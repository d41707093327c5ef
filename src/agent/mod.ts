/**
 * The agent loop (pi-agent-core's names): `Agent`, which keeps state and queues around the loop,
 * and the loop functions themselves, with their tool and event types.
 *
 * @example
 * ```ts
 * import { Agent } from "@pi-deno/coding-agent/agent";
 * import { getModel } from "@pi-deno/coding-agent/ai";
 *
 * const model = getModel("openai", "gpt-4o-mini");
 * if (!model) throw new Error("model not in the catalog");
 * const agent = new Agent({ initialState: { systemPrompt: "Be brief.", model } });
 * agent.subscribe((event) => {
 *   if (event.type === "agent_end") console.log(event.messages.length, "new messages");
 * });
 * await agent.prompt("Hello");
 * ```
 *
 * @module
 */

export { Agent } from "./agent.ts";
export type { AgentListener, AgentOptions } from "./agent.ts";
export { agentLoop, agentLoopContinue, runAgentLoop, runAgentLoopContinue } from "./agent_loop.ts";
export type * from "./types.ts";
