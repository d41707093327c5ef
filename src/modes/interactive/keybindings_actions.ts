/**
 * The keybindings.json part of the interactive mode's start-up: installs the user's keybindings and
 * binds the editor actions of pi 1.6.0 that the app does not bind itself: the session actions
 * without a default key (`app.session.new`, `.tree`, `.fork`, `.resume`, each running its slash
 * command), `app.message.dequeue` (queued messages back into the editor), `app.message.copy` (the
 * fullscreen selection or the last reply) and `app.suspend` (Ctrl+Z: job control).
 *
 * @module
 */
import type { AgentSession } from "../../core/agent_session.ts";
import { getAgentDir } from "../../config/paths.ts";
import { toBase64 } from "../../util/bytes.ts";
import { TuiAltScreen, type TuiMainScreen } from "../../tui/mod.ts";
import type { AppEditor } from "./app_editor.ts";
import type { ChatView } from "./chat_view.ts";
import { type AppKeybindings, installAppKeybindings } from "./keybindings_app.ts";

/** The session actions and the slash command each one runs (as 1.6.0's editor actions do). */
const SESSION_ACTION_COMMANDS = {
  "app.session.new": "new",
  "app.session.tree": "tree",
  "app.session.fork": "fork",
  "app.session.resume": "resume",
} as const;

/** What the actions reach of the app. */
export interface KeyActionHost {
  readonly editor: AppEditor;
  readonly session: AgentSession;
  readonly chat: ChatView;
  readonly ui: TuiMainScreen | TuiAltScreen;
  requestRender(): void;
}

/**
 * Loads `<agentDir>/keybindings.json` for every component and binds the actions above on the app's
 * editor (`runCommand` runs a slash command); returns the keybindings and what was dropped from the file.
 */
export function setupAppKeybindings(
  app: KeyActionHost,
  runCommand: (name: string) => void,
  agentDir: string = getAgentDir(),
): { keybindings: AppKeybindings; warnings: string[] } {
  const loaded = installAppKeybindings(agentDir);
  const editor = app.editor;
  for (const [action, command] of Object.entries(SESSION_ACTION_COMMANDS)) {
    editor.onAction(action as keyof typeof SESSION_ACTION_COMMANDS, () => runCommand(command));
  }
  editor.onAction("app.message.dequeue", () => dequeue(app));
  editor.onAction("app.message.copy", () => void copyMessage(app, runCommand));
  editor.onAction("app.suspend", () => suspend(app));
  return loaded;
}

function status(app: KeyActionHost, text: string): void {
  app.chat.addNotice("status", text);
  app.requestRender();
}

/** Queued steering and follow-up messages back into the editor, before what is typed (1.6.0). */
function dequeue(app: KeyActionHost): void {
  const { steering, followUp } = app.session.clearQueue();
  const queued = [...steering, ...followUp];
  if (queued.length === 0) return status(app, "No queued messages to restore");
  const current = app.editor.getExpandedText();
  app.editor.setText([queued.join("\n\n"), current].filter((t) => t.trim()).join("\n\n"));
  app.chat.setQueued([], []);
  status(app, `Restored ${queued.length} queued message${queued.length > 1 ? "s" : ""} to editor`);
}

/**
 * The fullscreen selection when one is active and releasing it does not copy; otherwise the last
 * reply, confirmed by a flash in fullscreen and by `/copy`'s status line on the main screen.
 */
async function copyMessage(app: KeyActionHost, runCommand: (name: string) => void): Promise<void> {
  const ui = app.ui;
  if (!(ui instanceof TuiAltScreen)) return runCommand("copy");
  if (!ui.getCopyOnSelect() && ui.hasActiveSelection()) {
    await ui.copyActiveSelectionToClipboard();
    return;
  }
  const text = app.session.getLastAssistantText();
  if (!text) {
    app.chat.addNotice("error", "No agent messages to copy yet.");
    app.requestRender();
    return;
  }
  // OSC 52, as /copy: the terminal (and tmux, ssh) put it on the clipboard.
  ui.terminal.write(`\x1b]52;c;${toBase64(new TextEncoder().encode(text))}\x07`);
  ui.flash("Copied!");
}

/** Ctrl+Z: the terminal back to the shell and the process group stopped; `fg` redraws (1.6.0). */
function suspend(app: KeyActionHost): void {
  if (Deno.build.os === "windows") return status(app, "Suspend to background is not supported on Windows");
  // While stopped, a Ctrl+C meant for the shell must not end pi; the listeners also keep pi alive.
  const ignoreInterrupt = () => {};
  const resume = () => {
    Deno.removeSignalListener("SIGCONT", resume);
    Deno.removeSignalListener("SIGINT", ignoreInterrupt);
    app.ui.start();
    app.ui.requestRender(true);
  };
  Deno.addSignalListener("SIGINT", ignoreInterrupt);
  Deno.addSignalListener("SIGCONT", resume);
  try {
    app.ui.stop();
    Deno.kill(0, "SIGTSTP");
  } catch (error) {
    Deno.removeSignalListener("SIGCONT", resume);
    Deno.removeSignalListener("SIGINT", ignoreInterrupt);
    app.ui.start();
    app.chat.addNotice("error", error instanceof Error ? error.message : String(error));
    app.requestRender();
  }
}
