/**
 * The interactive-mode values of pi 1.6.0's `@earendil-works/pi-coding-agent` that extensions
 * import (`CustomEditor`, `DynamicBorder`, `BorderedLoader`, the theme getters, key hints). The
 * extension loader (src/extensions) cannot import the modes, so the CLI adds this module to that
 * host module at start-up (extension_exports_setup.ts); it loads only when an extension imports it.
 *
 * @module
 */
import type { MarkdownTheme, SelectListTheme, SettingsListTheme } from "../../tui/mod.ts";
import { currentExportTheme } from "./export_theme.ts";

export { CustomEditor } from "./custom_editor.ts";
export { DynamicBorder } from "./dynamic_border.ts";
export { BorderedLoader } from "./bordered_loader.ts";
export { keyHint, keyText, rawKeyHint } from "./key_hints.ts";
export { readLineRange as formatReadLineRange } from "./tool_renderers.ts";
export { truncateToVisualLines } from "./visual_truncate.ts";
export {
  ExtensionEditorComponent,
  ExtensionInputComponent,
  ExtensionSelectorComponent,
} from "./extension_dialog_exports.ts";

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
