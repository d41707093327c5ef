/**
 * Commands that are not a prompt (`pi auth …`, and the package and MCP commands this build does
 * not have yet), and the flags whose feature is missing. A missing feature is a clear "not
 * available yet" error with exit 1, never a silent no-op or a prompt sent to the model.
 *
 * @module
 */
import { APP_NAME } from "../config/paths.ts";
import type { CliArgs } from "./args.ts";
import { CliExit } from "./cli_error.ts";
import type { SubcommandContext } from "./subcommand_context.ts";

const PACKAGE_COMMANDS = new Set(["install", "remove", "uninstall", "update", "list", "config"]);

/** The error for a feature this build does not have yet. */
export function notAvailableYet(what: string, hint?: string): CliExit {
  return new CliExit(`Error: ${what} is not available yet in this build${hint ? ` (${hint})` : ""}`);
}

/**
 * Runs `argv` when it is a subcommand and resolves with its exit code; undefined when `argv` is
 * an ordinary run.
 */
export async function runSubcommand(argv: string[], ctx: SubcommandContext): Promise<number | undefined> {
  const command = argv[0];
  if (command === "auth") {
    const { runAuthCommand } = await import("./auth_command.ts");
    return await runAuthCommand(argv, ctx);
  }
  if (
    command === "install" || command === "remove" || command === "uninstall" || command === "list" ||
    command === "update"
  ) {
    const { runPackageCommand } = await import("./package_command.ts");
    return await runPackageCommand(argv, ctx);
  }
  if (command === "config") {
    const { runConfigCommand } = await import("./config_command.ts");
    return await runConfigCommand(argv, ctx);
  }
  if (command !== undefined && PACKAGE_COMMANDS.has(command)) {
    throw notAvailableYet(`"${APP_NAME} ${command}"`, "no package manager yet");
  }
  if (command === "mcp") {
    const { runMcpCommand } = await import("../extensions/builtin/mcp/cli.ts");
    return await runMcpCommand(argv.slice(1), {
      cwd: ctx.cwd,
      agentDir: ctx.agentDir,
      log: (line) => ctx.io.stdout(`${line}\n`),
      error: (line) => ctx.io.stderr(`${line}\n`),
    });
  }
  return undefined;
}

/**
 * Flags whose feature this build lacks stop the run before anything else happens. None today: the
 * theme flags work (they colour the interactive mode and are ignored elsewhere, as in pi 1.6.0).
 */
export function rejectUnavailableFeatures(_parsed: CliArgs, _appMode: string): void {}
