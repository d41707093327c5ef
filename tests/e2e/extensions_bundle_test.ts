/**
 * The `deno bundle` artifact (one file, no source tree, run with `--no-config` from a folder far
 * from the repository) loads a TypeScript extension with `-e` and runs its tool: the loader's one
 * path (transpile, rewrite imports to host shims, import a cached .mjs) needs no module URLs of
 * ours and no import map.
 */
import { join } from "node:path";
import { assertEquals } from "../support/assert.ts";
import { createAgentEnv } from "../support/agent_env.ts";
import { startFakeProvider } from "../support/fake_provider/mod.ts";

const ROOT = new URL("../../", import.meta.url).pathname;

Deno.test("EXT-BUNDLE the bundle artifact loads hello.ts with -e and runs its tool", async () => {
  const outDir = await Deno.makeTempDir({ prefix: "pi-ext-bundle-" });
  const server = await startFakeProvider([
    { content: [{ type: "toolCall", id: "call_1", name: "hello", arguments: { name: "Bundle" } }] },
    { content: [{ type: "text", text: "Greeted." }] },
  ]);
  const env = await createAgentEnv(server.url);
  try {
    const out = join(outDir, "pi.js");
    const build = await new Deno.Command(Deno.execPath(), {
      args: ["bundle", "--output", out, join(ROOT, "main.ts")],
      cwd: ROOT,
      stdout: "piped",
      stderr: "piped",
    }).output();
    assertEquals(build.code, 0, new TextDecoder().decode(build.stderr));
    const extension = join(env.cwd, "hello.ts");
    await Deno.copyFile(join(ROOT, "tests/fixtures/extensions/hello.ts"), extension);
    const run = await new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "--no-config",
        "--allow-all",
        "--no-prompt",
        out,
        "--mode",
        "json",
        "--provider",
        "fake-openai",
        "--model",
        "test-model",
        "-e",
        "hello.ts",
        "greet",
      ],
      cwd: env.cwd,
      env: env.env,
      clearEnv: true,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).output();
    assertEquals(run.code, 0, new TextDecoder().decode(run.stderr));
    const results = new TextDecoder().decode(run.stdout).split("\n").filter((l) => l).map((l) =>
      JSON.parse(l)
    )
      .filter((r) => r.type === "tool_execution_end").map((r) => r.result.content);
    assertEquals(results, [[{ type: "text", text: "Hello, Bundle!" }]]);
  } finally {
    await server.close();
    await env.cleanup();
    await Deno.remove(outDir, { recursive: true });
  }
});
