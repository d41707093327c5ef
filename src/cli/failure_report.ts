/**
 * The one line pi prints when a run ends with an error nobody caught: a Deno permission pi was
 * started without (run with --allow-all), a file the operating system refuses (file owner and
 * mode, not Deno permissions), and a closed stdout (`pi … | head -1`), which is a quiet exit 0.
 *
 * @module
 */
import { red } from "../util/style.ts";

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
