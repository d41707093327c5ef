/**
 * What the slash commands act on: the running interactive mode (`InteractiveApp`). Its own module so that
 * command files loaded on demand (`/logout`, …) can name it without importing the command runner that loads
 * them.
 *
 * @module
 */
import type { Container, TUI } from "../../tui/mod.ts";
import type { AgentSession } from "../../core/agent_session.ts";
import type { SessionRuntimeHost } from "../../core/runtime_host.ts";
import type { ExtensionUIContext } from "../../extensions/types.ts";
import type { ChatView } from "./chat_view.ts";
import type { DisplayTargets } from "./display_settings.ts";
import type { Theme } from "./theme.ts";

/** What the commands act on: the running interactive mode (InteractiveApp). */
export interface CommandHost {
  readonly host: SessionRuntimeHost;
  readonly session: AgentSession;
  readonly theme: Theme;
  readonly chat: ChatView;
  readonly ui: TUI;
  requestRender(): void;
  addText(text: string, paddingY?: number): void;
  updateEditorBorder(): void;
  sessionReplaced(): Promise<void>;
  showSelector(component: Container & { focused?: boolean }): () => void;
  shutdown(code: number): Promise<void>;
  compact(customInstructions?: string): Promise<void>;
  /** Opens the /tree navigator. */
  openTree(): void;
  readonly editor: { setText(text: string): void } & DisplayTargets["editor"];
  /** The footer (its `(auto)` compaction mark). */
  readonly footer: DisplayTargets["footer"];
  /** `ctx.ui` as extensions get it (built-in extension commands such as `/llama` draw with it). */
  extensionUIContext?(): ExtensionUIContext;
}
