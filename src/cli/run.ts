/**
 * The CLI's entry: marks the environment as pi's (CLI-01), runs the main flow on the process
 * streams, and turns failures into one clear line instead of a stack trace: a missing Deno
 * permission (run with --allow-all), a file the operating system refuses (file permissions), and
 * a closed stdout (`pi … | head -1`), which is a quiet exit.
 *
 * @module
 */
import { processIO } from "./cli_io.ts";
import { red } from "./style.ts";

/** The hint for a Deno permission pi was started without. */
export const DENO_PERMISSION_HINT =
  "pi needs file, network, environment, system-info and subprocess access; " +
  "run it with --allow-all (deno task pi does).";

/** Whether `error` is Deno refusing a permission (not the operating system refusing a file). */
export function isDenoPermissionError(error: unknown): boolean {
  return error instanceof Deno.errors.NotCapable ||
    (error instanceof Error && /^Requires \S+ access/.test(error.message));
}

/** Whether `error` is a write to a closed pipe (the reader went away). */
export function isBrokenPipe(error: unknown): boolean {
  return error instanceof Deno.errors.BrokenPipe ||
    (error instanceof Error && /Broken pipe|EPIPE|os error 32/.test(error.message));
}

/** Runs pi with the given arguments and resolves with the process exit code. */
export async function runCli(args: string[]): Promise<number> {
  const io = processIO();
  try {
    // Child processes (the bash tool) can tell they run under pi.
    Deno.env.set("PI_CODING_AGENT", "true");
    // Imported here so that a permission some dependency needs while loading is reported below too.
    const { runMain } = await import("./main_flow.ts");
    return await runMain(args, { io });
  } catch (error) {
    return reportFailure(error, (text) => io.stderr(text));
  }
}

/** Writes the one-line report of a failure that ended the run and returns its exit code. */
export function reportFailure(error: unknown, stderr: (text: string) => void): number {
  // Nobody reads the output any more: stop without a word, as other command-line tools do.
  if (isBrokenPipe(error)) return 0;
  try {
    if (isDenoPermissionError(error)) {
      stderr(`${red(`Error: ${(error as Error).message}`)}\n${DENO_PERMISSION_HINT}\n`);
    } else if (error instanceof Deno.errors.PermissionDenied) {
      stderr(
        `${
          red(`Error: ${error.message}`)
        }\nThe operating system refused access to a file: check its owner and permissions (ls -l).\n`,
      );
    } else {
      stderr(`${red(error instanceof Error ? (error.stack ?? error.message) : String(error))}\n`);
    }
  } catch (writeError) {
    if (!isBrokenPipe(writeError)) throw writeError;
  }
  return 1;
}
