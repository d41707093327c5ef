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
  JsonValue,
  Message,
  Model,
  NestedToolCalls,
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
  /** What the model sees as the tool's result. */
  content: (TextContent | ImageContent)[];
  /** Structured data for the UI and for session files; not sent to the model. */
  details: TDetails;
  /**
   * The result as data (a tool's `outputSchema` shape), carried on `tool_execution_end` for
   * clients; the model sees `content`.
   */
  structuredContent?: JsonValue;
  /** Marks a returned (not thrown) result as a failure. */
  isError?: boolean;
  /** When every call of a batch sets this, the loop stops instead of asking the model again. */
  terminate?: boolean;
  /** Calls the tool made to other tools, recorded on its result message (`nestedCalls`). */
  nestedCalls?: NestedToolCalls;
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
  /** JSON schema of the arguments; calls are validated against it before `execute` runs. */
  parameters: JsonSchema;
  /** Rewrites raw arguments (e.g. legacy shapes) before validation. */
  prepareArguments?: (args: unknown) => TParams;
  /**
   * Runs the tool with validated arguments; it may stream partial results and should stop when the signal
   * aborts.
   */
  execute: (
    toolCallId: string,
    params: TParams,
    signal?: AbortSignal,
    onUpdate?: AgentToolUpdateCallback<TDetails>,
  ) => Promise<AgentToolResult<TDetails>>;
  /** Overrides the run's tool execution mode for this tool (e.g. always sequential). */
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
  /**
   * The system prompt of the run. Optional as in 1.6.0, whose context has none (its prompt travels
   * as `system` messages in `messages`); without one the loop sends none.
   */
  systemPrompt?: string;
  /** The transcript so far. */
  messages: AgentMessage[];
  /** Tools the model may call. */
  tools?: AgentTool[];
}

/** Returned by `beforeToolCall`: `block` turns the call into an error result with `reason`. */
export interface BeforeToolCallResult {
  /** True to skip the tool call; the model sees `reason` as an error result. */
  block?: boolean;
  /** Why the call was blocked, shown to the model. */
  reason?: string;
}

/**
 * Returned by `afterToolCall`: replaces parts of the tool's result. Replacing `content` without
 * `structuredContent` drops the old structured content, which may no longer match.
 */
export interface AfterToolCallResult {
  /** Replacement content for the result. */
  content?: (TextContent | ImageContent)[];
  /** Replacement details for the result. */
  details?: unknown;
  /** Replacement structured content for the result. */
  structuredContent?: unknown;
  /** Overrides whether the result counts as an error. */
  isError?: boolean;
  /** True to end the run after this tool batch. */
  terminate?: boolean;
}

/** Passed to `beforeToolCall`. */
export interface BeforeToolCallContext {
  /** The assistant message that holds the call. */
  assistantMessage: AssistantMessage;
  /** The tool call about to run. */
  toolCall: AgentToolCall;
  /** The validated arguments. */
  args: unknown;
  /** The context of the run at this point. */
  context: AgentContext;
}

/** Passed to `afterToolCall`. */
export interface AfterToolCallContext {
  /** The assistant message that holds the call. */
  assistantMessage: AssistantMessage;
  /** The tool call that ran. */
  toolCall: AgentToolCall;
  /** The validated arguments. */
  args: unknown;
  /** What the tool returned. */
  result: AgentToolResult;
  /** Whether the tool failed. */
  isError: boolean;
  /** The context of the run at this point. */
  context: AgentContext;
}

/** A completed turn, passed to `finishTurn` and `prepareNextTurn`. */
export interface AgentTurnContext {
  /** The assistant message that completed the turn. */
  message: AssistantMessage;
  /** The turn's tool-result messages. */
  toolResults: ToolResultMessage[];
  /** The context after the turn's messages were appended. */
  context: AgentContext;
  /** What the run returns if it ends here (a prompt run includes its prompt messages). */
  newMessages: AgentMessage[];
}

/**
 * Returned by `finishTurn`: `end` ends the run before the queues are polled; `continue` makes sure
 * one more request is made (tool results, steering or follow-ups satisfy it, else the loop asks
 * again with the context as it is). Undefined keeps normal scheduling.
 */
export type AgentTurnDecision = { action: "continue" } | { action: "end" };

/** Replacement state for the next request of a run (compaction between tool turns uses it). */
export interface AgentLoopTurnUpdate {
  /** Replacement context for the next request. */
  context?: AgentContext;
  /** Messages appended before the next request, with the usual message events. */
  messages?: AgentMessage[];
  /** Model for the next request. */
  model?: Model;
  /** Thinking level for the next request. */
  thinkingLevel?: AgentThinkingLevel;
}

/** The function the loop streams with (`streamSimple` by default). */
export type StreamFn = (
  model: Model,
  context: Context,
  options?: SimpleStreamOptions,
) => AssistantMessageEventStream | Promise<AssistantMessageEventStream>;

/** One request about to be sent, as `prepareRequest` sees it. */
export interface AgentRequest {
  /** The context the request is built from. */
  context: AgentContext;
  /** The run's model (the selection). */
  model: Model;
  /** The run's thinking level. */
  thinkingLevel: AgentThinkingLevel;
}

/** What `prepareRequest` may change for one request. */
export interface AgentRequestUpdate {
  /** Model for this request only. */
  model?: Model;
  /** Thinking level for this request only. */
  thinkingLevel?: AgentThinkingLevel;
}

/** Configuration of one loop run. */
export interface AgentLoopConfig extends SimpleStreamOptions {
  /** The model the run talks to. */
  model: Model;
  /** Turns the transcript into what the model sees, once per request. */
  convertToLlm: (messages: AgentMessage[]) => Message[] | Promise<Message[]>;
  /** Rewrites the transcript before conversion (pruning, injection). */
  transformContext?: (messages: AgentMessage[], signal?: AbortSignal) => Promise<AgentMessage[]>;
  /** Resolves the key per request, so expiring tokens are refreshed in time. */
  getApiKey?: (provider: string) => Promise<string | undefined> | string | undefined;
  /**
   * Called after a turn's assistant message and tool results, before `turn_end`. Error and aborted
   * replies end the run whatever it returns.
   */
  finishTurn?: (
    turn: AgentTurnContext,
    signal?: AbortSignal,
  ) => AgentTurnDecision | void | Promise<AgentTurnDecision | void>;
  /** Called after `turn_end` when the loop goes on, right before the next turn starts. */
  prepareNextTurn?: (
    turn: AgentTurnContext,
  ) => AgentLoopTurnUpdate | undefined | Promise<AgentLoopTurnUpdate | undefined>;
  /**
   * Called right before each request with the context, model and thinking level it would use; may
   * name another model and level for this request only (a virtual model's route). A rejection
   * ends the run with an error message.
   */
  prepareRequest?: (
    request: AgentRequest,
    signal?: AbortSignal,
  ) => AgentRequestUpdate | undefined | Promise<AgentRequestUpdate | undefined>;
  /**
   * Returns steering messages queued while the run streams; they are delivered after the current tool batch.
   */
  getSteeringMessages?: () => Promise<AgentMessage[]>;
  /** Returns follow-up messages queued for when the run would otherwise end. */
  getFollowUpMessages?: () => Promise<AgentMessage[]>;
  /** Whether the tool calls of one reply run sequentially or in parallel. */
  toolExecution?: ToolExecutionMode;
  /** Called before a tool runs; may block the call with a reason. */
  beforeToolCall?: (
    context: BeforeToolCallContext,
    signal?: AbortSignal,
  ) => Promise<BeforeToolCallResult | undefined>;
  /** Called after a tool ran; may replace its result or end the run. */
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
    /** How long `execute()` took (monotonic clock); absent when the tool did not run. */
    durationMs?: number;
  };

/** Thinking level as the agent stores it ("off" included). */
export type AgentThinkingLevel = "off" | ThinkingLevel;

/** How queued steering / follow-up messages are released: one per turn, or all at once. */
export type QueueMode = "all" | "one-at-a-time";

/** The agent's observable state. */
export interface AgentState {
  /** The system prompt sent with each request. */
  systemPrompt: string;
  /** The model requests go to. */
  model: Model;
  /** The thinking level requests ask for. */
  thinkingLevel: AgentThinkingLevel;
  /** Tools the model may call. */
  tools: AgentTool[];
  /** The transcript. */
  messages: AgentMessage[];
  /** Whether a run is in progress. */
  readonly isStreaming: boolean;
  /** The assistant message being streamed, while one is. */
  readonly streamingMessage?: AgentMessage;
  /** Ids of tool calls that are running. */
  readonly pendingToolCalls: ReadonlySet<string>;
  /** The error of the last run, if it failed. */
  readonly errorMessage?: string;
}

/** Receives every event of a run; awaited, so listeners apply back-pressure. */
export type AgentEventSink = (event: AgentEvent) => Promise<void> | void;
