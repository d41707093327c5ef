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

/**
 * Committed files must not hold a path only one machine has: this checkout's own location, or an
 * absolute path into the reference's install folder (a capture that missed its placeholders).
 * Either makes a test pass here and fail on a clean clone elsewhere.
 */
Deno.test("no committed file holds a machine's absolute path", async () => {
  const listed = await new Deno.Command("git", { args: ["ls-files", "-z"], cwd: ROOT, stdout: "piped" })
    .output();
  const files = new TextDecoder().decode(listed.stdout).split("\0").filter((f) => f !== "");
  const checkout = ROOT.replace(/\/$/, "");
  const referencePath = /(?:^|[\s"'`(=])\/[^\s"'`]*\/\.cache\/reference\/node_modules/;
  const offenders: string[] = [];
  for (const file of files) {
    let text: string;
    try {
      text = await Deno.readTextFile(`${ROOT}${file}`);
    } catch {
      continue; // deleted in the work tree, or not text
    }
    if (text.includes("\0")) continue;
    if (text.includes(`${checkout}/`)) offenders.push(`${file}: names this checkout (${checkout})`);
    else if (referencePath.test(text)) offenders.push(`${file}: an absolute path into .cache/reference`);
  }
  assertEquals(offenders, []);
});
