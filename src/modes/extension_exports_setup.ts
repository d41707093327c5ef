/**
 * Adds the modes' values of 1.6.0's `@earendil-works/pi-coding-agent` (interactive components,
 * theme getters, key hints) to what extensions get from that module name. src/extensions cannot
 * import src/modes, so the CLI calls this before it loads extensions; the values themselves load
 * only when an extension imports the module.
 *
 * @module
 */
import { addHostModuleExports } from "../extensions/host_modules.ts";

const loadInteractiveExports = () => import("./interactive/extension_exports.ts");

/** Registers the modes' exports with the extension host modules (idempotent). */
export function registerModeExtensionExports(): void {
  addHostModuleExports("@earendil-works/pi-coding-agent", loadInteractiveExports);
}
