/**
 * The keybindings.json part of the interactive mode's start-up: installs the user's keybindings and
 * binds the session actions that have no default key in pi 1.6.0 (`app.session.new`, `.tree`,
 * `.fork`, `.resume`) to the slash commands they stand for.
 *
 * @module
 */
import { getAgentDir } from "../../config/paths.ts";
import type { AppEditor } from "./app_editor.ts";
import { type AppKeybindings, installAppKeybindings } from "./keybindings_app.ts";

/** The session actions and the slash command each one runs (as 1.6.0's editor actions do). */
const SESSION_ACTION_COMMANDS = {
  "app.session.new": "new",
  "app.session.tree": "tree",
  "app.session.fork": "fork",
  "app.session.resume": "resume",
} as const;

/**
 * Loads `<agentDir>/keybindings.json` for every component and binds the session actions on `editor`
 * to `runCommand`; returns the keybindings and what was dropped from the file.
 */
export function setupAppKeybindings(
  editor: AppEditor,
  runCommand: (name: string) => void,
  agentDir: string = getAgentDir(),
): { keybindings: AppKeybindings; warnings: string[] } {
  const loaded = installAppKeybindings(agentDir);
  for (const [action, command] of Object.entries(SESSION_ACTION_COMMANDS)) {
    editor.onAction(action as keyof typeof SESSION_ACTION_COMMANDS, () => runCommand(command));
  }
  return loaded;
}
