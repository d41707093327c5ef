/**
 * Loads the run's themes before the interactive screen starts: the theme files (agent dir, trusted
 * project, `themes` settings, installed packages, `--theme`), then the theme `--use-theme` or the
 * `theme` setting names. Package code loads only when a settings scope declares packages.
 *
 * @module
 */
import type { SettingsManager } from "../../config/settings_manager.ts";
import { loadThemeFiles, type ThemeDiagnostic, type ThemeFile } from "../../resources/themes/theme_files.ts";
import type { Theme } from "./theme.ts";
import { ThemeController } from "./theme_controller.ts";

/** The theme flags of a run. */
export interface ThemeRunOptions {
  /** The agent config folder. */
  agentDir: string;
  /** `--theme` files or folders. */
  cliPaths?: string[];
  /** `--use-theme`: the theme for this run, not saved. */
  useTheme?: string;
  /** `--no-themes`: only the `--theme` paths load. */
  noThemes?: boolean;
}

/** A controller with the configured theme applied, and the start-up messages to show. */
export interface ThemeSetup {
  controller: ThemeController;
  /** Theme problems as 1.6.0's `[Theme conflicts]` block, coloured, shown under the header. */
  conflicts?: string;
  /** Why the configured theme could not be used (shown as an error), if it could not. */
  error?: string;
}

/** The enabled theme files of the configured, installed packages. */
async function packageThemePaths(
  cwd: string,
  agentDir: string,
  settings: SettingsManager,
): Promise<string[]> {
  const globalPackages = settings.getGlobalSettings().packages ?? [];
  const projectPackages = settings.isProjectTrusted() ? settings.getProjectSettings().packages ?? [] : [];
  if (globalPackages.length === 0 && projectPackages.length === 0) return [];
  const [{ loadResourceDeps }, { resolvePackageResources }] = await Promise.all([
    import("../../resources/resource_deps.ts"),
    import("../../resources/packages/package_resources.ts"),
  ]);
  await loadResourceDeps();
  const resolved = resolvePackageResources({ cwd, agentDir, globalPackages, projectPackages });
  return resolved.themes.filter((r) => r.enabled).map((r) => r.path);
}

/** The theme files of the paths extensions returned from `resources_discover` (files or folders). */
export function extensionThemeFiles(paths: readonly string[], cwd: string, agentDir: string): ThemeFile[] {
  if (paths.length === 0) return [];
  return loadThemeFiles({ cwd, agentDir, projectTrusted: false, cliPaths: paths, noThemes: true }).themes;
}

/** Styles of {@link formatThemeDiagnostics}: plain text unless a theme is given. */
function styles(theme: Theme | undefined) {
  const plain = (text: string) => text;
  return theme
    ? {
      warning: (t: string) => theme.fg("warning", t),
      error: (t: string) => theme.fg("error", t),
      dim: (t: string) => theme.fg("dim", t),
      success: (t: string) => theme.fg("success", t),
    }
    : { warning: plain, error: plain, dim: plain, success: plain };
}

/** 1.6.0's `[Theme conflicts]` listing of `diagnostics`, in `theme`'s colours when given. */
export function formatThemeDiagnostics(
  diagnostics: readonly ThemeDiagnostic[],
  theme?: Theme,
): string | undefined {
  if (diagnostics.length === 0) return undefined;
  const style = styles(theme);
  const lines = [style.warning("[Theme conflicts]")];
  const collisions = new Map<string, ThemeDiagnostic[]>();
  for (const d of diagnostics) {
    if (d.collision) collisions.set(d.collision.name, [...(collisions.get(d.collision.name) ?? []), d]);
  }
  for (const [name, list] of collisions) {
    lines.push(style.warning(`  "${name}" collision:`));
    lines.push(style.dim(`    ${style.success("✓")} ${list[0].collision!.winnerPath}`));
    for (const d of list) {
      lines.push(style.dim(`    ${style.warning("✗")} ${d.collision!.loserPath} (skipped)`));
    }
  }
  for (const d of diagnostics) {
    if (d.collision) continue;
    const color = d.type === "error" ? style.error : style.warning;
    if (d.path) lines.push(color(`  ${d.path}`), color(`    ${d.message}`));
    else lines.push(color(`  ${d.message}`));
  }
  return lines.join("\n");
}

/**
 * Finds the run's themes and applies `--use-theme`, else the `theme` setting, to `theme` (the
 * object the app's components already hold).
 */
export async function setUpThemes(
  cwd: string,
  settings: SettingsManager,
  theme: Theme,
  run: ThemeRunOptions,
): Promise<ThemeSetup> {
  const packagePaths = run.noThemes
    ? []
    : await packageThemePaths(cwd, run.agentDir, settings).catch(() => []);
  const find = () => {
    const trusted = settings.isProjectTrusted();
    return loadThemeFiles({
      cwd,
      agentDir: run.agentDir,
      projectTrusted: trusted,
      globalSettingsPaths: settings.getGlobalSettings().themes,
      projectSettingsPaths: trusted ? settings.getProjectSettings().themes : undefined,
      packagePaths,
      cliPaths: run.cliPaths,
      noThemes: run.noThemes,
    });
  };
  const found = find();
  const controller = new ThemeController(theme, {
    files: found.themes,
    diagnostics: found.diagnostics,
    agentDir: run.agentDir,
    reloadFiles: find,
    awaitTerminalColors: true,
  });
  // --use-theme is this run's choice (kept by /reload); the saved setting is read again on /reload.
  const setting = run.useTheme ?? settings.getThemeSetting();
  const result = controller.applySetting(setting, run.useTheme !== undefined);
  return {
    controller,
    conflicts: formatThemeDiagnostics(found.diagnostics, theme),
    error: result.success
      ? undefined
      : `Failed to load theme "${
        controller.nameFor(setting)
      }": ${result.error}\nFell back to the system theme.`,
  };
}
