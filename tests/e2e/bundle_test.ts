/**
 * `deno task bundle`'s output is one self-contained file: it runs with `--no-config` (no import
 * map, no node_modules) and does real work against the fake provider.
 */
import { join } from "node:path";
import { assertEquals, assertStringIncludes } from "../support/assert.ts";
import { createAgentEnv } from "../support/agent_env.ts";
import { startFakeProvider } from "../support/fake_provider/mod.ts";
import { VERSION } from "../../src/version.ts";

const ROOT = new URL("../../", import.meta.url).pathname;

Deno.test("bundle: dist/pi.js runs with --no-config: --version and a -p turn", async () => {
  const outDir = await Deno.makeTempDir({ prefix: "pi-bundle-" });
  const server = await startFakeProvider([{ content: [{ type: "text", text: "bundled hello" }] }]);
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

    const run = (args: string[]) =>
      new Deno.Command(Deno.execPath(), {
        args: ["run", "--no-config", "--allow-all", "--no-prompt", out, ...args],
        cwd: env.cwd,
        env: env.env,
        clearEnv: true,
        stdin: "null",
        stdout: "piped",
        stderr: "piped",
      }).output();
    const version = await run(["--version"]);
    assertEquals(new TextDecoder().decode(version.stdout), `${VERSION} (bundle)\n`);

    const turn = await run(["--provider", "fake-anthropic", "--model", "test-model", "-p", "hi"]);
    assertEquals(turn.code, 0, new TextDecoder().decode(turn.stderr));
    assertEquals(new TextDecoder().decode(turn.stdout), "bundled hello\n");
    assertStringIncludes(JSON.stringify(server.requests[0].body), "hi");
  } finally {
    await server.close();
    await env.cleanup();
    await Deno.remove(outDir, { recursive: true });
  }
});
