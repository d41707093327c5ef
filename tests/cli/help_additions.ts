/**
 * How our `--help` differs from the reference's captured text: "(not available yet)" after each
 * command and option this build lacks, and the options it has beyond 1.6.0 (`--sandbox`).
 *
 * @module
 */
import { addOurOptions, markUnavailable } from "../../src/cli/help.ts";

/** The reference's help text with our marks. */
export function withOurHelpAdditions(referenceHelp: string): string {
  return addOurOptions(markUnavailable(referenceHelp));
}
