/**
 * The project's static gates as tests, so that a change that breaks one fails the suite (and CI) instead of
 * waiting for someone to run the task: `deno task doc` (a doc comment on every public export, no private
 * types in the public API, every `@example` type-checks), `deno lint` and `deno fmt --check`.
 */
import { assertEquals } from "./support/assert.ts";

const ROOT = new URL("../", import.meta.url).pathname;

async function run(args: string[]): Promise<{ code: number; output: string }> {
  const out = await new Deno.Command(Deno.execPath(), {
    args,
    cwd: ROOT,
    env: { NO_COLOR: "1" },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  const decoder = new TextDecoder();
  return { code: out.code, output: (decoder.decode(out.stdout) + decoder.decode(out.stderr)).slice(-4000) };
}

Deno.test("deno task doc passes: documented public API, examples type-check", async () => {
  const result = await run(["task", "doc"]);
  assertEquals(result.code, 0, result.output);
});

Deno.test("deno lint passes", async () => {
  const result = await run(["lint"]);
  assertEquals(result.code, 0, result.output);
});

Deno.test("deno fmt --check passes", async () => {
  const result = await run(["fmt", "--check"]);
  assertEquals(result.code, 0, result.output);
});
