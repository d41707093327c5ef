/**
 * `/reload` as pi 1.6.0 has it: while a box in the editor's place says what is being reloaded, the
 * session runtime reads settings, skills, prompt templates, context files and extensions again and
 * goes on with the same session (extensions get `session_shutdown` and `session_start` with reason
 * "reload"); then keybindings.json is read again and the theme setting applied, the chat is redrawn
 * and a status line says it is done. Not while a reply streams or a compaction runs.
 *
 * @module
 */
import { Container, Spacer, Text } from "../../tui/mod.ts";
import type { AgentSession } from "../../core/agent_session.ts";
import type { SessionRuntimeHost } from "../../core/runtime_host.ts";
import type { ChatView } from "./chat_view.ts";
import type { Theme } from "./theme.ts";
import type { AppKeybindings } from "./keybindings_app.ts";
import { BorderLine } from "./model_selector.ts";

/** What 1.6.0 reloads, as its messages name it. */
const WHAT = "keybindings, extensions, skills, prompts, themes, and context files";

/** The app as /reload needs it (the command runner's host has it), its keybindings and its theme setting. */
export interface ReloadHost {
  readonly host: SessionRuntimeHost;
  readonly session: AgentSession;
  readonly theme: Theme;
  readonly chat: ChatView;
  requestRender(): void;
  showSelector(component: Container & { focused?: boolean }): () => void;
  /** Redraws the chat from the (rebuilt) session and binds its extensions. */
  sessionReplaced(): Promise<void>;
  /** The keybindings installed at start-up. */
  readonly keybindings?: AppKeybindings;
  /** Reads the theme files again and applies the (reloaded) theme setting, when the app manages themes. */
  readonly themes?: { reload(setting: string | undefined): unknown };
}

/** Runs `/reload` in `app`; the outcome (done, refused, failed) is a line in the chat. */
export async function runReloadCommand(app: ReloadHost): Promise<void> {
  const session = app.session;
  if (session.isStreaming) {
    return notice(app, "warning", "Wait for the current response to finish before reloading.");
  }
  if (session.isCompacting) return notice(app, "warning", "Wait for compaction to finish before reloading.");
  const reload = app.host.reload?.bind(app.host);
  if (!reload) return notice(app, "error", "Reload failed: this session cannot be reloaded");
  const box = new Container() as Container & { focused?: boolean };
  box.addChild(new BorderLine(app.theme));
  box.addChild(new Spacer(1));
  box.addChild(new Text(app.theme.fg("muted", `Reloading ${WHAT}...`), 1, 0));
  box.addChild(new Spacer(1));
  box.addChild(new BorderLine(app.theme));
  const dismiss = app.showSelector(box);
  try {
    await reload();
    const keyWarnings = app.keybindings?.reload() ?? [];
    app.themes?.reload(app.session.settingsManager.getThemeSetting());
    // The chat is drawn again from the session (the warnings after it, or they would be cleared).
    await app.sessionReplaced();
    for (const warning of keyWarnings) app.chat.addNotice("warning", warning);
  } catch (error) {
    dismiss();
    return notice(app, "error", `Reload failed: ${error instanceof Error ? error.message : String(error)}`);
  }
  dismiss();
  notice(app, "status", `Reloaded ${WHAT}`);
}

function notice(app: ReloadHost, kind: "status" | "warning" | "error", text: string): void {
  app.chat.addNotice(kind, text);
  app.requestRender();
}
