/**
 * The commands of pi 1.6.0's built-in extensions outside the interactive mode. 1.6.0 registers
 * `/llama` as an extension command of its built-in llama.cpp extension, so in print, JSON and RPC
 * mode a prompt naming it runs the command instead of reaching the model, and the command only
 * warns "/llama is available in interactive mode" (an RPC `notify` request; print and JSON mode
 * have no UI, so nothing is shown). This port keeps the built-in's code out of start-up, so the
 * modes ask here before they send a prompt.
 *
 * @module
 */
import { isLlamaEnabled } from "../resources/builtin_extensions.ts";

/** Where a built-in command's notice goes: a client's UI, or nowhere (print and JSON mode). */
export type BuiltinCommandNotify = (message: string, notifyType: "info" | "warning" | "error") => void;

/**
 * Runs `text` when it names a built-in extension's command that `session` has, as 1.6.0 matches
 * extension commands: the text starts with `/`, the name ends at the first space (the rest is the
 * command's arguments). Returns whether the text was consumed.
 */
export function runBuiltinCommand(session: object, text: string, notify?: BuiltinCommandNotify): boolean {
  if (!text.startsWith("/")) return false;
  const space = text.indexOf(" ");
  const name = space === -1 ? text.slice(1) : text.slice(1, space);
  if (name !== "llama" || !isLlamaEnabled(session)) return false;
  notify?.("/llama is available in interactive mode", "warning");
  return true;
}
