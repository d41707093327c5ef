/**
 * Without Deno permissions pi never prompts (--no-prompt) and reports the denied permission plainly.
 */
import { assertEquals, assertStringIncludes } from "../support/assert.ts";

const MAIN = new URL("../../main.ts", import.meta.url).pathname;

Deno.test("CLI-01 a denied permission is a clear error with exit 1, not a prompt or a stack trace", async () => {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--no-prompt", MAIN, "--help"],
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1" },
  }).output();
  const stderr = new TextDecoder().decode(out.stderr);
  assertEquals(out.code, 1);
  assertEquals(new TextDecoder().decode(out.stdout), "");
  // Modules load on demand, so the first denied permission is read access to pi's own files.
  assertStringIncludes(stderr, "Error: Requires read access");
  assertStringIncludes(stderr, "run it with --allow-all (deno task pi does).\n");
  assertEquals(stderr.includes("    at "), false, stderr);
});
