/**
 * Start-up stays lazy (issue 14): without an `mcp.json`, `pi --version` and `pi -p` load no module of
 * the MCP client and none of the MCP SDK; with one, they load (the control, so the check can fail).
 * Loaded modules are read from V8's script log, as tests/tui/lazy_load_test.ts does.
 */
import { join } from "node:path";
import { assert, assertEquals } from "../../support/assert.ts";
import { createAgentEnv } from "../../support/agent_env.ts";
import { startFakeProvider } from "../../support/fake_provider/mod.ts";
import { runWithScriptLog } from "../../support/v8_script_log.ts";

const REPO = new URL("../../../", import.meta.url);
const MCP_DIR = new URL("src/extensions/builtin/mcp/", REPO).href;

/** Runs `deno run main.ts args` with V8's script log; the file: URLs of the scripts it compiled. */
async function loadedModules(args: string[], env: Record<string, string>, cwd: string): Promise<string[]> {
  const run = await runWithScriptLog(args, {
    env,
    cwd,
    denoArgs: ["--config", new URL("deno.json", REPO).pathname],
    signal: AbortSignal.timeout(90_000),
  });
  assertEquals(run.code, 0, run.stderr);
  return run.scripts;
}

function mcpModules(urls: string[]): string[] {
  return [...new Set(urls.filter((url) => url.startsWith(MCP_DIR) || url.includes("modelcontextprotocol")))];
}

Deno.test("MCP-08 without mcp.json, --version and -p load no MCP module; with one, -p loads the client and the SDK", async () => {
  const answer = { content: [{ type: "text" as const, text: "hello" }] };
  const server = await startFakeProvider([answer, answer]);
  const agent = await createAgentEnv(server.url);
  try {
    const version = await loadedModules(["--version"], agent.env, agent.cwd);
    assertEquals(mcpModules(version), []);
    const model = ["--model", "fake-anthropic/test-model"];
    const print = await loadedModules([...model, "-p", "hi"], agent.env, agent.cwd);
    assert(print.some((url) => url.endsWith("/src/modes/print_mode.ts")), "the log names print_mode.ts");
    assertEquals(mcpModules(print), []);

    // Control: with a configured server, the MCP client and the SDK load.
    const fixture = new URL("../../fixtures/mcp/test_server.ts", import.meta.url).pathname;
    await Deno.writeTextFile(
      join(agent.agentDir, "mcp.json"),
      JSON.stringify({
        mcpServers: {
          fx: {
            command: Deno.execPath(),
            args: ["run", "-A", "--no-config", "--quiet", fixture],
            exposure: "direct",
          },
        },
      }),
    );
    const withMcp = mcpModules(await loadedModules([...model, "-p", "hi"], agent.env, agent.cwd));
    assert(withMcp.some((url) => url === `${MCP_DIR}session_mcp.ts`), withMcp.join("\n"));
    assert(withMcp.some((url) => url.includes("@modelcontextprotocol")), withMcp.join("\n"));
  } finally {
    await server.close();
    await agent.cleanup();
  }
});
