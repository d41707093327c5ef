/**
 * `pi install`, `pi remove` (alias `uninstall`) and `pi list` (pi 1.6.0, docs/cli.md "Package
 * commands"): options, usage and help texts, project trust for the command, and what is printed.
 * `pi update` and `pi config` are answered in subcommands.ts.
 *
 * @module
 */
import { APP_NAME } from "../config/paths.ts";
import { ProjectTrustStore } from "../config/project_trust.ts";
import { SettingsManager } from "../config/settings_manager.ts";
import { PackageManager } from "../resources/packages/package_manager.ts";
import { bold, dim, green, red, yellow } from "../util/style.ts";
import type { SubcommandContext } from "./subcommand_context.ts";
import { resolveSubcommandTrust } from "./subcommand_trust.ts";

type Command = "install" | "remove" | "list" | "update";

/** What `pi update` updates. */
type UpdateTarget = { type: "self" | "all" | "models" } | { type: "extensions"; source?: string };

/** Parsed options of a package command. */
interface PackageCommandOptions {
  command: Command;
  source?: string;
  local: boolean;
  trust?: boolean;
  help: boolean;
  invalidOption?: string;
  invalidArgument?: string;
  missingValue?: string;
  conflict?: string;
  update?: UpdateTarget;
  /** `pi update` without a target: say that packages are not part of it. */
  extensionsSkippedNote?: boolean;
  /** `pi update --force`: update pi even when the latest release is not newer. */
  force?: boolean;
}

function usage(command: Command): string {
  if (command === "list") return `${APP_NAME} list [--approve|--no-approve]`;
  if (command === "update") {
    return `${APP_NAME} update [source|self|pi] [--self|--extensions|--models|--all] [--extension <source>] [--approve|--no-approve] [--force]`;
  }
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
  if (command === "update") {
    return `${head}Update pi, installed packages, or model catalogs.

Options:
  --self                  Update pi only (default when no target is given)
  --extensions            Update installed packages only
  --models                Refresh model catalogs only
  --all                   Update pi and installed packages
  --extension <source>    Update one package only
  -a, --approve           Trust project-local files for this command
  -na, --no-approve       Ignore project-local files for this command
  --force                 Reinstall pi even if the current version is latest

Short forms:
  ${APP_NAME} update                Update pi only
  ${APP_NAME} update --all          Update pi and all extensions
  ${APP_NAME} update --models       Refresh model catalogs only
  ${APP_NAME} update <source>       Update one package
  ${APP_NAME} update pi             Update pi only (self works as alias to pi)

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
  const flags = new Set<string>();
  let extension: string | undefined;
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i];
    if (arg === "-h" || arg === "--help") options.help = true;
    else if (arg === "-l" || arg === "--local") {
      if (command === "list" || command === "update") options.invalidOption ??= arg;
      else options.local = true;
    } else if (arg === "-a" || arg === "--approve") options.trust = true;
    else if (arg === "-na" || arg === "--no-approve") options.trust = false;
    else if (["--self", "--extensions", "--models", "--all", "--force"].includes(arg)) {
      if (command === "update") flags.add(arg);
      else options.invalidOption ??= arg;
    } else if (arg === "--extension") {
      if (command !== "update") {
        options.invalidOption ??= arg;
        continue;
      }
      const value = rest[i + 1];
      if (!value || value.startsWith("-")) options.missingValue ??= arg;
      else if (extension) {
        options.conflict ??= "--extension can only be provided once";
        i++;
      } else {
        extension = value;
        i++;
      }
    } else if (arg.startsWith("-")) options.invalidOption ??= arg;
    else if (options.source === undefined) options.source = arg;
    else options.invalidArgument ??= arg;
  }
  if (command === "update") {
    resolveUpdateTarget(options, flags, extension);
    options.force = flags.has("--force");
  }
  return options;
}

/** 1.6.0's rules for combining `pi update`'s target flags. */
function resolveUpdateTarget(
  options: PackageCommandOptions,
  flags: Set<string>,
  extension: string | undefined,
): void {
  const [self, extensions, models, all] = ["--self", "--extensions", "--models", "--all"].map((f) =>
    flags.has(f)
  );
  const source = options.source;
  const conflict = (text: string) => options.conflict ??= text;
  if (all && (self || extensions || models || extension)) {
    conflict("--all cannot be combined with --self, --extensions, --models, or --extension");
  }
  if (all && source) conflict("--all cannot be combined with a positional source");
  if (models) {
    if (self || extensions || all || extension) {
      conflict("--models cannot be combined with --self, --extensions, --all, or --extension");
    }
    if (source) conflict("--models cannot be combined with a positional source");
    options.update = { type: "models" };
  } else if (extension) {
    if (self || extensions || all) {
      conflict("--extension cannot be combined with --self, --extensions, or --all");
    }
    if (source) conflict("--extension cannot be combined with a positional source");
    options.update = { type: "extensions", source: extension };
  } else if (source) {
    if (source === "self" || source === "pi") options.update = { type: extensions ? "all" : "self" };
    else {
      if (extensions || self || all) {
        conflict("positional update targets cannot be combined with --self, --extensions, or --all");
      }
      options.update = { type: "extensions", source };
    }
  } else if (all || (self && extensions)) options.update = { type: "all" };
  else if (self) options.update = { type: "self" };
  else if (extensions) options.update = { type: "extensions" };
  else {
    options.update = { type: "self" };
    options.extensionsSkippedNote = true;
  }
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
  if (options.missingValue) {
    return fail([`Missing value for ${options.missingValue}.`, `Usage: ${usage(options.command)}`]);
  }
  if (options.invalidArgument) {
    return fail([`Unexpected argument ${options.invalidArgument}.`, `Usage: ${usage(options.command)}`]);
  }
  if (options.conflict) return fail([options.conflict, `Usage: ${usage(options.command)}`]);
  if ((options.command === "install" || options.command === "remove") && !options.source) {
    return fail([`Missing ${options.command} source.`, `Usage: ${usage(options.command)}`]);
  }

  if (options.update?.type === "models") {
    const { runUpdateModels } = await import("./update_models_command.ts");
    return await runUpdateModels(ctx);
  }
  const settingsManager = SettingsManager.create(ctx.cwd, ctx.agentDir, { projectTrusted: false });
  let trusted: boolean;
  try {
    // `pi update` follows only a saved decision (or the flag): it must not be the moment of asking.
    trusted = options.command === "update"
      ? options.trust ?? new ProjectTrustStore(ctx.agentDir).get(ctx.cwd) === true
      : await resolveSubcommandTrust(ctx, options.trust, settingsManager);
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
    if (options.command === "update") return await runUpdate(options, manager, ctx, settingsManager);
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

/** `pi update`: packages first (when the target includes them), then pi itself. */
async function runUpdate(
  options: PackageCommandOptions,
  manager: PackageManager,
  ctx: SubcommandContext,
  settingsManager: SettingsManager,
): Promise<number> {
  const { io } = ctx;
  const target = options.update ?? { type: "self" };
  if (options.extensionsSkippedNote) {
    io.stdout(
      `${dim(`Extensions are skipped. Run ${APP_NAME} update --extensions to update extensions.`)}\n`,
    );
  }
  if (target.type === "extensions" || target.type === "all") {
    const source = target.type === "extensions" ? target.source : undefined;
    const { isOfflineMode, updatePackages } = await import("../resources/packages/package_update.ts");
    const report = await updatePackages(
      manager,
      ctx.cwd,
      source,
      (message) => io.stdout(`${dim(message)}\n`),
    );
    for (const warning of report.warnings) io.stdout(`${yellow(warning)}\n`);
    if (isOfflineMode()) io.stdout(`${yellow("Skipped package updates (offline mode)")}\n`);
    else if (report.updated.length === 0 && report.warnings.length > 0) {
      io.stdout(
        `${
          yellow(
            source
              ? `${source} was not updated, see the warnings above`
              : "No packages were updated, see the warnings above",
          )
        }\n`,
      );
    } else if (report.updated.length === 0) {
      io.stdout(`${green(source ? `${source} is already up to date` : "Packages are already up to date")}\n`);
    } else {
      const count = report.updated.length;
      io.stdout(`${green(`Updated ${count} package${count === 1 ? "" : "s"}:`)}\n`);
      for (const line of report.updated) io.stdout(`  ${line}\n`);
    }
  }
  if (target.type === "self" || target.type === "all") {
    // pi itself (issue 18): a binary replaces itself, a configured command runs, a checkout says how.
    const { runSelfUpdate } = await import("./self_update.ts");
    return await runSelfUpdate(ctx, {
      force: options.force === true,
      selfUpdateSetting: settingsManager.getSelfUpdateCommand(),
    });
  }
  return 0;
}
