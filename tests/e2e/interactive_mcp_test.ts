/**
 * `/mcp` in the interactive mode beside pi 1.6.0 (issue 14): three servers (the real
 * `@modelcontextprotocol/server-everything` from npm, one whose command does not exist, one
 * disabled) and the same keys in our pi and in the reference, in tmux panes of the same size: the
 * server list (those needing attention first, state · exposure · scope), a failed server's menu
 * (transport, config file, state, error; Reconnect, Exposure, Disable…), the connected server's
 * menu and its Tools list, disabling the failed server and changing the connected one's exposure
 * (both saved to mcp.json). The manager's frames and the resulting mcp.json must be equal.
 */
import { assertEquals } from "../support/assert.ts";
import { startInteractiveScenario } from "../support/interactive_scenario.ts";

const TIMEOUT = 60_000;

const EVERYTHING = {
  command: Deno.execPath(),
  args: [
    "run",
    "-A",
    "--no-config",
    "--quiet",
    "npm:@modelcontextprotocol/server-everything@2026.8.31",
    "stdio",
  ],
  exposure: "direct",
};

/** The manager's frame: from the rule above its title to the rule below its key line. */
function managerFrame(screen: string): string {
  const lines = screen.split("\n");
  const start = lines.findIndex((line, i) =>
    /^─+$/.test(line) && /^ (MCP server|Tools of|Exposure of)/.test(lines[i + 1] ?? "")
  );
  if (start < 0) return `<no manager>\n${screen}`;
  const end = lines.findIndex((line, i) => i > start && /^─+$/.test(line));
  return lines.slice(start, end + 1).join("\n");
}

async function run(reference: boolean): Promise<string[]> {
  const s = await startInteractiveScenario([{ content: [{ type: "text", text: "hi" }] }], { reference });
  try {
    await Deno.writeTextFile(
      `${s.agent.agentDir}/mcp.json`,
      JSON.stringify({
        mcpServers: {
          everything: EVERYTHING,
          broken: { command: "/nonexistent/x" },
          off: { command: "true", enabled: false },
        },
      }),
    );
    await s.pane.command(`clear; ${s.piCommand()}`);
    await s.pane.waitFor((t) => t.includes("(auto)"), TIMEOUT, "start-up");
    const frames: string[] = [];
    const step = async (act: () => Promise<void>, ready: (frame: string) => boolean, what: string) => {
      await act();
      const screen = await s.pane.waitFor((t) => ready(managerFrame(t)), TIMEOUT, what);
      // The frame once drawing has stopped (tmux may show a frame half redrawn), if it still qualifies.
      const settled = await s.pane.settle(500, 5_000);
      frames.push(s.normalized(managerFrame(ready(managerFrame(settled)) ? settled : screen)));
    };
    await step(
      () => s.pane.command("/mcp"),
      (f) => f.includes("14 tools") && f.includes("failed:") && f.includes("close"),
      "the server list",
    );
    await step(() => s.pane.keys("Enter"), (f) => f.includes("MCP server broken"), "the failed server");
    await step(
      async () => {
        await s.pane.keys("Escape");
        await s.pane.waitFor((t) => managerFrame(t).includes(" MCP servers"), TIMEOUT, "the list again");
        await s.pane.keys("Down", "Enter");
      },
      (f) => f.includes("MCP server everything") && f.includes("Tools"),
      "the connected server",
    );
    await step(() => s.pane.keys("Enter"), (f) => f.includes("Tools of everything"), "its tools");
    await s.pane.keys("Escape");
    await s.pane.waitFor((t) => managerFrame(t).includes("MCP server everything"), TIMEOUT, "back");
    await s.pane.keys("Escape");
    await s.pane.waitFor((t) => managerFrame(t).includes(" MCP servers"), TIMEOUT, "the list");
    // Disable the failed server (saved to the global mcp.json); its menu then offers Enable.
    await step(
      async () => {
        await s.pane.keys("Enter");
        await s.pane.waitFor((t) => managerFrame(t).includes("MCP server broken"), TIMEOUT, "broken's menu");
        await s.pane.keys("Down", "Down", "Enter");
      },
      (f) => f.includes("Enable in this project"),
      "broken disabled",
    );
    await step(
      () => s.pane.keys("Escape"),
      (f) => f.includes(" MCP servers") && !f.includes("failed:"),
      "the list",
    );
    // The connected server's exposure, from direct to deferred.
    await step(
      async () => {
        await s.pane.keys("Enter");
        await s.pane.waitFor((t) => managerFrame(t).includes("MCP server everything"), TIMEOUT, "its menu");
        await s.pane.keys("Down", "Down", "Enter");
      },
      (f) => f.includes("Exposure of everything"),
      "the exposure menu",
    );
    await step(() => s.pane.keys("Up", "Enter"), (f) => /Exposure +deferred/.test(f), "exposure saved");
    await s.pane.keys("Escape");
    await s.pane.waitFor((t) => managerFrame(t).includes(" MCP servers"), TIMEOUT, "the list");
    await s.pane.keys("Escape");
    await s.pane.waitFor((t) => managerFrame(t).startsWith("<no manager>"), TIMEOUT, "closed");
    frames.push(s.normalized(await Deno.readTextFile(`${s.agent.agentDir}/mcp.json`)));
    return frames;
  } finally {
    await s.close();
  }
}

Deno.test("MCP-TUI-01 /mcp: server list, a failed server's menu, a connected server's menu and its tools, as pi 1.6.0 draws them", async () => {
  const ours = await run(false);
  const reference = await run(true);
  assertEquals(ours.length, 9);
  for (let i = 0; i < ours.length; i++) assertEquals(ours[i], reference[i], `screen ${i}`);
});
