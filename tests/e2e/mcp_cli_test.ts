/**
 * `pi mcp add|remove|list` (issue 14): the same commands run through our CLI and pi 1.6.0's, each
 * in a fresh agent dir and project, give the same output, exit codes and `mcp.json` files.
 */
import { createAgentEnv } from "../support/agent_env.ts";
import { spawnPi } from "../support/spawn_pi.ts";
import { assertEquals } from "../support/assert.ts";
import { startHttpServer, TEST_SERVER } from "./mcp_harness.ts";
import { makeNormalizer, packageDirs } from "./scenario.ts";

interface Step {
  code: number;
  stdout: string;
  stderr: string;
}

async function runCommands(commands: string[][], url: string, reference: boolean) {
  const agent = await createAgentEnv("http://127.0.0.1:9");
  agent.env.PI_OFFLINE = "1";
  agent.env.TOK = "sesame";
  try {
    const normalize = makeNormalizer(agent.root, packageDirs());
    const steps: Step[] = [];
    for (const command of commands) {
      const args = command.map((arg) => arg.replace("$URL", url));
      const result = await spawnPi(args, { env: agent.env, cwd: agent.cwd, reference, timeoutMs: 90_000 });
      steps.push({
        code: result.code,
        stdout: String(normalize(result.stdout)),
        stderr: String(normalize(result.stderr)),
      });
    }
    const read = async (path: string) => {
      try {
        return await Deno.readTextFile(path);
      } catch {
        return undefined;
      }
    };
    return {
      steps,
      global: await read(`${agent.agentDir}/mcp.json`),
      project: await read(`${agent.cwd}/.pi/mcp.json`),
    };
  } finally {
    await agent.cleanup();
  }
}

Deno.test("MCP-10 pi mcp add, remove and list: output, exit codes and mcp.json files equal pi 1.6.0's", async () => {
  const server = await startHttpServer({ MCP_TEST_TOKEN: "sesame" });
  const stdio = [Deno.execPath(), "run", "-A", "--no-config", "--quiet", TEST_SERVER];
  const commands = [
    ["mcp", "list"],
    ["mcp", "add", "fx", "--exposure", "direct", "--env", "A=1", "--", ...stdio],
    ["mcp", "add", "web", "--url", "$URL", "--bearer-token-env-var", "TOK", "--header", "X-Trace=on"],
    ["mcp", "add", "open", "--url", "http://127.0.0.1:9/mcp", "--description", "An open server"],
    ["mcp", "add", "-l", "proj", "--", "echo", "hi", "--flag"],
    ["mcp", "add", "bad", "--env", "A=1", "--url", "http://x/mcp"],
    ["mcp", "remove", "open"],
    ["mcp", "remove", "open"],
    ["mcp", "list"],
    ["mcp", "list", "--json"],
    ["mcp", "remove", "-l", "proj"],
  ];
  try {
    const ours = await runCommands(commands, server.url, false);
    const ref = await runCommands(commands, server.url, true);
    for (const [index, command] of commands.entries()) {
      assertEquals(ours.steps[index], ref.steps[index], command.join(" "));
    }
    assertEquals(ours.global, ref.global);
    assertEquals(ours.project, ref.project);
  } finally {
    await server.stop();
  }
});
