/**
 * `pi -r` / `--resume`: the session picker on the terminal's main screen before any session is
 * opened, as pi 1.6.0 shows it (no renaming there). Resolves with the chosen file, or null when
 * the user pressed Escape or Ctrl+C; the terminal is given back either way, the picker left in
 * the scrollback.
 *
 * @module
 */
import { ProcessTerminal, type Terminal, TuiMainScreen } from "../../tui/mod.ts";
import type { SessionListLoaders } from "../../core/session_listing.ts";
import { getAgentDir } from "../../config/paths.ts";
import { installAppKeybindings } from "./keybindings_app.ts";
import { SessionSelector } from "./session_selector.ts";
import { loadTheme } from "./theme.ts";

/** What the start-up picker needs. */
export interface StartupPickerOptions {
  loaders: SessionListLoaders;
  /** The `theme` setting. */
  theme?: string;
  /** The home folder, written `~` in paths. */
  home?: string;
  /** The terminal (tests pass a virtual one). */
  terminal?: Terminal;
}

/** Shows the picker until a session is chosen (its path) or the picker is cancelled (null). */
export function pickSessionAtStartup(options: StartupPickerOptions): Promise<string | null> {
  // keybindings.json applies here too (its warnings show once the session starts).
  installAppKeybindings(getAgentDir());
  const ui = new TuiMainScreen(options.terminal ?? new ProcessTerminal());
  return new Promise((resolve) => {
    let settled = false;
    const finish = (path: string | null) => {
      if (settled) return;
      settled = true;
      selector.dispose();
      ui.stop();
      resolve(path);
    };
    const selector = new SessionSelector(loadTheme(options.theme), {
      loaders: options.loaders,
      onSelect: (path) => finish(path),
      onCancel: () => finish(null),
      requestRender: () => ui.requestRender(),
      home: options.home,
    });
    ui.addChild(selector);
    ui.setFocus(selector);
    ui.start();
    ui.requestRender();
  });
}
