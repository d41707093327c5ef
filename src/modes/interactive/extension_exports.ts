/**
 * The interactive-mode values of pi 1.6.0's `@earendil-works/pi-coding-agent` that extensions
 * import (`CustomEditor`, `DynamicBorder`, `BorderedLoader`, the theme getters, key hints). The
 * extension loader (src/extensions) cannot import the modes, so the CLI adds this module to that
 * host module at start-up (extension_exports_setup.ts); it loads only when an extension imports it.
 *
 * @module
 */
import {
  getKeybindings,
  type Keybinding,
  type MarkdownTheme,
  type SelectListTheme,
  type SettingsListTheme,
} from "../../tui/mod.ts";
import { currentExportTheme } from "./export_theme.ts";

export { CustomEditor } from "./custom_editor.ts";
export { DynamicBorder } from "./dynamic_border.ts";
export { BorderedLoader } from "./bordered_loader.ts";

/** The markdown styles of the current theme (1.6.0's `getMarkdownTheme()`). */
export function getMarkdownTheme(): MarkdownTheme {
  return currentExportTheme().markdown();
}

/** The select-list styles of the current theme (1.6.0's `getSelectListTheme()`). */
export function getSelectListTheme(): SelectListTheme {
  return currentExportTheme().selectList();
}

/** The settings-list styles of the current theme (1.6.0's `getSettingsListTheme()`). */
export function getSettingsListTheme(): SettingsListTheme {
  const theme = currentExportTheme();
  return {
    label: (text, selected) => selected ? theme.fg("accent", text) : text,
    value: (text, selected) => selected ? theme.fg("accent", text) : theme.fg("muted", text),
    description: (text) => theme.fg("dim", text),
    cursor: theme.fg("accent", "→ "),
    hint: (text) => theme.fg("dim", text),
  };
}

/** A key as 1.6.0 shows it: parts joined by `+`, `alt` read `option` on macOS. */
function formatKey(key: string): string {
  if (Deno.build.os !== "darwin") return key;
  return key.split("/").map((k) =>
    k.split("+").map((p) => p.toLowerCase() === "alt" ? "option" : p).join("+")
  )
    .join("/");
}

/** The keys bound to `keybinding`, as hints show them (`ctrl+c/escape`). */
export function keyText(keybinding: string): string {
  return formatKey(getKeybindings().getKeys(keybinding as Keybinding).join("/"));
}

/** `keys description` in the hint colours, for a keybinding id (1.6.0's `keyHint`). */
export function keyHint(keybinding: string, description: string): string {
  const theme = currentExportTheme();
  return theme.fg("dim", keyText(keybinding)) + theme.fg("muted", ` ${description}`);
}

/** `key description` in the hint colours, for a literal key (1.6.0's `rawKeyHint`). */
export function rawKeyHint(key: string, description: string): string {
  const theme = currentExportTheme();
  return theme.fg("dim", formatKey(key)) + theme.fg("muted", ` ${description}`);
}
