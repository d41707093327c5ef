/**
 * Key hints as pi 1.6.0's `@earendil-works/pi-coding-agent` exports them (`keyHint`, `keyText`,
 * `rawKeyHint`): the keys bound to an action in the hint colours of the current theme.
 *
 * @module
 */
import { getKeybindings, type Keybinding } from "../../tui/mod.ts";
import { currentExportTheme } from "./export_theme.ts";

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
