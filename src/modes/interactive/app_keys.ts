/**
 * The interactive mode's own key actions (`app.*` ids of pi 1.6.0's keybindings) with their
 * default keys on Linux and macOS, and the helpers that match and display them. User overrides
 * from keybindings.json come with the keybindings work of issue 11.
 *
 * @module
 */
import { matchesKey } from "../../tui/mod.ts";

/** An `app.*` action and its default keys. */
export const APP_KEYS = {
  "app.interrupt": ["escape"],
  "app.clear": ["ctrl+c"],
  "app.exit": ["ctrl+d"],
  "app.suspend": ["ctrl+z"],
  "app.thinking.cycle": ["shift+tab"],
  "app.model.cycleForward": ["ctrl+p"],
  "app.model.cycleBackward": ["shift+ctrl+p"],
  "app.model.select": ["ctrl+l"],
  "app.tools.expand": ["ctrl+o"],
  "app.thinking.toggle": ["ctrl+t"],
  "app.editor.external": ["ctrl+g"],
  "app.message.copy": ["ctrl+x"],
  "app.message.followUp": ["alt+enter"],
  "app.message.dequeue": ["alt+up"],
  "app.clipboard.pasteImage": ["ctrl+v"],
  "app.models.save": ["ctrl+s"],
  "app.models.enableAll": ["ctrl+a"],
  "app.models.clearAll": ["ctrl+x"],
  "app.models.toggleProvider": ["ctrl+p"],
  "app.models.reorderUp": ["alt+up"],
  "app.models.reorderDown": ["alt+down"],
  // The /tree navigator's (1.6.0's Linux defaults).
  "app.tree.foldOrUp": ["ctrl+left", "alt+left"],
  "app.tree.unfoldOrDown": ["ctrl+right", "alt+right"],
  "app.tree.editLabel": ["shift+l"],
  "app.tree.toggleLabelTimestamp": ["shift+t"],
  "app.tree.filter.default": ["ctrl+d"],
  "app.tree.filter.noTools": ["ctrl+t"],
  "app.tree.filter.userOnly": ["ctrl+u"],
  "app.tree.filter.labeledOnly": ["ctrl+l"],
  "app.tree.filter.all": ["ctrl+a"],
  "app.tree.filter.cycleForward": ["ctrl+o"],
  "app.tree.filter.cycleBackward": ["shift+ctrl+o"],
} as const satisfies Record<string, readonly string[]>;

/** An action id of {@link APP_KEYS}. */
export type AppAction = keyof typeof APP_KEYS;

/** Whether the terminal input `data` is one of the action's keys. */
export function matchesAction(data: string, action: AppAction): boolean {
  return APP_KEYS[action].some((key) => matchesKey(data, key));
}

/** The action's keys as 1.6.0 shows them in hints: `ctrl+c`, several joined by `/`. */
export function keyText(action: AppAction): string {
  return APP_KEYS[action].join("/");
}
