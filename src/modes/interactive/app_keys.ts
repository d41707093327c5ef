/**
 * The interactive mode's own key actions (`app.*` ids of pi 1.6.0's keybindings) and the helpers
 * that match and display them. The keys are the installed keybindings' (keybindings.json applied,
 * see keybindings_app.ts), else 1.6.0's defaults.
 *
 * @module
 */
import { getKeybindings, type Keybinding, type KeyId, matchesKey } from "../../tui/mod.ts";
import { type AppAction, appKeybindingDefinitions } from "./keybindings_app.ts";

export type { AppAction };

const DEFAULTS = appKeybindingDefinitions();

/** The action's keys now: the installed keybindings' (user overrides applied), else the defaults. */
export function appKeys(action: AppAction): readonly KeyId[] {
  const kb = getKeybindings();
  if (kb.getDefinition(action as Keybinding)) return kb.getKeys(action as Keybinding);
  const keys = DEFAULTS[action].defaultKeys;
  return Array.isArray(keys) ? keys : [keys];
}

/** Each `app.*` action's current keys (read when indexed, so keybindings.json and /reload apply). */
export const APP_KEYS: Readonly<Record<AppAction, readonly KeyId[]>> = Object.defineProperties(
  {} as Record<AppAction, readonly KeyId[]>,
  Object.fromEntries(
    (Object.keys(DEFAULTS) as AppAction[]).map((
      action,
    ) => [action, { get: () => appKeys(action), enumerable: true }]),
  ),
);

/** Whether the terminal input `data` is one of the action's keys. */
export function matchesAction(data: string, action: AppAction): boolean {
  return appKeys(action).some((key) => matchesKey(data, key));
}

/** The action's keys as 1.6.0 shows them in hints: `ctrl+c`, several joined by `/`. */
export function keyText(action: AppAction): string {
  return appKeys(action).join("/");
}
