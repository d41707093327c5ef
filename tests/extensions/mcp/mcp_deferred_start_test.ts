/**
 * When `pi -p` starts its MCP servers (issue 14's start-up budget). Servers without `direct` tools
 * are not needed before the first request, so outside the TUI they start once the first reply is
 * streaming or when a codemode script names them; whatever was started is closed before pi exits
 * (end of stdin, SIGTERM 2 s later), so no server outlives pi. The server here is the fixture
 * server behind a slow start (tests/fixtures/mcp/slow_start_server.ts), which records its process
 * id when it runs.
 */
import { runMcp } from "../../e2e/mcp_harness.ts";
import type { ScriptedTurn } from "../../support/fake_provider/mod.ts";
import { assert, assertEquals } from "../../support/assert.ts";

const SLOW_SERVER = new URL("../../fixtures/mcp/slow_start_server.ts", import.meta.url).pathname;

/** A codemode-exposure server that takes `startMs` to start and appends its pid to `mark`. */
function slowConfig(mark: string, startMs: number): Record<string, unknown> {
  return {
    mcpServers: {
      slow: {
        command: Deno.execPath(),
        args: ["run", "-A", "--no-config", "--quiet", SLOW_SERVER],
        env: { MCP_SLOW_MARK: mark, MCP_SLOW_START_MS: String(startMs) },
      },
    },
  };
}

async function pidsIn(mark: string): Promise<number[]> {
  try {
    return (await Deno.readTextFile(mark)).split("\n").filter((line) => line).map(Number);
  } catch {
    return [];
  }
}

function alive(pid: number): boolean {
  try {
    Deno.statSync(`/proc/${pid}`);
    return true;
  } catch {
    return false;
  }
}

/** Runs `body` with a fresh marker file; kills what it names afterwards so a failure leaves nothing running. */
async function withMark(body: (mark: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "pi_mcp_start_" });
  const mark = `${dir}/pids`;
  try {
    await body(mark);
  } finally {
    for (const pid of await pidsIn(mark)) {
      try {
        Deno.kill(pid, "SIGKILL");
      } catch { /* gone */ }
    }
    await Deno.remove(dir, { recursive: true });
  }
}

const DONE: ScriptedTurn = { content: [{ type: "text", text: "done" }] };
const linux = Deno.build.os === "linux";

Deno.test({
  name:
    "MCP-START-01 -p: no codemode server starts while the first request waits for its reply; one nothing needed is never spawned, yet the model is told of it",
  ignore: !linux,
  fn: () =>
    withMark(async (mark) => {
      // 4 s before the reply arrives: time enough for the MCP SDK to load and a server to be spawned.
      const late: ScriptedTurn = { ...DONE, headersDelayMs: 4_000 };
      const run = await runMcp({ globalConfig: slowConfig(mark, 30_000), turns: [late], prompt: "hi" });
      assertEquals([run.result.code, run.result.stdout, run.stderr], [0, "done\n", ""]);
      assertEquals(await pidsIn(mark), []);
      const system = JSON.stringify(run.requests[0].body.system);
      assert(system.includes("- mcp__slow (codemode)"), system);
      const tools = (run.requests[0].body as { tools: { name: string }[] }).tools.map((tool) => tool.name);
      assert(tools.includes("codemode"), tools.join());
    }),
});

Deno.test({
  name:
    "MCP-START-02 -p: a server slow to start does not hold a streaming answer; it is spawned while the reply streams and closed when pi exits, not left running",
  ignore: !linux,
  fn: () =>
    withMark(async (mark) => {
      const streaming: ScriptedTurn = {
        content: [{ type: "text", text: "a streamed answer in several pieces" }],
        // About 4 s of streaming: deferred servers start 1 s into a reply still streaming.
        chunkDelayMs: 400,
      };
      const started = performance.now();
      const run = await runMcp({ globalConfig: slowConfig(mark, 60_000), turns: [streaming], prompt: "hi" });
      const took = performance.now() - started;
      assertEquals([run.result.code, run.result.stdout, run.stderr], [
        0,
        "a streamed answer in several pieces\n",
        "",
      ]);
      const pids = await pidsIn(mark);
      assertEquals(pids.length, 1, "the server was spawned while the reply streamed");
      // Closed on exit: stdin ended, then SIGTERM 2 s later (it never read stdin), not its 60 s start.
      assert(!alive(pids[0]), `the server ${pids[0]} outlived pi`);
      assert(took < 40_000, `took ${took} ms`);
    }),
});

Deno.test({
  name:
    "MCP-START-03 -p: the first reply's codemode script names a server that has not started: it starts then, the script waits for it and gets its answer, and pi closes it on exit",
  ignore: !linux,
  fn: () =>
    withMark(async (mark) => {
      const script: ScriptedTurn = {
        content: [{
          type: "toolCall",
          id: "s1",
          name: "codemode",
          arguments: {
            code: `const r = await tools.mcp__slow__echo({ text: "late" });\ntext(r.content[0].text);`,
          },
        }],
      };
      const run = await runMcp({
        globalConfig: slowConfig(mark, 1_500),
        turns: [script, DONE],
        prompt: "hi",
      });
      assertEquals([run.result.code, run.result.stdout, run.stderr], [0, "done\n", ""]);
      const result = run.sessionLines.find((line) =>
        (line.message as { role?: string } | undefined)?.role === "toolResult"
      )?.message as { content: { text: string }[]; isError: boolean };
      const output = result.content.map((block) => block.text).join("\n");
      assert(output.startsWith("Script completed\n") && output.includes("echo: late"), output);
      assertEquals(result.isError, false);
      const pids = await pidsIn(mark);
      assertEquals(pids.length, 1);
      assert(!alive(pids[0]), `the server ${pids[0]} outlived pi`);
    }),
});
