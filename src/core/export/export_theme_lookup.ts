/**
 * The theme an export without a theme object takes, found by name as pi 1.6.0 finds it outside the
 * interactive mode: a built-in theme, else `<agent dir>/themes/<name>.json`. RPC `export_html` and
 * `AgentSession.exportToHtml()` use the `themeName` option, then the `theme` setting; a name that
 * cannot be loaded is passed over, as 1.6.0 passes it over.
 *
 * @module
 */
import { getAgentDir } from "../../config/paths.ts";
import { join } from "../../util/path.ts";
import { existsSync } from "../../util/fs.ts";
import DARK from "../../resources/themes/dark.json" with { type: "json" };
import LIGHT from "../../resources/themes/light.json" with { type: "json" };
import { readThemeFile } from "../../resources/themes/theme_files.ts";
import type { ThemeJson } from "../../resources/themes/theme_schema.ts";
import { exportThemeVars, SYSTEM_THEME_NAME } from "./export_theme.ts";

const BUILTIN: Readonly<Record<string, ThemeJson>> = { dark: DARK as ThemeJson, light: LIGHT as ThemeJson };

/**
 * The theme called `name`, if it can colour a page: `{ name: "system" }` for 1.6.0's generated
 * default (the default palette), a built-in, or a valid custom theme file in the agent dir's
 * `themes` folder. Anything else (no name, a missing or invalid file, unresolvable colours) is
 * undefined.
 */
export function findExportTheme(
  name: string | undefined,
  agentDir: string = getAgentDir(),
): ThemeJson | undefined {
  if (!name) return undefined;
  if (name === SYSTEM_THEME_NAME) return { name, colors: {} };
  if (Object.hasOwn(BUILTIN, name)) return BUILTIN[name];
  const file = join(agentDir, "themes", `${name}.json`);
  if (!existsSync(file)) return undefined;
  try {
    const theme = readThemeFile(file);
    exportThemeVars(theme);
    return theme;
  } catch {
    return undefined;
  }
}

/** The first of `names` that {@link findExportTheme} finds (1.6.0: the option, then the setting). */
export function firstExportTheme(
  names: ReadonlyArray<string | undefined>,
  agentDir: string = getAgentDir(),
): ThemeJson | undefined {
  for (const name of names) {
    const theme = findExportTheme(name, agentDir);
    if (theme) return theme;
  }
  return undefined;
}
