/**
 * The start-up line naming the model scope (`--models`, `enabledModels`) and the key that cycles
 * it, as pi 1.6.0 shows it when start-up details are on (`quietStartup: false`): under the header
 * in fullscreen mode, printed before the screen starts in regular mode (so it stays in the
 * scrollback).
 *
 * @module
 */
import type { AgentSession } from "../../core/agent_session.ts";
import { type Container, Spacer, Text } from "../../tui/mod.ts";
import { APP_KEYS } from "./app_keys.ts";
import { keyDisplayText } from "./hotkeys.ts";
import type { Theme } from "./theme.ts";

/** `Model scope: a, b:high (Ctrl+P to cycle)`, or undefined without a scope. */
export function modelScopeNotice(session: AgentSession, theme: Theme): string | undefined {
  if (session.scopedModels.length === 0) return undefined;
  const list = session.scopedModels
    .map((s) => `${s.model.id}${s.thinkingLevel ? `:${s.thinkingLevel}` : ""}`)
    .join(", ");
  const hint = theme.fg("muted", ` (${keyDisplayText(APP_KEYS["app.model.cycleForward"])} to cycle)`);
  return theme.fg("dim", `Model scope: ${list}${hint}`);
}

/** Shows the notice: in `header` on the fullscreen screen, on stdout before a regular one starts. */
export function showModelScopeNotice(
  header: Container,
  session: AgentSession,
  theme: Theme,
  mode: "fullscreen" | "regular",
): void {
  const notice = modelScopeNotice(session, theme);
  if (!notice) return;
  if (mode === "regular") {
    console.log(notice);
    return;
  }
  header.addChild(new Text(notice, 1, 0));
  header.addChild(new Spacer(1));
}
