/**
 * What a subcommand (`pi auth …`) runs with. Apart from `subcommands.ts`, which loads the
 * subcommands, so that they can name it without importing their loader (an import cycle).
 *
 * @module
 */
import type { CliIO } from "./cli_io.ts";

/** Where a subcommand runs. */
export interface SubcommandContext {
  io: CliIO;
  cwd: string;
  agentDir: string;
}
