/**
 * Putting a downloaded pi binary in the place of the running one (issue 18), so that no moment
 * exists where the path holds half a binary: the new bytes go to a file in the same folder, which
 * must start and report the expected version, and then one rename puts it in place. On Windows a
 * running executable cannot be overwritten but can be renamed: it moves aside to `<name>.old`
 * (removed by the next update) before the new one takes its name.
 *
 * @module
 */
import { basename, dirname, join } from "../util/path.ts";

/** What the replacement needs besides the bytes (injectable for tests). */
export interface ReplaceOptions {
  /** The binary to replace (`Deno.execPath()` of a compiled pi). */
  target: string;
  /** The version the new binary must report first on `--version`. */
  version: string;
  /** Whether this is Windows (rename-aside instead of rename-over). */
  windows: boolean;
}

/** The first word `<binary> --version` prints, or the reason it did not run. */
async function reportedVersion(binary: string): Promise<{ version?: string; problem?: string }> {
  try {
    const out = await new Deno.Command(binary, {
      args: ["--version"],
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
      signal: AbortSignal.timeout(60_000),
    }).output();
    const stdout = new TextDecoder().decode(out.stdout).trim();
    if (!out.success) {
      const stderr = new TextDecoder().decode(out.stderr).trim();
      return { problem: `it exited with code ${out.code}${stderr ? `: ${stderr}` : ""}` };
    }
    return { version: stdout.split(/\s+/)[0] || undefined };
  } catch (error) {
    return { problem: error instanceof Error ? error.message : String(error) };
  }
}

/**
 * Writes `bytes` next to `options.target`, checks that it runs and reports `options.version`, then
 * renames it over the target. Throws with the reason, leaving the target as it was.
 */
export async function replaceBinary(bytes: Uint8Array, options: ReplaceOptions): Promise<void> {
  const folder = dirname(options.target);
  const name = basename(options.target);
  // Windows starts only files named .exe: keep the extension last there.
  const staged = join(folder, options.windows ? `${name}.new-${Deno.pid}.exe` : `.${name}.new-${Deno.pid}`);
  try {
    try {
      await Deno.writeFile(staged, bytes, { mode: 0o755 });
    } catch (error) {
      throw new Error(
        `cannot write to ${folder} (${(error as Error).message}); nothing was replaced. ` +
          `Run pi update as a user who may write there, or install the binary elsewhere with install.sh`,
      );
    }
    if (!options.windows) await Deno.chmod(staged, 0o755);
    const check = await reportedVersion(staged);
    if (check.version !== options.version) {
      throw new Error(
        `the downloaded binary does not run here (${
          check.problem ?? `--version says ${check.version ?? "nothing"}, not ${options.version}`
        }); nothing was replaced`,
      );
    }
    if (options.windows) {
      const aside = `${options.target}.old`;
      await Deno.remove(aside).catch(() => {});
      await Deno.rename(options.target, aside);
      try {
        await Deno.rename(staged, options.target);
      } catch (error) {
        await Deno.rename(aside, options.target).catch(() => {});
        throw error;
      }
    } else {
      await Deno.rename(staged, options.target);
    }
  } finally {
    await Deno.remove(staged).catch(() => {});
  }
}
