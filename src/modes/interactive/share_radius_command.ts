/**
 * The Radius step of `/share` (pi 1.6.0's `tryShareViaRadius`): with a Radius login, the session's
 * branch (with the `pi.share` entry) is uploaded as an artifact while "Uploading to Radius..."
 * spins in the editor's place; the cancel key stops the upload ("Share cancelled"). Without a
 * login nothing is shown and the caller goes on to the gist.
 *
 * @module
 */
import { hyperlink, type TUI } from "../../tui/mod.ts";
import type { AgentSession } from "../../core/agent_session.ts";
import { BorderedLoader } from "./bordered_loader.ts";
import type { Theme } from "./theme.ts";

/** What the Radius step needs of the app (a part of `/share`'s host). */
export interface RadiusShareHost {
  readonly session: AgentSession;
  readonly theme: Theme;
  readonly ui: TUI;
  readonly chat: { addNotice(kind: "status" | "error", text: string): void };
  requestRender(): void;
  /** Puts `component` in the editor's place; the function returned puts the editor back. */
  showSelector(component: BorderedLoader): () => void;
}

/**
 * Shares through Radius when a Radius credential exists. Resolves true when the share was handled
 * here (uploaded, failed or cancelled), false when there is no Radius login.
 */
export async function tryShareViaRadius(app: RadiusShareHost): Promise<boolean> {
  const { radiusToken, serializeShareJsonl, uploadRadiusArtifact } = await import(
    "../../core/export/share_radius.ts"
  );
  let body: string;
  try {
    body = serializeShareJsonl(app.session);
  } catch (error) {
    app.chat.addNotice(
      "error",
      `Failed to export session: ${error instanceof Error ? error.message : "Unknown error"}`,
    );
    app.requestRender();
    return true;
  }
  let token: string | undefined;
  try {
    token = await radiusToken(app.session);
  } catch {
    // A credential that cannot be read or refreshed counts as no login, as in 1.6.0.
    token = undefined;
  }
  if (!token) return false;
  const loader = new BorderedLoader(app.ui, app.theme, "Uploading to Radius...");
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
    const shareUrl = await uploadRadiusArtifact(body, token, { signal: loader.signal });
    if (loader.signal.aborted) return true;
    restore();
    app.chat.addNotice("status", `Share URL: ${hyperlink(shareUrl, shareUrl)}`);
  } catch (error) {
    if (loader.signal.aborted) return true;
    restore();
    app.chat.addNotice("error", error instanceof Error ? error.message : "Unknown error");
  }
  app.requestRender();
  return true;
}
