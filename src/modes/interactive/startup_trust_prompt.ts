/**
 * The project trust question pi 1.6.0 asks when `pi` starts in a terminal in a folder whose `.pi`
 * resources need a decision and nothing has decided yet (`defaultProjectTrust: "ask"`, no saved
 * decision, no `--approve`/`--no-approve`). It is drawn on the main screen before the app starts and
 * erased once answered; Escape or Ctrl+C means "not trusted" and saves nothing. Also the chat's warning
 * when the project stays untrusted.
 *
 * @module
 */
import {
  type Container,
  ProcessTerminal,
  Spacer,
  type Terminal,
  Text,
  TuiMainScreen,
} from "../../tui/mod.ts";
import { hasTrustRequiringProjectResources, type TrustDecision } from "../../config/project_trust.ts";
import { projectTrustOptions, projectTrustPromptTitle } from "../../config/project_trust_options.ts";
import { APP_NAME, CONFIG_DIR_NAME } from "../../config/paths.ts";
import { ExtensionSelector } from "./extension_dialogs.ts";
import { loadTheme, type Theme } from "./theme.ts";
import { ThemeController } from "./theme_controller.ts";

/** What the start-up question needs. */
export interface StartupTrustOptions {
  /** The `theme` setting. */
  theme?: string;
  /** The terminal (tests pass a virtual one). */
  terminal?: Terminal;
}

/** The answer: whether to trust, and what to save in trust.json. */
export interface StartupTrustAnswer {
  trusted: boolean;
  save: { path: string; decision: TrustDecision }[];
}

/** Asks whether to trust `cwd` (already canonical) and resolves with the choice. */
export function askProjectTrustAtStartup(
  cwd: string,
  options: StartupTrustOptions = {},
): Promise<StartupTrustAnswer> {
  const choices = projectTrustOptions(cwd, { includeSessionOnly: true });
  const ui = new TuiMainScreen(options.terminal ?? new ProcessTerminal());
  // As 1.6.0: the question is drawn in the configured theme; `system` follows the terminal's colours.
  const themes = new ThemeController(loadTheme(options.theme), { awaitTerminalColors: true });
  themes.applySetting(options.theme, false);
  themes.onChange = () => {
    ui.invalidate();
    ui.requestRender();
  };
  return new Promise((resolve) => {
    let settled = false;
    const finish = async (label: string | undefined) => {
      if (settled) return;
      settled = true;
      // Erased, not left in the scrollback: the app draws from the same rows next.
      ui.clear();
      ui.requestRender();
      await new Promise((wait) => setTimeout(wait, 25));
      ui.stop();
      themes.dispose();
      const choice = choices.find((c) => c.label === label);
      resolve(choice ? { trusted: choice.trusted, save: choice.updates } : { trusted: false, save: [] });
    };
    const selector = new ExtensionSelector(
      themes.theme,
      projectTrustPromptTitle(cwd, APP_NAME, CONFIG_DIR_NAME),
      choices.map((c) => c.label),
      (label) => void finish(label),
      () => void finish(undefined),
      { tui: ui },
    );
    ui.addChild(selector);
    ui.setFocus(selector);
    ui.start();
    themes.queryTerminalColors(ui);
    ui.requestRender();
  });
}

/**
 * Adds 1.6.0's warning to the chat when the project has resources that need trust and they were not
 * loaded; after a blank row only when the chat already shows something.
 */
export function addProjectTrustWarning(chat: Container, theme: Theme, trusted: boolean, cwd: string): void {
  if (trusted || !hasTrustRequiringProjectResources(cwd)) return;
  if (chat.children.length > 0) chat.addChild(new Spacer(1));
  chat.addChild(
    new Text(
      theme.fg(
        "warning",
        `This project is not trusted. Project ${CONFIG_DIR_NAME} resources and packages are ignored. ` +
          `Use /trust to save a trust decision, then restart ${APP_NAME}.`,
      ),
      1,
      0,
    ),
  );
}
