/**
 * `ctx.ui.theme` in the interactive mode: the app's theme with the rest of pi 1.6.0's `Theme`
 * surface extensions call (`inverse`, the raw escape sequences, the border colour helpers).
 *
 * @module
 */
import type { SettingsManager } from "../../config/settings_manager.ts";
import type { TerminalColorMode } from "../../tui/mod.ts";
import type { Theme, ThemeToken } from "./theme.ts";
import type { ThemeController, ThemeSwitchResult } from "./theme_controller.ts";

/** The theme as extensions see it (1.6.0's `Theme` methods). */
export interface ExtensionTheme {
  readonly name: string;
  fg(color: string, text: string): string;
  bg(color: string, text: string): string;
  bold(text: string): string;
  italic(text: string): string;
  underline(text: string): string;
  inverse(text: string): string;
  strikethrough(text: string): string;
  getFgAnsi(color: string): string;
  getBgAnsi(color: string): string;
  getColorMode(): TerminalColorMode;
  getThinkingBorderColor(level: string): (text: string) => string;
  getBashModeBorderColor(): (text: string) => string;
}

/** The opening sequence `style` puts before a text (empty for an unknown token). */
function openingOf(style: (text: string) => string): string {
  const marker = "\u0000";
  const styled = style(marker);
  return styled.slice(0, styled.indexOf(marker));
}

/** The theme behind each object {@link extensionTheme} made, so `setTheme(theme)` can take it back. */
const THEMES = new WeakMap<object, Theme>();

/** `theme` with 1.6.0's extension-facing methods; colours follow the app's theme. */
export function extensionTheme(theme: Theme): ExtensionTheme {
  const token = (color: string) => color as ThemeToken;
  const wrapped: ExtensionTheme = {
    get name() {
      return theme.name;
    },
    fg: (color, text) => theme.fg(token(color), text),
    bg: (color, text) => theme.bg(token(color), text),
    bold: (text) => theme.bold(text),
    italic: (text) => theme.italic(text),
    underline: (text) => theme.underline(text),
    inverse: (text) => `\x1b[7m${text}\x1b[27m`,
    strikethrough: (text) => theme.strikethrough(text),
    getFgAnsi: (color) => openingOf((t) => theme.fg(token(color), t)),
    getBgAnsi: (color) => openingOf((t) => theme.bg(token(color), t)),
    getColorMode: () => theme.colorMode,
    getThinkingBorderColor: (level) => {
      const name = `thinking${level.charAt(0).toUpperCase()}${level.slice(1)}`;
      return (text) => theme.fg(token(name), text);
    },
    getBashModeBorderColor: () => (text) => theme.fg("bashMode", text),
  };
  THEMES.set(wrapped, theme);
  return wrapped;
}

/** `ctx.ui.getTheme(name)`: theme `name` as extensions see it, or undefined when it cannot load. */
export function extensionThemeByName(
  themes: ThemeController | undefined,
  name: string,
): ExtensionTheme | undefined {
  const theme = themes?.themeByName(name);
  return theme ? extensionTheme(theme) : undefined;
}

/**
 * `ctx.ui.setTheme(nameOrTheme)`, as 1.6.0: a name switches to that theme and, when it loaded, saves
 * it as the `theme` setting; a theme object (from `getTheme`) is drawn with as it is, unsaved.
 */
export function setExtensionTheme(
  themes: ThemeController | undefined,
  settings: SettingsManager,
  themeOrName: unknown,
): ThemeSwitchResult {
  if (!themes) return { success: false, error: "Themes are not loaded yet" };
  if (typeof themeOrName === "object" && themeOrName !== null) {
    const theme = THEMES.get(themeOrName);
    if (!theme) return { success: false, error: "Not a theme from ctx.ui.getTheme() or ctx.ui.theme" };
    return themes.setThemeData(theme.data, theme.sourcePath);
  }
  if (typeof themeOrName !== "string") return { success: false, error: "Expected a theme name or a theme" };
  const result = themes.choose(themeOrName);
  if (result.success && settings.getTheme() !== themeOrName) settings.setTheme(themeOrName);
  return result;
}
