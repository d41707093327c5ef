/**
 * Terminal styling for the messages pi prints (CLI, model resolution), matching what the
 * reference's chalk emits. Colour is used only when stdout is a terminal (chalk decides on stdout
 * for every stream), unless `FORCE_COLOR` or `NO_COLOR` say otherwise, so piped output and tests
 * see plain text.
 *
 * @module
 */

import { readEnv } from "./env.ts";

/** Whether styled output is wanted right now. */
export function colorEnabled(): boolean {
  const force = readEnv("FORCE_COLOR");
  if (force !== undefined) return force !== "0" && force !== "false";
  if (readEnv("NO_COLOR")) return false;
  if (readEnv("TERM") === "dumb") return false;
  try {
    return Deno.stdout.isTerminal();
  } catch {
    return false;
  }
}

function wrap(open: number, close: number): (text: string) => string {
  return (text) => (colorEnabled() ? `\x1b[${open}m${text}\x1b[${close}m` : text);
}

/** Bold (section titles of `--help`). */
export const bold: (text: string) => string = wrap(1, 22);
/** Red (errors). */
export const red: (text: string) => string = wrap(31, 39);
/** Yellow (warnings). */
export const yellow: (text: string) => string = wrap(33, 39);
/** Green (success lines such as "Installed <source>"). */
export const green: (text: string) => string = wrap(32, 39);
/** Dim (informational lines such as "Aborted."). */
export const dim: (text: string) => string = wrap(2, 22);
