/**
 * `/export [path]` and `/share` of the interactive mode, with pi 1.6.0's words: the session as an
 * HTML page (or its branch as JSONL when the path ends in `.jsonl`), and the page shared as a
 * private GitHub gist through the `gh` CLI. The exporter and the sharing code load only when a
 * command runs, so start-up does not pay for them.
 *
 * @module
 */
import { hyperlink, type TUI } from "../../tui/mod.ts";
import type { AgentSession } from "../../core/agent_session.ts";
import { BorderedLoader } from "./bordered_loader.ts";
import type { Theme } from "./theme.ts";

/** Where the two commands report. */
export interface ExportCommandHost {
  readonly session: AgentSession;
  readonly theme: Theme;
  readonly ui: TUI;
  readonly chat: { addNotice(kind: "status" | "error", text: string): void };
  requestRender(): void;
  /** Puts `component` in the editor's place; the function returned puts the editor back. */
  showSelector(component: BorderedLoader): () => void;
}

/**
 * The path argument of a command as 1.6.0 reads it: the first word, or the text inside a leading
 * pair of quotes (an unclosed quote gives none).
 */
export function pathCommandArgument(args: string): string | undefined {
  const text = args.trimStart();
  if (!text) return undefined;
  const quote = text[0];
  if (quote === '"' || quote === "'") {
    const end = text.indexOf(quote, 1);
    return end < 0 ? undefined : text.slice(1, end);
  }
  const space = text.search(/\s/);
  return space < 0 ? text : text.slice(0, space);
}

/** `/export [path]`: HTML by default, JSONL for a `.jsonl` path; reports the written file. */
export async function runExportCommand(app: ExportCommandHost, args: string): Promise<void> {
  const outputPath = pathCommandArgument(args);
  try {
    const file = outputPath?.endsWith(".jsonl")
      ? app.session.exportToJsonl(outputPath)
      // The page in the colours on screen, as 1.6.0 (the theme in use, not only the setting's).
      : await app.session.exportToHtml(outputPath, { theme: app.theme.data });
    app.chat.addNotice("status", `Session exported to: ${file}`);
  } catch (error) {
    app.chat.addNotice(
      "error",
      `Failed to export session: ${error instanceof Error ? error.message : "Unknown error"}`,
    );
  }
  app.requestRender();
}

/**
 * `/share`: the page as a private gist; shows the viewer link and the gist (as hyperlinks). A
 * spinner stands in the editor's place meanwhile; the cancel key stops `gh` ("Share cancelled").
 */
export async function runShareCommand(app: ExportCommandHost): Promise<void> {
  const destination = app.session.settingsManager.getSessionShareDestination();
  // 1.6.0 tries a Radius artifact first unless the gist is asked for; without a Radius login "auto" goes on to the gist.
  if (destination !== "gist") {
    const { tryShareViaRadius } = await import("./share_radius_command.ts");
    if (await tryShareViaRadius(app)) return;
  }
  const { shareSessionAsGist, ShareError } = await import("../../core/export/share_gist.ts");
  const loader = new BorderedLoader(app.ui, app.theme, "Creating gist...");
  const hide = app.showSelector(loader);
  const restore = () => {
    loader.dispose();
    hide();
  };
  loader.onAbort = () => {
    restore();
    app.chat.addNotice("status", "Share cancelled");
    app.requestRender();
  };
  try {
    const { shareUrl, gistUrl } = await shareSessionAsGist(app.session, {
      destination,
      signal: loader.signal,
      theme: app.theme.data,
    });
    if (loader.signal.aborted) return;
    restore();
    app.chat.addNotice(
      "status",
      `Share URL: ${hyperlink(shareUrl, shareUrl)}\nGist: ${hyperlink(gistUrl, gistUrl)}`,
    );
  } catch (error) {
    if (loader.signal.aborted) return;
    restore();
    const message = error instanceof ShareError
      ? error.message
      : `Failed to create gist: ${error instanceof Error ? error.message : "Unknown error"}`;
    app.chat.addNotice("error", message);
  }
  app.requestRender();
}
