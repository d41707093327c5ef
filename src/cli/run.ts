/**
 * The CLI's entry: parses arguments and dispatches to a mode.
 *
 * @module
 */
import { VERSION } from "../version.ts";

/** Runs pi with the given arguments and resolves with the process exit code. */
export async function runCli(args: string[]): Promise<number> {
  if (args.includes("--version") || args.includes("-v")) {
    await Deno.stdout.write(new TextEncoder().encode(`${VERSION}\n`));
    return 0;
  }
  await Deno.stderr.write(new TextEncoder().encode("pi: this build has no modes yet\n"));
  return 1;
}
