/**
 * The prompt editor of the interactive mode: the kit's Editor, with the app's keys taken before
 * the editor sees them (as 1.6.0's CustomEditor does) and the working indicator drawn in its top
 * border while a reply streams.
 *
 * @module
 */
import {
  Editor,
  type EditorTheme,
  getKeybindings,
  Loader,
  truncateToWidth,
  type TUI,
  visibleWidth,
} from "../../tui/mod.ts";
import { type AppAction, matchesAction } from "./app_keys.ts";

/** The working spinner; only its row is drawn, inside the editor's border. */
export class WorkingIndicator extends Loader {
  /** The spinner and message, at most `width` columns. */
  renderInBorder(width: number): string {
    const line = super.render(width + 2)[1] ?? "";
    return truncateToWidth(line.startsWith(" ") ? line.slice(1).trimEnd() : line.trimEnd(), width, "");
  }
}

/** The editor with app key actions. */
export class AppEditor extends Editor {
  /** Escape while no autocomplete list is open. */
  onEscape?: () => void;
  /** The exit key on an empty editor. */
  onCtrlD?: () => void;
  /** Extension shortcuts (`pi.registerShortcut`), asked first; true when one took the key. */
  onExtensionShortcut?: (data: string) => boolean;
  /** The app's key actions and their handlers (1.6.0's `CustomEditor.actionHandlers`). */
  readonly actionHandlers = new Map<AppAction, () => void>();
  #working?: WorkingIndicator;

  /** An editor in `tui` with `theme`. */
  constructor(tui: TUI, theme: EditorTheme) {
    super(tui, theme, { paddingX: 0 });
  }

  /** Runs `handler` when one of the action's keys is pressed. */
  onAction(action: AppAction, handler: () => void): void {
    this.actionHandlers.set(action, handler);
  }

  /** Shows (or with undefined hides) the working indicator in the top border. */
  setWorkingIndicator(indicator: WorkingIndicator | undefined): void {
    this.#working = indicator;
  }

  protected override renderTopBorder(width: number, hiddenLineCount: number): string {
    if (!this.#working || width <= 0 || hiddenLineCount > 0) {
      return super.renderTopBorder(width, hiddenLineCount);
    }
    const status = this.#working.renderInBorder(Math.max(1, width - 5));
    const statusWidth = visibleWidth(status);
    if (statusWidth === 0 || width < statusWidth + 5) return super.renderTopBorder(width, hiddenLineCount);
    return this.borderColor("── ") + status + this.borderColor(` ${"─".repeat(width - statusWidth - 4)}`);
  }

  override handleInput(data: string): void {
    if (this.onExtensionShortcut?.(data)) return;
    if (matchesAction(data, "app.interrupt")) {
      if (!this.isShowingAutocomplete() && this.onEscape) {
        this.onEscape();
        return;
      }
      super.handleInput(data);
      return;
    }
    if (matchesAction(data, "app.exit") && this.getText().length === 0) {
      this.onCtrlD?.();
      return;
    }
    // Explicit history keys win over the app's actions (1.6.0), so Ctrl+P can browse history.
    const kb = getKeybindings();
    if (kb.matches(data, "tui.editor.historyPrevious") || kb.matches(data, "tui.editor.historyNext")) {
      super.handleInput(data);
      return;
    }
    for (const [action, handler] of this.actionHandlers) {
      if (matchesAction(data, action)) {
        handler();
        return;
      }
    }
    super.handleInput(data);
  }
}
