/**
 * The stateful agent: owns the transcript, runs the loop, queues steering and follow-up
 * messages, and tells listeners about everything through one event type.
 *
 * @module
 */
import { streamSimple } from "../ai/stream.ts";
import type {
  AssistantMessage,
  ImageContent,
  Message,
  Model,
  SimpleStreamOptions,
  TextContent,
  ThinkingBudgets,
  Transport,
} from "../ai/types.ts";
import { emptyUsage } from "../ai/types.ts";
import { runAgentLoop, runAgentLoopContinue } from "./agent_loop.ts";
import { PendingMessageQueue } from "./pending_queue.ts";
import type {
  AgentContext,
  AgentEvent,
  AgentLoopConfig,
  AgentLoopTurnUpdate,
  AgentMessage,
  AgentState,
  AgentThinkingLevel,
  AgentTool,
  AgentTurnContext,
  QueueMode,
  StreamFn,
  ToolExecutionMode,
} from "./types.ts";

/** Options of {@link Agent}. */
export interface AgentOptions {
  /** State the agent starts with (system prompt, model, thinking level, tools, messages). */
  initialState?: Partial<Pick<AgentState, "systemPrompt" | "model" | "thinkingLevel" | "tools" | "messages">>;
  /** Turns the transcript into the messages the model sees, once per request. */
  convertToLlm?: (messages: AgentMessage[]) => Message[] | Promise<Message[]>;
  /** Rewrites the transcript before each request (pruning, injection); runs before `convertToLlm`. */
  transformContext?: (messages: AgentMessage[], signal?: AbortSignal) => Promise<AgentMessage[]>;
  /** The function used to stream a reply; `streamSimple` by default. */
  streamFn?: StreamFn;
  /** Resolves the API key for a provider before each request, so expiring tokens can be refreshed. */
  getApiKey?: (provider: string) => Promise<string | undefined> | string | undefined;
  /** Inspect or replace each request body before it is sent. */
  onPayload?: SimpleStreamOptions["onPayload"];
  /** Called with each HTTP response's status and headers. */
  onResponse?: SimpleStreamOptions["onResponse"];
  /** Called with each parsed provider stream event, before it is normalised. */
  onProviderStreamEvent?: SimpleStreamOptions["onProviderStreamEvent"];
  /** Called before a tool runs; may block the call with a reason (see {@link AgentLoopConfig.beforeToolCall}). */
  beforeToolCall?: AgentLoopConfig["beforeToolCall"];
  /** Called after a tool ran; may replace its content, details or error flag, or end the run. */
  afterToolCall?: AgentLoopConfig["afterToolCall"];
  /** See {@link AgentLoopConfig.finishTurn}. */
  finishTurn?: AgentLoopConfig["finishTurn"];
  /** See {@link AgentLoopConfig.prepareNextTurn}; also gets the run's abort signal. */
  prepareNextTurn?: (
    turn: AgentTurnContext,
    signal?: AbortSignal,
  ) => AgentLoopTurnUpdate | undefined | Promise<AgentLoopTurnUpdate | undefined>;
  /** How queued steering messages are delivered: all at once or one per turn. */
  steeringMode?: QueueMode;
  /** How queued follow-up messages are delivered: all at once or one per turn. */
  followUpMode?: QueueMode;
  /** Session id passed to providers that cache or route by session. */
  sessionId?: string;
  /** Token budgets per thinking level, for providers that take a budget. */
  thinkingBudgets?: ThinkingBudgets;
  /** Preferred transport for providers that offer more than one. */
  transport?: Transport;
  /** Longest server-requested retry delay honoured in-client, in milliseconds. */
  maxRetryDelayMs?: number;
  /** Whether tool calls of one reply run one after another or in parallel. */
  toolExecution?: ToolExecutionMode;
}

/** A listener; awaited in subscription order before the run goes on. */
export type AgentListener = (event: AgentEvent, signal: AbortSignal) => Promise<void> | void;

const UNKNOWN_MODEL: Model = {
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

/** Keeps only the messages a model understands. */
function defaultConvertToLlm(messages: AgentMessage[]): Message[] {
  return messages.filter((m): m is Message =>
    m.role === "user" || m.role === "assistant" || m.role === "toolResult"
  );
}

class MutableState implements AgentState {
  systemPrompt: string;
  model: Model;
  thinkingLevel: AgentThinkingLevel;
  isStreaming = false;
  streamingMessage?: AgentMessage;
  pendingToolCalls: ReadonlySet<string> = new Set();
  errorMessage?: string;
  #tools: AgentTool[];
  #messages: AgentMessage[];

  constructor(initial: AgentOptions["initialState"] = {}) {
    this.systemPrompt = initial.systemPrompt ?? "";
    this.model = initial.model ?? UNKNOWN_MODEL;
    this.thinkingLevel = initial.thinkingLevel ?? "off";
    this.#tools = initial.tools?.slice() ?? [];
    this.#messages = initial.messages?.slice() ?? [];
  }

  /** Assigning copies the array, so callers cannot mutate the agent's state behind its back. */
  get tools(): AgentTool[] {
    return this.#tools;
  }
  set tools(tools: AgentTool[]) {
    this.#tools = tools.slice();
  }
  get messages(): AgentMessage[] {
    return this.#messages;
  }
  set messages(messages: AgentMessage[]) {
    this.#messages = messages.slice();
  }
}

interface ActiveRun {
  promise: Promise<void>;
  resolve: () => void;
  abortController: AbortController;
}

/** The stateful wrapper around the agent loop (the reference's `Agent`). */
export class Agent {
  #state: MutableState;
  #listeners = new Set<AgentListener>();
  #steering: PendingMessageQueue;
  #followUp: PendingMessageQueue;
  #activeRun?: ActiveRun;

  /** Turns the transcript into the messages the model sees. */
  convertToLlm: (messages: AgentMessage[]) => Message[] | Promise<Message[]>;
  /** Rewrites the transcript before each request. */
  transformContext?: (messages: AgentMessage[], signal?: AbortSignal) => Promise<AgentMessage[]>;
  /** The function used to stream a reply. */
  streamFn: StreamFn;
  /** Resolves the API key for a provider before each request. */
  getApiKey?: (provider: string) => Promise<string | undefined> | string | undefined;
  /** Inspect or replace each request body before it is sent. */
  onPayload?: SimpleStreamOptions["onPayload"];
  /** Called with each HTTP response's status and headers. */
  onResponse?: SimpleStreamOptions["onResponse"];
  /** Called with each parsed provider stream event, before it is normalised. */
  onProviderStreamEvent?: SimpleStreamOptions["onProviderStreamEvent"];
  /** Called before a tool runs; may block the call. */
  beforeToolCall?: AgentOptions["beforeToolCall"];
  /** Called after a tool ran; may replace its result. */
  afterToolCall?: AgentOptions["afterToolCall"];
  /** Decides after each turn whether the run goes on. */
  finishTurn?: AgentOptions["finishTurn"];
  /** Replaces state (context, model, thinking level) before the next turn of a run. */
  prepareNextTurn?: AgentOptions["prepareNextTurn"];
  /** Picks the model and thinking level of each request (a virtual model's route). */
  prepareRequest?: AgentLoopConfig["prepareRequest"];
  /** Forwarded to providers for cache-aware routing. */
  sessionId?: string;
  /** Token budgets per thinking level. */
  thinkingBudgets?: ThinkingBudgets;
  /** Preferred transport for providers that offer more than one. */
  transport: Transport;
  /** Longest server-requested retry delay honoured in-client, in milliseconds. */
  maxRetryDelayMs?: number;
  /** Whether tool calls of one reply run sequentially or in parallel. */
  toolExecution: ToolExecutionMode;

  /** Creates an idle agent; nothing is sent until `prompt` is called. */
  constructor(options: AgentOptions = {}) {
    this.#state = new MutableState(options.initialState);
    this.convertToLlm = options.convertToLlm ?? defaultConvertToLlm;
    this.transformContext = options.transformContext;
    this.streamFn = options.streamFn ?? streamSimple;
    this.getApiKey = options.getApiKey;
    this.onPayload = options.onPayload;
    this.onResponse = options.onResponse;
    this.onProviderStreamEvent = options.onProviderStreamEvent;
    this.beforeToolCall = options.beforeToolCall;
    this.afterToolCall = options.afterToolCall;
    this.finishTurn = options.finishTurn;
    this.prepareNextTurn = options.prepareNextTurn;
    this.#steering = new PendingMessageQueue(options.steeringMode ?? "one-at-a-time");
    this.#followUp = new PendingMessageQueue(options.followUpMode ?? "one-at-a-time");
    this.sessionId = options.sessionId;
    this.thinkingBudgets = options.thinkingBudgets;
    this.transport = options.transport ?? "auto";
    this.maxRetryDelayMs = options.maxRetryDelayMs;
    this.toolExecution = options.toolExecution ?? "parallel";
  }

  /** Subscribes to events; returns the unsubscribe function. */
  subscribe(listener: AgentListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** The current state (transcript, model, tools, streaming status). */
  get state(): AgentState {
    return this.#state;
  }

  /** How queued steering messages are delivered. */
  get steeringMode(): QueueMode {
    return this.#steering.mode;
  }
  set steeringMode(mode: QueueMode) {
    this.#steering.mode = mode;
  }
  /** How queued follow-up messages are delivered. */
  get followUpMode(): QueueMode {
    return this.#followUp.mode;
  }
  set followUpMode(mode: QueueMode) {
    this.#followUp.mode = mode;
  }

  /** Queues a message delivered after the current turn's tool calls. */
  steer(message: AgentMessage): void {
    this.#steering.enqueue(message);
  }

  /** Queues a message delivered only when the agent would otherwise stop. */
  followUp(message: AgentMessage): void {
    this.#followUp.enqueue(message);
  }

  /** Drops every queued steering message. */
  clearSteeringQueue(): void {
    this.#steering.clear();
  }
  /** Drops every queued follow-up message. */
  clearFollowUpQueue(): void {
    this.#followUp.clear();
  }
  /** Drops both queues. */
  clearAllQueues(): void {
    this.#steering.clear();
    this.#followUp.clear();
  }
  /** Removes and returns queued messages (for UIs that restore them to the editor). */
  drainQueues(): { steering: AgentMessage[]; followUp: AgentMessage[] } {
    return { steering: this.#steering.takeAll(), followUp: this.#followUp.takeAll() };
  }
  /** Whether a steering or follow-up message is waiting. */
  hasQueuedMessages(): boolean {
    return this.#steering.hasItems() || this.#followUp.hasItems();
  }

  /** The abort signal of the current run. */
  get signal(): AbortSignal | undefined {
    return this.#activeRun?.abortController.signal;
  }

  /** Aborts the current run, if any. */
  abort(): void {
    this.#activeRun?.abortController.abort();
  }

  /** Resolves once the current run and its listeners have finished. */
  waitForIdle(): Promise<void> {
    return this.#activeRun?.promise ?? Promise.resolve();
  }

  /** Clears the transcript, the runtime state and both queues. */
  reset(): void {
    this.#state.messages = [];
    this.#state.isStreaming = false;
    this.#state.streamingMessage = undefined;
    this.#state.pendingToolCalls = new Set();
    this.#state.errorMessage = undefined;
    this.clearAllQueues();
  }

  /** Runs a prompt: text (with optional images), one message, or several. */
  async prompt(input: string | AgentMessage | AgentMessage[], images?: ImageContent[]): Promise<void> {
    if (this.#activeRun) {
      throw new Error(
        "Agent is already processing a prompt. Use steer() or followUp() to queue messages, or wait for completion.",
      );
    }
    await this.#runPrompts(this.#normalize(input, images));
  }

  /** Continues from the transcript; the last message must be a user or tool-result message. */
  async continue(): Promise<void> {
    if (this.#activeRun) {
      throw new Error("Agent is already processing. Wait for completion before continuing.");
    }
    const last = this.#state.messages[this.#state.messages.length - 1];
    if (!last) throw new Error("No messages to continue from");
    if (last.role === "assistant") {
      const steering = this.#steering.drain();
      if (steering.length > 0) return await this.#runPrompts(steering, true);
      const followUps = this.#followUp.drain();
      if (followUps.length > 0) return await this.#runPrompts(followUps);
      throw new Error("Cannot continue from message role: assistant");
    }
    await this.#withLifecycle((signal) =>
      runAgentLoopContinue(
        this.#snapshot(),
        this.#loopConfig(),
        (e) => this.#process(e),
        signal,
        this.streamFn,
      )
    );
  }

  #normalize(input: string | AgentMessage | AgentMessage[], images?: ImageContent[]): AgentMessage[] {
    if (Array.isArray(input)) return input;
    if (typeof input !== "string") return [input];
    const content: (TextContent | ImageContent)[] = [{ type: "text", text: input }];
    if (images?.length) content.push(...images);
    return [{ role: "user", content, timestamp: Date.now() }];
  }

  async #runPrompts(messages: AgentMessage[], skipInitialSteeringPoll = false): Promise<void> {
    await this.#withLifecycle((signal) =>
      runAgentLoop(
        messages,
        this.#snapshot(),
        this.#loopConfig(skipInitialSteeringPoll),
        (e) => this.#process(e),
        signal,
        this.streamFn,
      )
    );
  }

  #snapshot(): AgentContext {
    return {
      systemPrompt: this.#state.systemPrompt,
      messages: this.#state.messages.slice(),
      tools: this.#state.tools.slice(),
    };
  }

  #loopConfig(skipInitialSteeringPoll = false): AgentLoopConfig {
    let skip = skipInitialSteeringPoll;
    return {
      model: this.#state.model,
      reasoning: this.#state.thinkingLevel === "off" ? undefined : this.#state.thinkingLevel,
      sessionId: this.sessionId,
      onPayload: this.onPayload,
      onResponse: this.onResponse,
      onProviderStreamEvent: this.onProviderStreamEvent,
      transport: this.transport,
      thinkingBudgets: this.thinkingBudgets,
      maxRetryDelayMs: this.maxRetryDelayMs,
      toolExecution: this.toolExecution,
      beforeToolCall: this.beforeToolCall,
      afterToolCall: this.afterToolCall,
      finishTurn: this.finishTurn,
      prepareNextTurn: this.prepareNextTurn ? (turn) => this.prepareNextTurn?.(turn, this.signal) : undefined,
      prepareRequest: this.prepareRequest,
      convertToLlm: this.convertToLlm,
      transformContext: this.transformContext,
      getApiKey: this.getApiKey,
      getSteeringMessages: () => {
        if (skip) {
          skip = false;
          return Promise.resolve([]);
        }
        return Promise.resolve(this.#steering.drain());
      },
      getFollowUpMessages: () => Promise.resolve(this.#followUp.drain()),
    };
  }

  async #withLifecycle(executor: (signal: AbortSignal) => Promise<unknown>): Promise<void> {
    if (this.#activeRun) throw new Error("Agent is already processing.");
    const abortController = new AbortController();
    let resolve = () => {};
    const promise = new Promise<void>((r) => (resolve = r));
    this.#activeRun = { promise, resolve, abortController };
    this.#state.isStreaming = true;
    this.#state.streamingMessage = undefined;
    this.#state.errorMessage = undefined;
    try {
      await executor(abortController.signal);
    } catch (error) {
      // A failure outside the stream (a throwing listener, convertToLlm, a virtual model's route …)
      // still ends the run with an assistant message, so callers and session files see what happened.
      const failure: AssistantMessage = {
        role: "assistant",
        content: [{ type: "text", text: "" }],
        api: this.#state.model.api,
        provider: this.#state.model.provider,
        model: this.#state.model.id,
        usage: emptyUsage(),
        stopReason: abortController.signal.aborted ? "aborted" : "error",
        errorMessage: error instanceof Error ? error.message : String(error),
        timestamp: Date.now(),
      };
      // As a reply would end (1.6.0's order): listeners record it like any other message.
      await this.#process({ type: "message_start", message: failure });
      await this.#process({ type: "message_end", message: failure });
      await this.#process({ type: "turn_end", message: failure, toolResults: [] });
      await this.#process({ type: "agent_end", messages: [failure] });
    } finally {
      this.#state.isStreaming = false;
      this.#state.streamingMessage = undefined;
      this.#state.pendingToolCalls = new Set();
      this.#activeRun?.resolve();
      this.#activeRun = undefined;
    }
  }

  #process(event: AgentEvent): Promise<void> | void {
    const state = this.#state;
    switch (event.type) {
      case "message_start":
      case "message_update":
        state.streamingMessage = event.message;
        break;
      case "message_end":
        state.streamingMessage = undefined;
        state.messages.push(event.message);
        break;
      case "tool_execution_start":
        state.pendingToolCalls = new Set([...state.pendingToolCalls, event.toolCallId]);
        break;
      case "tool_execution_end": {
        const next = new Set(state.pendingToolCalls);
        next.delete(event.toolCallId);
        state.pendingToolCalls = next;
        break;
      }
      case "turn_end":
        if (event.message.role === "assistant" && (event.message as AssistantMessage).errorMessage) {
          state.errorMessage = (event.message as AssistantMessage).errorMessage;
        }
        break;
      case "agent_end":
        state.streamingMessage = undefined;
        break;
    }
    const signal = this.#activeRun?.abortController.signal;
    if (!signal) throw new Error("Agent listener invoked outside active run");
    // Listeners that return nothing (most, for most events) cost no promise: the run goes
    // asynchronous only from the first listener that hands back one to wait for.
    const listeners = this.#listeners.values();
    for (let next = listeners.next(); !next.done; next = listeners.next()) {
      const pending = next.value(event, signal);
      if (pending) return this.#awaitListeners(pending, listeners, event, signal);
    }
  }

  async #awaitListeners(
    pending: Promise<void>,
    rest: Iterator<AgentListener>,
    event: AgentEvent,
    signal: AbortSignal,
  ): Promise<void> {
    await pending;
    for (let next = rest.next(); !next.done; next = rest.next()) await next.value(event, signal);
  }
}
