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
    // The version comes first, as 1.6.0 prints it; then the form running (issue 18): `1.6.0 (binary)`.
    const { versionLine } = await import("./src/cli/version_form.ts");
    await writeStdout(`${versionLine(VERSION)}\n`);
    return 0;
  }
  let runCli: (args: string[]) => Promise<number>;
  try {
    if (args.length === 1 && (args[0] === "--help" || args[0] === "-h")) {
      // Without extensions or diagnostics the help text is static: skip building the runtime.
      const { printFastHelp } = await import("./src/cli/help_fast_path.ts");
      const code = await printFastHelp();
      if (code !== undefined) return code;
    }
    ({ runCli } = await import("./src/cli/run.ts"));
  } catch (error) {
    // Modules load on demand, which needs read access to them: report a denied permission
    // plainly, as the CLI does for every other one.
    // Deno refusing a permission (not the operating system refusing a file: that keeps its own message).
    const denied = error instanceof Deno.errors.NotCapable ||
      (error instanceof TypeError && /^Requires \S+ access/.test(error.message));
    if (denied) {
      await writeStderr(
        `Error: ${
          (error as Error).message
        }\npi needs file, network, environment, system-info and subprocess access; ` +
          `run it with --allow-all (deno task pi does).\n`,
      );
      return 1;
    }
    throw error;
  }
  return await runCli(args);
}

async function writeStdout(text: string): Promise<void> {
  await writeAll(Deno.stdout, text);
}

async function writeStderr(text: string): Promise<void> {
  await writeAll(Deno.stderr, text);
}

async function writeAll(stream: { write(p: Uint8Array): Promise<number> }, text: string): Promise<void> {
  const bytes = new TextEncoder().encode(text);
  let written = 0;
  while (written < bytes.length) written += await stream.write(bytes.subarray(written));
}

if (import.meta.main) {
  const code = await main(Deno.args);
  Deno.exit(code);
}
