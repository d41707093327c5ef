/**
 * An extension command's session control in the interactive mode (1.6.0's `commandContextActions`
 * there): the runtime replaces the session and the chat follows it — redrawn and rebound before the
 * command's `withSession` runs, then the status 1.6.0 shows ("Forked to new session", "Resumed
 * session", "Navigated to selected point"; the fork's prompt back in the editor).
 *
 * @module
 */
import type { AgentSession } from "../../core/agent_session.ts";
import { extensionHostOf } from "../../core/extension_host.ts";
import {
  type ReplacingRuntime,
  runtimeSessionControl,
  type SessionControl,
} from "../../core/extension_session_control.ts";

/** What the session control needs of the interactive app. */
export interface SessionTuiHost {
  /** The runtime that replaces the session. */
  readonly host: ReplacingRuntime;
  /** The session shown now. */
  readonly session: AgentSession;
  /** Redraws the chat for the runtime's current session and binds its extensions. */
  sessionReplaced(): Promise<void>;
  /** Redraws the chat from the session's messages (the leaf moved). */
  redrawChat(): void;
  /** The prompt editor. */
  readonly editor: { getText(): string; setText(text: string): void };
  /** The transcript. */
  readonly chat: { addNotice(kind: "status", text: string): void };
  /** Schedules a redraw. */
  requestRender(): void;
}

/** `ctx.newSession()`, `fork()`, `switchSession()` and `navigateTree()` for commands run in the TUI. */
export function tuiSessionControl(app: SessionTuiHost): SessionControl {
  const status = (text: string) => {
    app.chat.addNotice("status", text);
    app.requestRender();
  };
  const control = runtimeSessionControl(app.host, () => app.sessionReplaced(), (result) => {
    app.editor.setText(result.selectedText ?? "");
    status("Forked to new session");
  });
  return {
    ...control,
    switchSession: async (sessionPath, options) => {
      const result = await control.switchSession!(sessionPath, options);
      if (!result.cancelled) status("Resumed session");
      return result;
    },
    navigateTree: async (targetId, options) => {
      const hooks = extensionHostOf(app.session)?.treeHooks();
      const result = await app.session.navigateTree(targetId, { ...options, hooks });
      if (result.cancelled) return { cancelled: true };
      app.redrawChat();
      if (result.editorText && !app.editor.getText().trim()) app.editor.setText(result.editorText);
      status("Navigated to selected point");
      return { cancelled: false };
    },
  };
}
