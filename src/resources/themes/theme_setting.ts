/**
 * The `theme` setting and `--use-theme` value: one theme name, or `light/dark`, a pair chosen by
 * whether the terminal is light or dark (pi 1.6.0's automatic mode).
 *
 * @module
 */

/** Whether the terminal has a light or a dark background. */
export type TerminalAppearance = "light" | "dark";

/** The two names of a `light/dark` setting, or undefined for anything else. */
export function parseAutoThemeSetting(
  setting: string | undefined,
): { lightTheme: string; darkTheme: string } | undefined {
  if (!setting) return undefined;
  const parts = setting.split("/");
  if (parts.length !== 2) return undefined;
  const lightTheme = parts[0].trim();
  const darkTheme = parts[1].trim();
  return lightTheme && darkTheme ? { lightTheme, darkTheme } : undefined;
}

/** The theme name a setting picks for `appearance`; undefined for no setting or a malformed pair. */
export function resolveThemeSetting(
  setting: string | undefined,
  appearance: TerminalAppearance,
): string | undefined {
  const pair = parseAutoThemeSetting(setting);
  if (pair) return appearance === "light" ? pair.lightTheme : pair.darkTheme;
  if (setting === undefined || setting.includes("/")) return undefined;
  return setting;
}

/**
 * Light or dark from `COLORFGBG` (`fg;bg` or `fg;xpm;bg`), which some terminals set: background
 * indices 0–6 and 8 are dark, 7 and 9–15 light (Vim's rule); undefined without a usable index.
 */
export function colorFgBgAppearance(value: string | undefined): TerminalAppearance | undefined {
  const bg = value?.split(";").at(-1)?.trim();
  if (!bg || !/^\d{1,2}$/.test(bg)) return undefined;
  const index = Number(bg);
  if (index > 15) return undefined;
  return index <= 6 || index === 8 ? "dark" : "light";
}
