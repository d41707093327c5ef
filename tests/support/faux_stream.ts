/**
 * A scripted in-process stream function for agent-loop unit tests (the reference ships the same
 * idea as its "faux" provider). Wire formats are covered by the fake HTTP provider; this isolates
 * the loop's own behaviour.
 *
 * @module
 */
import { AssistantMessageEventStream } from "../../src/ai/event_stream.ts";
import type { AssistantMessage, Context, Model, SimpleStreamOptions, ToolCall } from "../../src/ai/types.ts";
import { emptyUsage } from "../../src/ai/types.ts";
import type { StreamFn } from "../../src/agent/types.ts";

/** One scripted reply. */
export interface FauxReply {
  text?: string;
  toolCalls?: { id: string; name: string; arguments: Record<string, unknown> }[];
  /** Ends the reply with an error instead. */
  error?: string;
  /** Wait this long (ms) between events; an abort during the wait ends the reply "aborted". */
  delayMs?: number;
}

/** The test model. */
export const FAUX_MODEL: Model = {
  id: "faux-1",
  name: "Faux",
  api: "faux",
  provider: "faux",
  baseUrl: "http://127.0.0.1:1",
  reasoning: false,
  input: ["text"],
  cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
  contextWindow: 100000,
  maxTokens: 1000,
};

/** A stream function that plays the replies in order and records every request context. */
export function fauxStream(replies: FauxReply[]): { streamFn: StreamFn; contexts: Context[] } {
  const queue = [...replies];
  const contexts: Context[] = [];
  const streamFn: StreamFn = (model: Model, context: Context, options?: SimpleStreamOptions) => {
    contexts.push({ ...context, messages: structuredClone(context.messages) });
    const reply = queue.shift() ?? { error: "faux: script exhausted" };
    const stream = new AssistantMessageEventStream();
    void play(stream, model, reply, options?.signal);
    return stream;
  };
  return { streamFn, contexts };
}

async function play(
  stream: AssistantMessageEventStream,
  model: Model,
  reply: FauxReply,
  signal?: AbortSignal,
): Promise<void> {
  const msg: AssistantMessage = {
    role: "assistant",
    content: [],
    api: model.api,
    provider: model.provider,
    model: model.id,
    usage: emptyUsage(),
    stopReason: "stop",
    timestamp: Date.now(),
  };
  const snap = () => structuredClone(msg);
  const wait = async () => {
    if (reply.delayMs) await new Promise((r) => setTimeout(r, reply.delayMs));
    if (signal?.aborted) throw new Error("aborted");
  };
  try {
    stream.push({ type: "start", partial: snap() });
    await wait();
    if (reply.text !== undefined) {
      msg.content.push({ type: "text", text: "" });
      const i = msg.content.length - 1;
      stream.push({ type: "text_start", contentIndex: i, partial: snap() });
      await wait();
      (msg.content[i] as { text: string }).text = reply.text;
      stream.push({ type: "text_delta", contentIndex: i, delta: reply.text, partial: snap() });
      stream.push({ type: "text_end", contentIndex: i, content: reply.text, partial: snap() });
    }
    for (const call of reply.toolCalls ?? []) {
      const block: ToolCall = { type: "toolCall", id: call.id, name: call.name, arguments: call.arguments };
      msg.content.push(block);
      const i = msg.content.length - 1;
      stream.push({ type: "toolcall_start", contentIndex: i, partial: snap() });
      stream.push({ type: "toolcall_end", contentIndex: i, toolCall: block, partial: snap() });
    }
    await wait();
    if (reply.error) throw new Error(reply.error);
    msg.stopReason = reply.toolCalls?.length ? "toolUse" : "stop";
    stream.push({ type: "done", reason: msg.stopReason as "stop" | "toolUse", message: msg });
  } catch (err) {
    msg.stopReason = signal?.aborted ? "aborted" : "error";
    msg.errorMessage = signal?.aborted ? "Request was aborted" : (err as Error).message;
    stream.push({ type: "error", reason: msg.stopReason as "error" | "aborted", error: msg });
  }
}
