/**
 * Routing a session's virtual model (pi 1.6.0): the agent's model stays the selection — what
 * `model_change`, `ctx.model` and the footer name — while each request of the agent loop goes to
 * the physical model the router picks. The assistant message then records that physical model and
 * its thinking level, because the provider's stream builds it. Router state is kept on the session
 * branch as `pi.virtual-model-state` custom entries, written before the request is sent.
 *
 * @module
 */
import type { Agent } from "../agent/agent.ts";
import type { AgentLoopConfig, AgentMessage } from "../agent/types.ts";
import type { AssistantMessage, Model } from "../ai/types.ts";
import type { ModelRuntime } from "../config/model_runtime.ts";
import {
  isVirtualModel,
  type ModelRouteReason,
  VIRTUAL_MODEL_STATE_ENTRY,
  type VirtualModelStateData,
} from "../config/virtual_models.ts";
import type { SessionEntry } from "../session/entries.ts";

/** What {@link virtualModelRouter} reads and writes. */
export interface VirtualModelRouterDeps {
  agent: Agent;
  modelRuntime: ModelRuntime;
  /** The current session branch, root first. */
  getBranch(): readonly SessionEntry[];
  /** Appends a custom entry and tells the session's listeners. */
  appendCustomEntry(customType: string, data: unknown): void;
  /** The failed reply an automatic retry replaces, taken once per retry. */
  takeFailedResponse?: () => AssistantMessage | undefined;
}

/** The latest router state a session branch keeps for one virtual model. */
export function getVirtualModelState(
  branch: readonly SessionEntry[],
  provider: string,
  modelId: string,
): unknown {
  for (let i = branch.length - 1; i >= 0; i--) {
    const entry = branch[i];
    if (entry.type !== "custom" || entry.customType !== VIRTUAL_MODEL_STATE_ENTRY) continue;
    const data = entry.data as VirtualModelStateData | undefined;
    if (data?.provider === provider && data.modelId === modelId) return data.state;
  }
  return undefined;
}

/**
 * The model a session branch selects, for resuming it. Like the session context's model (the
 * latest `model_change` or response), except that a virtual `model_change` holds until the next
 * `model_change`: responses name the physical models it routed to. A virtual model that is no
 * longer registered does not hold, so the physical model that answered last is used.
 */
export function getBranchSelection(
  branch: readonly SessionEntry[],
  getModel: (provider: string, modelId: string) => Model | undefined,
): { provider: string; modelId: string } | undefined {
  for (let i = branch.length - 1; i >= 0; i--) {
    const entry = branch[i];
    if (entry.type === "model_change") return { provider: entry.provider, modelId: entry.modelId };
    if (entry.type !== "message" || entry.message.role !== "assistant") continue;
    const message = entry.message as AssistantMessage;
    if (isVirtualModel(message)) continue;
    const change = branch.slice(0, i).findLast((e) => e.type === "model_change");
    if (change?.type === "model_change") {
      const model = getModel(change.provider, change.modelId);
      if (model && isVirtualModel(model)) return { provider: change.provider, modelId: change.modelId };
    }
    return { provider: message.provider, modelId: message.model };
  }
  return undefined;
}

/**
 * The agent's `prepareRequest` hook: nothing for a physical selection; for a virtual one, the
 * routed model and thinking level of this request. A routing failure rejects, which ends the
 * run with an error message that names the virtual model.
 */
export function virtualModelRouter(
  deps: VirtualModelRouterDeps,
): NonNullable<AgentLoopConfig["prepareRequest"]> {
  return async (request, signal) => {
    const { agent } = deps;
    const model = agent.state.model;
    if (!isVirtualModel(model)) return undefined;
    const failed = deps.takeFailedResponse?.();
    const messages = request.context.messages;
    const state = getVirtualModelState(deps.getBranch(), model.provider, model.id);
    const route = await deps.modelRuntime.resolveModel(model, await agent.convertToLlm(messages), {
      reason: failed ? "retry" : routeReason(messages),
      thinkingLevel: agent.state.thinkingLevel,
      signal,
      state,
      ...(failed ? { failed } : {}),
    });
    if (route.state !== undefined && route.state !== state) {
      const data: VirtualModelStateData = { provider: model.provider, modelId: model.id, state: route.state };
      deps.appendCustomEntry(VIRTUAL_MODEL_STATE_ENTRY, data);
    }
    return { model: route.model, thinkingLevel: route.thinkingLevel };
  };
}

/**
 * `user` when a message the user wrote came after the latest response (extension messages may
 * follow it), else `continuation`.
 */
function routeReason(messages: readonly AgentMessage[]): ModelRouteReason {
  const lastResponse = messages.findLastIndex((message) => message.role === "assistant");
  return messages.slice(lastResponse + 1).some((message) => message.role === "user")
    ? "user"
    : "continuation";
}
