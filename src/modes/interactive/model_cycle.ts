/**
 * Ctrl+P / Shift+Ctrl+P: the next or previous model — among the scoped models (`--models`,
 * `enabledModels`, /scoped-models) when there are any, else among all models with credentials —
 * with pi 1.6.0's status line.
 *
 * @module
 */
import type { AgentSession } from "../../core/agent_session.ts";
import type { ChatView } from "./chat_view.ts";

/** What cycling acts on. */
export interface ModelCycleHost {
  readonly session: AgentSession;
  readonly chat: ChatView;
  updateEditorBorder(): void;
  requestRender(): void;
}

/** Switches to the next model in `direction` and says so (or why it cannot). */
export async function cycleModel(app: ModelCycleHost, direction: "forward" | "backward"): Promise<void> {
  try {
    const result = await app.session.cycleModel(direction);
    if (result === undefined) {
      const scoped = app.session.scopedModels.length > 0;
      app.chat.addNotice("status", scoped ? "Only one model in scope" : "Only one model available");
    } else {
      const thinking = result.model.reasoning && result.thinkingLevel !== "off"
        ? ` (thinking: ${result.thinkingLevel})`
        : "";
      app.updateEditorBorder();
      app.chat.addNotice("status", `Switched to ${result.model.name || result.model.id}${thinking}`);
    }
  } catch (error) {
    app.chat.addNotice("error", error instanceof Error ? error.message : String(error));
  }
  app.requestRender();
}
