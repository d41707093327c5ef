/**
 * How our `--help` differs from the reference's captured text: "(not available yet)" after each
 * command and option this build lacks.
 *
 * @module
 */
import { markUnavailable } from "../../src/cli/help.ts";

/** The reference's help text with our marks. */
export function withOurHelpAdditions(referenceHelp: string): string {
  return markUnavailable(referenceHelp);
}
