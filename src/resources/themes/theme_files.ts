/**
 * Finds and reads the theme files a run offers (pi 1.6.0's theme resources): the agent dir's
 * `themes/` folder, a trusted project's `.pi/themes/`, the paths of the `themes` settings, the
 * themes of installed packages, and `--theme` paths. Each file is validated; a bad file or path
 * becomes a diagnostic, and of two themes with the same name the first found wins (a collision).
 *
 * @module
 */
import { existsSync } from "../../util/fs.ts";
import { join } from "../../util/path.ts";
import { CONFIG_DIR_NAME, resolveResourcePath } from "../resource_paths.ts";
import { parseThemeJsonText, type ThemeJson } from "./theme_schema.ts";

/** A theme read from a file. */
export interface ThemeFile {
  /** The validated contents. */
  json: ThemeJson;
  /** The file it came from. */
  path: string;
}

/** A problem found while loading themes, as 1.6.0 reports them under `[Theme conflicts]`. */
export interface ThemeDiagnostic {
  type: "warning" | "error" | "collision";
  message: string;
  path?: string;
  /** For a collision: the theme's name and the file that won. */
  collision?: { name: string; winnerPath: string; loserPath: string };
}

/** Where to look for themes. */
export interface ThemeSources {
  cwd: string;
  agentDir: string;
  /** Whether the project's own `.pi/themes` and `themes` settings count. */
  projectTrusted: boolean;
  /** The user's `themes` setting (paths relative to the agent dir). */
  globalSettingsPaths?: readonly string[];
  /** The project's `themes` setting (relative to `.pi`); ignored when untrusted. */
  projectSettingsPaths?: readonly string[];
  /** Enabled theme files of installed packages, in load order. */
  packagePaths?: readonly string[];
  /** `--theme` files or folders (relative to the cwd); loaded even with `noThemes`. */
  cliPaths?: readonly string[];
  /** `--no-themes`: only the `--theme` paths. */
  noThemes?: boolean;
}

/** The themes found, first-found first, and what went wrong. */
export interface ThemeFilesResult {
  themes: ThemeFile[];
  diagnostics: ThemeDiagnostic[];
}

/** Reads and validates one theme file; the error is 1.6.0's text. */
export function readThemeFile(path: string): ThemeJson {
  return parseThemeJsonText(path, Deno.readTextFileSync(path));
}

function messageOf(error: unknown, fallback: string): string {
  return error instanceof Error ? error.message : fallback;
}

/** The `.json` files directly in `dir` (symbolic links followed), sorted by name. */
function jsonFilesIn(dir: string, diagnostics: ThemeDiagnostic[]): string[] {
  const files: string[] = [];
  try {
    for (const entry of Deno.readDirSync(dir)) {
      if (!entry.name.endsWith(".json")) continue;
      const path = join(dir, entry.name);
      let isFile = entry.isFile;
      if (entry.isSymlink) {
        try {
          isFile = Deno.statSync(path).isFile;
        } catch {
          continue;
        }
      }
      if (isFile) files.push(path);
    }
  } catch (error) {
    diagnostics.push({
      type: "warning",
      message: messageOf(error, "failed to read theme directory"),
      path: dir,
    });
  }
  return files.sort();
}

/** Settings entries that are paths (patterns such as `!x` or globs are not theme paths). */
function settingsPaths(entries: readonly string[] | undefined, baseDir: string): string[] {
  return (entries ?? []).filter((e) =>
    typeof e === "string" && e.trim() && !/^[!+-]/.test(e) && !/[*?]/.test(e)
  )
    .map((e) => resolveResourcePath(e.trim(), baseDir));
}

/** Loads the themes of `sources`; never throws. */
export function loadThemeFiles(sources: ThemeSources): ThemeFilesResult {
  const diagnostics: ThemeDiagnostic[] = [];
  const candidates: string[] = [];
  const seenPaths = new Set<string>();
  const add = (path: string) => {
    if (seenPaths.has(path)) return;
    seenPaths.add(path);
    candidates.push(path);
  };
  /** A file or folder named explicitly: a missing one is reported. */
  const addPath = (path: string) => {
    if (!existsSync(path)) {
      diagnostics.push({ type: "warning", message: "theme path does not exist", path });
      return;
    }
    try {
      const stat = Deno.statSync(path);
      if (stat.isDirectory) { for (const file of jsonFilesIn(path, diagnostics)) add(file); }
      else if (stat.isFile && path.endsWith(".json")) add(path);
      else diagnostics.push({ type: "warning", message: "theme path is not a json file", path });
    } catch (error) {
      diagnostics.push({ type: "warning", message: messageOf(error, "failed to read theme path"), path });
    }
  };
  if (!sources.noThemes) {
    const projectDir = join(sources.cwd, CONFIG_DIR_NAME);
    if (sources.projectTrusted) {
      const dir = join(projectDir, "themes");
      if (existsSync(dir)) { for (const file of jsonFilesIn(dir, diagnostics)) add(file); }
      for (const path of settingsPaths(sources.projectSettingsPaths, projectDir)) {
        addPath(path);
      }
    }
    const userDir = join(sources.agentDir, "themes");
    if (existsSync(userDir)) { for (const file of jsonFilesIn(userDir, diagnostics)) add(file); }
    for (const path of settingsPaths(sources.globalSettingsPaths, sources.agentDir)) {
      addPath(path);
    }
    for (const path of sources.packagePaths ?? []) addPath(path);
  }
  for (const path of sources.cliPaths ?? []) {
    addPath(resolveResourcePath(path, sources.cwd));
  }
  const themes: ThemeFile[] = [];
  const byName = new Map<string, ThemeFile>();
  for (const path of candidates) {
    let json: ThemeJson;
    try {
      json = readThemeFile(path);
    } catch (error) {
      diagnostics.push({ type: "warning", message: messageOf(error, "failed to load theme"), path });
      continue;
    }
    const winner = byName.get(json.name);
    if (winner) {
      diagnostics.push({
        type: "collision",
        message: `name "${json.name}" collision`,
        path,
        collision: { name: json.name, winnerPath: winner.path, loserPath: path },
      });
      continue;
    }
    const file = { json, path };
    byName.set(json.name, file);
    themes.push(file);
  }
  return { themes, diagnostics };
}
