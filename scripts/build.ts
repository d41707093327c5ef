/**
 * Builds standalone `pi` binaries with `deno compile` for every supported target.
 * Needs the internet (deno downloads a `denort` runtime per target), so CI does not run it.
 *
 * Usage: deno run -A scripts/build.ts [target...]   (default: all targets)
 *
 * @module
 */

/** Targets we ship, with the binary's file name. */
const TARGETS: Record<string, string> = {
  "x86_64-unknown-linux-gnu": "pi-linux-x64",
  "aarch64-unknown-linux-gnu": "pi-linux-arm64",
  "x86_64-apple-darwin": "pi-darwin-x64",
  "aarch64-apple-darwin": "pi-darwin-arm64",
  "x86_64-pc-windows-msvc": "pi-windows-x64.exe",
};

const root = new URL("..", import.meta.url).pathname;
const wanted = Deno.args.length ? Deno.args : Object.keys(TARGETS);

for (const target of wanted) {
  const name = TARGETS[target];
  if (!name) {
    console.error(`unknown target: ${target} (known: ${Object.keys(TARGETS).join(", ")})`);
    Deno.exit(2);
  }
  const args = [
    "compile",
    "--allow-all",
    "--no-prompt",
    // The unstable features the `pi` task turns on: lazy dynamic imports, and worker permissions
    // (codemode confines each script in a Worker with every permission denied; without them it refuses).
    "--unstable-lazy-dynamic-imports",
    "--unstable-worker-options",
    // The same V8 tuning as `deno task pi`: a small young generation keeps peak memory down.
    "--v8-flags=--max-semi-space-size=1",
    "--target",
    target,
    "--output",
    `${root}dist/${name}`,
    `${root}main.ts`,
  ];
  console.log(`deno ${args.join(" ")}`);
  const { code } = await new Deno.Command(Deno.execPath(), { args, stdout: "inherit", stderr: "inherit" })
    .output();
  if (code !== 0) {
    console.error(`build failed for ${target}`);
    Deno.exit(code);
  }
}
