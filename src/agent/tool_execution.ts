/**
 * Running the tool calls of one assistant message: lookup, argument preparation and validation,
 * the before/after hooks, parallel or sequential execution, and the tool-result messages. Every
 * failure becomes an error result the model can read; nothing here throws.
 *
 * @module
 */
import type { AssistantMessage, JsonValue, ToolCall, ToolResultMessage } from "../ai/types.ts";
import { quickValidatedArguments } from "../ai/validation_quick.ts";
import type { AgentContext, AgentEventSink, AgentLoopConfig, AgentTool, AgentToolResult } from "./types.ts";

/** The outcome of a batch: result messages in call order, and whether the loop should stop. */
export interface ToolBatchResult {
  messages: ToolResultMessage[];
  terminate: boolean;
}

/** The outcome of one tool call (1.6.0's `AgentToolCallOutcome`). */
export interface Finalized {
  toolCall: ToolCall;
  result: AgentToolResult;
  isError: boolean;
  /** How long `execute()` took; undefined when the tool did not run. */
  durationMs?: number;
}

/** The result of a call that never started because the run was aborted first. */
const ABORTED = "Operation aborted";

type Prepared =
  | { kind: "immediate"; result: AgentToolResult; isError: true }
  | { kind: "prepared"; toolCall: ToolCall; tool: AgentTool; args: unknown };

/** Runs the calls; in parallel unless configured sequential or any called tool is sequential. */
export async function executeToolCalls(
  context: AgentContext,
  assistantMessage: AssistantMessage,
  toolCalls: ToolCall[],
  config: AgentLoopConfig,
  emit: AgentEventSink,
  signal?: AbortSignal,
): Promise<ToolBatchResult> {
  const sequential = config.toolExecution === "sequential" ||
    toolCalls.some((tc) => context.tools?.find((t) => t.name === tc.name)?.executionMode === "sequential");
  const finalized: Finalized[] = [];
  const messages: ToolResultMessage[] = [];

  if (sequential) {
    for (const toolCall of toolCalls) {
      await emitStart(toolCall, emit);
      const prepared = await prepare(context, assistantMessage, toolCall, config, signal);
      const done = prepared.kind === "immediate"
        ? { toolCall, result: prepared.result, isError: prepared.isError }
        : await finalize(
          context,
          assistantMessage,
          prepared,
          await run(prepared, emit, signal),
          config,
          signal,
        );
      await emitEnd(done, emit);
      const message = toResultMessage(done);
      await emitResultMessage(message, emit);
      finalized.push(done);
      messages.push(message);
    }
  } else {
    // Every call is prepared (and announced) in call order first; then they all run at once.
    const pending: (Finalized | (() => Promise<Finalized>))[] = [];
    for (const toolCall of toolCalls) {
      await emitStart(toolCall, emit);
      const prepared = await prepare(context, assistantMessage, toolCall, config, signal);
      if (prepared.kind === "immediate") {
        const done = { toolCall, result: prepared.result, isError: prepared.isError };
        await emitEnd(done, emit);
        pending.push(done);
        continue;
      }
      pending.push(async () => {
        // Calls an abort overtook still get a result, so none is left unanswered.
        if (signal?.aborted) {
          const done = { toolCall, result: errorResult(ABORTED), isError: true };
          await emitEnd(done, emit);
          return done;
        }
        const executed = await run(prepared, emit, signal);
        const done = await finalize(context, assistantMessage, prepared, executed, config, signal);
        await emitEnd(done, emit);
        return done;
      });
    }
    const settled = await Promise.all(pending.map((p) => typeof p === "function" ? p() : p));
    for (const done of settled) {
      const message = toResultMessage(done);
      await emitResultMessage(message, emit);
      finalized.push(done);
      messages.push(message);
    }
  }
  return { messages, terminate: finalized.length > 0 && finalized.every((f) => f.result.terminate === true) };
}

/** The hooks of {@link AgentLoopConfig} that a tool call runs through. */
export type ToolCallHooks = Pick<AgentLoopConfig, "beforeToolCall" | "afterToolCall">;

/** Options of {@link runToolCall}. */
export interface RunToolCallOptions extends ToolCallHooks {
  /** The tools the call resolves against. */
  tools: readonly AgentTool[];
  /** The message that issued the call, for the hooks. */
  assistantMessage: AssistantMessage;
  /** The agent context, for the hooks. */
  context: AgentContext;
  /** Aborts the call. */
  signal?: AbortSignal;
  /** Receives the tool's partial results. */
  onUpdate?: (partialResult: AgentToolResult) => Promise<void> | void;
}

/**
 * Runs one tool call through the steps of a model-issued call (argument preparation, validation,
 * `beforeToolCall`, execution, `afterToolCall`) without events or messages (pi-agent-core 1.6.0's
 * `runToolCall`, for tools that call other tools). Failures come back as `isError: true`.
 */
export async function runToolCall(toolCall: ToolCall, options: RunToolCallOptions): Promise<Finalized> {
  const { assistantMessage, context, signal } = options;
  const prepared = await prepare(context, assistantMessage, toolCall, options, signal, options.tools);
  if (prepared.kind === "immediate") return { toolCall, result: prepared.result, isError: prepared.isError };
  const onUpdate = options.onUpdate ?? (() => {});
  const executed = await run(prepared, (event) => {
    if (event.type === "tool_execution_update") return onUpdate(event.partialResult);
  }, signal);
  return await finalize(context, assistantMessage, prepared, executed, options, signal);
}

async function prepare(
  context: AgentContext,
  assistantMessage: AssistantMessage,
  toolCall: ToolCall,
  config: ToolCallHooks,
  signal?: AbortSignal,
  tools: readonly AgentTool[] | undefined = context.tools,
): Promise<Prepared> {
  if (signal?.aborted) return { kind: "immediate", result: errorResult(ABORTED), isError: true };
  const tool = tools?.find((t) => t.name === toolCall.name);
  if (!tool) {
    return { kind: "immediate", result: errorResult(`Tool ${toolCall.name} not found`), isError: true };
  }
  try {
    let call = toolCall;
    if (tool.prepareArguments) {
      const prepared = tool.prepareArguments(toolCall.arguments);
      if (prepared !== toolCall.arguments) {
        call = { ...toolCall, arguments: prepared as ToolCall["arguments"] };
      }
    }
    // Arguments that plainly fit a simple schema need no validator; it (and its schema compiler)
    // loads with the first call that does, not at start-up.
    const args = quickValidatedArguments(tool.parameters, call.arguments) ??
      (await import("../ai/validation.ts")).validateToolArguments(tool, call);
    if (config.beforeToolCall) {
      const verdict = await config.beforeToolCall({ assistantMessage, toolCall, args, context }, signal);
      if (signal?.aborted) return { kind: "immediate", result: errorResult(ABORTED), isError: true };
      if (verdict?.block) {
        return {
          kind: "immediate",
          result: errorResult(verdict.reason || "Tool execution was blocked"),
          isError: true,
        };
      }
    }
    return { kind: "prepared", toolCall, tool, args };
  } catch (error) {
    return { kind: "immediate", result: errorResult(messageOf(error)), isError: true };
  }
}

async function run(
  prepared: Extract<Prepared, { kind: "prepared" }>,
  emit: AgentEventSink,
  signal?: AbortSignal,
): Promise<{ result: AgentToolResult; isError: boolean; durationMs: number }> {
  const updates: Promise<void>[] = [];
  const { toolCall } = prepared;
  // Updates sent after execute() settled would arrive after tool_execution_end.
  let accepting = true;
  const startedAt = performance.now();
  const elapsed = () => Math.round(performance.now() - startedAt);
  try {
    const result = await prepared.tool.execute(toolCall.id, prepared.args, signal, (partialResult) => {
      if (!accepting) return;
      updates.push(Promise.resolve(emit({
        type: "tool_execution_update",
        toolCallId: toolCall.id,
        toolName: toolCall.name,
        args: toolCall.arguments,
        partialResult,
      })));
    });
    const durationMs = elapsed();
    accepting = false;
    await Promise.all(updates);
    return { result, isError: result.isError === true, durationMs };
  } catch (error) {
    const durationMs = elapsed();
    accepting = false;
    await Promise.all(updates);
    return { result: errorResult(messageOf(error)), isError: true, durationMs };
  }
}

async function finalize(
  context: AgentContext,
  assistantMessage: AssistantMessage,
  prepared: Extract<Prepared, { kind: "prepared" }>,
  executed: { result: AgentToolResult; isError: boolean; durationMs: number },
  config: ToolCallHooks,
  signal?: AbortSignal,
): Promise<Finalized> {
  let { result, isError } = executed;
  if (config.afterToolCall) {
    try {
      const after = await config.afterToolCall({
        assistantMessage,
        toolCall: prepared.toolCall,
        args: prepared.args,
        result,
        isError,
        context,
      }, signal);
      if (after) {
        // Structured content not replaced along with the content may no longer match it.
        // A hook's structured content is its own data, JSON as 1.6.0 types it.
        const structuredContent = (after.structuredContent as JsonValue | undefined) ??
          (after.content ? undefined : result.structuredContent);
        const { structuredContent: _old, ...rest } = result;
        result = {
          ...rest,
          content: after.content ?? result.content,
          details: after.details ?? result.details,
          terminate: after.terminate ?? result.terminate,
          ...(structuredContent === undefined ? {} : { structuredContent }),
        };
        isError = after.isError ?? isError;
      }
    } catch (error) {
      result = errorResult(messageOf(error));
      isError = true;
    }
  }
  return { toolCall: prepared.toolCall, result, isError, durationMs: executed.durationMs };
}

/**
 * Fails every call of a reply cut off by the output-token limit: their arguments may be truncated
 * yet still parse, so none is run; the model is told to re-issue them.
 */
export async function failTruncatedToolCalls(
  toolCalls: ToolCall[],
  emit: AgentEventSink,
): Promise<ToolBatchResult> {
  const messages: ToolResultMessage[] = [];
  for (const toolCall of toolCalls) {
    await emitStart(toolCall, emit);
    const done: Finalized = {
      toolCall,
      result: errorResult(
        `Tool call "${toolCall.name}" was not executed: the response hit the output token limit, so its arguments may be truncated. Re-issue the tool call with complete arguments.`,
      ),
      isError: true,
    };
    await emitEnd(done, emit);
    const message = toResultMessage(done);
    await emitResultMessage(message, emit);
    messages.push(message);
  }
  return { messages, terminate: false };
}

function errorResult(text: string): AgentToolResult {
  return { content: [{ type: "text", text }], details: {} };
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

async function emitStart(toolCall: ToolCall, emit: AgentEventSink): Promise<void> {
  await emit({
    type: "tool_execution_start",
    toolCallId: toolCall.id,
    toolName: toolCall.name,
    args: toolCall.arguments,
  });
}

async function emitEnd(done: Finalized, emit: AgentEventSink): Promise<void> {
  await emit({
    type: "tool_execution_end",
    toolCallId: done.toolCall.id,
    toolName: done.toolCall.name,
    result: done.result,
    isError: done.isError,
    ...(done.durationMs === undefined ? {} : { durationMs: done.durationMs }),
  });
}

function toResultMessage(done: Finalized): ToolResultMessage {
  return {
    role: "toolResult",
    toolCallId: done.toolCall.id,
    toolName: done.toolCall.name,
    content: done.result.content,
    details: done.result.details,
    isError: done.isError,
    ...(done.durationMs === undefined ? {} : { durationMs: done.durationMs }),
    timestamp: Date.now(),
    ...(done.result.nestedCalls ? { nestedCalls: done.result.nestedCalls } : {}),
  };
}

async function emitResultMessage(message: ToolResultMessage, emit: AgentEventSink): Promise<void> {
  await emit({ type: "message_start", message });
  await emit({ type: "message_end", message });
}
