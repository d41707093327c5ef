/**
 * State, model, thinking and queue-mode commands. The setters persist through the session to the
 * global settings.json, as the reference does.
 *
 * @module
 */
import type { Model } from "../../../ai/types.ts";
import type { RpcSessionState } from "../rpc_types.ts";
import { fail, ok, type RpcHandlerTable } from "./context.ts";

/**
 * What `get_state` reports as the model when none is available: pi 1.6.0's agent starts with this
 * placeholder, so clients always find a `model` object.
 */
const NO_MODEL: Model = {
  id: "unknown",
  name: "unknown",
  api: "unknown",
  provider: "unknown",
  baseUrl: "",
  reasoning: false,
  input: [],
  cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
  contextWindow: 0,
  maxTokens: 0,
};

/** Handlers of get_state, get_messages, the model, thinking and queue-mode commands. */
export const stateHandlers: RpcHandlerTable = {
  get_state(command, ctx) {
    const session = ctx.session;
    const state: RpcSessionState = {
      model: session.model ?? NO_MODEL,
      thinkingLevel: session.thinkingLevel,
      isStreaming: session.isStreaming,
      isCompacting: session.isCompacting,
      steeringMode: session.steeringMode,
      followUpMode: session.followUpMode,
      sessionFile: session.sessionFile,
      sessionId: session.sessionId,
      sessionName: session.sessionName,
      autoCompactionEnabled: session.autoCompactionEnabled,
      messageCount: session.messages.length,
      pendingMessageCount: session.pendingMessageCount,
    };
    return ok(command.id, "get_state", state);
  },

  get_messages(command, ctx) {
    return ok(command.id, "get_messages", { messages: ctx.session.messages });
  },

  async set_model(command, ctx) {
    const models = await ctx.session.modelRegistry.getAvailable();
    const model = models.find((m) => m.provider === command.provider && m.id === command.modelId);
    if (!model) {
      return fail(command.id, "set_model", `Model not found: ${command.provider}/${command.modelId}`);
    }
    await ctx.session.setModel(model);
    return ok(command.id, "set_model", model);
  },

  async cycle_model(command, ctx) {
    const result = await ctx.session.cycleModel();
    return ok(command.id, "cycle_model", result ?? null);
  },

  async get_available_models(command, ctx) {
    const models = await ctx.session.modelRegistry.getAvailable();
    return ok(command.id, "get_available_models", { models });
  },

  set_thinking_level(command, ctx) {
    ctx.session.setThinkingLevel(command.level);
    return ok(command.id, "set_thinking_level");
  },

  get_available_thinking_levels(command, ctx) {
    return ok(command.id, "get_available_thinking_levels", {
      levels: ctx.session.getAvailableThinkingLevels(),
    });
  },

  cycle_thinking_level(command, ctx) {
    const level = ctx.session.cycleThinkingLevel();
    return ok(command.id, "cycle_thinking_level", level ? { level } : null);
  },

  set_steering_mode(command, ctx) {
    ctx.session.setSteeringMode(command.mode);
    return ok(command.id, "set_steering_mode");
  },

  set_follow_up_mode(command, ctx) {
    ctx.session.setFollowUpMode(command.mode);
    return ok(command.id, "set_follow_up_mode");
  },
};
