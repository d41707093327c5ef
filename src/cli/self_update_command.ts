/**
 * The user's own update command for `pi update` (pi 1.6.0 docs/cli.md "Custom update command"):
 * `PI_SELF_UPDATE_COMMAND` (split on whitespace, no quoting) or else the `selfUpdateCommand`
 * setting of the agent dir (an argv array), with `{packageName}`, `{version}` and `{installSpec}`
 * (`{packageName}@{version}`) replaced by the newer release's. It wins over every other way of
 * updating, as in 1.6.0.
 *
 * @module
 */

/** The package name `{packageName}` stands for (deno.json's name). */
export const PACKAGE_NAME = "@pi-deno/coding-agent";

/** A command line to run: the program, its arguments, and how it is shown. */
export interface CommandLine {
  /** The program. */
  command: string;
  /** Its arguments, placeholders filled. */
  args: string[];
  /** The words joined by spaces, a word with whitespace in double quotes (as 1.6.0 shows it). */
  display: string;
}

/**
 * The configured command's words: PI_SELF_UPDATE_COMMAND's when set and not blank, else the
 * setting's; undefined when neither is set. Throws naming the setting when it is not an array of
 * strings (1.6.0 would fail later with a type error).
 */
export function configuredSelfUpdateArgv(
  envValue: string | undefined,
  setting: unknown,
): string[] | undefined {
  const fromEnv = envValue?.trim().split(/\s+/).filter(Boolean);
  if (fromEnv?.length) return fromEnv;
  if (setting === undefined || setting === null) return undefined;
  if (!Array.isArray(setting) || setting.some((word) => typeof word !== "string")) {
    throw new Error(
      `selfUpdateCommand in settings.json must be an array of strings (command and arguments), such as ` +
        `["nix", "profile", "upgrade", "pi"]; found ${JSON.stringify(setting)}`,
    );
  }
  return setting.length ? setting : undefined;
}

/** `argv` with the placeholders filled for `version`. */
export function fillSelfUpdateCommand(
  argv: string[],
  version: string,
  packageName = PACKAGE_NAME,
): CommandLine {
  const values: Record<string, string> = { packageName, version, installSpec: `${packageName}@${version}` };
  const [command = "", ...args] = argv.map((word) =>
    word.replace(/\{(packageName|version|installSpec)\}/g, (_, key: string) => values[key])
  );
  const display = [command, ...args].map((word) => (/\s/.test(word) ? `"${word}"` : word)).join(" ");
  return { command, args, display };
}

/** Runs `line` on the terminal's streams; rejects with `<display> exited with code N` (1.6.0's words). */
export async function runCommandLine(line: CommandLine): Promise<void> {
  let status: Deno.CommandStatus;
  try {
    status = await new Deno.Command(line.command, {
      args: line.args,
      stdin: "inherit",
      stdout: "inherit",
      stderr: "inherit",
    }).spawn().status;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) {
      throw new Error(`${line.command} was not found (${line.display})`);
    }
    throw error;
  }
  if (status.signal) throw new Error(`${line.display} terminated by signal ${status.signal}`);
  if (!status.success) throw new Error(`${line.display} exited with code ${status.code}`);
}

/** The first word `pi --version` prints for the pi found on PATH (`path`, default the process's), or undefined. */
export async function versionOnPath(appName: string, path?: string): Promise<string | undefined> {
  try {
    const out = await new Deno.Command(appName, {
      args: ["--version"],
      env: path === undefined ? undefined : { PATH: path },
      stdin: "null",
      stdout: "piped",
      stderr: "null",
      signal: AbortSignal.timeout(60_000),
    }).output();
    if (!out.success) return undefined;
    return new TextDecoder().decode(out.stdout).trim().split(/\s+/)[0] || undefined;
  } catch {
    return undefined;
  }
}
