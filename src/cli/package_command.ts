/**
 * `pi install`, `pi remove` (alias `uninstall`) and `pi list` (pi 1.6.0, docs/cli.md "Package
 * commands"): options, usage and help texts, project trust for the command, and what is printed.
 * `pi update` and `pi config` are answered in subcommands.ts.
 *
 * @module
 */
import { APP_NAME } from "../config/paths.ts";
import { resolveProjectTrust } from "../config/project_trust.ts";
import { SettingsManager } from "../config/settings_manager.ts";
import { PackageManager } from "../resources/packages/package_manager.ts";
import { bold, dim, green, red, yellow } from "../util/style.ts";
import type { SubcommandContext } from "./subcommand_context.ts";

type Command = "install" | "remove" | "list";

/** Parsed options of a package command. */
interface PackageCommandOptions {
  command: Command;
  source?: string;
  local: boolean;
  trust?: boolean;
  help: boolean;
  invalidOption?: string;
  invalidArgument?: string;
}

function usage(command: Command): string {
  if (command === "list") return `${APP_NAME} list [--approve|--no-approve]`;
  return `${APP_NAME} ${command} <source> [-l] [--approve|--no-approve]`;
}

function helpText(command: Command): string {
  const head = `${bold("Usage:")}\n  ${usage(command)}\n\n`;
  if (command === "install") {
    return `${head}Install a package and add it to settings.

Options:
  -l, --local       Install project-locally (.pi/settings.json)
  -a, --approve     Trust project-local files for this command
  -na, --no-approve Ignore project-local files for this command

Examples:
  ${APP_NAME} install npm:@foo/bar
  ${APP_NAME} install git:github.com/user/repo
  ${APP_NAME} install git:git@github.com:user/repo
  ${APP_NAME} install https://github.com/user/repo
  ${APP_NAME} install ssh://git@github.com/user/repo
  ${APP_NAME} install ./local/path

`;
  }
  if (command === "remove") {
    return `${head}Remove a package and its source from settings.
Alias: ${APP_NAME} uninstall <source> [-l]

Options:
  -l, --local       Remove from project settings (.pi/settings.json)
  -a, --approve     Trust project-local files for this command
  -na, --no-approve Ignore project-local files for this command

Examples:
  ${APP_NAME} remove npm:@foo/bar
  ${APP_NAME} uninstall npm:@foo/bar

`;
  }
  return `${head}List installed packages from user and project settings.

Options:
  -a, --approve      Trust project-local files for this command
  -na, --no-approve  Ignore project-local files for this command

`;
}

function parse(argv: string[]): PackageCommandOptions {
  const [raw, ...rest] = argv;
  const command: Command = raw === "uninstall" ? "remove" : raw as Command;
  const options: PackageCommandOptions = { command, local: false, help: false };
  for (const arg of rest) {
    if (arg === "-h" || arg === "--help") options.help = true;
    else if (arg === "-l" || arg === "--local") {
      if (command === "list") options.invalidOption ??= arg;
      else options.local = true;
    } else if (arg === "-a" || arg === "--approve") options.trust = true;
    else if (arg === "-na" || arg === "--no-approve") options.trust = false;
    else if (arg.startsWith("-")) options.invalidOption ??= arg;
    else if (options.source === undefined) options.source = arg;
    else options.invalidArgument ??= arg;
  }
  return options;
}

/** Runs `pi install|remove|uninstall|list …` and resolves with the exit code. */
export async function runPackageCommand(argv: string[], ctx: SubcommandContext): Promise<number> {
  const { io } = ctx;
  const options = parse(argv);
  const fail = (lines: string[]) => {
    io.stderr(`${red(lines[0])}\n${lines.slice(1).map((line) => `${dim(line)}\n`).join("")}`);
    return 1;
  };
  if (options.help) {
    io.stdout(helpText(options.command));
    return 0;
  }
  if (options.invalidOption) {
    return fail([
      `Unknown option ${options.invalidOption} for "${options.command}".`,
      `Use "${APP_NAME} --help" or "${usage(options.command)}".`,
    ]);
  }
  if (options.invalidArgument) {
    return fail([`Unexpected argument ${options.invalidArgument}.`, `Usage: ${usage(options.command)}`]);
  }
  if (options.command !== "list" && !options.source) {
    return fail([`Missing ${options.command} source.`, `Usage: ${usage(options.command)}`]);
  }

  const settingsManager = SettingsManager.create(ctx.cwd, ctx.agentDir, { projectTrusted: false });
  let trusted: boolean;
  try {
    trusted = await resolveProjectTrust({
      cwd: ctx.cwd,
      agentDir: ctx.agentDir,
      flag: options.trust,
      defaultProjectTrust: settingsManager.getDefaultProjectTrust(),
      interactive: false,
    });
  } catch (error) {
    return fail([`Error: ${(error as Error).message}`]);
  }
  settingsManager.setProjectTrusted(trusted);
  if (options.local && !trusted) {
    return fail(["Project is not trusted. Use --approve to modify local package config."]);
  }
  const errors = settingsManager.drainErrors();
  for (const { scope, error } of errors) {
    io.stderr(`${yellow(`Warning (package command, ${scope} settings): ${error.message}`)}\n`);
  }
  // A settings file that did not load is never written: changing packages there would be lost.
  const target = options.local ? "project" : "global";
  const broken = errors.find((e) => e.scope === target);
  if (options.command !== "list" && broken) {
    return fail([
      `Error: ${broken.path ?? `${target} settings.json`} could not be read (${broken.error.message}); ` +
      `fix it first, nothing was changed`,
    ]);
  }

  const manager = new PackageManager({
    cwd: ctx.cwd,
    agentDir: ctx.agentDir,
    settingsManager,
    onProgress: (message) => io.stdout(`${dim(message)}\n`),
  });
  try {
    if (options.command === "install") {
      await manager.installAndPersist(options.source!, options.local);
      checkWritten(settingsManager);
      io.stdout(`${green(`Installed ${options.source}`)}\n`);
      return 0;
    }
    if (options.command === "remove") {
      const removed = await manager.removeAndPersist(options.source!, options.local);
      checkWritten(settingsManager);
      if (!removed) return fail([`No matching package found for ${options.source}`]);
      io.stdout(`${green(`Removed ${options.source}`)}\n`);
      return 0;
    }
    printList(manager, io.stdout);
    return 0;
  } catch (error) {
    return fail([`Error: ${error instanceof Error ? error.message : String(error)}`]);
  }
}

/** A write that failed (disk full, permissions) is an error, not a silent success. */
function checkWritten(settingsManager: SettingsManager): void {
  const failed = settingsManager.drainErrors()[0];
  if (failed) {
    throw new Error(`could not save ${failed.path ?? `${failed.scope} settings`}: ${failed.error.message}`);
  }
}

function printList(manager: PackageManager, out: (text: string) => void): void {
  const packages = manager.listConfiguredPackages();
  if (packages.length === 0) {
    out(`${dim("No packages installed.")}\n`);
    return;
  }
  const user = packages.filter((pkg) => pkg.scope === "user");
  const project = packages.filter((pkg) => pkg.scope === "project");
  const lines: string[] = [];
  const add = (title: string, list: typeof packages) => {
    lines.push(bold(title));
    for (const pkg of list) {
      lines.push(`  ${pkg.filtered ? `${pkg.source} (filtered)` : pkg.source}`);
      if (pkg.installedPath) lines.push(dim(`    ${pkg.installedPath}`));
    }
  };
  if (user.length > 0) add("User packages:", user);
  if (project.length > 0) {
    if (user.length > 0) lines.push("");
    add("Project packages:", project);
  }
  out(`${lines.join("\n")}\n`);
}
