/**
 * Test modules that read or change environment variables (API keys, PI_* paths) run in their own `deno test`
 * subprocess with a minimal environment: under `deno test --parallel` all modules share one process
 * environment, so setting or clearing a variable here would race with other modules (and vice versa).
 *
 * Usage: `const test = isolatedTest(import.meta.url);` then `test("ID …", fn)` instead of `Deno.test`.
 */

const MARKER = "PI_CONFIG_TEST_ISOLATED";
const KEEP = ["HOME", "PATH", "DENO_DIR", "TMPDIR", "XDG_CACHE_HOME", "NPM_CONFIG_REGISTRY"];

/** A test registrar: inside the isolated child it is `Deno.test`; otherwise it only registers one wrapper test. */
export type TestRegistrar = (name: string, fn: () => void | Promise<void>) => void;

/** Returns the registrar for a module (see the module comment). */
export function isolatedTest(moduleUrl: string): TestRegistrar {
  if (Deno.env.get(MARKER) === "1") return (name, fn) => Deno.test(name, fn);
  const path = new URL(moduleUrl).pathname;
  const name = path.split("/").pop() ?? path;
  Deno.test(`${name} (isolated environment)`, async () => {
    const env: Record<string, string> = { [MARKER]: "1", NO_COLOR: "1" };
    for (const key of KEEP) {
      const value = Deno.env.get(key);
      if (value !== undefined) env[key] = value;
    }
    const result = await new Deno.Command(Deno.execPath(), {
      // The parent run already type-checked this module.
      args: ["test", "--allow-all", "--no-prompt", "--no-check", path],
      cwd: new URL("../..", moduleUrl).pathname,
      clearEnv: true,
      env,
      stdout: "piped",
      stderr: "piped",
    }).output();
    const output = new TextDecoder().decode(result.stdout) + new TextDecoder().decode(result.stderr);
    if (result.code !== 0) throw new Error(`isolated run of ${name} failed:\n${output}`);
    if (!/ok \| \d+ passed \| 0 failed/.test(output)) {
      throw new Error(`isolated run of ${name} reported no passing tests:\n${output}`);
    }
  });
  return () => {};
}
