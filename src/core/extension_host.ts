/**
 * Binds loaded extensions to an {@link AgentSession}: their tools join the session's, their
 * handlers see agent events (before the session's listeners), `tool_call` / `tool_result` wrap
 * each tool run, `context` rewrites each request, `input` and extension commands come first for
 * every prompt, `before_agent_start` adds messages or a system prompt to a run, and the `pi`
 * object's actions reach the session. Everything in src/extensions is loaded through dynamic
 * imports from here, and only when {@link hasExtensionSources} says there is something to load,
 * so runs without extensions never load it.
 *
 * @module
 */
import { permissionDeniedText } from "../tools/permission_errors.ts";
import { existsSync } from "../util/fs.ts";
import { readEnv } from "../util/env.ts";
import { join } from "../util/path.ts";
import { CONFIG_DIR_NAME } from "../config/paths.ts";
import type { AgentEvent, AgentMessage, AgentToolResult } from "../agent/types.ts";
import type { ImageContent } from "../ai/types.ts";
import type { ExtensionRunner } from "../extensions/runner.ts";
import type { ExtensionRuntime } from "../extensions/api.ts";
import type { PackageExtensionPath } from "../extensions/discovery.ts";
import type {
  ExtensionContext,
  ExtensionError,
  ExtensionLoadError,
  ExtensionToolDefinition,
  ExtensionUIContext,
} from "../extensions/types.ts";
import type { AgentSession, SessionTool } from "./agent_session.ts";
import { noOpUI, withPlainTheme } from "./extension_ui.ts";
import { sessionActions } from "./extension_actions.ts";
import { installUncaughtGuard } from "./extension_guard.ts";
import { bindProviderEvents, boundaryDispatcher } from "./extension_events.ts";
import { bindExtensionProviders } from "./extension_providers.ts";
import type { SourceInfo } from "../resources/source_info.ts";
import type { AgentSessionRuntimeHooks } from "./session_runtime.ts";
import type { BeforeTreeResult, NavigateTreeHooks } from "./session_tree.ts";
import type { BuildSystemPromptOptions } from "../resources/system_prompt.ts";
import {
  discoverExtensionResources,
  extensionPromptOptions,
  promptForRun,
  renderPromptOptions,
  resourceCommandMembers,
} from "./extension_resources.ts";
import {
  commandContextMembers,
  type ReplacementCallback,
  replacementSenders,
  type SessionControl,
  STALE_EXTENSION_CONTEXT,
} from "./extension_session_control.ts";

/** Where extensions may come from for one run. */
export interface ExtensionSources {
  cwd: string;
  agentDir: string;
  projectTrusted: boolean;
  /** `-e` paths. */
  cliPaths?: readonly string[];
  /** The agent dir's `settings.json` `extensions`. */
  globalSettingsPaths?: readonly string[];
  /** The project's `.pi/settings.json` `extensions` (read only when the project is trusted). */
  projectSettingsPaths?: readonly string[];
  /** `--no-extensions`. */
  noExtensions?: boolean;
  /** Extension files of installed packages (see `resolvePackageExtensions`). */
  packagePaths?: readonly PackageExtensionPath[];
  /** Extension files of the `-e npm:…` / `-e git:…` one-off packages (see `resolveTemporaryPackageExtensions`). */
  temporaryPaths?: readonly PackageExtensionPath[];
  /** The user's `extensionPermissions` setting: extensions it names run in Workers (src/extensions/worker_host.ts). */
  extensionPermissions?: Record<string, unknown>;
}

/**
 * Whether anything could load: `-e`, a settings entry, or an extensions folder. Cheap (a few
 * `stat`s), so the start-up path can ask it without loading src/extensions.
 */
export function hasExtensionSources(sources: ExtensionSources): boolean {
  if ((sources.cliPaths?.length ?? 0) > 0) return true;
  if (sources.noExtensions) return false;
  if ((sources.packagePaths?.length ?? 0) > 0) return true;
  const settings = [...(sources.globalSettingsPaths ?? []), ...(sources.projectSettingsPaths ?? [])];
  if (settings.some((entry) => !/^[+\-!]?builtin:/.test(entry))) return true;
  if (existsSync(join(sources.agentDir, "extensions"))) return true;
  return sources.projectTrusted && existsSync(join(sources.cwd, CONFIG_DIR_NAME, "extensions"));
}

/** How the mode running the session wants extension output. */
export interface ExtensionBindings {
  /** `ctx.ui`; without one, 1.6.0's no-op UI (dialogs answer undefined / false). */
  ui?: ExtensionUIContext;
  /** `ctx.mode`; by default `rpc` with a `ui`, `print` without. */
  mode?: "tui" | "rpc" | "json" | "print";
  /** Hears handler errors (print/JSON: a stderr line; RPC: an `extension_error` record). */
  onError(error: ExtensionError): void;
  /**
   * A command's `ctx.newSession()`, `ctx.fork()`, `ctx.switchSession()` and `ctx.navigateTree()`: the
   * mode's session runtime replaces the session (see `runtimeSessionControl`). A missing member rejects.
   */
  sessionControl?: SessionControl;
  /** `ctx.shutdown()`: the mode ends the run once idle (RPC); without it the call does nothing. */
  shutdown?: () => void;
  /** A command's `ctx.reload()`: the mode's `/reload` (RPC); without it the call rejects. */
  reload?: () => Promise<void>;
}

/** What a command may pass to `ctx.newSession()`; `withSession` runs once the new session is served. */
export interface NewSessionOptions {
  parentSession?: string;
  setup?: (sessionManager: AgentSession["sessionManager"]) => Promise<void>;
  withSession?: ReplacementCallback;
}

/** The `session_start` fields for the next session bound, set when a replacement ends the current one. */
let pendingStart: { reason: string; previousSessionFile?: string } | undefined;

/** Loaded extensions, ready to bind to a session. */
export class ExtensionHost {
  readonly runner: ExtensionRunner;
  readonly runtime: ExtensionRuntime;
  /** Extensions that failed to load, with 1.6.0's message. */
  readonly loadErrors: readonly ExtensionLoadError[];
  /** Discovery warnings (unsupported settings entries). */
  readonly warnings: readonly string[];
  #session: AgentSession | undefined;
  #ui: ExtensionUIContext = noOpUI();
  #hasUI = false;
  #mode: "tui" | "rpc" | "json" | "print" = "print";
  #sessionControl: SessionControl = {};
  /** Set once this host's session was replaced or ended: every `ctx` and `pi` action then throws it. */
  #stale: string | undefined;
  #shutdown: ExtensionBindings["shutdown"];
  #reload: ExtensionBindings["reload"];
  #knownTools = new Set<string>();
  #turnIndex = 0;
  #unsubscribeMcp: (() => void) | undefined;

  constructor(
    runner: ExtensionRunner,
    runtime: ExtensionRuntime,
    loadErrors: ExtensionLoadError[],
    warnings: string[],
  ) {
    this.runner = runner;
    this.runtime = runtime;
    this.loadErrors = loadErrors;
    this.warnings = warnings;
  }

  /** The extensions' slash commands as `get_commands` lists them. */
  commandList(): { name: string; description?: string; source: string; sourceInfo?: SourceInfo }[] {
    return this.runner.commands().map((c) => ({
      name: c.name,
      description: c.description,
      source: "extension",
      sourceInfo: c.sourceInfo,
    }));
  }

  /** The registered flags (for `--help` and the command line). */
  flags(): { name: string; description?: string; type: "boolean" | "string"; extensionPath: string }[] {
    return this.runner.flags();
  }

  /** Sets a flag's value from the command line. */
  setFlagValue(name: string, value: boolean | string): void {
    this.runtime.flagValues.set(name, value);
  }

  #current(): AgentSession {
    this.#assertActive();
    if (!this.#session) throw new Error("Extension runtime not initialized");
    return this.#session;
  }

  #assertActive(): void {
    if (this.#stale !== undefined) throw new Error(this.#stale);
  }

  /**
   * Makes every `ctx` and `pi` action of these extensions throw 1.6.0's stale-context error: their
   * session was replaced (or ended). Errors their late handlers report are no longer shown.
   */
  invalidate(message = STALE_EXTENSION_CONTEXT): void {
    if (this.#stale !== undefined) return;
    this.#stale = message;
    this.runtime.staleMessage = message;
    this.runtime.reportError = () => {};
  }

  /** `ctx` as handlers, tools and commands see it. */
  context(): ExtensionContext {
    const session = () => this.#current();
    const active = () => this.#assertActive();
    const ui = () => (active(), this.#ui);
    const hasUI = () => (active(), this.#hasUI);
    const mode = () => (active(), this.#mode);
    const requestShutdown = () => (active(), this.#shutdown);
    return {
      get ui() {
        return ui();
      },
      get hasUI() {
        return hasUI();
      },
      get mode() {
        return mode();
      },
      get cwd() {
        return session().cwd;
      },
      get sessionManager() {
        return session().sessionManager;
      },
      get modelRegistry() {
        return session().modelRegistry;
      },
      get model() {
        return session().model;
      },
      get thinkingLevel() {
        return session().thinkingLevel;
      },
      isIdle: () => session().isIdle,
      signal: undefined,
      abort: () => void session().abort(),
      hasPendingMessages: () => session().pendingMessageCount > 0,
      shutdown: () => requestShutdown()?.(),
      getContextUsage: () => session().getContextUsage(),
      compact: (options?: unknown) => {
        const opts = options as
          | { customInstructions?: string; onComplete?: (r: unknown) => void; onError?: (e: Error) => void }
          | undefined;
        session().compact(opts?.customInstructions).then(
          (result) => opts?.onComplete?.(result),
          (error) => opts?.onError?.(error instanceof Error ? error : new Error(String(error))),
        );
      },
      getSystemPrompt: () => session().systemPrompt,
      isProjectTrusted: () => session().settingsManager.isProjectTrusted(),
      waitForIdle: () => session().settle(),
    };
  }

  /** A command's `ctx`: the handlers' one plus the session control 1.6.0 gives commands only. */
  #commandContext(): ExtensionContext {
    // defineProperties, not assign: assign would read the guarded getters once and freeze them.
    const ctx = Object.defineProperties(
      this.context(),
      Object.getOwnPropertyDescriptors(commandContextMembers({
        assertActive: () => this.#assertActive(),
        session: () => this.#current(),
        control: () => this.#sessionControl,
        mode: () => this.#mode,
        replacedContext: (session) => replacedContextOf(session),
        treeHooks: () => this.treeHooks(),
      })),
    );
    return Object.defineProperties(
      ctx,
      Object.getOwnPropertyDescriptors(resourceCommandMembers({
        session: () => this.#current(),
        reload: this.#reload,
        mode: () => this.#mode,
      })),
    );
  }

  /**
   * The context a command's `withSession` callback gets: a command context of the replacement
   * session, whose `sendMessage`/`sendUserMessage` return promises (1.6.0's `ReplacedSessionContext`).
   */
  replacedContext(): ExtensionContext {
    const session = this.#current();
    return Object.defineProperties(
      this.#commandContext(),
      Object.getOwnPropertyDescriptors(replacementSenders(session)),
    );
  }

  /** The extensions' tools as session tools; each run gets the current `ctx`. */
  sessionTools(): SessionTool[] {
    return this.runner.tools().map(({ tool }) => {
      this.#knownTools.add(tool.name);
      return this.#wrapTool(tool);
    });
  }

  #wrapTool(tool: ExtensionToolDefinition): SessionTool {
    const { execute, ...rest } = tool;
    return {
      ...rest,
      label: tool.label ?? tool.name,
      parameters: tool.parameters as SessionTool["parameters"],
      execute: async (toolCallId, params, signal, onUpdate) => {
        try {
          return await execute(
            toolCallId,
            params,
            signal,
            onUpdate as (p: AgentToolResult) => void,
            this.context(),
          );
        } catch (error) {
          // Deno refusing a permission (--sandbox) reads as such, as for the built-in tools.
          const denied = permissionDeniedText(error);
          throw denied === undefined ? error : new Error(denied);
        }
      },
    } as SessionTool;
  }

  /** Tools registered since the session started (from handlers or commands) join it. */
  #refreshTools(): void {
    const session = this.#session;
    if (!session) return;
    const fresh = this.runner.tools().filter(({ tool }) => !this.#knownTools.has(tool.name));
    if (fresh.length === 0) return;
    for (const { tool } of fresh) this.#knownTools.add(tool.name);
    session.addTools(fresh.map(({ tool }) => this.#wrapTool(tool)));
  }

  /** Binds the extensions to `session` and runs their `session_start` handlers. */
  async bind(session: AgentSession, bindings: ExtensionBindings): Promise<void> {
    this.#session = session;
    if (bindings.ui) {
      this.#ui = withPlainTheme(bindings.ui);
      this.#hasUI = true;
    }
    this.#mode = bindings.mode ?? (bindings.ui ? "rpc" : "print");
    this.#sessionControl = bindings.sessionControl ?? {};
    this.#shutdown = bindings.shutdown;
    this.#reload = bindings.reload;
    this.runner.onError(bindings.onError);
    this.runtime.reportError = bindings.onError;
    this.runtime.onToolRegistered = () => this.#refreshTools();
    // pi.registerProvider() from now on changes the models at once (the queue went in before --model).
    bindExtensionProviders(this.runtime, session, (error) => this.runner.emitError(error));
    // Servers registered from now on are announced; those registered while loading are read at start.
    const mcpServers = this.runtime.mcpServers;
    this.#unsubscribeMcp?.();
    this.#unsubscribeMcp = mcpServers?.subscribe(() => {
      void this.runner.emit({ type: "mcp_servers_change", servers: mcpServers.list() });
    });
    this.runtime.actions = sessionActions(session, {
      runner: this.runner,
      refreshTools: () => this.#refreshTools(),
      commandList: () => this.commandList(),
      context: () => this.context(),
    });
    installUncaughtGuard(this);
    const runner = this.runner;
    session.agent.beforeToolCall = async ({ toolCall, args }) => {
      if (!runner.hasHandlers("tool_call")) return undefined;
      // A throwing handler blocks the call with its message (fails closed, as in 1.6.0).
      return await runner.emitToolCall({ toolName: toolCall.name, toolCallId: toolCall.id, input: args });
    };
    session.agent.afterToolCall = async ({ toolCall, args, result, isError }) => {
      if (!runner.hasHandlers("tool_result")) return undefined;
      return await runner.emitToolResult({
        toolName: toolCall.name,
        toolCallId: toolCall.id,
        input: args,
        content: result.content,
        details: result.details,
        ...(result.structuredContent === undefined ? {} : { structuredContent: result.structuredContent }),
        isError,
      });
    };
    const previousTransform = session.agent.transformContext;
    session.agent.transformContext = async (messages, signal) => {
      const base = previousTransform ? await previousTransform(messages, signal) : messages;
      return await runner.emitContext(base);
    };
    bindProviderEvents(session, runner);
    session.setExtensionHooks({
      onAgentEvent: (event) => this.#onAgentEvent(event),
      boundaries: boundaryDispatcher(runner, () => this.#turnIndex),
      input: (text, images, source, commandsAllowed) => this.#input(text, images, source, commandsAllowed),
      beforeAgentStart: (prompt, images, systemPrompt, options) =>
        this.#beforeAgentStart(prompt, images, systemPrompt, options),
    });
    // A run settled (no retry or queued work left): a session event, not among the agent events
    // above, that 1.6.0 also hands extensions (border-status-editor stops its spinner on it).
    session.subscribe((event) => {
      if (event.type === "agent_settled" && runner.hasHandlers("agent_settled")) {
        void runner.emit({ type: "agent_settled", aborted: event.aborted });
      }
    });
    // After a replacement, why this session started and which one it replaced (1.6.0).
    const start = pendingStart ?? { reason: "startup" };
    pendingStart = undefined;
    await runner.emit({ type: "session_start", ...start });
    await discoverExtensionResources(runner, session, start.reason === "reload" ? "reload" : "startup");
    this.#refreshTools();
  }

  /** Agent events as 1.6.0 hands them to extensions (its shapes, a turn index, message_end replacement). */
  async #onAgentEvent(event: AgentEvent): Promise<void> {
    if (event.type === "agent_start") this.#turnIndex = 0;
    if (event.type === "turn_end") this.#turnIndex++;
    if (!this.runner.hasHandlers(event.type)) return;
    const runner = this.runner;
    switch (event.type) {
      case "agent_start":
        await runner.emit({ type: "agent_start" });
        return;
      case "turn_start":
        // turn_end has already counted the turn that ended, so this is the new turn's index.
        await runner.emit({ type: "turn_start", turnIndex: this.#turnIndex, timestamp: Date.now() });
        return;
      case "turn_end":
        // Dispatched already, as an actionable boundary, before this event (src/core/session_boundary.ts).
        return;
      case "message_end": {
        const replacement = await runner.emitMessageEnd(event.message);
        // In place, as 1.6.0 does: the agent's state, later events and the session file all hold
        // this object.
        if (replacement && replacement !== event.message) {
          const target = event.message as unknown as Record<string, unknown>;
          for (const key of Object.keys(target)) delete target[key];
          Object.assign(target, replacement);
        }
        return;
      }
      default:
        await runner.emit(event as unknown as Record<string, unknown> & { type: string });
    }
  }

  async #input(
    text: string,
    images: ImageContent[] | undefined,
    source: string,
    commandsAllowed: boolean,
  ): Promise<{ handled: true } | { text: string; images?: ImageContent[] }> {
    if (commandsAllowed && text.startsWith("/")) {
      const space = text.indexOf(" ");
      const name = space === -1 ? text.slice(1) : text.slice(1, space);
      const command = this.runner.command(name);
      if (command) {
        try {
          await command.handler(space === -1 ? "" : text.slice(space + 1), this.#commandContext());
        } catch (error) {
          this.runner.emitError({
            extensionPath: `command:${name}`,
            event: "command",
            error: error instanceof Error ? error.message : String(error),
          });
        }
        return { handled: true };
      }
    }
    if (!this.runner.hasHandlers("input")) return { text, images };
    const result = await this.runner.emitInput(text, images, source);
    if (result.action === "handled") return { handled: true };
    if (result.action === "transform") return { text: result.text, images: result.images ?? images };
    return { text, images };
  }

  async #beforeAgentStart(
    prompt: string,
    images: ImageContent[] | undefined,
    systemPrompt: string,
    promptOptions: () => BuildSystemPromptOptions,
  ): Promise<
    {
      messages: AgentMessage[];
      systemPrompt?: string;
      sections?: Record<string, string>;
      selectedTools?: string[];
    }
  > {
    if (!this.runner.hasHandlers("before_agent_start")) return { messages: [] };
    const base = promptOptions();
    const systemPromptOptions = extensionPromptOptions(base);
    const toolsBefore = base.selectedTools ?? [];
    const result = await this.runner.emitBeforeAgentStart(prompt, images, systemPrompt, {
      systemPromptOptions,
      render: (options) => renderPromptOptions(options, base.documentation),
    });
    const messages = result.messages.map((m) =>
      ({
        role: "custom",
        customType: m.customType,
        content: m.content ?? [],
        display: m.display,
        details: m.details,
        timestamp: Date.now(),
      }) as unknown as AgentMessage
    );
    // An edit of selectedTools wins; else the live tools do (a handler's pi.setActiveTools()), as 1.6.0.
    const tools = systemPromptOptions.selectedTools as string[];
    const edited = tools.length !== toolsBefore.length || tools.some((name, i) => name !== toolsBefore[i]);
    if (!edited) systemPromptOptions.selectedTools = this.#current().getActiveToolNames();
    // The hidden declarations are the session's to decide (1.6.0 sets them back too).
    systemPromptOptions.hiddenTools = [...(base.hiddenTools ?? [])];
    return {
      messages,
      ...(edited ? { selectedTools: [...tools] } : {}),
      ...promptForRun(systemPromptOptions, promptOptions()),
    };
  }

  /** Runs `session_shutdown` handlers (`reason`: quit, or the replacement that ends the session). */
  async shutdown(
    reason: "quit" | "new" | "resume" | "fork" | "reload" = "quit",
    targetSessionFile?: string,
  ): Promise<void> {
    if (!this.#session) return;
    await this.runner.emit({
      type: "session_shutdown",
      reason,
      ...(targetSessionFile === undefined ? {} : { targetSessionFile }),
    });
  }

  /**
   * `session_before_tree` (may cancel, supply the summary, or change instructions and label) and
   * `session_tree` around a move in the session tree, as 1.6.0 emits them for `/tree` and
   * `ctx.navigateTree()`.
   */
  treeHooks(): NavigateTreeHooks {
    return {
      onBeforeTree: async (preparation, signal) => {
        if (!this.runner.hasHandlers("session_before_tree")) return undefined;
        return await this.runner.emit({ type: "session_before_tree", preparation, signal }) as
          | BeforeTreeResult
          | undefined;
      },
      onTree: async (event) => {
        await this.runner.emit({ type: "session_tree", ...event });
      },
    };
  }

  /**
   * The runtime hooks around session replacement (RPC `new_session`, `switch_session`, `fork`,
   * `clone`, and the end): `session_before_switch` / `session_before_fork` may cancel, then
   * `session_shutdown`.
   */
  runtimeHooks(): AgentSessionRuntimeHooks {
    return {
      beforeSwitch: (event) => this.runner.emit({ type: "session_before_switch", ...event }),
      beforeFork: (event) => this.runner.emit({ type: "session_before_fork", ...event }),
      shutdown: async (event) => {
        if (event.reason !== "quit") {
          // A reload goes on with the same session: 1.6.0 names no previous file then.
          const previousSessionFile = event.reason === "reload" ? undefined : this.#session?.sessionFile;
          pendingStart = { reason: event.reason, ...(previousSessionFile ? { previousSessionFile } : {}) };
        }
        await this.shutdown(event.reason, event.targetSessionFile);
        // As 1.6.0 disposing the session: what was captured of these extensions is stale now.
        this.invalidate();
      },
    };
  }
}

/** The replacement session's context for `withSession` (its own extensions; 1.6.0 always has some). */
function replacedContextOf(session: AgentSession): ExtensionContext {
  const host = extensionHostOf(session);
  if (!host) throw new Error("Extension runtime not initialized");
  return host.replacedContext();
}

const hosts = new WeakMap<AgentSession, ExtensionHost>();

/** Remembers which extensions belong to `session` (set where the session is created). */
export function attachExtensionHost(session: AgentSession, host: ExtensionHost): void {
  hosts.set(session, host);
}

/** The extensions created with `session`, if any. */
export function extensionHostOf(session: AgentSession): ExtensionHost | undefined {
  return hosts.get(session);
}

/**
 * Discovers and loads the extensions of `sources` (src/extensions is imported here, lazily) and
 * applies command-line values to the flags they register. `unknownFlags` are the command line's
 * unrecognised `--name[=value]` options.
 */
export async function loadExtensionHost(
  sources: ExtensionSources,
  options: { factoryTimeoutMs?: number } = {},
): Promise<ExtensionHost> {
  const [{ discoverExtensions }, { loadExtensions, extensionCacheDir }, { ExtensionRunner }] = await Promise
    .all([
      import("../extensions/discovery.ts"),
      import("../extensions/loader.ts"),
      import("../extensions/runner.ts"),
    ]);
  const discovered = discoverExtensions(sources);
  const loaded = await loadExtensions(discovered.extensions, {
    cwd: sources.cwd,
    cacheDir: extensionCacheDir(sources.agentDir),
    factoryTimeoutMs: options.factoryTimeoutMs,
    extensionPermissions: {
      setting: sources.extensionPermissions,
      settingsFile: join(sources.agentDir, "settings.json"),
      agentDir: sources.agentDir,
      home: readEnv("HOME"),
    },
  });
  // The runner asks the host for `ctx` only once handlers run, after the host exists.
  const host: ExtensionHost = new ExtensionHost(
    new ExtensionRunner(loaded.extensions, () => host.context()),
    loaded.runtime,
    [...loaded.errors, ...discovered.missing],
    discovered.warnings,
  );
  return host;
}
