/**
 * The external editor (`app.editor.external`, Ctrl+G): the prompt editor's text goes to a temp file,
 * the TUI gives the terminal back, `externalEditor` / `$VISUAL` / `$EDITOR` (else `nano`, `notepad`
 * on Windows) edits the file, and its text replaces the prompt once the editor exits with 0. An
 * editor that fails to start or exits otherwise leaves the prompt as it was and says so (1.6.0's
 * words).
 *
 * @module
 */
import type { TUI } from "../../tui/mod.ts";

/** What an external edit ended with. */
export type ExternalEditResult =
  | { status: "complete"; content: string }
  | { status: "failed"; message: string };

/**
 * Edits `content` with the editor `command` (words split on spaces, the file path appended), the
 * child owning the terminal; the caller has given the terminal back first.
 */
export async function editInExternalEditor(
  command: string,
  content: string,
  write: (text: string) => void,
): Promise<ExternalEditResult> {
  const directory = await Deno.makeTempDir({ prefix: "pi-editor-" });
  const file = `${directory}/prompt.md`;
  try {
    await Deno.writeTextFile(file, content);
    const [program = "", ...args] = command.trim().split(/\s+/);
    write(`Launching external editor: ${command}\nPi will resume when the editor exits.\n`);
    let status: Deno.CommandStatus;
    try {
      const child = new Deno.Command(program, {
        args: [...args, file],
        stdin: "inherit",
        stdout: "inherit",
        stderr: "inherit",
      }).spawn();
      status = await child.status;
    } catch {
      return { status: "failed", message: `Failed to launch external editor: ${command}` };
    }
    if (!status.success) {
      // A signal's name when a signal ended it (1.6.0 shows Node's `SIGTERM`), else the exit code.
      const why = status.signal ? status.signal : `code ${status.code}`;
      return { status: "failed", message: `External editor exited with ${why}; prompt unchanged` };
    }
    const text = await Deno.readTextFile(file);
    return { status: "complete", content: text.replace(/^\uFEFF/, "").replace(/\n$/, "") };
  } finally {
    // Best effort: a temp folder left behind harms nothing.
    await Deno.remove(directory, { recursive: true }).catch(() => {});
  }
}

/** What opening the external editor needs from the interactive mode. */
export interface ExternalEditorHost {
  readonly ui: TUI;
  readonly editor: { getExpandedText(): string; setText(text: string): void };
  readonly session: { settingsManager: { getExternalEditorCommand(): string } };
  readonly chat: { addNotice(kind: "status", text: string): void };
}

/**
 * Gives the terminal to the editor `command` editing `content` and takes it back afterwards (the TUI
 * stopped meanwhile, then redrawn in full).
 */
export async function editWithTerminal(
  ui: TUI,
  command: string,
  content: string,
): Promise<ExternalEditResult> {
  // No read of ours may stay pending while the editor owns the terminal: it would take its keys.
  const terminal = ui.terminal as { releaseInput?: () => Promise<void> };
  await terminal.releaseInput?.();
  ui.stop();
  try {
    return await editInExternalEditor(command, content, (text) => ui.terminal.write(text));
  } finally {
    ui.start();
    ui.requestRender(true);
  }
}

/** The editor command without settings (a dialog's): `$VISUAL`, `$EDITOR`, else `nano` (`notepad`). */
export function environmentEditorCommand(): string {
  return Deno.env.get("VISUAL") || Deno.env.get("EDITOR") ||
    (Deno.build.os === "windows" ? "notepad" : "nano");
}

/** Ctrl+G: edits the prompt in the external editor, the TUI stopped meanwhile and restarted after. */
export async function openExternalEditor(app: ExternalEditorHost): Promise<void> {
  const command = app.session.settingsManager.getExternalEditorCommand();
  const result = await editWithTerminal(app.ui, command, app.editor.getExpandedText());
  if (result.status === "complete") app.editor.setText(result.content);
  else app.chat.addNotice("status", result.message);
  app.ui.requestRender();
}
