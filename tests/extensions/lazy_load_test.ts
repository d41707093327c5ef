/**
 * src/extensions costs nothing when no extension is configured: `pi --version` and `pi -p` load
 * none of its modules (read from V8's script log, as tests/tui/lazy_load_test.ts does), while a
 * run with `-e` does (the control that shows the method sees them).
 */
import { join } from "node:path";
import { assert, assertEquals } from "../support/assert.ts";
import { createAgentEnv, denoDir, machineEnv } from "../support/agent_env.ts";
import { startFakeProvider } from "../support/fake_provider/mod.ts";

const REPO = new URL("../../", import.meta.url);
const MAIN_TS = new URL("main.ts", REPO).pathname;
const EXTENSIONS_DIR = new URL("src/extensions/", REPO).href;

/** Runs `deno run … main.ts args` with V8's script log on; the src/extensions modules it compiled. */
async function extensionModulesLoaded(
  args: string[],
  env: Record<string, string> = {},
  cwd = REPO.pathname,
): Promise<{ modules: string[]; code: number; stdout: string; stderr: string }> {
  const dir = await Deno.makeTempDir({ prefix: "pi_ext_lazy_" });
  const log = join(dir, "v8.log");
  try {
    const out = await new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "--allow-all",
        "--no-prompt",
        `--v8-flags=--log-function-events,--logfile=${log},--no-logfile-per-isolate`,
        MAIN_TS,
        ...args,
      ],
      cwd,
      env: { ...machineEnv(), DENO_DIR: denoDir(), ...env },
      clearEnv: true,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).output();
    const modules = new Set<string>();
    for (const m of (await Deno.readTextFile(log)).matchAll(/^script-details,\d+,(file:\/\/[^,]*),/gm)) {
      if (m[1].startsWith(EXTENSIONS_DIR)) modules.add(m[1].slice(EXTENSIONS_DIR.length));
    }
    const decoder = new TextDecoder();
    return {
      modules: [...modules].sort(),
      code: out.code,
      stdout: decoder.decode(out.stdout),
      stderr: decoder.decode(out.stderr),
    };
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("EXT-LAZY pi --version and pi -p without extensions load no module of src/extensions; -e does", async () => {
  const version = await extensionModulesLoaded(["--version"]);
  assertEquals([version.stdout, version.modules], ["1.6.0\n", []]);

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
    // Only the host modules hello.ts imports are loaded: not the terminal UI kit's.
    assertEquals(withExtension.modules.filter((m) => m.startsWith("compat/")), [
      "compat/coding_agent.ts",
      "compat/pi_ai.ts",
    ]);
  } finally {
    await agent.cleanup();
    await server.close();
  }
});
