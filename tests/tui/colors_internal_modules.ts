/**
 * Reaching pi-tui's internal modules from conformance cases. `tui_oracle.ts` hands a case only the
 * public index as `T`; some names the renderer relies on (parseOscColorResponse, the kitty image
 * helpers, isProgramStatusReply, the Oklab conversions) are exported by pi-tui's dist files but not
 * by its index. `loadInternal` writes the line that imports such a file on either side: pi-tui's
 * `dist/<file>.js` under Node, our `src/tui/<file>.ts` under Deno. The module instances are the
 * ones the index uses, so state set through `T` (capabilities, registered images) is shared.
 *
 * @module
 */
import { findReference } from "../../scripts/reference/locate.ts";
import { js } from "../support/tui_oracle.ts";

const reference = findReference();
// Without the reference only the Deno side runs (against stored captures), so any path will do.
const DIST = reference
  ? new URL(`file://${reference.nodeModules}/@earendil-works/pi-tui/dist/`).href
  : "file:///reference-not-installed/";
const SRC = new URL("../../src/tui/", import.meta.url).href;

/** Case source binding `name` to pi-tui's `dist/<distFile>` (Node) or our `src/tui/<ourFile>` (Deno). */
export function loadInternal(name: string, distFile: string, ourFile: string): string {
  return `const ${name} = await import(typeof Deno === "undefined" ? ${js(DIST + distFile)} : ${
    js(SRC + ourFile)
  });\n`;
}

/**
 * Case source defining `setEnv(name, value)` (undefined unsets) for the process running the case:
 * `process.env` under Node, `Deno.env` under Deno. Cases that detect from the environment set what
 * they need and restore it before returning.
 */
export const SET_ENV = `const setEnv = (k, v) => {
  if (typeof Deno === "undefined") { if (v === undefined) delete process.env[k]; else process.env[k] = v; }
  else if (v === undefined) Deno.env.delete(k); else Deno.env.set(k, v);
};
`;
