/**
 * Running the tool calls of one assistant message: lookup, argument preparation and validation,
 * the before/after hooks, parallel or sequential execution, and the tool-result messages. Every
 * failure becomes an error result the model can read; nothing here throws.
 *
 * @module
 */
import type { AssistantMessage, ToolCall, ToolResultMessage } from "../ai/types.ts";
import type { AgentContext, AgentEventSink, AgentLoopConfig, AgentTool, AgentToolResult } from "./types.ts";

/** The outcome of a batch: result messages in call order, and whether the loop should stop. */
export interface ToolBatchResult {
  messages: ToolResultMessage[];
  terminate: boolean;
}

interface Finalized {
  toolCall: ToolCall;
  result: AgentToolResult;
  isError: boolean;
}

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
    // Preparation (and its events) happens in call order; execution overlaps.
    const pending: Promise<Finalized>[] = [];
    for (const toolCall of toolCalls) {
      await emitStart(toolCall, emit);
      const prepared = await prepare(context, assistantMessage, toolCall, config, signal);
      if (prepared.kind === "immediate") {
        const done = { toolCall, result: prepared.result, isError: prepared.isError };
        await emitEnd(done, emit);
        pending.push(Promise.resolve(done));
        continue;
      }
      pending.push((async () => {
        const executed = await run(prepared, emit, signal);
        const done = await finalize(context, assistantMessage, prepared, executed, config, signal);
        await emitEnd(done, emit);
        return done;
      })());
    }
    for (const done of await Promise.all(pending)) {
      const message = toResultMessage(done);
      await emitResultMessage(message, emit);
      finalized.push(done);
      messages.push(message);
    }
  }
  return { messages, terminate: finalized.length > 0 && finalized.every((f) => f.result.terminate === true) };
}

async function prepare(
  context: AgentContext,
  assistantMessage: AssistantMessage,
  toolCall: ToolCall,
  config: AgentLoopConfig,
  signal?: AbortSignal,
): Promise<Prepared> {
  const tool = context.tools?.find((t) => t.name === toolCall.name);
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
    // The validator (and its schema compiler) loads with the first tool call, not at start-up.
    const { validateToolArguments } = await import("../ai/validation.ts");
    const args = validateToolArguments(tool, call);
    if (config.beforeToolCall) {
      const verdict = await config.beforeToolCall({ assistantMessage, toolCall, args, context }, signal);
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
): Promise<{ result: AgentToolResult; isError: boolean }> {
  const updates: Promise<void>[] = [];
  const { toolCall } = prepared;
  try {
    const result = await prepared.tool.execute(toolCall.id, prepared.args, signal, (partialResult) => {
      updates.push(Promise.resolve(emit({
        type: "tool_execution_update",
        toolCallId: toolCall.id,
        toolName: toolCall.name,
        args: toolCall.arguments,
        partialResult,
      })));
    });
    await Promise.all(updates);
    return { result, isError: false };
  } catch (error) {
    await Promise.all(updates);
    return { result: errorResult(messageOf(error)), isError: true };
  }
}

async function finalize(
  context: AgentContext,
  assistantMessage: AssistantMessage,
  prepared: Extract<Prepared, { kind: "prepared" }>,
  executed: { result: AgentToolResult; isError: boolean },
  config: AgentLoopConfig,
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
        result = {
          content: after.content ?? result.content,
          details: after.details ?? result.details,
          terminate: after.terminate ?? result.terminate,
        };
        isError = after.isError ?? isError;
      }
    } catch (error) {
      result = errorResult(messageOf(error));
      isError = true;
    }
  }
  return { toolCall: prepared.toolCall, result, isError };
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
    timestamp: Date.now(),
  };
}

async function emitResultMessage(message: ToolResultMessage, emit: AgentEventSink): Promise<void> {
  await emit({ type: "message_start", message });
  await emit({ type: "message_end", message });
}
