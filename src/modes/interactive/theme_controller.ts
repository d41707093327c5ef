/**
 * Which theme the interactive mode draws with, and switching it: the generated `system` theme
 * (the default: colours from the terminal's own, see system_theme.ts), the built-in dark and light
 * themes plus the theme files of the run (agent dir, trusted project, settings, packages,
 * `--theme`), chosen by `--use-theme` or the `theme` setting (`name` or `light/dark`), changed by
 * `/settings` (with a live preview) and by extensions (`ctx.ui.setTheme`). The active theme's file
 * in `<agent dir>/themes/<name>.json` is watched and reloaded when it changes, as in pi 1.6.0.
 *
 * @module
 */
import { readEnv } from "../../util/env.ts";
import { join } from "../../util/path.ts";
import { readThemeFile, type ThemeDiagnostic, type ThemeFile } from "../../resources/themes/theme_files.ts";
import { parseThemeJsonText } from "../../resources/themes/theme_schema.ts";
import {
  colorFgBgAppearance,
  parseAutoThemeSetting,
  resolveThemeSetting,
  type TerminalAppearance,
} from "../../resources/themes/theme_setting.ts";
import { SYSTEM_THEME_NAME, systemThemeJson } from "../../resources/themes/system_theme.ts";
import type { TerminalColors, TerminalColorScheme } from "../../tui/terminal_colors.ts";
import { BUILTIN_THEMES, Theme, type ThemeData } from "./theme.ts";
import { requestTerminalColors, type TerminalColorSource, TerminalColorState } from "./theme_terminal.ts";

/** What a theme switch did: `error` says why it failed (the `system` theme is then in use). */
export interface ThemeSwitchResult {
  success: boolean;
  error?: string;
}

/** What the controller is built from. */
export interface ThemeControllerOptions {
  /** Theme files found for this run, first-found first. */
  files?: readonly ThemeFile[];
  /** Problems found while loading them. */
  diagnostics?: readonly ThemeDiagnostic[];
  /** Finds the theme files again (for `/reload`). */
  reloadFiles?: () => { themes: readonly ThemeFile[]; diagnostics: readonly ThemeDiagnostic[] };
  /** The agent dir, whose `themes/<name>.json` of the active theme is watched. */
  agentDir?: string;
  /** `COLORFGBG`, which tells a light terminal from a dark one until the terminal reports its colours. */
  colorFgBg?: string;
  /**
   * The terminal's colours will be queried ({@link ThemeController.queryTerminalColors}): the
   * `system` theme is grayscale from the start until they arrive, as 1.6.0 draws it.
   */
  awaitTerminalColors?: boolean;
}

/** The theme of no setting, and the one pi falls back to: generated from the terminal's colours. */
const FALLBACK_THEME = SYSTEM_THEME_NAME;
/** The active name of a theme object an extension handed over: the terminal's colours leave it alone. */
const IN_MEMORY = "<in-memory>";
/** How long a theme file must be quiet before it is reloaded (ms), as 1.6.0. */
const RELOAD_DELAY_MS = 100;

/** The run's themes and the one in use. */
export class ThemeController {
  /** The theme every component draws with; its colours change in place on a switch. */
  readonly theme: Theme;

  /** Called after the colours changed (the app re-renders). */
  onChange: () => void = () => {};
  readonly #files = new Map<string, ThemeFile>();
  /** Themes extensions added (`resources_discover`): after the run's own, and kept by /reload's rescan. */
  #extensionFiles: readonly ThemeFile[] = [];
  readonly #agentDir?: string;
  readonly #terminal: TerminalColorState;
  #ui?: TerminalColorSource;
  #unsubscribeScheme?: () => void;
  #autoSync = false;
  #query: Promise<void> = Promise.resolve();
  #activeName: string;
  #setting?: string;
  /** A setting chosen in this run (`--use-theme`, the menu, an extension): `/reload` keeps it. */
  #chosen?: string;
  #diagnostics: readonly ThemeDiagnostic[];
  readonly #reloadFiles?: ThemeControllerOptions["reloadFiles"];
  #watcher?: Deno.FsWatcher;
  #reloadTimer?: ReturnType<typeof setTimeout>;

  /** Keeps `theme` until {@link ThemeController.applySetting} picks the configured one. */
  constructor(theme: Theme, options: ThemeControllerOptions = {}) {
    this.theme = theme;
    this.#diagnostics = options.diagnostics ?? [];
    this.#reloadFiles = options.reloadFiles;
    for (const file of options.files ?? []) {
      if (!this.#files.has(file.json.name)) this.#files.set(file.json.name, file);
    }
    this.#agentDir = options.agentDir;
    this.#terminal = new TerminalColorState(colorFgBgAppearance(options.colorFgBg ?? readEnv("COLORFGBG")));
    if (options.awaitTerminalColors) this.#terminal.markPending();
    this.#activeName = theme.name;
  }

  /** Problems found while loading the theme files. */
  get diagnostics(): readonly ThemeDiagnostic[] {
    return this.#diagnostics;
  }

  /** The name of the theme in use. */
  get activeName(): string {
    return this.#activeName;
  }

  /** The setting in use (`--use-theme`, the saved one, or the last chosen), else the theme's name. */
  get selection(): string {
    return this.#setting ?? this.#activeName;
  }

  /**
   * Whether the terminal is light or dark: its reported background, else its light/dark report,
   * else `COLORFGBG`, else dark.
   */
  get appearance(): TerminalAppearance {
    return this.#terminal.appearance;
  }

  /** The terminal's reported colours (undefined before it answered). */
  get terminalColors(): TerminalColors | undefined {
    return this.#terminal.colors;
  }

  /** Every theme name offered: `system` first (the default), then built-in and loaded, sorted. */
  availableThemes(): string[] {
    const names = [...new Set([...Object.keys(BUILTIN_THEMES), ...this.#files.keys()])]
      .filter((name) => name !== SYSTEM_THEME_NAME)
      .sort((a, b) => a.localeCompare(b));
    return [SYSTEM_THEME_NAME, ...names];
  }

  /** Each offered theme with its file (undefined for a built-in one). */
  availableThemesWithPaths(): { name: string; path: string | undefined }[] {
    return this.availableThemes().map((name) => ({ name, path: this.#files.get(name)?.path }));
  }

  /**
   * The contents and file of theme `name`; a loaded file wins over a built-in of the same name, and
   * `system` (reserved, as in 1.6.0) is generated from the terminal's colours as reported so far.
   */
  themeData(name: string): { data: ThemeData; path?: string; dim?: string[] } {
    if (name === SYSTEM_THEME_NAME) {
      const { json, dim } = systemThemeJson(this.#terminal.systemInput());
      return { data: json, dim };
    }
    const file = this.#files.get(name);
    if (file) return { data: file.json, path: file.path };
    if (Object.hasOwn(BUILTIN_THEMES, name)) return { data: BUILTIN_THEMES[name] };
    // As 1.6.0: a name not loaded is looked for as <agent dir>/themes/<name>.json, so that a broken
    // file there is reported with what is wrong with it rather than as missing.
    const path = this.#agentDir ? join(this.#agentDir, "themes", `${name}.json`) : undefined;
    let text: string | undefined;
    try {
      if (path) text = Deno.readTextFileSync(path);
    } catch {
      // Not there: not found.
    }
    if (path && text !== undefined) return { data: parseThemeJsonText(name, text), path };
    throw new Error(`Theme not found: ${name}`);
  }

  /** Theme `name` as a separate object (for `ctx.ui.getTheme`), or undefined when it cannot load. */
  themeByName(name: string): Theme | undefined {
    try {
      const { data, path, dim } = this.themeData(name);
      return new Theme(data, this.theme.colorMode, path, dim);
    } catch {
      return undefined;
    }
  }

  /**
   * Applies a `theme` setting (or `--use-theme` value): a name, or `light/dark` chosen by the
   * terminal's appearance. No setting and a malformed pair draw with the `system` theme; a theme
   * that fails to load is reported through the result. The `system` theme and pairs follow the
   * terminal's light/dark changes.
   */
  applySetting(setting: string | undefined, chosen = true): ThemeSwitchResult {
    if (setting !== undefined) {
      this.#setting = setting;
      if (chosen) this.#chosen = setting;
    }
    const name = resolveThemeSetting(setting, this.appearance) ?? FALLBACK_THEME;
    this.#setAutoSync(name === SYSTEM_THEME_NAME || parseAutoThemeSetting(setting) !== undefined);
    return this.setThemeName(name);
  }

  /** Switches to theme `name` as an extension's choice (kept by `/reload`, as 1.6.0). */
  choose(name: string): ThemeSwitchResult {
    this.#setAutoSync(name === SYSTEM_THEME_NAME);
    const result = this.setThemeName(name);
    if (result.success) this.#setting = this.#chosen = name;
    return result;
  }

  /**
   * `/reload`: finds the theme files again, then applies the setting chosen in this run, else
   * `saved` (the `theme` setting as now read).
   */
  reload(saved: string | undefined): ThemeSwitchResult {
    const found = this.#reloadFiles?.();
    if (found) {
      this.#files.clear();
      for (const file of [...found.themes, ...this.#extensionFiles]) {
        if (!this.#files.has(file.json.name)) this.#files.set(file.json.name, file);
      }
      this.#diagnostics = found.diagnostics;
    }
    return this.applySetting(this.#chosen ?? saved, false);
  }

  /**
   * The themes extensions added for the current session (replacing those of the previous one); a
   * name the run's own themes already have keeps theirs, as 1.6.0 merges extension paths last.
   */
  setExtensionThemes(files: readonly ThemeFile[]): void {
    for (const file of this.#extensionFiles) {
      if (this.#files.get(file.json.name) === file) this.#files.delete(file.json.name);
    }
    this.#extensionFiles = files;
    for (const file of files) if (!this.#files.has(file.json.name)) this.#files.set(file.json.name, file);
  }

  /** The theme name a setting picks here (its light or dark half for a pair). */
  nameFor(setting: string | undefined): string | undefined {
    return resolveThemeSetting(setting, this.appearance);
  }

  /** Switches to theme `name`; on failure the `system` theme is used and the result says why. */
  setThemeName(name: string): ThemeSwitchResult {
    try {
      const { data, path, dim } = this.themeData(name);
      this.theme.replace(data, path, dim);
      this.#activeName = name;
      this.#watch();
      this.onChange();
      return { success: true };
    } catch (error) {
      const fallback = this.themeData(FALLBACK_THEME);
      this.theme.replace(fallback.data, undefined, fallback.dim);
      this.#activeName = FALLBACK_THEME;
      this.#stopWatching();
      this.onChange();
      return { success: false, error: error instanceof Error ? error.message : String(error) };
    }
  }

  /** Draws with theme `data` given directly (an extension's theme object); nothing is watched. */
  setThemeData(data: ThemeData, path?: string): ThemeSwitchResult {
    try {
      this.theme.replace(data, path);
    } catch (error) {
      return { success: false, error: error instanceof Error ? error.message : String(error) };
    }
    this.#activeName = IN_MEMORY;
    this.#setAutoSync(false);
    this.#stopWatching();
    this.onChange();
    return { success: true };
  }

  /** Shows a setting's theme without making it the active one's name (the `/settings` preview). */
  preview(setting: string): void {
    const name = resolveThemeSetting(setting, this.appearance);
    if (name === undefined) return;
    try {
      const { data, path, dim } = this.themeData(name);
      this.theme.replace(data, path, dim);
      this.onChange();
    } catch {
      // A theme that cannot load is not previewed; choosing it reports why.
    }
  }

  /**
   * Asks the terminal for its colours through `ui` (once its input is read). The `system` theme is
   * grayscale until the answer (or the timeout), then drawn in colours made from it; a `light/dark`
   * pair switches when the answer shows the other appearance. Light/dark change reports query again.
   */
  queryTerminalColors(ui: TerminalColorSource): void {
    if (this.#ui !== ui) {
      this.#unsubscribeScheme?.();
      this.#ui = ui;
      this.#unsubscribeScheme = ui.onTerminalColorSchemeChange((scheme) => this.#schemeChanged(scheme));
      if (this.#autoSync) ui.setTerminalColorSchemeNotifications(true);
    }
    this.#terminal.markPending();
    if (this.#activeName === SYSTEM_THEME_NAME) this.#redraw();
    this.#query = requestTerminalColors(ui, (colors) => this.applyTerminalColors(colors));
  }

  /** Settles when the latest colour query was answered (or timed out) and its colours applied. */
  waitForTerminalColors(): Promise<void> {
    return this.#query;
  }

  /** Takes the terminal's reported colours; redraws only when they changed (or end the grayscale). */
  applyTerminalColors(reported: TerminalColors): void {
    if (!this.#terminal.update(reported)) return;
    this.#followTerminal();
  }

  /** Stops watching the theme file and the terminal's light/dark reports. */
  dispose(): void {
    this.#stopWatching();
    this.#setAutoSync(false);
    this.#unsubscribeScheme?.();
    this.#unsubscribeScheme = undefined;
  }

  /** A light/dark report: the appearance may have changed, and the colours with it, so ask again. */
  #schemeChanged(scheme: TerminalColorScheme): void {
    if (!this.#autoSync || !this.#ui) return;
    if (this.#terminal.setScheme(scheme)) this.#followTerminal();
    this.queryTerminalColors(this.#ui);
  }

  /** After the terminal's colours or appearance changed: regenerate `system`, or switch a pair's half. */
  #followTerminal(): void {
    if (this.#activeName === IN_MEMORY) return;
    const name = resolveThemeSetting(this.#setting, this.appearance) ?? FALLBACK_THEME;
    if (name === SYSTEM_THEME_NAME || name !== this.#activeName) this.setThemeName(name);
  }

  /** Redraws the `system` theme from the reports as they stand (the grayscale while pending). */
  #redraw(): void {
    const { data, dim } = this.themeData(SYSTEM_THEME_NAME);
    this.theme.replace(data, undefined, dim);
    this.onChange();
  }

  #setAutoSync(enabled: boolean): void {
    if (this.#autoSync === enabled) return;
    this.#autoSync = enabled;
    this.#ui?.setTerminalColorSchemeNotifications(enabled);
  }

  /** Watches `<agent dir>/themes/<active>.json` when the active theme is that file. */
  #watch(): void {
    this.#stopWatching();
    if (!this.#agentDir) return;
    const dir = join(this.#agentDir, "themes");
    const fileName = `${this.#activeName}.json`;
    const path = join(dir, fileName);
    if (this.#files.get(this.#activeName)?.path !== path) return;
    let watcher: Deno.FsWatcher;
    try {
      watcher = Deno.watchFs(dir, { recursive: false });
    } catch {
      return; // No watching where the folder cannot be watched; /reload-free edits just need a restart.
    }
    this.#watcher = watcher;
    const watchedName = this.#activeName;
    void (async () => {
      try {
        for await (const event of watcher) {
          if (!event.paths.some((p) => p.endsWith(`/${fileName}`) || p.endsWith(`\\${fileName}`))) continue;
          if (this.#reloadTimer !== undefined) clearTimeout(this.#reloadTimer);
          this.#reloadTimer = setTimeout(() => {
            this.#reloadTimer = undefined;
            if (this.#activeName !== watchedName) return;
            this.#reload(watchedName, path);
          }, RELOAD_DELAY_MS);
        }
      } catch {
        // The watcher was closed.
      }
    })();
  }

  /** Re-reads the active theme's file; a file being edited (invalid, or gone) keeps the last good colours. */
  #reload(name: string, path: string): void {
    let data: ThemeData;
    try {
      data = readThemeFile(path);
      this.theme.replace(data, path);
    } catch {
      return;
    }
    this.#files.set(name, { json: data, path });
    this.onChange();
  }

  #stopWatching(): void {
    if (this.#reloadTimer !== undefined) clearTimeout(this.#reloadTimer);
    this.#reloadTimer = undefined;
    try {
      this.#watcher?.close();
    } catch {
      // Already closed.
    }
    this.#watcher = undefined;
  }
}
