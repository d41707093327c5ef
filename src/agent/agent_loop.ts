/**
 * The agent loop: stream an assistant message, run its tool calls, feed the results back, and
 * turn again until the model stops — delivering steering messages between turns and follow-ups
 * when it would otherwise stop. Works on AgentMessage throughout and converts to LLM messages
 * only at the request boundary.
 *
 * @module
 */
import { EventStream } from "../ai/event_stream.ts";
import { streamSimple } from "../ai/stream.ts";
import type { AssistantMessage, Context, ToolCall, ToolResultMessage } from "../ai/types.ts";
import type {
  AgentContext,
  AgentEvent,
  AgentEventSink,
  AgentLoopConfig,
  AgentLoopTurnUpdate,
  AgentMessage,
  AgentTurnContext,
  StreamFn,
} from "./types.ts";
import { executeToolCalls, failTruncatedToolCalls } from "./tool_execution.ts";

/** Starts a run with new prompt messages; the returned stream ends with `agent_end`. */
export function agentLoop(
  prompts: AgentMessage[],
  context: AgentContext,
  config: AgentLoopConfig,
  signal?: AbortSignal,
  streamFn?: StreamFn,
): EventStream<AgentEvent, AgentMessage[]> {
  const stream = createAgentStream();
  void runAgentLoop(prompts, context, config, (e) => stream.push(e), signal, streamFn).then((m) =>
    stream.end(m)
  );
  return stream;
}

/**
 * Continues from the current context without a new message (used by retries). The last message
 * must become a user or tool-result message for the model.
 */
export function agentLoopContinue(
  context: AgentContext,
  config: AgentLoopConfig,
  signal?: AbortSignal,
  streamFn?: StreamFn,
): EventStream<AgentEvent, AgentMessage[]> {
  assertContinuable(context);
  const stream = createAgentStream();
  void runAgentLoopContinue(context, config, (e) => stream.push(e), signal, streamFn).then((m) =>
    stream.end(m)
  );
  return stream;
}

/** Runs a prompt to completion, emitting events; resolves with the messages the run added. */
export async function runAgentLoop(
  prompts: AgentMessage[],
  context: AgentContext,
  config: AgentLoopConfig,
  emit: AgentEventSink,
  signal?: AbortSignal,
  streamFn?: StreamFn,
): Promise<AgentMessage[]> {
  const added: AgentMessage[] = [...prompts];
  const current: AgentContext = { ...context, messages: [...context.messages, ...prompts] };
  await emit({ type: "agent_start" });
  await emit({ type: "turn_start" });
  for (const prompt of prompts) {
    await emit({ type: "message_start", message: prompt });
    await emit({ type: "message_end", message: prompt });
  }
  await runTurns(current, added, config, emit, signal, streamFn);
  return added;
}

/** Continues a run from the context as it is; resolves with the messages the run added. */
export async function runAgentLoopContinue(
  context: AgentContext,
  config: AgentLoopConfig,
  emit: AgentEventSink,
  signal?: AbortSignal,
  streamFn?: StreamFn,
): Promise<AgentMessage[]> {
  assertContinuable(context);
  const added: AgentMessage[] = [];
  await emit({ type: "agent_start" });
  await emit({ type: "turn_start" });
  await runTurns({ ...context }, added, config, emit, signal, streamFn);
  return added;
}

function assertContinuable(context: AgentContext): void {
  if (context.messages.length === 0) throw new Error("Cannot continue: no messages in context");
  if (context.messages[context.messages.length - 1].role === "assistant") {
    throw new Error("Cannot continue from message role: assistant");
  }
}

function createAgentStream(): EventStream<AgentEvent, AgentMessage[]> {
  return new EventStream<AgentEvent, AgentMessage[]>(
    (e) => e.type === "agent_end",
    (e) => (e.type === "agent_end" ? e.messages : []),
  );
}

async function runTurns(
  initialContext: AgentContext,
  added: AgentMessage[],
  initialConfig: AgentLoopConfig,
  emit: AgentEventSink,
  signal: AbortSignal | undefined,
  streamFn: StreamFn | undefined,
): Promise<void> {
  let context = initialContext;
  let config = initialConfig;
  let lastTurn: AgentTurnContext | undefined;
  // finishTurn asked for one more request that nothing else has scheduled yet.
  let explicitContinuation = false;
  // The user may have typed while the run was starting.
  let pending = (await config.getSteeringMessages?.()) ?? [];
  while (true) {
    let moreToolCalls = true;
    while (moreToolCalls || pending.length > 0) {
      let prepared: AgentMessage[] = [];
      if (lastTurn) {
        const update = await config.prepareNextTurn?.(lastTurn);
        if (update) {
          context = update.context ?? context;
          prepared = update.messages ?? [];
          config = withTurnUpdate(config, update);
        }
        // Preparing (a compaction, say) can take a while: pick up steering typed meanwhile, but
        // poll only when nothing is pending, or one-at-a-time mode would deliver two at once.
        if (pending.length === 0) pending = (await config.getSteeringMessages?.()) ?? [];
        await emit({ type: "turn_start" });
      }

      for (const message of [...prepared, ...pending]) {
        await emit({ type: "message_start", message });
        await emit({ type: "message_end", message });
        context.messages.push(message);
        added.push(message);
      }
      pending = [];

      // The request's own model and level (a virtual model's route) apply to this request only.
      const request = await config.prepareRequest?.({
        context,
        model: config.model,
        thinkingLevel: config.reasoning ?? "off",
      }, signal);
      const requestConfig = request ? withTurnUpdate(config, request) : config;
      const message = await streamAssistantResponse(context, requestConfig, emit, signal, streamFn);
      added.push(message);
      if (message.stopReason === "error" || message.stopReason === "aborted") {
        lastTurn = { message, toolResults: [], context, newMessages: added };
        await config.finishTurn?.(lastTurn, signal);
        await emit({ type: "turn_end", message, toolResults: [] });
        await emit({ type: "agent_end", messages: added });
        return;
      }

      const toolCalls = message.content.filter((c): c is ToolCall => c.type === "toolCall");
      let toolResults: ToolResultMessage[] = [];
      moreToolCalls = false;
      if (toolCalls.length > 0) {
        // A reply cut off by the output limit may carry truncated arguments that still parse:
        // none of its calls is safe to run.
        const batch = message.stopReason === "length"
          ? await failTruncatedToolCalls(toolCalls, emit)
          : await executeToolCalls(context, message, toolCalls, config, emit, signal);
        toolResults = batch.messages;
        moreToolCalls = !batch.terminate;
        for (const result of toolResults) {
          context.messages.push(result);
          added.push(result);
        }
      }
      lastTurn = { message, toolResults, context, newMessages: added };
      const decision = await config.finishTurn?.(lastTurn, signal);
      await emit({ type: "turn_end", message, toolResults });
      if (decision?.action === "end") {
        await emit({ type: "agent_end", messages: added });
        return;
      }
      explicitContinuation = decision?.action === "continue";
      pending = (await config.getSteeringMessages?.()) ?? [];
      if (moreToolCalls || pending.length > 0) explicitContinuation = false;
    }
    const followUps = (await config.getFollowUpMessages?.()) ?? [];
    if (followUps.length > 0) {
      explicitContinuation = false;
      pending = followUps;
      continue;
    }
    // Nothing else scheduled a request: honour finishTurn's "continue" with the context as it is.
    if (explicitContinuation) {
      explicitContinuation = false;
      continue;
    }
    break;
  }
  await emit({ type: "agent_end", messages: added });
}

function withTurnUpdate(config: AgentLoopConfig, update: AgentLoopTurnUpdate): AgentLoopConfig {
  const reasoning = update.thinkingLevel === undefined
    ? config.reasoning
    : update.thinkingLevel === "off"
    ? undefined
    : update.thinkingLevel;
  return { ...config, model: update.model ?? config.model, reasoning };
}

/** Streams one assistant message, keeping the growing partial as the context's last message. */
async function streamAssistantResponse(
  context: AgentContext,
  config: AgentLoopConfig,
  emit: AgentEventSink,
  signal: AbortSignal | undefined,
  streamFn: StreamFn | undefined,
): Promise<AssistantMessage> {
  const messages = config.transformContext
    ? await config.transformContext(context.messages, signal)
    : context.messages;
  const llmContext: Context = {
    systemPrompt: context.systemPrompt,
    messages: await config.convertToLlm(messages),
    tools: context.tools,
  };
  const apiKey = (config.getApiKey ? await config.getApiKey(config.model.provider) : undefined) ||
    config.apiKey;
  const {
    convertToLlm: _c,
    transformContext: _t,
    getApiKey: _g,
    finishTurn: _f,
    prepareNextTurn: _p,
    prepareRequest: _pr,
    getSteeringMessages: _gs,
    getFollowUpMessages: _gf,
    beforeToolCall: _b,
    afterToolCall: _a,
    toolExecution: _x,
    model,
    ...streamOptions
  } = config;
  const response = await (streamFn ?? streamSimple)(model, llmContext, { ...streamOptions, apiKey, signal });

  let partial: AssistantMessage | undefined;
  // The events of one burst (a network read holds many deltas) in a plain loop, one
  // asynchronous hop per burst; a stream without batches (a custom streamFn's) one by one.
  const iterator = typeof response.nextBatch === "function" ? undefined : response[Symbol.asyncIterator]();
  const batches = iterator ? oneByOne(iterator) : () => response.nextBatch();
  try {
    stream: for (let batch = await batches(); batch; batch = await batches()) {
      for (const event of batch) {
        if (event.type === "start") {
          partial = event.partial;
          context.messages.push(partial);
          await emit({ type: "message_start", message: { ...partial } });
        } else if (event.type === "done" || event.type === "error") {
          break stream;
        } else if (partial) {
          partial = event.partial;
          context.messages[context.messages.length - 1] = partial;
          // One per delta: waited for only when a listener hands back something to wait for.
          const pending = emit({
            type: "message_update",
            assistantMessageEvent: event,
            message: { ...partial },
          });
          if (pending) await pending;
        }
      }
    }
  } finally {
    // As a for-await loop would when left early.
    await iterator?.return?.();
  }
  // The message records the thinking level it was requested with, whichever stream answered.
  const final = Object.assign(await response.result(), { thinkingLevel: config.reasoning ?? "off" });
  if (partial) {
    context.messages[context.messages.length - 1] = final;
  } else {
    context.messages.push(final);
    await emit({ type: "message_start", message: { ...final } });
  }
  await emit({ type: "message_end", message: final });
  return final;
}

/** Batches of one event from an iterator, for streams without {@link AssistantMessageEventStream.nextBatch}. */
function oneByOne<T>(iterator: AsyncIterator<T>): () => Promise<T[] | undefined> {
  return async () => {
    const next = await iterator.next();
    return next.done ? undefined : [next.value];
  };
}
