/**
 * The CLI's entry: runs the main flow on the process streams, and turns a missing Deno permission
 * into a clear error instead of a stack trace. It does not mark the process environment as pi's:
 * every command pi spawns gets `PI_CODING_AGENT=true` explicitly (CLI-01, `getShellEnv`).
 *
 * @module
 */
import { processIO } from "./cli_io.ts";
import { red } from "./style.ts";

/** Runs pi with the given arguments and resolves with the process exit code. */
export async function runCli(args: string[]): Promise<number> {
  const io = processIO();
  try {
    // Imported here so that a permission some dependency needs while loading is reported below too.
    const { runMain } = await import("./main_flow.ts");
    return await runMain(args, { io });
  } catch (error) {
    if (error instanceof Deno.errors.NotCapable || error instanceof Deno.errors.PermissionDenied) {
      io.stderr(
        `${
          red(`Error: ${error.message}`)
        }\npi needs file, network, environment, system-info and subprocess access; ` +
          `run it with --allow-all (deno task pi does).\n`,
      );
      return 1;
    }
    io.stderr(`${red(error instanceof Error ? (error.stack ?? error.message) : String(error))}\n`);
    return 1;
  }
}
