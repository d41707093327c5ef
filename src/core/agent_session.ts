/**
 * AgentSession ties the agent to its session file, settings, credentials, resources and tools:
 * it persists every message as it ends, records model and thinking changes, expands skills and
 * prompt templates, queues steering and follow-up messages, retries transient failures, and
 * tells listeners about all of it. Bash, compaction, queues, retry and tree navigation live in
 * their own modules (`session_bash.ts`, `session_compaction.ts`, `session_queues.ts`,
 * `session_retry.ts`, `session_tree.ts`) and work through a narrow {@link SessionHost}.
 *
 * @module
 */
import type { Agent } from "../agent/agent.ts";
import type { AgentEvent, AgentMessage, AgentState, AgentThinkingLevel } from "../agent/types.ts";
import { clampThinkingLevel, getSupportedThinkingLevels, THINKING_LEVELS } from "../ai/thinking.ts";
import { modelsAreEqual } from "../ai/model_equality.ts";
import { cleanupSessionResources } from "../ai/session_resources.ts";
import type { AssistantMessage, ImageContent, Model, TextContent } from "../ai/types.ts";
import type { ModelRegistry } from "../config/model_registry.ts";
import type { ModelRuntime } from "../config/model_runtime.ts";
import { DEFAULT_THINKING_LEVEL } from "../config/model_resolver.ts";
import type { SettingsManager } from "../config/settings_manager.ts";
import { expandPromptTemplate, type PromptTemplate } from "../resources/prompt_templates.ts";
import type { DefaultResourceLoader } from "../resources/resource_loader.ts";
import type { ThemeJson } from "../resources/themes/theme_schema.ts";
import { expandSkillCommand } from "../resources/skills.ts";
import type { CustomMessage } from "../session/messages.ts";
import type { SessionManager } from "../session/session_manager.ts";
import { getCurrentTools, type SystemMessage, systemMessageUpdate } from "../session/system_message.ts";
import type { BashOperations } from "../tools/shell.ts";
import { applyToolModifiers } from "../util/tool_list.ts";
import { formatNoApiKeyFoundMessage } from "./auth_guidance.ts";
import type { BashResult } from "../tools/bash_executor.ts";
import { computeContextUsage } from "./context_usage.ts";
import { SessionBash } from "./session_bash.ts";
import { SessionQueues } from "./session_queues.ts";
import { SessionCompactor } from "./session_compaction.ts";
import { lastAssistantOf, SessionRetrier } from "./session_retry.ts";
import { forkableUserMessages, lastAssistantText, userText } from "./session_stats.ts";
import { computeSessionStats } from "../session/session_stats.ts";
import { messageRole } from "../session/entry_stubs.ts";
import {
  buildSessionSystemPrompt,
  buildToolSet,
  sessionSystemPromptOptions,
  type SessionTool,
} from "./session_tools.ts";
import type { BuildSystemPromptOptions } from "../resources/system_prompt.ts";
import {
  abortBranchSummary,
  isBranchSummaryRunning,
  navigateTree,
  type NavigateTreeOptions,
  type NavigateTreeResult,
} from "./session_tree.ts";
import { exportToJsonl } from "./session_export.ts";
import { virtualModelRouter } from "./virtual_model_routing.ts";
import { createSessionHost, type SessionHost } from "./session_host.ts";
import { SessionBoundaries } from "./session_boundary.ts";
import type {
  AgentSessionEvent,
  AgentSessionEventListener,
  CompactionResult,
  ContextUsage,
  ModelCycleResult,
  PromptOptions,
  ScopedModel,
  SessionExtensionHooks,
  SessionStats,
} from "./agent_session_types.ts";

export type { SessionTool };

/** What an AgentSession is built from. */
export interface AgentSessionConfig {
  /** The agent that runs the turns. */
  agent: Agent;
  /** Where entries are saved. */
  sessionManager: SessionManager;
  /** Settings of this session. */
  settingsManager: SettingsManager;
  /** Working folder of the session. */
  cwd: string;
  /** Models offered when cycling (`--models`). */
  scopedModels?: ScopedModel[];
  /** Skills, prompt templates and context files. */
  resourceLoader: DefaultResourceLoader;
  /** Models and their credentials (pi 1.6.0's ModelRuntime). */
  modelRuntime: ModelRuntime;
  /** Extra tools (SDK callers); they may replace built-ins of the same name. */
  customTools?: SessionTool[];
  /** Tools active at start (default read, bash, edit, write). */
  initialActiveToolNames?: string[];
  /** When set, only these tools exist at all (`--tools`). */
  allowedToolNames?: string[];
  /**
   * The session starts from the default tools (no explicit `--tools` names, no `--no-tools`): a
   * resumed session then goes on with the tools its transcript declared, with
   * {@link defaultToolModifiers} applied (pi 1.6.0). Default: `initialActiveToolNames` is unset.
   */
  usesDefaultTools?: boolean;
  /** `--tools +name`/`-name` entries, applied on top of the tools a resumed transcript declared. */
  defaultToolModifiers?: string[];
  /** Names or `*` patterns of tools that do not exist at all (`excludeTools`), applied after `allowedToolNames`. */
  excludedToolNames?: string[];
  /** Replaces the built-in tool set. */
  baseToolsOverride?: Record<string, SessionTool>;
}

/** One conversation with a model, backed by a session file. */
export class AgentSession {
  /** The agent that runs the turns. */
  readonly agent: Agent;
  /** Where entries are saved. */
  readonly sessionManager: SessionManager;
  /** Settings of this session. */
  readonly settingsManager: SettingsManager;
  /** Models and their credentials (pi 1.6.0's `session.modelRuntime`). */
  readonly modelRuntime: ModelRuntime;
  /** The runtime's synchronous registry view, as extensions see it (`modelRuntime.modelRegistry`). */
  readonly modelRegistry: ModelRegistry;
  /** Skills, prompt templates and context files. */
  readonly resourceLoader: DefaultResourceLoader;
  /** Working folder of the session. */
  readonly cwd: string;

  #scopedModels: ScopedModel[];
  #listeners: AgentSessionEventListener[] = [];
  #eventQueue: Promise<void> = Promise.resolve();
  /** Agent events queued for processing and not yet done. */
  #eventsInFlight = 0;
  #unsubscribeAgent?: () => void;
  #queues: SessionQueues;
  #pendingNextTurn: AgentMessage[] = [];
  #lastAssistant?: AssistantMessage;
  #toolRegistry: Map<string, SessionTool>;
  #extensionHooks: SessionExtensionHooks | undefined;
  #baseSystemPrompt = "";
  /** The prompt's named sections, as the session's `system` messages record them. */
  #promptSections: Record<string, string> = {};
  /** Sections added by services such as MCP (`mcp_servers`), after the built-in ones. */
  #extraSections: Record<string, string> = {};
  /** Run before each prompt's run starts (MCP waits for its servers there). */
  #promptPreparers: (() => Promise<void>)[] = [];
  #disposers: (() => void)[] = [];
  #compactor: SessionCompactor;
  #retrier: SessionRetrier;
  #bash: SessionBash;
  #boundaries: SessionBoundaries;
  #host: SessionHost;
  /** From the moment a run is accepted until `agent_settled` (busy while starting, too). */
  #runActive = false;
  /** An abort was asked for during the current session-level run. */
  #abortRequested = false;
  /** Settles after the current session-level run emitted `agent_settled`. */
  #runDone?: Promise<void>;

  /** Wraps an agent with its session services; most callers use `createAgentSession` instead. */
  constructor(config: AgentSessionConfig) {
    this.agent = config.agent;
    this.sessionManager = config.sessionManager;
    this.settingsManager = config.settingsManager;
    this.modelRuntime = config.modelRuntime;
    this.modelRegistry = config.modelRuntime.modelRegistry;
    this.resourceLoader = config.resourceLoader;
    this.cwd = config.cwd;
    this.#scopedModels = config.scopedModels ?? [];
    this.#host = createSessionHost(this, (event) => this.#emit(event));
    this.#compactor = new SessionCompactor(this.#host);
    this.#retrier = new SessionRetrier(this.#host);
    this.#bash = new SessionBash(this.#host);
    this.#queues = new SessionQueues(this.#host);
    // Extensions' `turn_end` may append entries and ask for one more request (1.6.0).
    this.#boundaries = new SessionBoundaries(this.#host, () => this.#extensionHooks?.boundaries);
    this.agent.finishTurn = async (turn) =>
      await this.#boundaries.turnEnd(turn.message, turn.toolResults) ? { action: "continue" } : undefined;
    this.#unsubscribeAgent = this.agent.subscribe((event) => this.#onAgentEvent(event));
    // Compaction between tool turns (1.6.0): the run goes on from the compacted context.
    this.agent.prepareNextTurn = async (turn) => {
      const compacted = await this.#compactor.compactBetweenTurns(turn.message);
      // Entries a `turn_end` handler appended rebuilt the transcript: the next request starts from it.
      const refreshed = this.#boundaries.takeRefreshed();
      const state = this.agent.state;
      // A tool that changed the active tools (1.6.0's `tool_search`) has them declared from the next
      // request on, after a `system` message recording the change.
      const toolsChanged = turn.context.tools?.map((t) => t.name).join("\0") !==
        state.tools.map((t) => t.name).join("\0");
      if (!compacted && !toolsChanged && !refreshed) return undefined;
      const update = toolsChanged
        ? systemMessageUpdate(state.messages, this.#promptSections, state.tools)
        : undefined;
      return {
        context: {
          systemPrompt: state.systemPrompt,
          messages: compacted || refreshed ? state.messages.slice() : turn.context.messages,
          tools: state.tools.slice(),
        },
        ...(update ? { messages: [update] } : {}),
      };
    };
    // A virtual model's router picks each request's physical model (virtual_model_routing.ts).
    this.agent.prepareRequest = virtualModelRouter({
      agent: this.agent,
      modelRuntime: this.modelRuntime,
      getBranch: () => this.sessionManager.getBranch(),
      appendCustomEntry: (customType, data) => this.appendCustomEntry(customType, data),
      takeFailedResponse: () => this.#retrier.takeFailed(),
    });
    const tools = buildToolSet({
      ...config,
      settingsManager: config.settingsManager,
      // Read as each command starts, so a model or thinking switch reaches the next one.
      sessionEnvironment: () => ({
        sessionId: this.sessionId,
        sessionFile: this.sessionFile,
        provider: this.model?.provider,
        model: this.model?.id,
        reasoningLevel: this.thinkingLevel,
      }),
    });
    this.#toolRegistry = tools.registry;
    this.setActiveToolsByName(tools.active);
    // A resumed session goes on with the tools its transcript last declared, with `+name`/`-name`
    // applied (1.6.0), unless the caller chose the tools by name.
    if (config.usesDefaultTools ?? !config.initialActiveToolNames) {
      this.#restoreToolsFromTranscript(config.defaultToolModifiers ?? []);
    }
  }

  // ── events ──────────────────────────────────────────────────────────────

  /** Subscribes to session events; returns the unsubscribe function. */
  subscribe(listener: AgentSessionEventListener): () => void {
    this.#listeners = [...this.#listeners, listener];
    return () => {
      const i = this.#listeners.indexOf(listener);
      if (i !== -1) this.#listeners = this.#listeners.toSpliced(i, 1);
    };
  }

  /** Detaches from the agent, drops all listeners and releases what providers kept for the session. */
  dispose(): void {
    for (const hook of this.#disposers.splice(0)) hook();
    this.#unsubscribeAgent?.();
    this.#unsubscribeAgent = undefined;
    this.#listeners = [];
    cleanupSessionResources(this.sessionId);
  }

  #emit(event: AgentSessionEvent): void {
    // Subscribing and unsubscribing replace the array, so a listener that unsubscribes (or
    // subscribes another) mid-event does not disturb this loop, and no copy is made per event.
    for (const listener of this.#listeners) listener(event);
  }

  #onAgentEvent(event: AgentEvent): Promise<void> | undefined {
    // An abort asked for while the run was starting stops it as soon as it exists.
    if (event.type === "agent_start" && this.#abortRequested) this.agent.abort();
    // The retry promise must exist before prompt() awaits it, so create it synchronously.
    if (event.type === "agent_end") this.#retrier.expect(event.messages);
    // One per delta of a reply, and nothing to wait for: emitted at once when no earlier event is
    // still being processed (so the order stays), without a promise per delta.
    if (event.type === "message_update" && this.#eventsInFlight === 0) {
      this.#emit(event);
      return undefined;
    }
    this.#eventsInFlight++;
    const done = () => {
      this.#eventsInFlight--;
    };
    this.#eventQueue = this.#eventQueue.then(
      () => this.#processAgentEvent(event),
      () => this.#processAgentEvent(event),
    );
    this.#eventQueue.then(done, done);
    return this.#eventQueue;
  }

  async #processAgentEvent(event: AgentEvent): Promise<void> {
    if (event.type === "message_start" || event.type === "message_end") {
      this.#compactor.noteMessage(event.message);
    }
    if (event.type === "message_start" && event.message.role === "user") {
      const text = userText(event.message);
      if (text) this.#queues.delivered(text);
    }
    // Extensions see each event before the session's listeners (pi 1.6.0's order).
    if (this.#extensionHooks?.onAgentEvent) await this.#extensionHooks.onAgentEvent(event);
    this.#emit(
      event.type === "agent_end"
        ? { ...event, willRetry: !this.#abortRequested && this.#retrier.willRetry(event.messages) }
        : event,
    );

    if (event.type === "message_end") {
      const message = event.message;
      if (message.role === "custom") {
        const custom = message as CustomMessage;
        this.sessionManager.appendCustomMessageEntry(
          custom.customType,
          custom.content,
          custom.display,
          custom.details,
        );
      } else if (
        message.role === "system" || message.role === "user" || message.role === "assistant" ||
        message.role === "toolResult"
      ) {
        this.sessionManager.appendMessage(message);
      }
      if (message.role === "assistant") {
        const assistant = message as AssistantMessage;
        this.#lastAssistant = assistant;
        this.#retrier.noteReply(assistant);
      }
    }

    if (event.type === "agent_end") {
      this.#bash.flush();
      const last = this.#lastAssistant;
      this.#lastAssistant = undefined;
      if (!last) return;
      if (this.#retrier.isRetryable(last) && await this.#retrier.retry(last)) return;
      this.#retrier.settle();
      await this.#compactor.check(last);
    }
  }

  // ── state ───────────────────────────────────────────────────────────────

  /** The agent's state. */
  get state(): AgentState {
    return this.agent.state;
  }
  /** The current model, if any. */
  get model(): Model | undefined {
    const model = this.agent.state.model;
    return model.id === "unknown" && model.provider === "unknown" ? undefined : model;
  }
  /** The current thinking level. */
  get thinkingLevel(): AgentThinkingLevel {
    return this.agent.state.thinkingLevel;
  }
  /** True while a session-level run is active: from acceptance (before the agent starts) to `agent_settled`. */
  get isStreaming(): boolean {
    return this.#runActive || this.agent.state.isStreaming;
  }
  /** No run, retry, recovery or compaction in progress. */
  get isIdle(): boolean {
    return !this.isStreaming && !this.isCompacting;
  }
  /** The system prompt sent with each request. */
  get systemPrompt(): string {
    return this.agent.state.systemPrompt;
  }
  /** The transcript of the current branch. */
  get messages(): AgentMessage[] {
    return this.agent.state.messages;
  }
  /** How queued steering messages are delivered. */
  get steeringMode(): "all" | "one-at-a-time" {
    return this.agent.steeringMode;
  }
  /** How queued follow-up messages are delivered. */
  get followUpMode(): "all" | "one-at-a-time" {
    return this.agent.followUpMode;
  }
  /** Path of the session file; undefined for in-memory sessions. */
  get sessionFile(): string | undefined {
    return this.sessionManager.getSessionFile();
  }
  /** Id of the session. */
  get sessionId(): string {
    return this.sessionManager.getSessionId();
  }
  /** Name of the session, if one was set. */
  get sessionName(): string | undefined {
    return this.sessionManager.getSessionName();
  }
  /** Models offered when cycling. */
  get scopedModels(): readonly ScopedModel[] {
    return this.#scopedModels;
  }
  /** Replaces the models offered when cycling. */
  setScopedModels(models: ScopedModel[]): void {
    this.#scopedModels = models;
  }
  /** Prompt templates available as slash commands. */
  get promptTemplates(): readonly PromptTemplate[] {
    return this.resourceLoader.getPrompts().prompts;
  }
  /** Number of the current automatic retry; 0 when not retrying. */
  get retryAttempt(): number {
    return this.#retrier.attempt;
  }
  /** Whether an automatic retry is waiting or running. */
  get isRetrying(): boolean {
    return this.#retrier.isRetrying;
  }
  /** Whether failed requests are retried automatically. */
  get autoRetryEnabled(): boolean {
    return this.settingsManager.getRetryEnabled();
  }
  /** Turns automatic retry on or off (kept in the settings). */
  setAutoRetryEnabled(enabled: boolean): void {
    this.settingsManager.setRetryEnabled(enabled);
  }
  /** Steering and follow-up messages waiting. */
  get pendingMessageCount(): number {
    return this.#queues.steering.length + this.#queues.followUp.length;
  }
  /** Steering messages waiting, oldest first. */
  getSteeringMessages(): readonly string[] {
    return this.#queues.steering;
  }
  /** Follow-up messages waiting, oldest first. */
  getFollowUpMessages(): readonly string[] {
    return this.#queues.followUp;
  }

  // ── tools and system prompt ────────────────────────────────────────────

  /** Names of the tools the model currently has. */
  getActiveToolNames(): string[] {
    return this.agent.state.tools.map((t) => t.name);
  }

  /** Every known tool (active or not). */
  getAllTools(): { name: string; description: string; parameters: unknown }[] {
    return [...this.#toolRegistry.values()].map((t) => ({
      name: t.name,
      description: t.description,
      parameters: t.parameters,
    }));
  }

  /** Activates the named tools (unknown names are ignored) and rebuilds the system prompt. */
  setActiveToolsByName(names: string[]): void {
    const tools: SessionTool[] = [];
    const valid: string[] = [];
    for (const name of names) {
      const tool = this.#toolRegistry.get(name);
      if (tool) {
        tools.push(tool);
        valid.push(name);
      }
    }
    this.agent.state.tools = tools;
    const prompt = buildSessionSystemPrompt(
      this.#toolRegistry,
      valid,
      this.resourceLoader,
      this.cwd,
      this.#extraSections,
    );
    this.#baseSystemPrompt = prompt.text;
    this.#promptSections = prompt.sections;
    this.agent.state.systemPrompt = this.#baseSystemPrompt;
  }

  /**
   * Activates the tools the branch's `system` messages last declared; without any (a new session)
   * the current tools stay. `modifiers` (`+name`/`-name`) apply on top; names that do not exist
   * here are ignored.
   */
  #restoreToolsFromTranscript(modifiers: readonly string[]): void {
    // messageRole reads a resumed entry's role without loading its line (entry_stubs.ts).
    const systemMessages = this.sessionManager.getBranch().flatMap((entry) =>
      entry.type === "message" && messageRole(entry) === "system" ? [entry.message as SystemMessage] : []
    );
    if (systemMessages.length === 0) return;
    const declared = getCurrentTools(systemMessages).map((tool) => tool.name);
    this.setActiveToolsByName(applyToolModifiers(declared, modifiers));
  }

  /**
   * Adds (or replaces) tools after start-up, as extensions register them; a new name becomes
   * active, a replaced one keeps its state.
   */
  addTools(tools: readonly SessionTool[]): void {
    const active = this.getActiveToolNames();
    for (const tool of tools) {
      if (!this.#toolRegistry.has(tool.name)) active.push(tool.name);
      this.#toolRegistry.set(tool.name, tool);
    }
    this.setActiveToolsByName(active);
  }

  /** Records an extension's custom entry (`pi.appendEntry`) and tells listeners (`entry_appended`). */
  appendCustomEntry(customType: string, data?: unknown): void {
    const id = this.sessionManager.appendCustomEntry(customType, data);
    const entry = this.sessionManager.getEntry(id);
    if (entry) this.#emit({ type: "entry_appended", entry });
  }

  /** Installs the extension host's hooks (src/core/extension_host.ts); undefined removes them. */
  setExtensionHooks(hooks: SessionExtensionHooks | undefined): void {
    this.#extensionHooks = hooks;
  }

  /** Sets (or, with undefined, removes) a named system prompt section kept after the built-in ones. */
  setPromptSection(name: string, content: string | undefined): void {
    if (this.#extraSections[name] === content) return;
    if (content === undefined) delete this.#extraSections[name];
    else this.#extraSections[name] = content;
    this.refreshSystemPrompt();
  }

  /** Runs `hook` before each prompt's run starts, before extensions' `before_agent_start`. */
  addPromptPreparer(hook: () => Promise<void>): void {
    this.#promptPreparers.push(hook);
  }

  /** Runs `hook` when the session is disposed (closing what belongs to it, such as MCP servers). */
  addDisposer(hook: () => void): void {
    this.#disposers.push(hook);
  }

  /**
   * What the system prompt is built from now (1.6.0's base `systemPromptOptions`, a fresh copy):
   * `before_agent_start` handlers edit it for one run, commands read it.
   */
  getSystemPromptOptions(): BuildSystemPromptOptions {
    const tools = this.getActiveToolNames();
    return sessionSystemPromptOptions(
      this.#toolRegistry,
      tools,
      this.resourceLoader,
      this.cwd,
      this.#extraSections,
    );
  }

  /** Rebuilds the system prompt from the current resources (after `resourceLoader.reload()`). */
  refreshSystemPrompt(): void {
    this.setActiveToolsByName(this.getActiveToolNames());
  }

  // ── prompting ───────────────────────────────────────────────────────────

  #expand(text: string): string {
    const skillCommands = this.settingsManager.getEnableSkillCommands();
    const afterSkill = skillCommands
      ? expandSkillCommand(text, this.resourceLoader.getSkills().skills)
      : text;
    return expandPromptTemplate(afterSkill, [...this.promptTemplates]);
  }

  /**
   * Sends a user prompt and resolves when the run (and any automatic retries) finished. While
   * streaming, `streamingBehavior` decides whether the text steers or follows up.
   */
  async prompt(text: string, options: PromptOptions = {}): Promise<void> {
    const expand = options.expandPromptTemplates ?? true;
    const hooks = this.#extensionHooks;
    if (hooks?.input) {
      // Extension commands and `input` handlers come before templates and queueing (1.6.0).
      const input = await hooks.input(text, options.images, options.source ?? "interactive", expand);
      if ("handled" in input) {
        options.preflightResult?.("handled");
        return;
      }
      text = input.text;
      options = { ...options, images: input.images };
    }
    let expanded: string;
    try {
      expanded = expand ? this.#expand(text) : text;
      if (this.isStreaming) {
        if (!options.streamingBehavior) {
          throw new Error(
            "Agent is already processing. Specify streamingBehavior ('steer' or 'followUp') to queue the message.",
          );
        }
        if (options.streamingBehavior === "followUp") this.#queues.add("followUp", expanded, options.images);
        else this.#queues.add("steer", expanded, options.images);
        options.preflightResult?.(true);
        return;
      }
      this.#bash.flush();
      const model = this.model;
      // pi 1.6.0's agent holds a placeholder model ("unknown") when none is available, so a
      // prompt without a model is refused as that model's missing key.
      if (!model) throw new Error(formatNoApiKeyFoundMessage("unknown"));
      if (!this.modelRegistry.hasConfiguredAuth(model)) {
        if (this.modelRegistry.isUsingOAuth(model)) {
          throw new Error(
            `Authentication failed for "${model.provider}". Credentials may have expired or network is unavailable. Run '/login ${model.provider}' to re-authenticate.`,
          );
        }
        throw new Error(formatNoApiKeyFoundMessage(model.provider));
      }
    } catch (error) {
      options.preflightResult?.(false);
      throw error;
    }
    await this.#runSession(async () => {
      const lastAssistant = lastAssistantOf(this.agent.state.messages);
      if (lastAssistant) await this.#compactor.check(lastAssistant, false);
      for (const prepare of this.#promptPreparers) await prepare();
      const start = await hooks?.beforeAgentStart?.(
        expanded,
        options.images,
        this.#baseSystemPrompt,
        () => this.getSystemPromptOptions(),
      );
      const content: (TextContent | ImageContent)[] = [{ type: "text", text: expanded }];
      if (options.images) content.push(...options.images);
      const messages: AgentMessage[] = [
        { role: "user", content, timestamp: Date.now() },
        ...this.#pendingNextTurn,
        ...(start?.messages ?? []),
      ];
      this.#pendingNextTurn = [];
      // Tools chosen in `systemPromptOptions.selectedTools` stay active, as 1.6.0's tool loadout.
      if (start?.selectedTools) this.setActiveToolsByName(start.selectedTools);
      // An extension's `systemPrompt` applies to this run only.
      this.agent.state.systemPrompt = start?.systemPrompt ?? this.#baseSystemPrompt;
      return this.#withSystemUpdate(messages, start?.sections);
    }, options.preflightResult);
  }

  /**
   * A run's starting messages, led by a `system` message when the prompt or the tools changed
   * since the transcript last recorded them (the whole prompt on a session's first run). It is
   * emitted and saved like any message, so clients and the file see what the model is told.
   */
  #withSystemUpdate(messages: AgentMessage[], sections = this.#promptSections): AgentMessage[] {
    const update = systemMessageUpdate(
      this.agent.state.messages,
      sections,
      this.agent.state.tools,
    );
    return update ? [update, ...messages] : messages;
  }

  /**
   * One session-level run: busy from here on (a prompt sent while it starts is queued into it),
   * then the agent's run with every retry and post-compaction continuation, then
   * `agent_settled`. `prepare` builds the starting messages; `onStarted` hears whether it could.
   */
  async #runSession(
    prepare: () => Promise<AgentMessage[]>,
    onStarted?: (success: boolean) => void,
  ): Promise<void> {
    this.#runActive = true;
    this.#abortRequested = false;
    let done = () => {};
    this.#runDone = new Promise((resolve) => (done = resolve));
    let messages: AgentMessage[];
    try {
      messages = await prepare();
    } catch (error) {
      this.#runActive = false;
      done();
      onStarted?.(false);
      throw error;
    }
    onStarted?.(true);
    try {
      await this.agent.prompt(messages);
      await this.#waitForAutomaticRuns();
      // `agent_before_settle` may append entries and continue the run; an aborted run skips it.
      while (!this.#abortRequested && await this.#boundaries.beforeSettle(() => this.#abortRequested)) {
        await this.agent.continue();
        await this.#waitForAutomaticRuns();
      }
    } finally {
      this.#runActive = false;
      this.#bash.flush();
      this.#emit({ type: "agent_settled", aborted: this.#abortRequested });
      done();
    }
  }

  /** Waits out retries and post-compaction runs, which may chain into each other. */
  async #waitForAutomaticRuns(): Promise<void> {
    do {
      await this.waitForRetry();
      await this.#compactor.waitForContinuation();
      await this.#eventQueue;
    } while (this.#retrier.isRetrying || this.#compactor.hasContinuation);
  }

  /** Queues a steering message (delivered after the current tool calls). */
  steer(text: string, images?: ImageContent[]): Promise<void> {
    this.#queues.add("steer", this.#expand(text), images);
    return Promise.resolve();
  }

  /** Queues a follow-up message (delivered when the agent would stop). */
  followUp(text: string, images?: ImageContent[]): Promise<void> {
    this.#queues.add("followUp", this.#expand(text), images);
    return Promise.resolve();
  }

  /**
   * Adds a custom (extension) message: queued while streaming, prepended to the next prompt with
   * `nextTurn`, run immediately with `triggerTurn`, or just recorded.
   */
  async sendCustomMessage(
    message: Pick<CustomMessage, "customType" | "content" | "display" | "details">,
    options: { triggerTurn?: boolean; deliverAs?: "steer" | "followUp" | "nextTurn" } = {},
  ): Promise<void> {
    const custom: CustomMessage = { role: "custom", ...message, timestamp: Date.now() };
    if (options.deliverAs === "nextTurn") this.#pendingNextTurn.push(custom);
    else if (this.isStreaming) {
      if (options.deliverAs === "followUp") this.agent.followUp(custom);
      else this.agent.steer(custom);
    } else if (options.triggerTurn) {
      await this.#runSession(() => Promise.resolve(this.#withSystemUpdate([custom])));
    } else {
      this.agent.state.messages.push(custom);
      this.sessionManager.appendCustomMessageEntry(
        custom.customType,
        custom.content,
        custom.display,
        custom.details,
      );
      this.#emit({ type: "message_start", message: custom });
      this.#emit({ type: "message_end", message: custom });
    }
  }

  /** Removes and returns every queued message. */
  clearQueue(): { steering: string[]; followUp: string[] } {
    return this.#queues.clear();
  }

  /** Aborts the run (and a pending retry or compaction) and waits until the session is idle. */
  async abort(): Promise<void> {
    if (this.#runActive) this.#abortRequested = true;
    this.abortRetry();
    this.#compactor.abort();
    this.agent.abort();
    await this.agent.waitForIdle();
    await this.#eventQueue;
    // Until agent_settled is out, so a caller replacing the session next loses no event.
    await this.#runDone;
  }

  /** Resolves when the agent is idle and every queued session event has been processed. */
  async settle(): Promise<void> {
    await this.agent.waitForIdle();
    await this.#eventQueue;
    await this.#waitForAutomaticRuns();
  }

  // ── models and thinking ────────────────────────────────────────────────

  /**
   * Switches model (needs credentials), records it in the session, and re-clamps the thinking level.
   * The switch is the session's own: only `persist: true` (the model selector's Ctrl+S) saves it as
   * the default in settings.json, as in pi 1.6.0.
   */
  setModel(model: Model, options: { persist?: boolean } = {}): Promise<void> {
    if (!this.modelRegistry.hasConfiguredAuth(model)) {
      return Promise.reject(new Error(`No API key for ${model.provider}/${model.id}`));
    }
    this.#applyModel(model, this.#thinkingForSwitch(model), options.persist === true);
    return Promise.resolve();
  }

  #applyModel(model: Model, thinking: AgentThinkingLevel, persist: boolean): void {
    this.agent.state.model = model;
    this.sessionManager.appendModelChange(model.provider, model.id);
    if (persist) {
      this.settingsManager.setDefaultModelAndProvider(model.provider, model.id);
      this.#addPersistedDefaultToScope(model);
    }
    // A model switch does not rewrite the saved default thinking level (1.6.0).
    this.setThinkingLevel(thinking);
  }

  /**
   * A model saved as the default joins a non-empty model scope (and the `enabledModels` setting that
   * made it), so Ctrl+P still reaches it, as in 1.6.0.
   */
  #addPersistedDefaultToScope(model: Model): void {
    if (this.#scopedModels.length === 0) return;
    if (this.#scopedModels.some((scoped) => modelsAreEqual(scoped.model, model))) return;
    this.#scopedModels = [...this.#scopedModels, { model }];
    const enabled = this.settingsManager.getEnabledModels();
    if (!enabled?.length) return;
    const reference = `${model.provider}/${model.id}`;
    if (enabled.some((pattern) => pattern.toLowerCase() === reference.toLowerCase())) return;
    this.settingsManager.setEnabledModels([...enabled, reference]);
  }

  /** Moves to the next (or previous) scoped or available model; undefined when there is only one. */
  cycleModel(
    direction: "forward" | "backward" = "forward",
    options: { persist?: boolean } = {},
  ): Promise<ModelCycleResult | undefined> {
    const scoped = this.#scopedModels.length > 0;
    const candidates: ScopedModel[] = scoped
      ? this.#scopedModels.filter((s) => this.modelRegistry.hasConfiguredAuth(s.model))
      : this.modelRegistry.getAvailable().map((model) => ({ model }));
    if (candidates.length <= 1) return Promise.resolve(undefined);
    const current = this.model;
    let index = candidates.findIndex((c) => current && modelsAreEqual(c.model, current));
    if (index === -1) index = 0;
    const len = candidates.length;
    const next = candidates[direction === "forward" ? (index + 1) % len : (index - 1 + len) % len];
    this.#applyModel(
      next.model,
      this.#thinkingForSwitch(next.model, next.thinkingLevel),
      options.persist === true,
    );
    return Promise.resolve({ model: next.model, thinkingLevel: this.thinkingLevel, isScoped: scoped });
  }

  /**
   * The level a switch to `target` takes, as in 1.6.0: the scope's explicit level, else the model's own
   * (`modelThinkingLevels`), else the saved default, else the current one.
   */
  #thinkingForSwitch(target: Model, explicit?: AgentThinkingLevel): AgentThinkingLevel {
    if (explicit !== undefined) return explicit;
    const own = this.settingsManager.getModelThinkingLevel(target.provider, target.id);
    if (own !== undefined) return own as AgentThinkingLevel;
    return (this.settingsManager.getDefaultThinkingLevel() ?? this.thinkingLevel ??
      DEFAULT_THINKING_LEVEL) as AgentThinkingLevel;
  }

  /**
   * Sets the thinking level, clamped to the model, and records a change in the session. The level is
   * the session's own: only `persist: true` (the selector's Ctrl+S) saves the requested level as the
   * default in settings.json, as in pi 1.6.0.
   */
  setThinkingLevel(level: AgentThinkingLevel, options: { persist?: boolean } = {}): void {
    const available = this.getAvailableThinkingLevels();
    const model = this.model;
    const effective = available.includes(level) ? level : model ? clampThinkingLevel(model, level) : "off";
    const previous = this.agent.state.thinkingLevel;
    this.agent.state.thinkingLevel = effective;
    if (options.persist) this.settingsManager.setDefaultThinkingLevel(level);
    if (effective === previous) return;
    this.sessionManager.appendThinkingLevelChange(effective);
    this.#emit({ type: "thinking_level_changed", level: effective });
  }

  /** The next thinking level; undefined when the model does not reason. */
  cycleThinkingLevel(): AgentThinkingLevel | undefined {
    if (!this.supportsThinking()) return undefined;
    const levels = this.getAvailableThinkingLevels();
    const next = levels[(levels.indexOf(this.thinkingLevel) + 1) % levels.length];
    this.setThinkingLevel(next);
    return next;
  }

  /** Levels the current model supports. */
  getAvailableThinkingLevels(): AgentThinkingLevel[] {
    const model = this.model;
    return (model ? getSupportedThinkingLevels(model) : [...THINKING_LEVELS]) as AgentThinkingLevel[];
  }

  /** Whether the current model reasons. */
  supportsThinking(): boolean {
    return !!this.model?.reasoning;
  }

  /** Sets and saves the steering queue mode. */
  setSteeringMode(mode: "all" | "one-at-a-time"): void {
    this.agent.steeringMode = mode;
    this.settingsManager.setSteeringMode(mode);
  }

  /** Sets and saves the follow-up queue mode. */
  setFollowUpMode(mode: "all" | "one-at-a-time"): void {
    this.agent.followUpMode = mode;
    this.settingsManager.setFollowUpMode(mode);
  }

  // ── compaction (LOOP-10…14) ────────────────────────────────────────────

  /** Summarises older history now; rejects with "Already compacted", "Nothing to compact …" or the failure. */
  compact(customInstructions?: string): Promise<CompactionResult> {
    return this.#compactor.compactNow(customInstructions);
  }

  /** Cancels a running compaction. */
  abortCompaction(): void {
    this.#compactor.abort();
  }

  /** True while a compaction or a tree-navigation branch summary runs. */
  get isCompacting(): boolean {
    return this.#compactor.isCompacting || isBranchSummaryRunning(this.#host);
  }

  /** Whether compaction runs automatically (saved in settings). */
  get autoCompactionEnabled(): boolean {
    return this.settingsManager.getCompactionEnabled();
  }

  /** Turns automatic compaction on or off (saved in settings). */
  setAutoCompactionEnabled(enabled: boolean): void {
    this.settingsManager.setCompactionEnabled(enabled);
  }

  // ── auto-retry (LOOP-07…09) ────────────────────────────────────────────

  /** Cancels a retry that is waiting out its delay. */
  abortRetry(): void {
    this.#retrier.abort();
  }

  /** Resolves once any retry in progress has finished. */
  waitForRetry(): Promise<void> {
    return this.#retrier.wait();
  }

  // ── user bash (`!cmd`) ─────────────────────────────────────────────────

  /** Runs a user shell command and records it (kept out of the model's context with `excludeFromContext`). */
  executeBash(
    command: string,
    onChunk?: (text: string) => void,
    options: { excludeFromContext?: boolean; operations?: BashOperations } = {},
  ): Promise<BashResult> {
    return this.#bash.execute(command, onChunk, options);
  }

  /** Records a bash run in the transcript and session (deferred while streaming). */
  recordBashResult(
    command: string,
    result: BashResult,
    options: { excludeFromContext?: boolean } = {},
  ): void {
    this.#bash.record(command, result, options);
  }

  /** Cancels the running user command. */
  abortBash(): void {
    this.#bash.abort();
  }
  /** Whether a `!` bash command is running. */
  get isBashRunning(): boolean {
    return this.#bash.isRunning;
  }
  /** Whether results of `!` commands wait to be added to the transcript. */
  get hasPendingBashMessages(): boolean {
    return this.#bash.hasPending;
  }

  // ── session info and statistics ────────────────────────────────────────

  /** Names the session. */
  setSessionName(name: string): void {
    this.sessionManager.appendSessionInfo(name);
    this.#emit({ type: "session_info_changed", name: this.sessionManager.getSessionName() });
  }

  /** User messages that a fork can start from. */
  getUserMessagesForForking(): { entryId: string; text: string }[] {
    return forkableUserMessages(this.sessionManager.getEntries());
  }

  /**
   * Token, cost and message counts over every entry of the session file, as pi 1.6.0 counts them:
   * history a compaction summarised away and other branches still count (they were billed), and so
   * does the usage of summaries and `usage` entries.
   */
  getSessionStats(): SessionStats {
    return {
      sessionFile: this.sessionFile,
      sessionId: this.sessionId,
      ...computeSessionStats(this.sessionManager.getEntries()),
      contextUsage: this.getContextUsage(),
    };
  }

  /** How full the model's context window is. */
  getContextUsage(): ContextUsage | undefined {
    const model = this.model;
    if (!model) return undefined;
    return computeContextUsage(model, this.sessionManager.getBranch(), this.agent.state.messages);
  }

  // ── tree navigation and JSONL export (reference method names; logic in session_tree.ts / session_export.ts) ──

  /** Moves to another entry of this session's tree, optionally summarizing the abandoned path. */
  navigateTree(targetId: string, options?: NavigateTreeOptions): Promise<NavigateTreeResult> {
    return navigateTree(this.#host, targetId, options);
  }

  /** Cancels a running branch summary. */
  abortBranchSummary(): void {
    abortBranchSummary(this.#host);
  }

  /** Writes the current branch as a linear JSONL session file; returns its absolute path. */
  exportToJsonl(outputPath?: string): string {
    return exportToJsonl(this, outputPath);
  }

  /**
   * Writes the whole session (every branch, opening on the current leaf, with the system prompt
   * and tools) as a self-contained HTML page; returns the path written. Default name:
   * `pi-session-<session file name>.html` in the current folder. The exporter loads on first use.
   * Colours: `options.theme`, else the first of `options.themeName` and the `theme` setting that
   * names a loadable theme (as 1.6.0), else 1.6.0's default palette.
   */
  async exportToHtml(
    outputPath?: string,
    options: { themeName?: string; theme?: ThemeJson } = {},
  ): Promise<string> {
    const { exportSessionToHtml } = await import("./export/export_html.ts");
    const { firstExportTheme } = await import("./export/export_theme_lookup.ts");
    const theme = options.theme ?? firstExportTheme([options.themeName, this.settingsManager.getTheme()]);
    const { systemPrompt, tools } = this.agent.state;
    return await exportSessionToHtml(this.sessionManager, { systemPrompt, tools }, { outputPath, theme });
  }

  /** Text of the last assistant reply (aborted empty replies skipped). */
  getLastAssistantText(): string | undefined {
    return lastAssistantText(this.agent.state.messages);
  }
}
