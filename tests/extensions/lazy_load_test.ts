/**
 * src/extensions costs nothing when no extension is configured: `pi --version` and `pi -p` load
 * none of its modules (read from V8's script log, as tests/tui/lazy_load_test.ts does), while a
 * run with `-e` does (the control that shows the method sees them).
 */
import { join } from "node:path";
import { assert, assertEquals } from "../support/assert.ts";
import { createAgentEnv } from "../support/agent_env.ts";
import { startFakeProvider } from "../support/fake_provider/mod.ts";
import { runWithScriptLog, scriptsUnder } from "../support/v8_script_log.ts";

const REPO = new URL("../../", import.meta.url);
const EXTENSIONS_DIR = new URL("src/extensions/", REPO).href;
const SRC_DIR = new URL("src/", REPO).href;

/** Runs `deno run … main.ts args` with V8's script log on; the src/extensions modules it compiled. */
async function extensionModulesLoaded(
  args: string[],
  env: Record<string, string> = {},
  cwd = REPO.pathname,
): Promise<{ modules: string[]; src: string[]; code: number; stdout: string; stderr: string }> {
  const run = await runWithScriptLog(args, { env, cwd });
  return {
    modules: scriptsUnder(run.scripts, EXTENSIONS_DIR),
    src: scriptsUnder(run.scripts, SRC_DIR),
    code: run.code,
    stdout: run.stdout,
    stderr: run.stderr,
  };
}

Deno.test("EXT-LAZY pi --version and pi -p without extensions load no module of src/extensions; -e does", async () => {
  const version = await extensionModulesLoaded(["--version"]);
  assertEquals([version.stdout, version.modules], ["1.6.0 (deno source)\n", []]);

  const text = { content: [{ type: "text" as const, text: "Hello." }] };
  const server = await startFakeProvider([text, text]);
  const agent = await createAgentEnv(server.url);
  try {
    const model = ["--provider", "fake-anthropic", "--model", "test-model"];
    const print = await extensionModulesLoaded([...model, "-p", "hi"], agent.env, agent.cwd);
    assertEquals([print.code, print.stdout, print.modules], [0, "Hello.\n", []], print.stderr);

    const hello = new URL("tests/fixtures/extensions/hello.ts", REPO).pathname;
    const withExtension = await extensionModulesLoaded(
      [...model, "-e", hello, "-p", "hi"],
      agent.env,
      agent.cwd,
    );
    assertEquals([withExtension.code, withExtension.stdout], [0, "Hello.\n"], withExtension.stderr);
    assert(withExtension.modules.includes("loader.ts"), withExtension.modules.join(", "));
    // Only the files defining the names hello.ts imports (`Type`, `defineTool`) are loaded: not
    // the whole of pi-ai's extension view (catalog, argument validation) or the terminal UI kit.
    assertEquals(withExtension.modules.filter((m) => m.startsWith("compat/")), []);
    assert(withExtension.modules.includes("api_helpers.ts"), withExtension.modules.join(", "));
    for (const heavy of ["ai/validation.ts", "tui/mod.ts", "tools/mod.ts"]) {
      assert(!withExtension.src.includes(heavy), `${heavy} loaded: ${withExtension.src.join(", ")}`);
    }
  } finally {
    await agent.cleanup();
    await server.close();
  }
});

Deno.test("EXT-LAZY an extension importing two names of pi-tui loads their files, not the whole kit; import * loads it all", async () => {
  const text = { content: [{ type: "text" as const, text: "Hello." }] };
  const server = await startFakeProvider([text, text]);
  const agent = await createAgentEnv(server.url);
  try {
    const model = ["--provider", "fake-anthropic", "--model", "test-model"];
    const named = join(agent.root, "named.ts");
    await Deno.writeTextFile(
      named,
      [
        `import { Text, visibleWidth } from "@earendil-works/pi-tui";`,
        `export default function (pi: { on(e: string, h: () => void): void }): void {`,
        `  pi.on("session_start", () => { if (visibleWidth(new Text("ab").text) !== 2) throw new Error("width"); });`,
        `}`,
      ].join("\n"),
    );
    const whole = join(agent.root, "whole.ts");
    await Deno.writeTextFile(
      whole,
      `import * as tui from "@earendil-works/pi-tui";\nexport default function (): void { void tui.Markdown; }\n`,
    );
    const one = await extensionModulesLoaded([...model, "-e", named, "-p", "hi"], agent.env, agent.cwd);
    assertEquals([one.code, one.stdout, one.stderr], [0, "Hello.\n", ""]);
    assert(one.src.includes("tui/components/text.ts"), one.src.join(", "));
    for (const unloaded of ["tui/mod.ts", "tui/components/markdown.ts", "extensions/compat/pi_tui.ts"]) {
      assert(!one.src.includes(unloaded), `${unloaded} loaded: ${one.src.join(", ")}`);
    }
    const all = await extensionModulesLoaded([...model, "-e", whole, "-p", "hi"], agent.env, agent.cwd);
    assertEquals([all.code, all.stdout, all.stderr], [0, "Hello.\n", ""]);
    assert(all.src.includes("tui/components/markdown.ts") && all.src.includes("extensions/compat/pi_tui.ts"));
  } finally {
    await agent.cleanup();
    await server.close();
  }
});
