/**
 * The CLI's entry: marks the environment as pi's (CLI-01), runs the main flow on the process
 * streams, and turns failures into one clear line instead of a stack trace: a missing Deno
 * permission (run with --allow-all), a file the operating system refuses (file permissions), and
 * a closed stdout (`pi … | head -1`), which is a quiet exit.
 *
 * @module
 */
import { processIO } from "./cli_io.ts";
import { reportFailure } from "./failure_report.ts";

/** Runs pi with the given arguments and resolves with the process exit code. */
export async function runCli(args: string[]): Promise<number> {
  const io = processIO();
  try {
    // Child processes (the bash tool) can tell they run under pi.
    Deno.env.set("PI_CODING_AGENT", "true");
    // --sandbox (or the sandbox setting): re-run confined before the main flow loads (issue 15).
    const { confineEarly } = await import("./sandbox.ts");
    const confinedExit = await confineEarly(args);
    if (confinedExit !== undefined) return confinedExit;
    // Imported here so that a permission some dependency needs while loading is reported below too.
    const { runMain } = await import("./main_flow.ts");
    return await runMain(args, { io });
  } catch (error) {
    return reportFailure(error, (text) => io.stderr(text));
  }
}
