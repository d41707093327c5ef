/**
 * `/import <path.jsonl>` (pi 1.6.0): after a Yes in "Replace current session with <path>?", the
 * file is copied into the session folder (keeping its id and working directory) and resumed; the
 * chat shows its history and "Session imported from: <path>". No path is a usage error; No,
 * Escape or a hook's veto say "Import cancelled"; a missing file or a gone working directory is
 * an error in the chat and the current session stays.
 *
 * @module
 */
import { ExtensionSelector } from "./extension_dialogs.ts";
import type { ResumeHost } from "./resume_command.ts";
import { pathCommandArgument } from "./export_commands.ts";

/** Asks Yes / No in place of the editor; resolves true for Yes. */
function confirm(app: ResumeHost, title: string, message: string): Promise<boolean> {
  return new Promise((resolve) => {
    let close = () => {};
    const finish = (yes: boolean) => {
      selector.dispose();
      close();
      resolve(yes);
    };
    const selector = new ExtensionSelector(
      app.theme,
      `${title}\n${message}`,
      ["Yes", "No"],
      (option) => finish(option === "Yes"),
      () => finish(false),
    );
    close = app.showSelector(selector);
  });
}

/** Runs `/import` with the text after the command. */
export async function runImportCommand(app: ResumeHost, args: string): Promise<void> {
  const path = pathCommandArgument(args);
  if (!path) {
    app.chat.addNotice("error", "Usage: /import <path.jsonl>");
    return app.requestRender();
  }
  const importFromJsonl = app.host.importFromJsonl?.bind(app.host);
  if (!importFromJsonl) {
    app.chat.addNotice("error", "Failed to import session: this session cannot be replaced");
    return app.requestRender();
  }
  if (!await confirm(app, "Import session", `Replace current session with ${path}?`)) {
    app.chat.addNotice("status", "Import cancelled");
    return app.requestRender();
  }
  try {
    const result = await importFromJsonl(path);
    if (result.cancelled) {
      app.chat.addNotice("status", "Import cancelled");
    } else {
      await app.sessionReplaced();
      app.chat.addNotice("status", `Session imported from: ${path}`);
    }
  } catch (error) {
    // 1.6.0 offers to continue in the current folder when the session's folder is gone; here the
    // import stops with the reason (the copy is removed) and the current session stays.
    app.chat.addNotice(
      "error",
      `Failed to import session: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  app.requestRender();
}
