/**
 * Keyboard input handling for terminal applications: legacy terminal sequences and the kitty
 * keyboard protocol (https://sw.kovidgoyal.net/kitty/keyboard-protocol/).
 *
 * - `matchesKey(data, keyId)`: does input match a key identifier
 * - `parseKey(data)`: the key identifier of input
 * - `Key`: typed key identifiers with autocomplete
 * - `setKittyProtocolActive` / `isKittyProtocolActive`: the global protocol state
 *
 * Some Ctrl+symbol combinations share bytes with ASCII controls (Ctrl+[ is ESC); with the kitty
 * protocol they are told apart.
 *
 * @module
 */
export { Key, type KeyEventType, type KeyId } from "./keys_ids.ts";
export {
  decodeKittyPrintable,
  decodePrintableKey,
  isKeyRelease,
  isKeyRepeat,
  isKittyProtocolActive,
  setKittyProtocolActive,
} from "./keys_kitty.ts";
export { matchesKey } from "./keys_match.ts";
export { parseKey } from "./keys_parse.ts";
