/**
 * How our `--help` differs from the reference's captured text: the `--json-deltas` option line
 * after `--mode`, and the note that package commands are not available in this build.
 *
 * @module
 */
import { JSON_DELTAS_HELP_LINE, PACKAGE_COMMANDS_NOTE_LINE } from "../../src/cli/help.ts";

/** The reference's help text with our two added lines. */
export function withOurHelpAdditions(referenceHelp: string): string {
  const modeLine = "  --mode <mode>                  Output mode: text (default), json, or rpc\n";
  const commandHelpLine = "Show help for install/remove/uninstall/update/list\n";
  if (!referenceHelp.includes(modeLine)) throw new Error("reference help has no --mode line");
  if (!referenceHelp.includes(commandHelpLine)) throw new Error("reference help has no command-help line");
  return referenceHelp
    .replace(modeLine, modeLine + JSON_DELTAS_HELP_LINE)
    .replace(commandHelpLine, commandHelpLine + PACKAGE_COMMANDS_NOTE_LINE);
}
