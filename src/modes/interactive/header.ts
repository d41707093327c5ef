/**
 * The start-up header of pi 1.6.0: the logo with the version, the compact key hints and the
 * onboarding line; the app.tools.expand key shows the full key list instead. quietStartup: true
 * leaves it out, "header" keeps it but drops the mention of loaded resources.
 *
 * @module
 */
import {
  backgroundAnsi,
  type Component,
  foregroundAnsi,
  getKeybindings,
  rgbColor,
  Text,
} from "../../tui/mod.ts";
import { type AppAction, keyText } from "./app_keys.ts";
import type { Theme } from "./theme.ts";

// The brand colours stay the same in every theme.
const CORAL = rgbColor(228, 138, 122);
const BLUE = rgbColor(79, 142, 179);
const YELLOW = rgbColor(234, 182, 93);
const RESET = "\x1b[0m";

/** The two rows of the half-block logo (4 cells wide). */
export function logoLines(theme: Theme): [string, string] {
  const fg = (color: typeof CORAL) => foregroundAnsi(color, theme.colorMode);
  const blueBg = backgroundAnsi(BLUE, theme.colorMode);
  return [
    `${fg(CORAL)}${blueBg}▀${RESET}${fg(CORAL)}▀█${RESET} `,
    `${fg(BLUE)}█▀${RESET} ${fg(YELLOW)}█${RESET}`,
  ];
}

function hint(theme: Theme, key: string, description: string): string {
  return theme.fg("dim", key) + theme.fg("muted", ` ${description}`);
}

function actionHint(theme: Theme, action: AppAction, description: string): string {
  return hint(theme, keyText(action), description);
}

/** The header's text, compact or expanded. */
export function headerText(theme: Theme, version: string, expanded: boolean, showDetails: boolean): string {
  const [top, bottom] = logoLines(theme);
  const withLogo = (hints: string) => `${top} ${theme.fg("dim", `v${version}`)}\n${bottom} ${hints}`;
  const onboarding = theme.fg(
    "dim",
    "Pi can explain its own features and look up its docs. Ask it how to use or extend Pi.",
  );
  if (expanded) {
    const lines = [
      actionHint(theme, "app.interrupt", "to interrupt"),
      actionHint(theme, "app.clear", "to clear"),
      hint(theme, `${keyText("app.clear")} twice`, "to exit"),
      actionHint(theme, "app.exit", "to exit (empty)"),
      actionHint(theme, "app.suspend", "to suspend"),
      hint(theme, getKeybindings().getKeys("tui.editor.deleteToLineEnd").join("/"), "to delete to end"),
      actionHint(theme, "app.thinking.cycle", "to cycle thinking level"),
      hint(
        theme,
        `${keyText("app.model.cycleForward")}/${keyText("app.model.cycleBackward")}`,
        "to cycle models",
      ),
      actionHint(theme, "app.model.select", "to select model"),
      actionHint(theme, "app.tools.expand", "to expand tools"),
      actionHint(theme, "app.thinking.toggle", "to expand thinking"),
      actionHint(theme, "app.editor.external", "for external editor"),
      hint(theme, "/", "for commands"),
      hint(theme, "!", "to run bash"),
      hint(theme, "!!", "to run bash (no context)"),
      actionHint(theme, "app.message.followUp", "to queue follow-up"),
      actionHint(theme, "app.message.dequeue", "to edit all queued messages"),
      actionHint(theme, "app.clipboard.pasteImage", "to paste files on macOS, images, or text"),
      hint(theme, "drop files", "to attach"),
    ];
    return `${withLogo(lines.join("\n"))}\n\n${onboarding}`;
  }
  const compact = [
    actionHint(theme, "app.interrupt", "interrupt"),
    hint(theme, `${keyText("app.clear")}/${keyText("app.exit")}`, "clear/exit"),
    hint(theme, "/", "commands"),
    hint(theme, "!", "bash"),
    actionHint(theme, "app.tools.expand", "more"),
  ].join(theme.fg("muted", " · "));
  const more = theme.fg(
    "dim",
    `Press ${keyText("app.tools.expand")} to show full startup help${
      showDetails ? " and loaded resources" : ""
    }.`,
  );
  return `${withLogo(compact)}\n${more}\n\n${onboarding}`;
}

/** The header component: its text follows {@link StartupHeader.setExpanded}. */
export class StartupHeader extends Text implements Component {
  #expanded = false;
  #themeVersion: number;

  /** A header for `version`; `showDetails` is false under quietStartup: "header". */
  constructor(
    private readonly theme: Theme,
    private readonly version: string,
    private readonly showDetails: boolean,
  ) {
    super(headerText(theme, version, false, showDetails), 1, 0);
    this.#themeVersion = theme.version;
  }

  /** After a theme change the header is coloured again (1.6.0 builds it on demand). */
  override invalidate(): void {
    if (this.theme.version !== this.#themeVersion) {
      this.#themeVersion = this.theme.version;
      this.setText(headerText(this.theme, this.version, this.#expanded, this.showDetails));
    }
    super.invalidate();
  }

  /** Shows the full key list (true) or the compact hints. */
  setExpanded(expanded: boolean): void {
    if (expanded === this.#expanded) return;
    this.#expanded = expanded;
    this.setText(headerText(this.theme, this.version, expanded, this.showDetails));
  }
}
