/**
 * Types shared by the agent loop and the tools it runs. Names follow `@mariozechner/pi-agent-core`.
 *
 * @module
 */
import type { AssistantMessageEventStream } from "../ai/event_stream.ts";
import type {
  AssistantMessage,
  AssistantMessageEvent,
  Context,
  ImageContent,
  JsonSchema,
  Message,
  Model,
  SimpleStreamOptions,
  TextContent,
  ThinkingLevel,
  Tool,
  ToolCall,
  ToolResultMessage,
} from "../ai/types.ts";

/** What a tool returns: content for the model, details for logs, UIs and session files. */
// deno-lint-ignore no-explicit-any
export interface AgentToolResult<TDetails = any> {
  content: (TextContent | ImageContent)[];
  details: TDetails;
  /** When every call of a batch sets this, the loop stops instead of asking the model again. */
  terminate?: boolean;
}

/** Receives partial results while a tool runs (bash output streaming, for instance). */
// deno-lint-ignore no-explicit-any
export type AgentToolUpdateCallback<TDetails = any> = (partialResult: AgentToolResult<TDetails>) => void;

/** "sequential" tools run alone; "parallel" (the default) run alongside other calls. */
export type ToolExecutionMode = "sequential" | "parallel";

/**
 * A tool the agent can run. `execute` throws on failure (the loop turns the error message into
 * an error result); it never encodes failures in `content`.
 */
// deno-lint-ignore no-explicit-any
export interface AgentTool<TParams = any, TDetails = any> extends Tool {
  /** Human-readable name for UIs. */
  label: string;
  parameters: JsonSchema;
  /** Rewrites raw arguments (e.g. legacy shapes) before validation. */
  prepareArguments?: (args: unknown) => TParams;
  execute: (
    toolCallId: string,
    params: TParams,
    signal?: AbortSignal,
    onUpdate?: AgentToolUpdateCallback<TDetails>,
  ) => Promise<AgentToolResult<TDetails>>;
  executionMode?: ToolExecutionMode;
}

/**
 * Extension point for message kinds beyond the LLM's own (bash executions, custom messages,
 * summaries). Modules add entries by declaration merging; the agent carries them untouched
 * and `convertToLlm` decides what the model sees.
 */
// deno-lint-ignore no-empty-interface
export interface CustomAgentMessages {}

/** Any message in the agent's transcript. */
export type AgentMessage = Message | CustomAgentMessages[keyof CustomAgentMessages];

/** A tool call block of an assistant message. */
export type AgentToolCall = ToolCall;

/** What the agent loop works on: the transcript, the system prompt and the tools. */
export interface AgentContext {
  systemPrompt: string;
  messages: AgentMessage[];
  tools?: AgentTool[];
}

/** Returned by `beforeToolCall`: `block` turns the call into an error result with `reason`. */
export interface BeforeToolCallResult {
  block?: boolean;
  reason?: string;
}

/** Returned by `afterToolCall`: replaces parts of the tool's result. */
export interface AfterToolCallResult {
  content?: (TextContent | ImageContent)[];
  details?: unknown;
  isError?: boolean;
  terminate?: boolean;
}

/** Passed to `beforeToolCall`. */
export interface BeforeToolCallContext {
  assistantMessage: AssistantMessage;
  toolCall: AgentToolCall;
  args: unknown;
  context: AgentContext;
}

/** Passed to `afterToolCall`. */
export interface AfterToolCallContext {
  assistantMessage: AssistantMessage;
  toolCall: AgentToolCall;
  args: unknown;
  result: AgentToolResult;
  isError: boolean;
  context: AgentContext;
}

/** Passed to `shouldStopAfterTurn`. */
export interface ShouldStopAfterTurnContext {
  message: AssistantMessage;
  toolResults: ToolResultMessage[];
  context: AgentContext;
  newMessages: AgentMessage[];
}

/** The function the loop streams with (`streamSimple` by default). */
export type StreamFn = (
  model: Model,
  context: Context,
  options?: SimpleStreamOptions,
) => AssistantMessageEventStream | Promise<AssistantMessageEventStream>;

/** Configuration of one loop run. */
export interface AgentLoopConfig extends SimpleStreamOptions {
  model: Model;
  /** Turns the transcript into what the model sees, once per request. */
  convertToLlm: (messages: AgentMessage[]) => Message[] | Promise<Message[]>;
  /** Rewrites the transcript before conversion (pruning, injection). */
  transformContext?: (messages: AgentMessage[], signal?: AbortSignal) => Promise<AgentMessage[]>;
  /** Resolves the key per request, so expiring tokens are refreshed in time. */
  getApiKey?: (provider: string) => Promise<string | undefined> | string | undefined;
  shouldStopAfterTurn?: (context: ShouldStopAfterTurnContext) => boolean | Promise<boolean>;
  getSteeringMessages?: () => Promise<AgentMessage[]>;
  getFollowUpMessages?: () => Promise<AgentMessage[]>;
  toolExecution?: ToolExecutionMode;
  beforeToolCall?: (
    context: BeforeToolCallContext,
    signal?: AbortSignal,
  ) => Promise<BeforeToolCallResult | undefined>;
  afterToolCall?: (
    context: AfterToolCallContext,
    signal?: AbortSignal,
  ) => Promise<AfterToolCallResult | undefined>;
}

/** Every event the agent emits; all observable behaviour goes through these. */
export type AgentEvent =
  | { type: "agent_start" }
  | { type: "agent_end"; messages: AgentMessage[] }
  | { type: "turn_start" }
  | { type: "turn_end"; message: AgentMessage; toolResults: ToolResultMessage[] }
  | { type: "message_start"; message: AgentMessage }
  | { type: "message_update"; message: AgentMessage; assistantMessageEvent: AssistantMessageEvent }
  | { type: "message_end"; message: AgentMessage }
  | { type: "tool_execution_start"; toolCallId: string; toolName: string; args: unknown }
  | {
    type: "tool_execution_update";
    toolCallId: string;
    toolName: string;
    args: unknown;
    partialResult: AgentToolResult;
  }
  | {
    type: "tool_execution_end";
    toolCallId: string;
    toolName: string;
    result: AgentToolResult;
    isError: boolean;
  };

/** Thinking level as the agent stores it ("off" included). */
export type AgentThinkingLevel = "off" | ThinkingLevel;

/** How queued steering / follow-up messages are released: one per turn, or all at once. */
export type QueueMode = "all" | "one-at-a-time";

/** The agent's observable state. */
export interface AgentState {
  systemPrompt: string;
  model: Model;
  thinkingLevel: AgentThinkingLevel;
  tools: AgentTool[];
  messages: AgentMessage[];
  readonly isStreaming: boolean;
  readonly streamingMessage?: AgentMessage;
  readonly pendingToolCalls: ReadonlySet<string>;
  readonly errorMessage?: string;
}

/** Receives every event of a run; awaited, so listeners apply back-pressure. */
export type AgentEventSink = (event: AgentEvent) => Promise<void> | void;
