/**
 * What a subcommand (`pi auth …`) runs with. Apart from `subcommands.ts`, which loads the
 * subcommands, so that they can name it without importing their loader (an import cycle).
 *
 * @module
 */
import type { CliIO } from "./cli_io.ts";

/** Where a subcommand runs. */
export interface SubcommandContext {
  /** The process streams (or a test's). */
  io: CliIO;
  /** The working directory. */
  cwd: string;
  /** The agent folder (`auth.json`, `models.json`, settings). */
  agentDir: string;
}
