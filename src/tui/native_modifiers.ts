/**
 * Whether a modifier key is held, asked of the native platform helper (pi-tui 1.6.0's
 * `native-modifiers.js`). Without a helper, which is always the case under Deno, nothing is held.
 *
 * @module
 */
import { getNativePlatformHelper, type ModifierKey } from "./native_platform.ts";

export type { ModifierKey } from "./native_platform.ts";

/** Whether `key` is pressed right now; false when no native helper can tell. */
export function isNativeModifierPressed(key: ModifierKey): boolean {
  const helper = getNativePlatformHelper();
  if (!helper?.isModifierPressed) return false;
  try {
    return helper.isModifierPressed(key) === true;
  } catch {
    return false;
  }
}
