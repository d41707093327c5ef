/**
 * Which theme the interactive mode draws with, and switching it: the built-in dark and light
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
  resolveThemeSetting,
  type TerminalAppearance,
} from "../../resources/themes/theme_setting.ts";
import { BUILTIN_THEMES, DARK_THEME, Theme, type ThemeData } from "./theme.ts";

/** What a theme switch did: `error` says why it failed (the dark theme is then in use). */
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
  /** `COLORFGBG`, which tells a light terminal from a dark one for a `light/dark` setting. */
  colorFgBg?: string;
}

/** The name pi falls back to (pi 1.6.0 falls back to its terminal-derived `system` theme). */
const FALLBACK_THEME = "dark";
/** How long a theme file must be quiet before it is reloaded (ms), as 1.6.0. */
const RELOAD_DELAY_MS = 100;

/** The run's themes and the one in use. */
export class ThemeController {
  /** The theme every component draws with; its colours change in place on a switch. */
  readonly theme: Theme;

  /** Called after the colours changed (the app re-renders). */
  onChange: () => void = () => {};
  readonly #files = new Map<string, ThemeFile>();
  readonly #agentDir?: string;
  readonly #appearance: TerminalAppearance;
  #activeName: string;
  #setting?: string;
  /** A setting chosen in this run (`--use-theme`, the menu, an extension): `/reload` keeps it. */
  #chosen?: string;
  #diagnostics: readonly ThemeDiagnostic[];
  readonly #reloadFiles?: ThemeControllerOptions["reloadFiles"];
  #watcher?: Deno.FsWatcher;
  #reloadTimer?: ReturnType<typeof setTimeout>;

  /** Starts with the dark theme; {@link ThemeController.applySetting} picks the configured one. */
  constructor(theme: Theme, options: ThemeControllerOptions = {}) {
    this.theme = theme;
    this.#diagnostics = options.diagnostics ?? [];
    this.#reloadFiles = options.reloadFiles;
    for (const file of options.files ?? []) {
      if (!this.#files.has(file.json.name)) this.#files.set(file.json.name, file);
    }
    this.#agentDir = options.agentDir;
    this.#appearance = colorFgBgAppearance(options.colorFgBg ?? readEnv("COLORFGBG")) ?? "dark";
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

  /** Whether the terminal is taken to be light or dark (`COLORFGBG`, else dark). */
  get appearance(): TerminalAppearance {
    return this.#appearance;
  }

  /** Every theme name offered: built-in and loaded, sorted. */
  availableThemes(): string[] {
    return [...new Set([...Object.keys(BUILTIN_THEMES), ...this.#files.keys()])].sort((a, b) =>
      a.localeCompare(b)
    );
  }

  /** Each offered theme with its file (undefined for a built-in one). */
  availableThemesWithPaths(): { name: string; path: string | undefined }[] {
    return this.availableThemes().map((name) => ({ name, path: this.#files.get(name)?.path }));
  }

  /** The contents and file of theme `name`; a loaded file wins over a built-in of the same name. */
  themeData(name: string): { data: ThemeData; path?: string } {
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
      const { data, path } = this.themeData(name);
      return new Theme(data, this.theme.colorMode, path);
    } catch {
      return undefined;
    }
  }

  /**
   * Applies a `theme` setting (or `--use-theme` value): a name, or `light/dark` chosen by the
   * terminal's appearance. No setting, `system` (not in this build) and a malformed pair draw with
   * the dark theme; a theme that fails to load is reported through the result.
   */
  applySetting(setting: string | undefined, chosen = true): ThemeSwitchResult {
    if (setting !== undefined) {
      this.#setting = setting;
      if (chosen) this.#chosen = setting;
    }
    const name = resolveThemeSetting(setting, this.#appearance);
    if (name === undefined || name === "system") return this.setThemeName(FALLBACK_THEME);
    return this.setThemeName(name);
  }

  /** Switches to theme `name` as an extension's choice (kept by `/reload`, as 1.6.0). */
  choose(name: string): ThemeSwitchResult {
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
      for (const file of found.themes) {
        if (!this.#files.has(file.json.name)) this.#files.set(file.json.name, file);
      }
      this.#diagnostics = found.diagnostics;
    }
    return this.applySetting(this.#chosen ?? saved, false);
  }

  /** The theme name a setting picks here (its light or dark half for a pair). */
  nameFor(setting: string | undefined): string | undefined {
    return resolveThemeSetting(setting, this.#appearance);
  }

  /** Switches to theme `name`; on failure the dark theme is used and the result says why. */
  setThemeName(name: string): ThemeSwitchResult {
    try {
      const { data, path } = this.themeData(name);
      this.theme.replace(data, path);
      this.#activeName = name;
      this.#watch();
      this.onChange();
      return { success: true };
    } catch (error) {
      this.theme.replace(DARK_THEME);
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
    this.#activeName = data.name;
    this.#stopWatching();
    this.onChange();
    return { success: true };
  }

  /** Shows a setting's theme without making it the active one's name (the `/settings` preview). */
  preview(setting: string): void {
    const name = resolveThemeSetting(setting, this.#appearance);
    if (name === undefined) return;
    try {
      const { data, path } = this.themeData(name === "system" ? FALLBACK_THEME : name);
      this.theme.replace(data, path);
      this.onChange();
    } catch {
      // A theme that cannot load is not previewed; choosing it reports why.
    }
  }

  /** Stops watching the theme file. */
  dispose(): void {
    this.#stopWatching();
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
