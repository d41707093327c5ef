/**
 * Chat Completions chunks → pi's assistant-message events. One text block and one thinking
 * block collect their deltas; tool calls are matched by stream index (or id) since their
 * fragments interleave; all blocks are closed together when the body ends.
 *
 * @module
 */
import { calculateCost } from "../cost.ts";
import type { AssistantMessageEventStream } from "../event_stream.ts";
import { parseStreamingJson } from "../json_parse.ts";
import type {
  AssistantMessage,
  Model,
  StopReason,
  TextContent,
  ThinkingContent,
  ToolCall,
  Usage,
} from "../types.ts";
import type { OpenAIStreamEnd, OpenAIStreamPayload } from "./openai_shared_stream.ts";

/** How the stream ended: whether a finish reason and `[DONE]` arrived. */
export interface CompletionsStreamEnd {
  sawFinish: boolean;
  sawDone: boolean;
}

type StreamingToolCall = ToolCall & { partialArgs?: string; streamIndex?: number };

interface ChunkToolCall {
  index?: number;
  id?: string;
  function?: { name?: string; arguments?: string };
}

// Servers name the reasoning delta differently; the first non-empty one wins.
const REASONING_FIELDS = ["reasoning_content", "reasoning", "reasoning_text"] as const;

/** Applies every chunk to `output`, pushing block events, then closes all blocks. */
export async function processCompletionsStream(
  batches: AsyncGenerator<OpenAIStreamPayload[], OpenAIStreamEnd>,
  output: AssistantMessage,
  stream: AssistantMessageEventStream,
  model: Model,
  onEvent?: (chunk: Record<string, unknown>) => void | Promise<void>,
): Promise<CompletionsStreamEnd> {
  const blocks = output.content;
  let textBlock: TextContent | null = null;
  let thinkingBlock: ThinkingContent | null = null;
  const byIndex = new Map<number, StreamingToolCall>();
  const byId = new Map<string, StreamingToolCall>();
  const indexOf = (block: object) => blocks.indexOf(block as (typeof blocks)[number]);
  let sawFinish = false;

  const ensureToolCall = (tc: ChunkToolCall): StreamingToolCall => {
    const streamIndex = typeof tc.index === "number" ? tc.index : undefined;
    let block = streamIndex !== undefined ? byIndex.get(streamIndex) : undefined;
    if (!block && tc.id) block = byId.get(tc.id);
    if (!block) {
      block = {
        type: "toolCall",
        id: tc.id || "",
        name: tc.function?.name || "",
        arguments: {},
        partialArgs: "",
      };
      block.streamIndex = streamIndex;
      if (streamIndex !== undefined) byIndex.set(streamIndex, block);
      blocks.push(block);
      stream.push({ type: "toolcall_start", contentIndex: indexOf(block), partial: output });
    }
    if (streamIndex !== undefined && block.streamIndex === undefined) {
      block.streamIndex = streamIndex;
      byIndex.set(streamIndex, block);
    }
    if (tc.id) byId.set(tc.id, block);
    return block;
  };

  // A batch of chunks at a time (see readOpenAIStreamBatches), each chunk in a plain loop.
  let next = await batches.next();
  for (; !next.done; next = await batches.next()) {
    for (const chunk of next.value) {
      // A string is a plain content chunk the reader recognised without parsing it
      // (openai_completions_delta.ts): the one applied before, with this text.
      if (typeof chunk === "string") appendText(chunk);
      else {
        if (onEvent) await onEvent(chunk);
        applyChunk(chunk);
      }
    }
  }

  function appendText(text: string): void {
    if (!textBlock) {
      textBlock = { type: "text", text: "" };
      blocks.push(textBlock);
      stream.push({ type: "text_start", contentIndex: indexOf(textBlock), partial: output });
    }
    textBlock.text += text;
    stream.push({ type: "text_delta", contentIndex: indexOf(textBlock), delta: text, partial: output });
  }

  function applyChunk(chunk: Record<string, unknown>): void {
    if (!output.responseId && typeof chunk.id === "string") output.responseId = chunk.id;
    if (typeof chunk.model === "string" && chunk.model.length > 0 && chunk.model !== model.id) {
      output.responseModel ||= chunk.model;
    }
    if (chunk.usage) output.usage = parseChunkUsage(chunk.usage as RawUsage, model);
    const choice = Array.isArray(chunk.choices)
      ? chunk.choices[0] as Record<string, unknown> | undefined
      : undefined;
    if (!choice) return;
    // Moonshot reports usage on the choice instead of the chunk.
    if (!chunk.usage && choice.usage) output.usage = parseChunkUsage(choice.usage as RawUsage, model);
    if (choice.finish_reason) {
      sawFinish = true;
      output.rawStopReason = String(choice.finish_reason);
      const mapped = mapStopReason(String(choice.finish_reason));
      output.stopReason = mapped.stopReason;
      if (mapped.errorMessage) output.errorMessage = mapped.errorMessage;
    }
    const delta = choice.delta as Record<string, unknown> | undefined;
    if (!delta) return;
    if (typeof delta.content === "string" && delta.content.length > 0) appendText(delta.content);
    const field = REASONING_FIELDS.find((f) =>
      typeof delta[f] === "string" && (delta[f] as string).length > 0
    );
    if (field) {
      const text = delta[field] as string;
      if (!thinkingBlock) {
        // The field name is kept so the reasoning goes back in the same field next turn.
        thinkingBlock = { type: "thinking", thinking: "", thinkingSignature: field };
        blocks.push(thinkingBlock);
        stream.push({ type: "thinking_start", contentIndex: indexOf(thinkingBlock), partial: output });
      }
      thinkingBlock.thinking += text;
      stream.push({
        type: "thinking_delta",
        contentIndex: indexOf(thinkingBlock),
        delta: text,
        partial: output,
      });
    }
    if (Array.isArray(delta.tool_calls)) {
      for (const tc of delta.tool_calls as ChunkToolCall[]) {
        const block = ensureToolCall(tc);
        if (!block.id && tc.id) {
          block.id = tc.id;
          byId.set(tc.id, block);
        }
        if (!block.name && tc.function?.name) block.name = tc.function.name;
        let piece = "";
        if (tc.function?.arguments) {
          piece = tc.function.arguments;
          block.partialArgs = (block.partialArgs ?? "") + piece;
          block.arguments = parseStreamingJson(block.partialArgs);
        }
        stream.push({ type: "toolcall_delta", contentIndex: indexOf(block), delta: piece, partial: output });
      }
    }
    if (Array.isArray(delta.reasoning_details)) {
      // OpenRouter's encrypted reasoning belongs to a tool call and is replayed with it.
      for (const detail of delta.reasoning_details as Record<string, unknown>[]) {
        if (detail.type === "reasoning.encrypted" && detail.id && detail.data) {
          const call = blocks.find((b) => b.type === "toolCall" && b.id === detail.id) as
            | ToolCall
            | undefined;
          if (call) call.thoughtSignature = JSON.stringify(detail);
        }
      }
    }
  }

  for (const block of blocks) {
    const contentIndex = indexOf(block);
    if (block.type === "text") {
      stream.push({ type: "text_end", contentIndex, content: block.text, partial: output });
    } else if (block.type === "thinking") {
      stream.push({ type: "thinking_end", contentIndex, content: block.thinking, partial: output });
    } else {
      const call = block as StreamingToolCall;
      call.arguments = parseStreamingJson(call.partialArgs);
      delete call.partialArgs;
      delete call.streamIndex;
      stream.push({ type: "toolcall_end", contentIndex, toolCall: call, partial: output });
    }
  }
  return { sawFinish, sawDone: next.value.sawDone };
}

interface RawUsage {
  prompt_tokens?: number;
  completion_tokens?: number;
  prompt_cache_hit_tokens?: number;
  cached_tokens?: number;
  reasoning_tokens?: number;
  prompt_tokens_details?: { cached_tokens?: number; cache_write_tokens?: number };
  completion_tokens_details?: { reasoning_tokens?: number };
}

/**
 * Usage in pi's terms: `input` excludes cache reads and writes. As pi-ai 1.x reads it, cached
 * tokens are cache reads wherever the server puts them (OpenAI/OpenRouter in
 * `prompt_tokens_details`, DeepSeek as `prompt_cache_hit_tokens`, Kimi at the top level), and a
 * separate `cache_write_tokens` count is not subtracted from them.
 */
function parseChunkUsage(raw: RawUsage, model: Model): Usage {
  const prompt = raw.prompt_tokens || 0;
  const cacheRead = raw.prompt_tokens_details?.cached_tokens ?? raw.prompt_cache_hit_tokens ??
    raw.cached_tokens ?? 0;
  const cacheWrite = raw.prompt_tokens_details?.cache_write_tokens || 0;
  const input = Math.max(0, prompt - cacheRead - cacheWrite);
  const out = raw.completion_tokens || 0;
  const usage: Usage = {
    input,
    output: out,
    cacheRead,
    cacheWrite,
    reasoning: raw.completion_tokens_details?.reasoning_tokens || raw.reasoning_tokens || 0,
    totalTokens: input + out + cacheRead + cacheWrite,
    cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
  };
  calculateCost(model, usage);
  return usage;
}

function mapStopReason(reason: string): { stopReason: StopReason; errorMessage?: string } {
  switch (reason) {
    case "stop":
    case "end":
      return { stopReason: "stop" };
    case "length":
      return { stopReason: "length" };
    case "function_call":
    case "tool_calls":
      return { stopReason: "toolUse" };
    default:
      return { stopReason: "error", errorMessage: `Provider finish_reason: ${reason}` };
  }
}
