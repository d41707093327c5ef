/**
 * Entry point of the `pi` command. It handles `--version` with nothing else loaded, and hands
 * every other invocation to the CLI, which it imports lazily so start-up stays cheap.
 *
 * @module
 */
import { VERSION } from "./src/version.ts";

async function main(args: string[]): Promise<number> {
  if (args.length === 1 && (args[0] === "--version" || args[0] === "-v")) {
    // Always stdout, also when stdin is not a terminal (the reference prints it on stderr then).
    await writeStdout(`${VERSION}\n`);
    return 0;
  }
  const { runCli } = await import("./src/cli/run.ts");
  return await runCli(args);
}

async function writeStdout(text: string): Promise<void> {
  const bytes = new TextEncoder().encode(text);
  let written = 0;
  while (written < bytes.length) written += await Deno.stdout.write(bytes.subarray(written));
}

if (import.meta.main) {
  const code = await main(Deno.args);
  Deno.exit(code);
}
