/**
 * Responses API stream events → pi's assistant-message events. Output items open and close
 * blocks (reasoning → thinking, message → text, function_call → tool call); the finished
 * reasoning item is kept whole as the thinking signature so it can be replayed, and message
 * ids become text signatures. Shared with the other Responses-style APIs.
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
import { encodeTextSignature } from "./openai_responses_convert.ts";

/** The text when a stream ends before its terminal event. */
export const RESPONSES_TRUNCATED = "OpenAI Responses stream ended before a terminal response event";

/** Service-tier pricing hooks (flex / priority change the price of the same tokens). */
export interface ProcessResponsesOptions {
  serviceTier?: string;
  resolveServiceTier?: (
    responseTier: string | undefined,
    requestedTier: string | undefined,
  ) => string | undefined;
  applyServiceTierPricing?: (usage: Usage, serviceTier: string | undefined) => void;
  /** Sees each parsed event first (`onProviderStreamEvent`). */
  onEvent?: (event: Record<string, unknown>) => void | Promise<void>;
}

type Event = Record<string, unknown>;
type Item = Record<string, unknown> & { type?: string };
type Part = { type?: string; text?: string; refusal?: string };
type Block = TextContent | ThinkingContent | (ToolCall & { partialJson?: string });

/**
 * Applies every event to `output`, pushing block events to `stream`. Returns once a terminal
 * event (`response.completed` / `response.incomplete`) arrived and the body ended; throws on
 * `error` / `response.failed` events and on a body that ends without a terminal event.
 */
export async function processResponsesStream(
  events: AsyncIterable<Event>,
  output: AssistantMessage,
  stream: AssistantMessageEventStream,
  model: Model,
  options?: ProcessResponsesOptions,
): Promise<void> {
  let item: Item | null = null;
  let block: Block | null = null;
  let finished = false;
  const blocks = output.content;
  const last = () => blocks.length - 1;
  const open = (b: Block, type: "text_start" | "thinking_start" | "toolcall_start") => {
    block = b;
    blocks.push(b);
    stream.push({ type, contentIndex: last(), partial: output });
  };

  for await (const event of events) {
    await options?.onEvent?.(event);
    const type = event.type;
    if (type === "response.created") {
      output.responseId = (event.response as { id?: string }).id;
    } else if (type === "response.output_item.added") {
      const added = event.item as Item;
      if (added.type === "reasoning") {
        item = added;
        open({ type: "thinking", thinking: "" }, "thinking_start");
      } else if (added.type === "message") {
        item = added;
        open({ type: "text", text: "" }, "text_start");
      } else if (added.type === "function_call") {
        item = added;
        open({
          type: "toolCall",
          id: `${added.call_id}|${added.id}`,
          name: added.name as string,
          arguments: {},
          partialJson: (added.arguments as string) || "",
        }, "toolcall_start");
      }
    } else if (type === "response.reasoning_summary_part.added") {
      if (item?.type === "reasoning") summaryOf(item).push(event.part as Part);
    } else if (
      type === "response.reasoning_summary_text.delta" || type === "response.reasoning_summary_part.done"
    ) {
      const current = block as Block | null;
      if (item?.type === "reasoning" && current?.type === "thinking") {
        const parts = summaryOf(item);
        const lastPart = parts[parts.length - 1];
        if (lastPart) {
          // Summary parts are separated by a blank line, streamed like any other delta.
          const delta = type === "response.reasoning_summary_part.done" ? "\n\n" : event.delta as string;
          current.thinking += delta;
          lastPart.text = (lastPart.text ?? "") + delta;
          stream.push({ type: "thinking_delta", contentIndex: last(), delta, partial: output });
        }
      }
    } else if (type === "response.reasoning_text.delta") {
      const current = block as Block | null;
      if (item?.type === "reasoning" && current?.type === "thinking") {
        current.thinking += event.delta as string;
        stream.push({
          type: "thinking_delta",
          contentIndex: last(),
          delta: event.delta as string,
          partial: output,
        });
      }
    } else if (type === "response.content_part.added") {
      if (item?.type === "message") {
        const part = event.part as Part;
        item.content ??= [];
        // Reasoning text parts are not message text; only output text and refusals count.
        if (part.type === "output_text" || part.type === "refusal") (item.content as Part[]).push(part);
      }
    } else if (type === "response.output_text.delta" || type === "response.refusal.delta") {
      const current = block as Block | null;
      if (item?.type === "message" && current?.type === "text") {
        const parts = (item.content as Part[] | undefined) ?? [];
        const lastPart = parts[parts.length - 1];
        const wanted = type === "response.output_text.delta" ? "output_text" : "refusal";
        if (lastPart?.type === wanted) {
          const delta = event.delta as string;
          current.text += delta;
          if (wanted === "output_text") lastPart.text = (lastPart.text ?? "") + delta;
          else lastPart.refusal = (lastPart.refusal ?? "") + delta;
          stream.push({ type: "text_delta", contentIndex: last(), delta, partial: output });
        }
      }
    } else if (type === "response.function_call_arguments.delta") {
      const current = block as Block | null;
      if (item?.type === "function_call" && current?.type === "toolCall") {
        current.partialJson = (current.partialJson ?? "") + (event.delta as string);
        current.arguments = parseStreamingJson(current.partialJson);
        stream.push({
          type: "toolcall_delta",
          contentIndex: last(),
          delta: event.delta as string,
          partial: output,
        });
      }
    } else if (type === "response.function_call_arguments.done") {
      const current = block as Block | null;
      if (item?.type === "function_call" && current?.type === "toolCall") {
        const before = current.partialJson ?? "";
        const full = event.arguments as string;
        current.partialJson = full;
        current.arguments = parseStreamingJson(full);
        // Deltas may have been skipped; send what is missing so listeners see the full text.
        if (full.startsWith(before) && full.length > before.length) {
          stream.push({
            type: "toolcall_delta",
            contentIndex: last(),
            delta: full.slice(before.length),
            partial: output,
          });
        }
      }
    } else if (type === "response.output_item.done") {
      finishItem(event.item as Item);
    } else if (type === "response.completed" || type === "response.incomplete") {
      finished = true;
      applyCompletion(event.response as Record<string, unknown> | undefined);
    } else if (type === "error") {
      throw new Error(`Error Code ${event.code}: ${event.message}`);
    } else if (type === "response.failed") {
      const response = event.response as Record<string, unknown> | undefined;
      if (typeof response?.status === "string") output.rawStopReason = response.status;
      const error = response?.error as { code?: string; message?: string } | undefined | null;
      const details = response?.incomplete_details as { reason?: string } | undefined | null;
      throw new Error(
        error
          ? `${error.code || "unknown"}: ${error.message || "no message"}`
          : details?.reason
          ? `incomplete: ${details.reason}`
          : "Unknown error (no error details in response)",
      );
    }
  }
  if (!finished) throw new Error(RESPONSES_TRUNCATED);

  function finishItem(done: Item): void {
    const current = block as Block | null;
    if (done.type === "reasoning" && current?.type === "thinking") {
      const summary = ((done.summary as Part[] | undefined) ?? []).map((s) => s.text).join("\n\n");
      const content = ((done.content as Part[] | undefined) ?? []).map((c) => c.text).join("\n\n");
      current.thinking = summary || content || current.thinking;
      current.thinkingSignature = JSON.stringify(done);
      stream.push({ type: "thinking_end", contentIndex: last(), content: current.thinking, partial: output });
      block = null;
    } else if (done.type === "message" && current?.type === "text") {
      current.text = ((done.content as Part[] | undefined) ?? [])
        .map((c) => (c.type === "output_text" ? c.text : c.refusal))
        .join("");
      current.textSignature = encodeTextSignature(
        done.id as string,
        (done.phase as string | null) ?? undefined,
      );
      stream.push({ type: "text_end", contentIndex: last(), content: current.text, partial: output });
      block = null;
    } else if (done.type === "function_call") {
      const args = current?.type === "toolCall" && current.partialJson
        ? parseStreamingJson(current.partialJson)
        : parseStreamingJson((done.arguments as string) || "{}");
      let toolCall: ToolCall;
      if (current?.type === "toolCall") {
        current.arguments = args;
        delete current.partialJson;
        toolCall = current;
      } else {
        toolCall = {
          type: "toolCall",
          id: `${done.call_id}|${done.id}`,
          name: done.name as string,
          arguments: args,
        };
      }
      block = null;
      stream.push({ type: "toolcall_end", contentIndex: last(), toolCall, partial: output });
    }
  }

  function applyCompletion(response: Record<string, unknown> | undefined): void {
    if (response?.id) output.responseId = response.id as string;
    const usage = response?.usage as RawUsage | undefined | null;
    if (usage) {
      const cached = usage.input_tokens_details?.cached_tokens || 0;
      const cacheWrite = usage.input_tokens_details?.cache_write_tokens || 0;
      output.usage = {
        // Responses counts cached and cache-write tokens inside input_tokens.
        input: Math.max(0, (usage.input_tokens || 0) - cached - cacheWrite),
        output: usage.output_tokens || 0,
        cacheRead: cached,
        cacheWrite,
        reasoning: usage.output_tokens_details?.reasoning_tokens || 0,
        totalTokens: usage.total_tokens || 0,
        cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
      };
    }
    calculateCost(model, output.usage);
    if (options?.applyServiceTierPricing) {
      const responseTier = response?.service_tier as string | undefined;
      const tier = options.resolveServiceTier
        ? options.resolveServiceTier(responseTier, options.serviceTier)
        : (responseTier ?? options.serviceTier);
      options.applyServiceTierPricing(output.usage, tier);
    }
    // An incomplete reply keeps its specific reason, so truncation and filtering stay apart.
    const status = response?.status as string | undefined;
    const details = response?.incomplete_details as { reason?: unknown } | undefined | null;
    const incomplete = typeof details?.reason === "string" ? details.reason : undefined;
    output.rawStopReason = incomplete ? `${status}.${incomplete}` : status;
    const mapped = mapStopReason(status, incomplete);
    output.stopReason = mapped.stopReason;
    if (mapped.errorMessage === undefined) delete output.errorMessage;
    else output.errorMessage = mapped.errorMessage;
    if (output.stopReason === "stop" && blocks.some((b) => b.type === "toolCall")) {
      output.stopReason = "toolUse";
    }
  }
}

interface RawUsage {
  input_tokens?: number;
  output_tokens?: number;
  total_tokens?: number;
  input_tokens_details?: { cached_tokens?: number; cache_write_tokens?: number };
  output_tokens_details?: { reasoning_tokens?: number };
}

function summaryOf(item: Item): Part[] {
  if (!Array.isArray(item.summary)) item.summary = [];
  return item.summary as Part[];
}

function mapStopReason(
  status: string | undefined,
  incomplete: string | undefined,
): { stopReason: StopReason; errorMessage?: string } {
  switch (status) {
    case "incomplete":
      if (incomplete === "max_output_tokens") return { stopReason: "length" };
      return {
        stopReason: "error",
        errorMessage: incomplete
          ? `Response incomplete: ${incomplete}`
          : "Response incomplete without a provider reason",
      };
    case "failed":
    case "cancelled":
      return { stopReason: "error" };
    default:
      // completed, in_progress, queued, or none at all
      return { stopReason: "stop" };
  }
}
