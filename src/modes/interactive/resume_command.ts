/**
 * `/resume` in a running session: the session picker (session_selector.ts) in place of the
 * editor; the chosen session replaces the current one and the chat shows its history with
 * "Resumed session" below it (pi 1.6.0). Escape closes the picker and changes nothing. Renaming
 * works here (Ctrl+R); the open session is renamed through the live session, so its next entries
 * still follow the name entry. A session whose working folder is gone asks, as 1.6.0 does, whether
 * to continue it in the current folder, fork it there, or cancel.
 *
 * @module
 */
import type { AgentSession } from "../../core/agent_session.ts";
import type { SessionRuntimeHost } from "../../core/runtime_host.ts";
import { MissingSessionCwdError } from "../../core/missing_cwd.ts";
import { forkSessionFile, renameSessionFile, sessionListLoaders } from "../../core/session_listing.ts";
import type { Container } from "../../tui/mod.ts";
import type { ChatView } from "./chat_view.ts";
import { ExtensionSelector } from "./extension_dialogs.ts";
import { SessionSelector } from "./session_selector.ts";
import type { Theme } from "./theme.ts";

/** What `/resume` acts on: the running interactive mode. */
export interface ResumeHost {
  readonly host: SessionRuntimeHost;
  readonly session: AgentSession;
  readonly theme: Theme;
  readonly chat: ChatView;
  requestRender(): void;
  showSelector(component: Container & { focused?: boolean }): () => void;
  sessionReplaced(): Promise<void>;
}

/** Opens the picker over the current folder's sessions (Tab: all projects). */
export function openResumePicker(app: ResumeHost): void {
  const manager = app.session.sessionManager;
  const currentPath = app.session.sessionFile;
  let done = () => {};
  const selector = new SessionSelector(app.theme, {
    // An in-memory session (--no-session) has no folder of its own: list the default one.
    loaders: sessionListLoaders(manager.getCwd(), manager.getSessionDir() || undefined),
    onSelect: (path) => {
      done();
      void resumeSession(app, path);
    },
    onCancel: () => done(),
    requestRender: () => app.requestRender(),
    renameSession: (path, name) => {
      if (path === app.session.sessionFile) app.session.setSessionName(name);
      else renameSessionFile(path, name);
    },
    currentSessionPath: currentPath,
    home: Deno.env.get("HOME"),
  });
  const close = app.showSelector(selector);
  done = () => {
    selector.dispose();
    close();
  };
}

/** Switches to the session in `path`; a failure is shown in the chat and the current session stays. */
export async function resumeSession(app: ResumeHost, path: string): Promise<void> {
  try {
    const result = await app.host.switchSession(path);
    if (result.cancelled) return app.requestRender();
    await app.sessionReplaced();
    app.chat.addNotice("status", "Resumed session");
  } catch (error) {
    if (error instanceof MissingSessionCwdError) {
      await resumeWithoutItsFolder(app, path, error.issue.sessionCwd);
    } else showResumeError(app, error);
  }
  app.requestRender();
}

function showResumeError(app: ResumeHost, error: unknown): void {
  app.chat.addNotice(
    "error",
    `Failed to resume session: ${error instanceof Error ? error.message : String(error)}`,
  );
}

/**
 * The session's working folder is gone: as pi 1.6.0, continue it in the current folder, fork it
 * into the current folder (a new session, the original kept), or cancel.
 */
async function resumeWithoutItsFolder(app: ResumeHost, path: string, sessionCwd: string): Promise<void> {
  const cwd = app.session.sessionManager.getCwd();
  const options = [
    `Continue in ${cwd} (asks again next time)`,
    `Fork into ${cwd} (new session ID, original kept)`,
    "Cancel",
  ];
  const choice = await new Promise<number>((resolve) => {
    let close = () => {};
    const finish = (index: number) => {
      selector.dispose();
      close();
      resolve(index);
    };
    const selector = new ExtensionSelector(
      app.theme,
      `Session cwd does not exist: ${sessionCwd}`,
      options,
      (option) => finish(options.indexOf(option)),
      () => finish(2),
    );
    close = app.showSelector(selector);
  });
  try {
    if (choice === 0) {
      const result = await app.host.switchSession(path, { cwdOverride: cwd });
      if (result.cancelled) return;
      await app.sessionReplaced();
      app.chat.addNotice("status", `Resumed session in ${cwd}`);
    } else if (choice === 1) {
      const manager = app.session.sessionManager;
      const fork = forkSessionFile(path, cwd, manager.getSessionDir() || undefined);
      const result = await app.host.switchSession(fork.path);
      if (result.cancelled) {
        // A hook vetoed the switch: no copy is left behind.
        await Deno.remove(fork.path).catch(() => {});
        return;
      }
      await app.sessionReplaced();
      app.chat.addNotice("status", `Forked into new session ${fork.id} in ${cwd}`);
    } else {
      app.chat.addNotice("status", "Resume cancelled");
    }
  } catch (error) {
    showResumeError(app, error);
  }
}
