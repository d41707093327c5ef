/**
 * Opens the `pi config` selector (src/modes/interactive/config_selector.ts) on the terminal's main
 * screen, as pi 1.6.0 does: the resources of the global view (project settings left out) and of
 * the project view (when the project is trusted), the `theme` setting's colours and the user's
 * keybindings.json. Resolves when the selector is closed; every toggle is already saved then.
 *
 * @module
 */
import type { SettingsManager } from "../config/settings_manager.ts";
import { buildGroups } from "../modes/interactive/config_selector_groups.ts";
import { ConfigSelector, type ConfigWriteScope } from "../modes/interactive/config_selector.ts";
import { installAppKeybindings } from "../modes/interactive/keybindings_app.ts";
import { loadTheme } from "../modes/interactive/theme.ts";
import { ProcessTerminal, type Terminal, TuiMainScreen } from "../tui/mod.ts";
import { readEnv } from "../util/env.ts";
import { homeDir } from "../util/os.ts";
import { resolveConfigResources } from "./config_resources.ts";

/** What the selector edits. */
export interface ConfigSelectorRunOptions {
  /** Settings with the project layer when the project is trusted; toggles are written through it. */
  settingsManager: SettingsManager;
  /** The same settings without the project layer (the global view). */
  globalView: SettingsManager;
  cwd: string;
  agentDir: string;
  writeScope: ConfigWriteScope;
  /** Prints a warning (a package that could not be installed). */
  warn: (message: string) => void;
  /** The terminal (tests pass a virtual one). */
  terminal?: Terminal;
}

/** Shows the selector until Escape or Ctrl+C, then waits for the settings writes. */
export async function openConfigSelector(options: ConfigSelectorRunOptions): Promise<void> {
  const { settingsManager, cwd, agentDir } = options;
  const home = readEnv("HOME") || homeDir();
  const trusted = settingsManager.isProjectTrusted();
  // Skill discovery reads .gitignore files and patterns with parsers that load on demand.
  const { loadResourceDeps } = await import("../resources/resource_deps.ts");
  await loadResourceDeps();
  // A package that cannot be installed is reported once, before the selector opens (as 1.6.0).
  const warnings = new Set<string>();
  const warn = (message: string) => warnings.add(message);
  const globalGroups = buildGroups(
    await resolveConfigResources(options.globalView, cwd, agentDir, warn),
    agentDir,
    home,
  );
  const projectGroups = trusted
    ? buildGroups(await resolveConfigResources(settingsManager, cwd, agentDir, warn), agentDir, home)
    : globalGroups;
  for (const warning of warnings) options.warn(warning);
  installAppKeybindings(agentDir);
  const theme = loadTheme(settingsManager.getTheme());
  const ui = new TuiMainScreen(options.terminal ?? new ProcessTerminal());
  await new Promise<void>((resolve) => {
    let closed = false;
    const selectorClose = () => {
      if (closed) return;
      closed = true;
      ui.stop();
      resolve();
    };
    const selector = new ConfigSelector(theme, {
      groups: { global: globalGroups, project: projectGroups },
      settings: settingsManager,
      cwd,
      agentDir,
      writeScope: options.writeScope,
      projectModeAvailable: trusted,
      terminalRows: ui.terminal.rows,
      requestRender: () => ui.requestRender(),
      onClose: selectorClose,
    });
    ui.addChild(selector);
    ui.setFocus(selector.list);
    ui.start();
    ui.requestRender(true);
    // Without a terminal on stdin no key can come: 1.6.0 draws the selector once and exits when
    // stdin ends (keys piped in are not read here; see docs/differences.md).
    if (!options.terminal && !Deno.stdin.isTerminal()) setTimeout(() => selectorClose(), 0);
  });
  await settingsManager.flush();
}
