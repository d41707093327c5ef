/**
 * A codemode script waits only for the MCP servers it may reach (1.6.0, docs/mcp.md "Other servers
 * are waited for when they are needed"): with one server that never finishes starting, a script
 * that names no server runs at once, and so does one naming another, connected server. Before, every
 * script waited for every server, here until the connection timeout.
 */
import { runMcp, stdioServer } from "./mcp_harness.ts";
import type { ScriptedTurn } from "../support/fake_provider/mod.ts";
import { assertEquals } from "../support/assert.ts";

function script(id: string, code: string): ScriptedTurn {
  return { content: [{ type: "toolCall", id, name: "codemode", arguments: { code } }] };
}

/** Processes whose command line contains `marker` (Linux's /proc). */
async function processesWith(marker: string): Promise<number[]> {
  const found: number[] = [];
  for await (const entry of Deno.readDir("/proc")) {
    if (!/^\d+$/.test(entry.name)) continue;
    try {
      const cmdline = await Deno.readTextFile(`/proc/${entry.name}/cmdline`);
      if (cmdline.includes(marker)) found.push(Number(entry.name));
    } catch {
      // Gone meanwhile.
    }
  }
  return found;
}

Deno.test("MCP-CM-05 a script waits only for the servers it names: a server that never starts does not hold up the others; pi's exit ends it", async () => {
  // A name no other process has: the server must be gone once pi has exited (it ignores its stdin's end).
  const marker = `never-created-${crypto.randomUUID()}`;
  const config = {
    mcpServers: {
      // Starts, then waits for a file that never comes; its connection would time out after 600 s.
      stuck: {
        command: "sh",
        args: ["-c", `while [ ! -f ${marker} ]; do sleep 0.2; done`],
        timeout: 600,
      },
      fx: stdioServer(),
    },
  };
  const run = await runMcp({
    globalConfig: config,
    turns: [
      script("c1", `return (await tools.read({ path: "a.txt" })).split("\\n")[0];`),
      script("c2", `return (await tools.mcp__fx__echo({ text: "hi" })).content[0].text;`),
      { content: [{ type: "text", text: "done" }] },
    ],
    prepare: (cwd) => Deno.writeTextFile(`${cwd}/a.txt`, "first line\nsecond\n"),
    timeoutMs: 120_000,
  });
  const results = run.sessionLines.flatMap((line) => {
    const message = line.message as
      | { role?: string; content?: { type: string; text?: string }[] }
      | undefined;
    return message?.role === "toolResult"
      ? [String(message.content?.map((block) => block.text).join(""))]
      : [];
  }).map((text) => text.replace(/Wall time [\d.]+ seconds/, "Wall time X seconds"));
  assertEquals(results, [
    "Script completed\nWall time X seconds\nOutput:\nfirst line",
    "Script completed\nWall time X seconds\nOutput:\necho: hi",
  ]);
  assertEquals(run.result.code, 0);
  // Before, the server outlived pi (and held the test run's output open until killed by hand).
  let left = await processesWith(marker);
  for (let i = 0; i < 20 && left.length > 0; i++) {
    await new Promise((done) => setTimeout(done, 100));
    left = await processesWith(marker);
  }
  for (const pid of left) {
    try {
      Deno.kill(pid, "SIGKILL"); // Not left behind for the rest of the run.
    } catch {
      // Gone meanwhile.
    }
  }
  assertEquals(left, []);
});
