/**
 * `/trust` as pi 1.6.0 has it: a selector showing the folder, its saved trust decision (inherited
 * from an ancestor or its own) and whether this session trusts the project, with the choices Trust,
 * Trust parent folder (…) and Do not trust, the saved one ticked and selected. Enter saves the
 * choice to `<agentDir>/trust.json` and says to restart pi; nothing is reloaded (1.6.0 neither).
 * Escape leaves everything as it was.
 *
 * @module
 */
import { getAgentDir } from "../../config/paths.ts";
import { ProjectTrustStore } from "../../config/project_trust.ts";
import { type ProjectTrustOption, projectTrustOptions } from "../../config/project_trust_options.ts";
import { APP_NAME } from "../../config/paths.ts";
import { Container, getKeybindings, type Keybinding, Spacer, Text } from "../../tui/mod.ts";
import type { AgentSession } from "../../core/agent_session.ts";
import type { ChatView } from "./chat_view.ts";
import { BorderLine } from "./model_selector.ts";
import type { Theme } from "./theme.ts";

/** What /trust needs of the app (the command runner's host has it). */
export interface TrustHost {
  readonly session: AgentSession;
  readonly theme: Theme;
  readonly chat: ChatView;
  requestRender(): void;
  showSelector(component: Container & { focused?: boolean }): () => void;
}

/** A saved decision and the folder it was saved for. */
type SavedDecision = { path: string; decision: boolean } | null;

/** `none`, `trusted (/folder)`, or `untrusted (inherited from /parent)` as 1.6.0 words it. */
export function describeSavedDecision(folder: string | undefined, saved: SavedDecision): string {
  if (saved === null) return "none";
  const label = saved.decision ? "trusted" : "untrusted";
  return folder !== undefined && saved.path !== folder
    ? `${label} (inherited from ${saved.path})`
    : `${label} (${saved.path})`;
}

/** The /trust selector. */
export class TrustSelector extends Container {
  #selected: number;
  readonly #options: ProjectTrustOption[];
  readonly #list = new Container();

  /** A selector for `cwd` with its saved decision and this session's trust. */
  constructor(
    private readonly theme: Theme,
    cwd: string,
    private readonly saved: SavedDecision,
    sessionTrusted: boolean,
    private readonly onSelect: (option: ProjectTrustOption) => void,
    private readonly onCancel: () => void,
  ) {
    super();
    this.#options = projectTrustOptions(cwd);
    this.#selected = Math.max(0, this.#options.findIndex((o) => this.#isSaved(o)));
    const muted = (text: string) => new Text(theme.fg("muted", text), 1, 0);
    const hint = (key: string, what: string) => theme.fg("dim", key) + theme.fg("muted", ` ${what}`);
    const keys = (binding: Keybinding) => getKeybindings().getKeys(binding).join("/");
    this.addChild(new BorderLine(theme));
    this.addChild(new Spacer(1));
    this.addChild(new Text(theme.fg("accent", theme.bold("Project trust")), 1, 0));
    this.addChild(muted(cwd));
    this.addChild(new Spacer(1));
    this.addChild(muted(`Saved decision: ${describeSavedDecision(this.#options[0]?.savedPath, saved)}`));
    this.addChild(muted(`Current session: ${sessionTrusted ? "trusted" : "untrusted"}`));
    this.addChild(new Spacer(1));
    this.addChild(this.#list);
    this.addChild(new Spacer(1));
    this.addChild(
      new Text(
        `${hint("↑↓", "navigate")}  ${hint(keys("tui.select.confirm"), "save")}  ${
          hint(keys("tui.select.cancel"), "cancel")
        }`,
        1,
        0,
      ),
    );
    this.addChild(new Spacer(1));
    this.addChild(new BorderLine(theme));
    this.#renderList();
  }

  #isSaved(option: ProjectTrustOption): boolean {
    return option.savedPath !== undefined && this.saved?.decision === option.trusted &&
      this.saved.path === option.savedPath;
  }

  #renderList(): void {
    const { theme } = this;
    this.#list.clear();
    this.#options.forEach((option, i) => {
      const selected = i === this.#selected;
      const tick = this.#isSaved(option) ? theme.fg("accent", "✓ ") : "  ";
      const arrow = selected ? theme.fg("accent", "→ ") : "  ";
      const label = theme.fg(selected ? "accent" : "text", option.label);
      this.#list.addChild(new Text(`${arrow}${tick}${label}`, 1, 0));
    });
  }

  /** ↑/↓ (or k/j) move, Enter saves, Escape cancels. */
  handleInput(data: string): void {
    const kb = getKeybindings();
    if (kb.matches(data, "tui.select.up") || data === "k") {
      this.#selected = Math.max(0, this.#selected - 1);
      this.#renderList();
    } else if (kb.matches(data, "tui.select.down") || data === "j") {
      this.#selected = Math.min(this.#options.length - 1, this.#selected + 1);
      this.#renderList();
    } else if (kb.matches(data, "tui.select.confirm") || data === "\n") {
      const option = this.#options[this.#selected];
      if (option) this.onSelect(option);
    } else if (kb.matches(data, "tui.select.cancel")) {
      this.onCancel();
    }
  }
}

/** Opens the /trust selector in place of the editor; `agentDir` holds trust.json. */
export function showTrustSelector(app: TrustHost, agentDir: string = getAgentDir()): void {
  const cwd = app.session.sessionManager.getCwd();
  const store = new ProjectTrustStore(agentDir);
  let saved: SavedDecision;
  try {
    saved = store.getEntry(cwd);
  } catch (error) {
    // A broken trust.json: say so (naming the file) rather than guess the decision.
    app.chat.addNotice("error", error instanceof Error ? error.message : String(error));
    app.requestRender();
    return;
  }
  const selector: TrustSelector = new TrustSelector(
    app.theme,
    cwd,
    saved,
    app.session.settingsManager.isProjectTrusted(),
    (option) => {
      try {
        store.setMany(option.updates);
      } catch (error) {
        close();
        app.chat.addNotice("error", error instanceof Error ? error.message : String(error));
        app.requestRender();
        return;
      }
      close();
      app.chat.addNotice(
        "status",
        `Saved trust decision: ${
          option.trusted ? "trusted" : "untrusted"
        }. Restart ${APP_NAME} for this to take effect.`,
      );
      app.requestRender();
    },
    () => close(),
  );
  const close = app.showSelector(selector);
}
