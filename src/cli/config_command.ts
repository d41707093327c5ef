/**
 * `pi config [-l] [--approve|--no-approve]` (pi 1.6.0 docs/packages.md "Enable and disable
 * resources", docs/cli.md): its help, usage errors and project-trust check, with 1.6.0's texts and
 * exit codes, then the resource selector (config_selector_run.ts), which 1.6.0 draws even when stdin
 * or stdout is not a terminal.
 *
 * @module
 */
import { APP_NAME, CONFIG_DIR_NAME } from "../config/paths.ts";
import { SettingsManager } from "../config/settings_manager.ts";
import { bold, dim, red, yellow } from "../util/style.ts";
import type { SubcommandContext } from "./subcommand_context.ts";
import { resolveSubcommandTrust } from "./subcommand_trust.ts";

const USAGE = `${APP_NAME} config [-l] [--approve|--no-approve]`;

/** What `pi config …` asked for, or the first thing wrong with it. */
interface ConfigOptions {
  local: boolean;
  trust?: boolean;
  /** The first error's two lines (red, then dim), as 1.6.0 prints them. */
  error?: [string, string];
}

function helpText(): string {
  return `${bold("Usage:")}
  ${USAGE}

Open the resource configuration TUI to enable or disable package resources.
Without -l, starts in global settings (~/${CONFIG_DIR_NAME}/agent/settings.json).
Press Tab in the TUI to switch between global and project-local modes.

Options:
  -l, --local       Edit project overrides (${CONFIG_DIR_NAME}/settings.json)
  -a, --approve     Trust project-local files for this command with -l
  -na, --no-approve Ignore project-local files for this command with -l

`;
}

function parse(args: string[]): ConfigOptions {
  const options: ConfigOptions = { local: false };
  for (const arg of args) {
    if (arg === "-l" || arg === "--local") options.local = true;
    else if (arg === "-a" || arg === "--approve") options.trust = true;
    else if (arg === "-na" || arg === "--no-approve") options.trust = false;
    else if (arg.startsWith("-")) {
      options.error = [`Unknown option ${arg} for "config".`, `Use "${APP_NAME} --help" or "${USAGE}".`];
      return options;
    } else {
      options.error = [`Unexpected argument ${arg}.`, `Usage: ${USAGE}`];
      return options;
    }
  }
  return options;
}

/** Runs `pi config …` (argv[0] is "config") and resolves with the exit code. */
export async function runConfigCommand(argv: string[], ctx: SubcommandContext): Promise<number> {
  const { io } = ctx;
  const rest = argv.slice(1);
  // Like 1.6.0, a help flag anywhere wins over every other argument.
  if (rest.includes("-h") || rest.includes("--help")) {
    io.stdout(helpText());
    return 0;
  }
  const options = parse(rest);
  if (options.error) {
    io.stderr(`${red(options.error[0])}\n${dim(options.error[1])}\n`);
    return 1;
  }
  const settingsManager = SettingsManager.create(ctx.cwd, ctx.agentDir, { projectTrusted: false });
  let trusted: boolean;
  try {
    trusted = await resolveSubcommandTrust(ctx, options.trust, settingsManager);
  } catch (error) {
    io.stderr(`${red(`Error: ${(error as Error).message}`)}\n`);
    return 1;
  }
  if (options.local && !trusted) {
    io.stderr(`${red("Project is not trusted. Use --approve to modify local resource config.")}\n`);
    return 1;
  }
  settingsManager.setProjectTrusted(trusted);
  for (const { scope, error } of settingsManager.drainErrors()) {
    io.stderr(`${yellow(`Warning (config command, ${scope} settings): ${error.message}`)}\n`);
  }
  const globalView = SettingsManager.create(ctx.cwd, ctx.agentDir, { projectTrusted: false });
  const { openConfigSelector } = await import("./config_selector_run.ts");
  await openConfigSelector({
    settingsManager,
    globalView,
    cwd: ctx.cwd,
    agentDir: ctx.agentDir,
    writeScope: options.local ? "project" : "global",
    warn: (message) => io.stderr(`${yellow(message)}\n`),
  });
  for (const { path, scope, error } of settingsManager.drainErrors()) {
    io.stderr(`${red(`Error: could not save ${path ?? `${scope} settings`}: ${error.message}`)}\n`);
    return 1;
  }
  return 0;
}
