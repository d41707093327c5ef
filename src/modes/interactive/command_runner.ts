/**
 * Runs the built-in slash commands typed in the editor: /quit, /new, /name, /session, /model,
 * /thinking, /hotkeys, /copy, /compact, /fork, /clone, /export, /share, /settings, /scoped-models and /changelog; the other 1.6.0 commands answer with a "not available yet"
 * notice.
 *
 * @module
 */
import { toBase64 } from "../../util/bytes.ts";
import { readEnv } from "../../util/env.ts";
import { getAgentDir } from "../../config/paths.ts";
import { isLlamaEnabled } from "../../resources/builtin_extensions.ts";
import {
  type AutocompleteItem,
  fuzzyFilter,
  Markdown,
  type SlashCommand,
  Spacer,
  Text,
} from "../../tui/mod.ts";
import type { AgentThinkingLevel } from "../../agent/types.ts";
import type { Model } from "../../ai/types.ts";
import { runExportCommand, runShareCommand } from "./export_commands.ts";
import { hotkeysMarkdown } from "./hotkeys.ts";
import { BorderLine, modelArgumentSearchText, ModelSelector } from "./model_selector.ts";
import { sessionInfoText } from "./session_info.ts";
import { ThinkingSelector } from "./thinking_selector.ts";
import {
  autocompleteCommands,
  IMPLEMENTED_COMMANDS,
  notAvailableNotice,
  parseSlashCommand,
} from "./slash_commands.ts";

import type { CommandHost } from "./command_host.ts";

export type { CommandHost } from "./command_host.ts";

/** The slash commands of one interactive app. */
export class SlashCommandRunner {
  /** Commands for `app`. */
  constructor(private readonly app: CommandHost) {}

  /** The autocomplete entries, with model and thinking-level argument completion. */
  autocomplete(): SlashCommand[] {
    // As 1.6.0: the scoped models when a scope is set, else every model with credentials.
    const models = (prefix: string): AutocompleteItem[] | null => {
      const scoped = this.app.session.scopedModels.map((s) => s.model);
      const available = scoped.length > 0
        ? scoped
        : [...this.app.session.modelRuntime.getAvailableSnapshot()];
      if (available.length === 0) return null;
      const found = fuzzyFilter(available, prefix, modelArgumentSearchText);
      if (found.length === 0) return null;
      return found.map((m) => ({ value: `${m.provider}/${m.id}`, label: m.id, description: m.provider }));
    };
    const thinking = (prefix: string): AutocompleteItem[] | null =>
      fuzzyFilter(this.app.session.getAvailableThinkingLevels(), prefix, (l) => l).map((l) => ({
        value: l,
        label: l,
      }));
    // The login list loads on first use: start-up does not pay for it.
    const login = async (prefix: string): Promise<AutocompleteItem[]> =>
      (await import("./login_options.ts")).loginCompletions(this.app, prefix);
    // `/llama` is offered only while the built-in llama.cpp extension is on.
    return autocompleteCommands({ model: models, thinking, login }).filter((c) =>
      c.name !== "llama" || isLlamaEnabled(this.app.session)
    );
  }

  /** Runs `text` when it is a built-in command; false when it is a prompt. */
  tryRun(text: string): boolean {
    const command = parseSlashCommand(text);
    if (!command) return false;
    // `/llama` belongs to the built-in llama.cpp extension: with it turned off the text is a prompt.
    if (command.name === "llama" && !isLlamaEnabled(this.app.session)) return false;
    this.run(command.name, command.args);
    return true;
  }

  /** Runs the command `name` with `args`. */
  run(name: string, args: string): void {
    const app = this.app;
    if (!IMPLEMENTED_COMMANDS.has(name)) {
      app.chat.addNotice("warning", notAvailableNotice(name));
      app.requestRender();
      return;
    }
    switch (name) {
      case "quit":
        void app.shutdown(0);
        return;
      case "new":
        void this.#newSession();
        return;
      case "name":
        return this.#name(args);
      case "session":
        app.addText(sessionInfoText(app.session, app.theme));
        return;
      case "hotkeys":
        return this.#hotkeys();
      case "copy":
        return this.#copy();
      case "compact":
        void app.compact(args || undefined);
        return;
      case "tree":
        app.openTree();
        return;
      case "fork":
        void this.#fork();
        return;
      case "clone":
        void this.#clone();
        return;
      case "resume":
        // The picker loads when first opened: start-up does not pay for it.
        void import("./resume_command.ts").then(({ openResumePicker }) => openResumePicker(app));
        return;
      case "import":
        void import("./import_command.ts").then(({ runImportCommand }) => runImportCommand(app, args));
        return;
      case "export":
        void runExportCommand(app, args);
        return;
      case "share":
        void runShareCommand(app);
        return;
      // These load when first used: start-up does not pay for them.
      case "settings":
        return this.#later(async () => (await import("./settings_command.ts")).openSettings(app));
      case "scoped-models":
        return this.#later(async () => (await import("./scoped_models_command.ts")).openScopedModels(app));
      case "changelog":
        return this.#later(async () => (await import("./changelog_command.ts")).showChangelog(app));
      case "reload":
        return this.#later(async () => (await import("./reload_command.ts")).runReloadCommand(app));
      case "trust":
        return this.#later(async () => (await import("./trust_command.ts")).showTrustSelector(app));
      case "login":
        return this.#later(async () =>
          (await import("./login_command.ts")).handleLoginCommand(app, args.trim())
        );
      case "bug":
        return this.#later(async () => (await import("./bug_command.ts")).reportBug(app, args || undefined));
      case "logout":
        return this.#later(async () => (await import("./logout_command.ts")).showLogoutSelector(app));
      case "mcp":
        return this.#later(async () => (await import("./mcp_manager.ts")).runMcpCommand(app, args));
      case "llama":
        return this.#later(async () => {
          const { runLlamaCommand } = await import("../../extensions/builtin/llama_cpp/command.ts");
          const ui = app.extensionUIContext?.();
          if (!ui) return;
          await runLlamaCommand({
            mode: "tui",
            ui,
            modelRegistry: app.session.modelRegistry,
            agentDir: getAgentDir(),
            env: readEnv,
          });
        });
      case "thinking":
        return this.#thinking(args);
      case "model":
        return this.#model(args);
    }
  }

  /** Runs `command`; a failure shows in the chat. */
  #later(command: () => Promise<void>): void {
    command().catch((error) => {
      this.app.chat.addNotice("error", error instanceof Error ? error.message : String(error));
      this.app.requestRender();
    });
  }

  async #newSession(): Promise<void> {
    const app = this.app;
    try {
      const result = await app.host.newSession();
      if (result.cancelled) return;
      await app.sessionReplaced();
      app.chat.addBlock(new Text(app.theme.fg("accent", "✓ New session started"), 1, 1));
    } catch (error) {
      app.chat.addNotice(
        "error",
        `Failed to create session: ${error instanceof Error ? error.message : error}`,
      );
    }
    app.requestRender();
  }

  /** A copy of the session up to where it stands now, continued in a new session file. */
  async #clone(): Promise<void> {
    const app = this.app;
    const leafId = app.session.sessionManager.getLeafId();
    if (!leafId) {
      app.chat.addNotice("status", "Nothing to clone yet");
      app.requestRender();
      return;
    }
    try {
      const result = await app.host.fork(leafId, { position: "at" });
      if (result.cancelled) return app.requestRender();
      await app.sessionReplaced();
      app.editor.setText("");
      app.chat.addNotice("status", "Cloned to new session");
    } catch (error) {
      app.chat.addNotice("error", error instanceof Error ? error.message : String(error));
    }
    app.requestRender();
  }

  async #fork(): Promise<void> {
    const app = this.app;
    const messages = app.session.getUserMessagesForForking();
    if (messages.length === 0) {
      app.chat.addNotice("status", "No messages to fork from");
      app.requestRender();
      return;
    }
    // The picker loads when first opened: start-up does not pay for it.
    const { ForkSelector } = await import("./fork_selector.ts");
    let done = () => {};
    const selector = new ForkSelector(
      app.theme,
      messages.map((m) => ({ id: m.entryId, text: m.text })),
      async (entryId) => {
        done();
        try {
          const result = await app.host.fork(entryId);
          if (result.cancelled) return app.requestRender();
          await app.sessionReplaced();
          app.editor.setText(result.selectedText ?? "");
          app.chat.addNotice("status", "Forked to new session");
        } catch (error) {
          app.chat.addNotice("error", error instanceof Error ? error.message : String(error));
        }
        app.requestRender();
      },
      () => done(),
      messages[messages.length - 1]?.entryId,
    );
    done = app.showSelector(selector);
  }

  #name(args: string): void {
    const app = this.app;
    const manager = app.session.sessionManager;
    if (!args) {
      const current = manager.getSessionName();
      if (current) app.addText(app.theme.fg("dim", `Session name: ${current}`));
      else app.chat.addNotice("warning", "Usage: /name <name>");
      app.requestRender();
      return;
    }
    app.session.setSessionName(args);
    const stored = manager.getSessionName();
    if (stored !== args) {
      app.chat.addNotice(
        "warning",
        `Session name was normalized from ${JSON.stringify(args)} to ${JSON.stringify(stored)}`,
      );
    }
    app.addText(app.theme.fg("dim", `Session name set: ${stored ?? args}`));
  }

  #hotkeys(): void {
    const app = this.app;
    const theme = app.theme;
    app.chat.addBlock(
      new BorderLine(theme),
      new Text(theme.bold(theme.fg("accent", "Keyboard Shortcuts")), 1, 0),
      new Spacer(1),
      new Markdown(hotkeysMarkdown(), 1, 1, theme.markdown()),
      new BorderLine(theme),
    );
    app.requestRender();
  }

  #copy(): void {
    const app = this.app;
    const text = app.session.getLastAssistantText();
    if (!text) {
      app.chat.addNotice("error", "No agent messages to copy yet.");
    } else {
      // OSC 52: the terminal (and tmux, ssh) put it on the clipboard; no helper process needed.
      app.ui.terminal.write(`\x1b]52;c;${toBase64(new TextEncoder().encode(text))}\x07`);
      app.chat.addNotice("status", "Copied last agent message to clipboard");
    }
    app.requestRender();
  }

  #selectThinking(level: AgentThinkingLevel, asDefault = false): void {
    this.app.session.setThinkingLevel(level, { persist: asDefault });
    this.app.updateEditorBorder();
    this.app.chat.addNotice(
      "status",
      asDefault ? `Default thinking level: ${level}` : `Thinking level: ${level}`,
    );
    this.app.requestRender();
  }

  #thinking(args: string): void {
    const app = this.app;
    const levels = app.session.getAvailableThinkingLevels();
    if (args) {
      const level = levels.find((l) => l.toLowerCase() === args.toLowerCase());
      if (level) this.#selectThinking(level);
      else {
        app.chat.addNotice(
          "error",
          `Unknown thinking level "${args}". Available levels: ${levels.join(", ")}.`,
        );
        app.requestRender();
      }
      return;
    }
    let done = () => {};
    const selector = new ThinkingSelector(app.theme, {
      current: app.session.thinkingLevel,
      levels,
      defaultLevel: app.session.settingsManager.getDefaultThinkingLevel(),
      onSelect: (level, asDefault) => {
        done();
        this.#selectThinking(level, asDefault);
      },
      onCancel: () => done(),
    });
    done = app.showSelector(selector);
  }

  #model(args: string): void {
    const app = this.app;
    if (args) {
      const models = app.session.modelRegistry.getAvailable();
      const exact = models.find((m) => `${m.provider}/${m.id}` === args || m.id === args);
      if (exact) {
        void this.#setModel(exact);
        return;
      }
    }
    const registry = app.session.modelRegistry;
    registry.refresh();
    const settings = app.session.settingsManager;
    const provider = settings.getDefaultProvider();
    const id = settings.getDefaultModel();
    let done = () => {};
    const selector = new ModelSelector(app.theme, registry.getAvailable(), {
      current: app.session.model,
      defaultModel: provider && id ? { provider, id } : undefined,
      error: registry.getError(),
      initialSearch: args,
      onSelect: (model, asDefault) => {
        done();
        void this.#setModel(model, asDefault);
      },
      onCancel: () => done(),
    });
    done = app.showSelector(selector);
  }

  async #setModel(model: Model, asDefault = false): Promise<void> {
    const app = this.app;
    try {
      // Only Ctrl+S in the selector saves the model as the default (1.6.0); a switch is the session's.
      await app.session.setModel(model, { persist: asDefault });
      app.updateEditorBorder();
      app.chat.addNotice(
        "status",
        asDefault ? `Default model: ${model.provider}/${model.id}` : `Model: ${model.id}`,
      );
    } catch (error) {
      app.chat.addNotice("error", error instanceof Error ? error.message : String(error));
    }
    app.requestRender();
  }
}
