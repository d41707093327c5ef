/**
 * The interactive mode (`pi` in a terminal): the start-up header, the chat, the prompt editor and
 * the footer on the terminal's main screen, driven by the session runtime from src/core as RPC
 * mode drives it. The terminal is given back (cooked mode, cursor shown) on every way out:
 * /quit, Ctrl+C twice, Ctrl+D on an empty editor, SIGTERM, SIGHUP, an uncaught error.
 *
 * @module
 */
import type { ImageContent } from "../../ai/types.ts";
import type { AgentSession } from "../../core/agent_session.ts";
import type { AgentSessionEvent, CompactionReason } from "../../core/agent_session_types.ts";
import type { ExtensionHost } from "../../core/extension_host.ts";
import { type SessionRuntimeHost, toRuntimeHost } from "../../core/runtime_host.ts";
import { onTerminationSignal } from "../../core/shutdown.ts";
import { attachSessionNotices } from "../../core/session_notices.ts";
import { extensionHostOf } from "../../core/extension_host.ts";
import { decideUserBash } from "../../core/user_bash.ts";
import type { ExtensionError, ExtensionUIContext } from "../../extensions/types.ts";
import {
  CombinedAutocompleteProvider,
  type Component,
  Container,
  Spacer,
  Text,
  type TuiAltScreen,
  type TuiMainScreen,
} from "../../tui/mod.ts";
import { AppEditor, WorkingIndicator } from "./app_editor.ts";
import { keyText } from "./app_keys.ts";
import { setupAppKeybindings } from "./keybindings_actions.ts";
import type { AppKeybindings } from "./keybindings_app.ts";
import { BashExecutionView } from "./bash_execution.ts";
import { ChatView } from "./chat_view.ts";
import { type CommandHost, SlashCommandRunner } from "./command_runner.ts";
import { extensionRenderers } from "./extension_renderers.ts";
import { customEntriesByMessage } from "./stored_custom_entries.ts";
import { Footer, readGitBranch } from "./footer.ts";
import { StartupHeader } from "./header.ts";
import { createScreen, type TuiMode } from "./screen.ts";
import { applyDisplaySettings } from "./display_settings.ts";
import { cycleModel } from "./model_cycle.ts";
import { showModelScopeNotice } from "./model_scope_notice.ts";
import { TuiExtensionUI } from "./extension_ui_tui.ts";
import { loadTheme, type Theme } from "./theme.ts";
import type { ThemeController } from "./theme_controller.ts";
import { extensionThemeFiles, setUpThemes, type ThemeRunOptions, type ThemeSetup } from "./theme_setup.ts";
import { getAgentDir } from "../../config/paths.ts";
import { tmuxKeyboardWarning } from "./tmux_check.ts";
import { addProjectTrustWarning } from "./startup_trust_prompt.ts";
import { resourceCommands } from "./resource_commands.ts";
import { LoadedResources } from "./loaded_resources.ts";
import { tuiSessionControl } from "./extension_session_tui.ts";
import type { SessionControl } from "../../core/extension_session_control.ts";

/** What the CLI hands the interactive mode besides the session. */
export interface InteractiveModeOptions {
  /** The version the header shows. */
  version: string;
  /** `--tui-mode`; the tuiMode setting otherwise. */
  tuiMode?: TuiMode;
  /** The first prompt (arguments, `@file`s), sent at start. */
  initialMessage?: string;
  /** Images of the first prompt. */
  initialImages?: ImageContent[];
  /** Further prompt arguments, sent one after another. */
  initialMessages?: string[];
  /** Warnings to show under the header (start-up diagnostics). */
  warnings?: string[];
  /** `--theme`, `--use-theme`, `--no-themes` and the agent dir the themes folder is in. */
  themes?: ThemeRunOptions;
  /**
   * Called with each session served (the first, and each /new one); the CLI binds extensions here,
   * with `extensionUI` as their `ctx.ui` and error display.
   */
  onSession?: (
    session: AgentSession,
    notify: (kind: "warning" | "error", text: string) => void,
    extensionUI: {
      ui: ExtensionUIContext;
      onError(error: ExtensionError): void;
      /** A command's `ctx.newSession()`, `fork()`, `switchSession()`, `navigateTree()`. */
      sessionControl: SessionControl;
      /** `ctx.shutdown()`: pi ends now when idle, else once the run settles (1.6.0). */
      shutdown(): void;
      /** A command's `ctx.reload()`: `/reload`, with its box and status line (1.6.0). */
      reload(): Promise<void>;
    },
  ) => Promise<void> | void;
}

/** Runs the interactive mode until the user leaves; resolves with the exit code. */
export function runInteractiveMode(
  target: AgentSession | SessionRuntimeHost,
  options: InteractiveModeOptions,
): Promise<number> {
  return new InteractiveApp(toRuntimeHost(target), options).run();
}

/** Two presses of the clear key this close together (ms) exit, as in 1.6.0. */
const DOUBLE_PRESS_MS = 500;

/** The running interactive mode: its components and the session they show. */
export class InteractiveApp implements CommandHost {
  /** The resolved theme. */
  readonly theme: Theme;
  /** The run's themes and the one in use (from the start of {@link InteractiveApp.run}). */
  themes?: ThemeController;
  /** The screen. */
  readonly ui: TuiMainScreen | TuiAltScreen;
  /** The transcript and queued messages. */
  readonly chat: ChatView;
  /** The prompt editor shown now (an extension's editor may replace it: setEditorComponent). */
  editor: AppEditor;
  /** Holds the editor, or a selector while one is open. */
  readonly editorContainer = new Container();
  /** The keybindings (keybindings.json applied), installed when {@link InteractiveApp.run} starts. */
  keybindings?: AppKeybindings;
  readonly #header = new Container();
  readonly #footer: Footer;
  readonly #commands: SlashCommandRunner;
  /** `ctx.ui` of the extensions: dialogs, widgets, statuses, shortcuts. */
  readonly #extensionUI: TuiExtensionUI;
  #screenStarted = false;
  #working?: WorkingIndicator;
  #startupHeader?: StartupHeader;
  /** The loaded resources and their problems, under the header. */
  #resources?: LoadedResources;
  #unsubscribe?: () => void;
  #stopSignals?: () => void;
  #lastClear = 0;
  /** When Escape was last pressed on an empty editor (a second press soon after opens /tree). */
  #lastEscape = 0;
  /** The editor's text starts with `!`: its border takes the bash colour. */
  #bashMode = false;
  #exiting = false;
  /** An extension asked to end pi while a run was going (`ctx.shutdown()`): it ends once settled. */
  #shutdownRequested = false;
  #resolveExit!: (code: number) => void;
  readonly #exited = new Promise<number>((resolve) => this.#resolveExit = resolve);

  /** Builds the screen over `host`; nothing is drawn until {@link InteractiveApp.run}. */
  constructor(readonly host: SessionRuntimeHost, private readonly options: InteractiveModeOptions) {
    const settings = host.session.settingsManager;
    this.theme = loadTheme(settings.getTheme());
    this.chat = new ChatView(this.theme, settings.getHideThinkingBlock(), {
      cwd: host.session.sessionManager.getCwd(),
      home: Deno.env.get("HOME"),
    });
    this.chat.onChange = () => this.ui.requestRender();
    this.chat.renderers = extensionRenderers(() => this.extensions());
    this.chat.abortText = () => {
      const attempts = this.session.retryAttempt;
      return attempts > 0
        ? `Aborted after ${attempts} retry attempt${attempts > 1 ? "s" : ""}`
        : "Operation aborted";
    };
    this.#extensionUI = new TuiExtensionUI(this);
    this.#extensionUI.onWorkingChange = () => this.#workingChanged();
    this.#footer = new Footer(() => this.session, this.theme, {
      gitBranch: readGitBranch(host.session.sessionManager.getCwd()),
      home: Deno.env.get("HOME") ?? Deno.env.get("USERPROFILE"),
      statuses: this.#extensionUI.statuses,
    });
    const document = new Container();
    document.addChild(this.#header);
    this.#resources = new LoadedResources(this.theme, Deno.env.get("HOME") ?? Deno.env.get("USERPROFILE"));
    document.addChild(this.#resources);
    document.addChild(this.chat.chat);
    this.ui = createScreen(options.tuiMode ?? settings.getTuiMode(), {
      document,
      // Queued messages, the status area (empty: the working indicator sits in the editor's
      // border), extension widgets above the editor (a blank row while none), the editor, then
      // widgets below it and the footer.
      dock: [
        this.chat.pending,
        new Container(),
        this.#extensionUI.widgetsAbove,
        this.editorContainer,
        containerOf(this.#extensionUI.widgetsBelow, this.#extensionUI.footerSlot(this.#footer)),
      ],
    }, this.theme);
    this.editor = new AppEditor(this.ui, {
      borderColor: (t) => this.theme.fg("borderMuted", t),
      selectList: this.theme.selectList(),
    });
    this.editorContainer.addChild(this.editor);
    this.#commands = new SlashCommandRunner(this);
  }

  /** Holds the start-up header (extensions may replace it). */
  get headerContainer(): Container {
    return this.#header;
  }

  /** The session shown now (replaced by /new). */
  get session(): AgentSession {
    return this.host.session;
  }

  /** The footer. */
  get footer(): Footer {
    return this.#footer;
  }

  /** Asks for a frame. */
  requestRender(): void {
    this.ui.requestRender();
  }

  /** Takes the terminal, shows the start-up screen, sends the initial prompts, and waits for the exit. */
  async run(): Promise<number> {
    this.#stopSignals = onTerminationSignal((code) => void this.shutdown(code));
    this.#bindKeys();
    const keys = setupAppKeybindings(this, (name) => this.#commands.run(name, ""));
    this.keybindings = keys.keybindings;
    this.ui.setFocus(this.editor);
    const themes = await this.#setUpThemes();
    this.#showHeader();
    for (const warning of [...keys.warnings, ...this.options.warnings ?? []]) {
      this.chat.addNotice("warning", warning);
    }
    if (themes.conflicts) {
      this.#header.addChild(new Text(themes.conflicts, 0, 0));
      this.#header.addChild(new Spacer(1));
    }
    if (themes.error) this.chat.addNotice("error", themes.error);
    // Extensions bind before the screen starts: their guard for errors thrown from extension code
    // must see an uncaught error before the screen's crash restore does, or an error pi survives
    // would give the terminal back under a running TUI. (1.6.0 starts the screen first so that
    // session_start handlers can open dialogs; TUI dialogs come with the extensions part.)
    await this.#bindSession();
    this.startScreen();
    // The saved cursor, padding and autocomplete settings, once the screen is the terminal's.
    applyDisplaySettings(this, this.session.settingsManager);
    this.#renderInitialMessages();
    this.updateEditorBorder();
    this.ui.requestRender();
    void tmuxKeyboardWarning().then((warning) => {
      if (!warning || this.#exiting) return;
      this.chat.addNotice("warning", warning);
      this.ui.requestRender();
    });
    void this.#sendInitialPrompts();
    return await this.#exited;
  }

  /** The session's messages, and how often it was compacted (start-up, after /new and /fork). */
  #renderInitialMessages(): void {
    const manager = this.session.sessionManager;
    const messages = this.session.messages;
    this.chat.renderMessages(
      messages,
      this.ui,
      customEntriesByMessage(manager.getEntries(), manager.getLeafId(), messages),
    );
    addProjectTrustWarning(
      this.chat.chat,
      this.theme,
      this.session.settingsManager.isProjectTrusted(),
      this.session.sessionManager.getCwd(),
    );
    const compactions =
      this.session.sessionManager.getEntries().filter((e) => e.type === "compaction").length;
    if (compactions > 0) {
      this.chat.addNotice(
        "status",
        `Session compacted ${compactions === 1 ? "1 time" : `${compactions} times`}`,
      );
    }
  }

  #showHeader(): void {
    const quiet = this.session.settingsManager.getQuietStartup();
    if (quiet === true) return;
    this.#startupHeader = new StartupHeader(this.theme, this.options.version, quiet !== "header");
    this.#header.addChild(new Spacer(1));
    this.#header.addChild(this.#startupHeader);
    this.#header.addChild(new Spacer(1));
    if (quiet === false) showModelScopeNotice(this.#header, this.session, this.theme, this.ui.mode);
  }

  async #sendInitialPrompts(): Promise<void> {
    const { initialMessage, initialImages, initialMessages } = this.options;
    if (initialMessage) await this.sendPrompt(initialMessage, initialImages);
    for (const message of initialMessages ?? []) await this.sendPrompt(message);
  }

  /** Subscribes to the current session and lets the CLI bind its extensions. */
  async #bindSession(): Promise<void> {
    this.#unsubscribe?.();
    this.#unsubscribe = this.session.subscribe((event) => this.#onEvent(event));
    await this.options.onSession?.(this.session, (kind, text) => {
      this.chat.addNotice(kind, text);
      this.ui.requestRender();
    }, {
      ui: this.#extensionUI.context(),
      onError: (error) => this.#extensionUI.showError(error),
      sessionControl: tuiSessionControl(this),
      reload: async () => (await import("./reload_command.ts")).runReloadCommand(this),
      shutdown: () => {
        this.#shutdownRequested = true;
        if (this.session.isIdle) void this.shutdown(0);
      },
    });
    // Themes the extensions added (resources_discover) are offered like the run's own.
    this.themes?.setExtensionThemes(extensionThemeFiles(
      this.session.resourceLoader.getExtensionThemePaths().map((entry) => entry.path),
      this.session.cwd,
      this.options.themes?.agentDir ?? getAgentDir(),
    ));
    // The session's built-in services (MCP) tell the user in the chat, as 1.6.0's ctx.ui.notify.
    const notices = this.#extensionUI.context();
    attachSessionNotices(this.session, (message, level) => notices.notify(message, level));
    // After the extensions are bound: their commands complete too.
    this.#extensionUI.editorHooks.setBaseAutocomplete(
      new CombinedAutocompleteProvider(
        [...this.#commands.autocomplete(), ...resourceCommands(this.session, extensionHostOf(this.session))],
        this.session.sessionManager.getCwd(),
      ),
    );
    this.#resources?.show(
      this.session,
      extensionHostOf(this.session),
      this.session.settingsManager.getQuietStartup() === false,
      this.chat.toolsExpanded,
    );
    this.#extensionUI.bindShortcuts();
  }

  /**
   * Takes the terminal and draws (once). Usually right after the extensions are bound; earlier
   * when a `session_start` handler opens a dialog, which would otherwise wait for a screen that
   * starts only once the handler is done.
   */
  startScreen(): void {
    if (this.#screenStarted || this.#exiting) return;
    this.#screenStarted = true;
    this.ui.start();
    // The terminal answers on the input the screen now reads; the system theme follows its colours.
    this.themes?.queryTerminalColors(this.ui);
  }

  /** `ctx.ui` as extensions get it, for built-in commands drawn with it (`/llama`). */
  extensionUIContext(): ExtensionUIContext {
    return this.#extensionUI.context();
  }

  /** The extensions bound to the current session, if any. */
  extensions(): ExtensionHost | undefined {
    return extensionHostOf(this.session);
  }

  /** Redraws the chat from the session's messages (after /tree moved the leaf). */
  redrawChat(): void {
    this.chat.clear();
    this.#renderInitialMessages();
  }

  /** Opens the /tree navigator (it loads on first use). */
  openTree(): void {
    void import("./tree_command.ts").then(({ showTreeSelector }) => showTreeSelector(this));
  }

  /** Escape twice on an empty editor: /tree, /fork or nothing, as the doubleEscapeAction setting says. */
  #doubleEscape(): void {
    const action = this.session.settingsManager.getDoubleEscapeAction();
    if (action === "none") return;
    const now = Date.now();
    if (now - this.#lastEscape >= DOUBLE_PRESS_MS) {
      this.#lastEscape = now;
      return;
    }
    this.#lastEscape = 0;
    if (action === "tree") this.openTree();
    else this.#commands.run("fork", "");
  }

  /** After /new or /fork: the chat shows the new session's messages (none after /new). */
  async sessionReplaced(): Promise<void> {
    this.#extensionUI.reset();
    this.chat.clear();
    this.chat.setQueued([], []);
    this.#renderInitialMessages();
    await this.#bindSession();
    this.updateEditorBorder();
  }

  #onEvent(event: AgentSessionEvent): void {
    if (event.type === "agent_start" || event.type === "turn_start") this.#setWorking(true);
    if (event.type === "compaction_start") this.#showCompacting(event.reason);
    if (event.type === "compaction_end") this.#compactionEnded(event);
    if (event.type === "agent_settled") {
      if (this.#shutdownRequested) void this.shutdown(0);
      this.#setWorking(false);
      // The session records `!` commands run during the reply once it settles; show them there too.
      this.chat.flushPendingBash();
    }
    if (event.type === "queue_update") this.chat.setQueued(event.steering, event.followUp);
    if (event.type === "thinking_level_changed") this.updateEditorBorder();
    // An aborted reply is recorded in the words the chat shows ("Operation aborted"), as 1.6.0's
    // interactive mode does: listeners see message_end before the session file gets the message.
    if (event.type === "message_end" && event.message.role === "assistant") {
      const message = event.message as { stopReason?: string; errorMessage?: string };
      if (message.stopReason === "aborted") message.errorMessage = this.chat.abortText();
    }
    this.chat.handleEvent(event);
    this.ui.requestRender();
  }

  /** The spinner of a running compaction, in the editor's border colours (1.6.0). */
  #showCompacting(reason: CompactionReason): void {
    this.#setWorking(false);
    const hint = `(${keyText("app.interrupt")} to cancel)`;
    const label = reason === "manual"
      ? `Compacting context... ${hint}`
      : `${reason === "overflow" ? "Context overflow detected, " : ""}Auto-compacting... ${hint}`;
    const color = (t: string) => this.editor.borderColor(t);
    this.#working = new WorkingIndicator(this.ui, color, color, label);
    this.editor.setWorkingIndicator(this.#working);
  }

  #compactionEnded(event: Extract<AgentSessionEvent, { type: "compaction_end" }>): void {
    this.#setWorking(false);
    if (event.aborted) {
      if (event.reason === "manual") this.chat.addNotice("error", "Compaction cancelled");
      else this.chat.addNotice("status", "Auto-compaction cancelled");
    } else if (event.result) {
      this.chat.showCompacted(this.session.messages, event.result, this.ui);
    } else if (event.errorMessage) {
      if (event.reason === "manual") this.chat.addNotice("error", event.errorMessage);
      else this.chat.addBlock(new Text(this.theme.fg("error", event.errorMessage), 1, 0));
    }
  }

  /** Runs `/compact` with optional instructions; the outcome arrives as session events. */
  async compact(customInstructions?: string): Promise<void> {
    this.#setWorking(false);
    try {
      await this.session.compact(customInstructions);
    } catch {
      // compaction_end reports it.
    }
  }

  #setWorking(on: boolean): void {
    if (on && !this.#extensionUI.workingVisible) on = false;
    if (on === (this.#working !== undefined)) return;
    if (on) {
      this.#working = new WorkingIndicator(
        this.ui,
        (t) => this.theme.fg("accent", t),
        (t) => this.theme.fg("muted", t),
        this.#extensionUI.workingMessage ?? "Working",
        this.#extensionUI.workingIndicator,
      );
    } else {
      this.#working?.stop();
      this.#working = undefined;
    }
    this.editor.setWorkingIndicator(this.#working);
  }

  /** An extension changed the working message, frames or visibility: the running indicator follows. */
  #workingChanged(): void {
    if (!this.#extensionUI.workingVisible) {
      this.#setWorking(false);
    } else if (this.#working) {
      this.#working.setMessage(this.#extensionUI.workingMessage ?? "Working");
      this.#working.setIndicator(this.#extensionUI.workingIndicator);
    } else if (this.session.isStreaming) {
      this.#setWorking(true);
    }
    this.ui.requestRender();
  }

  /** The editor border in the thinking level's colour (the bash colour for a `!` command). */
  updateEditorBorder(): void {
    if (this.#bashMode) {
      this.editor.borderColor = (t) => this.theme.fg("bashMode", t);
      this.ui.requestRender();
      return;
    }
    const level = this.session.thinkingLevel || "off";
    const token = `thinking${level.charAt(0).toUpperCase()}${level.slice(1)}` as const;
    this.editor.borderColor = (t) => this.theme.fg(token as Parameters<Theme["fg"]>[0], t);
    this.ui.requestRender();
  }

  /** Sends `text` as a prompt (or queues it while a reply streams); failures become chat errors. */
  async sendPrompt(
    text: string,
    images?: ImageContent[],
    queue: "steer" | "followUp" = "steer",
  ): Promise<void> {
    const streaming = this.session.isStreaming;
    try {
      await this.session.prompt(text, {
        images,
        source: "interactive",
        ...(streaming ? { streamingBehavior: queue } : {}),
      });
    } catch (error) {
      this.chat.addNotice("error", error instanceof Error ? error.message : String(error));
      this.ui.requestRender();
    }
  }

  #bindKeys(): void {
    // Handlers go on the built-in editor (an extension's editor copies them); what they do acts on
    // the editor shown when the key is pressed.
    const editor = this.editor;
    editor.onSubmit = (text) => {
      const trimmed = text.trim();
      if (!trimmed) return;
      this.editor.addToHistory(trimmed);
      if (this.#commands.tryRun(trimmed)) return;
      if (trimmed.startsWith("!")) {
        const excluded = trimmed.startsWith("!!");
        const command = trimmed.slice(excluded ? 2 : 1).trim();
        if (command) {
          if (this.session.isBashRunning) {
            this.chat.addNotice(
              "warning",
              "A bash command is already running. Press Esc to cancel it first.",
            );
            this.editor.setText(trimmed);
            this.ui.requestRender();
            return;
          }
          this.#bashMode = false;
          this.updateEditorBorder();
          void this.runBash(command, excluded);
          return;
        }
      }
      this.chat.flushPendingBash();
      void this.sendPrompt(trimmed);
    };
    editor.onChange = (text) => {
      const bashMode = text.trimStart().startsWith("!");
      if (bashMode === this.#bashMode) return;
      this.#bashMode = bashMode;
      this.updateEditorBorder();
    };
    editor.onEscape = () => {
      if (this.session.isCompacting) {
        this.session.abortCompaction();
        return;
      }
      if (!this.session.isStreaming) {
        if (this.session.isBashRunning) this.session.abortBash();
        else if (this.#bashMode) this.editor.setText("");
        else if (!this.editor.getText().trim()) this.#doubleEscape();
        return;
      }
      // Queued messages go back to the editor, then the reply is aborted (1.6.0).
      const { steering, followUp } = this.session.clearQueue();
      const queued = [...steering, ...followUp];
      if (queued.length > 0) {
        this.editor.setText(
          [queued.join("\n\n"), this.editor.getText()].filter((t) => t.trim()).join("\n\n"),
        );
        this.chat.setQueued([], []);
      }
      void this.session.abort();
    };
    editor.onCtrlD = () => void this.shutdown(0);
    editor.onAction("app.clear", () => {
      const now = Date.now();
      if (now - this.#lastClear < DOUBLE_PRESS_MS) {
        void this.shutdown(0);
        return;
      }
      this.editor.setText("");
      this.#lastClear = now;
    });
    editor.onAction("app.message.followUp", () => {
      const text = this.editor.getExpandedText().trim();
      if (!text) return;
      if (!this.session.isStreaming) {
        this.editor.onSubmit?.(this.editor.getExpandedText());
        this.editor.setText("");
        return;
      }
      this.editor.addToHistory(text);
      this.editor.setText("");
      void this.sendPrompt(text, undefined, "followUp");
    });
    editor.onAction("app.tools.expand", () => this.toggleToolsExpanded());
    editor.onAction("app.thinking.toggle", () => {
      const hide = !this.chat.thinkingHidden;
      // Saved, as 1.6.0 does and as /settings' "Hide thinking" does.
      this.session.settingsManager.setHideThinkingBlock(hide);
      this.chat.setHideThinking(hide);
      this.chat.addNotice("status", `Thinking blocks: ${hide ? "hidden" : "visible"}`);
      this.ui.requestRender();
    });
    editor.onAction("app.thinking.cycle", () => {
      const level = this.session.cycleThinkingLevel();
      this.chat.addNotice(
        "status",
        level === undefined ? "Current model does not support thinking" : `Thinking level: ${level}`,
      );
      this.updateEditorBorder();
    });
    editor.onAction("app.model.select", () => this.#commands.run("model", ""));
    // Loads on first use: start-up does not pay for it.
    editor.onAction("app.editor.external", () => {
      void import("./external_editor.ts").then(({ openExternalEditor }) => openExternalEditor(this));
    });
    editor.onAction("app.clipboard.pasteImage", () => {
      void import("./clipboard_paste.ts").then(({ pasteFromClipboard }) => pasteFromClipboard(this));
    });
    editor.onAction("app.model.cycleForward", () => void cycleModel(this, "forward"));
    editor.onAction("app.model.cycleBackward", () => void cycleModel(this, "backward"));
  }

  /**
   * Runs a user shell command (`!cmd`; `excluded` for `!!cmd`, kept out of the model's context)
   * with its output streaming into the chat; while a reply streams it waits below the chat.
   */
  async runBash(command: string, excluded: boolean): Promise<void> {
    // Extensions' `user_bash` handlers first: one that fails has been reported and blocks the command.
    let decided: Awaited<ReturnType<typeof decideUserBash>>;
    try {
      decided = await decideUserBash(this.session, command, excluded);
    } catch {
      return;
    }
    const view = new BashExecutionView(this.theme, command, this.ui, excluded);
    this.chat.addBash(view, this.session.isStreaming);
    if (decided?.result) {
      const result = decided.result;
      if (result.output) view.appendOutput(result.output);
      view.setComplete(result.exitCode, result.cancelled, result.truncated, result.fullOutputPath);
      this.session.recordBashResult(command, result, { excludeFromContext: excluded });
      this.ui.requestRender();
      return;
    }
    this.ui.requestRender();
    try {
      const result = await this.session.executeBash(command, (chunk) => {
        view.appendOutput(chunk);
        this.ui.requestRender();
      }, { excludeFromContext: excluded, operations: decided?.operations });
      view.setComplete(result.exitCode, result.cancelled, result.truncated, result.fullOutputPath);
    } catch (error) {
      view.setComplete(undefined, false);
      this.chat.addNotice(
        "error",
        `Bash command failed: ${error instanceof Error ? error.message : "Unknown error"}`,
      );
    }
    this.ui.requestRender();
  }

  /** Expands or collapses tool output (and the header's help), with a status line saying which. */
  toggleToolsExpanded(): void {
    const expanded = !this.chat.toolsExpanded;
    this.chat.setToolsExpanded(expanded);
    this.#startupHeader?.setExpanded(expanded);
    this.#resources?.setExpanded(expanded);
    this.chat.addNotice("status", `Tool output: ${expanded ? "expanded" : "collapsed"}`);
    this.ui.requestRender();
  }

  /** Shows `component` in place of the editor until `done` is called. */
  showSelector(component: Container & { focused?: boolean }): () => void {
    this.editorContainer.clear();
    this.editorContainer.addChild(component);
    this.ui.setFocus(component);
    this.ui.requestRender();
    return () => {
      this.editorContainer.clear();
      this.editorContainer.addChild(this.editor);
      this.ui.setFocus(this.editor);
      this.ui.requestRender();
    };
  }

  /** A block of text in the chat after a blank row. */
  addText(text: string, paddingY = 0): void {
    this.chat.addBlock(new Text(text, 1, paddingY));
    this.ui.requestRender();
  }

  /** Loads the run's themes into {@link InteractiveApp.theme}; a theme change redraws everything. */
  async #setUpThemes(): Promise<ThemeSetup> {
    const setup = await setUpThemes(
      this.session.sessionManager.getCwd(),
      this.session.settingsManager,
      this.theme,
      this.options.themes ?? { agentDir: getAgentDir() },
    );
    this.themes = setup.controller;
    setup.controller.onChange = () => {
      this.ui.invalidate();
      this.updateEditorBorder();
      this.ui.requestRender();
    };
    return setup;
  }

  /** Gives the terminal back, ends the session and resolves the exit code (once). */
  async shutdown(code: number): Promise<void> {
    if (this.#exiting) return;
    this.#exiting = true;
    this.#working?.stop();
    // The terminal first: whatever happens while the session ends, the shell gets it back.
    this.ui.stop();
    this.#unsubscribe?.();
    try {
      if (this.session.isStreaming) await this.session.abort();
      await this.host.dispose();
    } finally {
      this.#stopSignals?.();
      this.themes?.dispose();
      this.#resolveExit(code);
    }
  }
}

/** A container holding `children`, top to bottom. */
function containerOf(...children: Component[]): Container {
  const container = new Container();
  for (const child of children) container.addChild(child);
  return container;
}
