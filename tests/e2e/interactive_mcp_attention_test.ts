/**
 * MCP-TUI-02 (issue 14): the interactive mode's start-up report of MCP servers that need the user,
 * beside pi 1.6.0. Once every server's first connection attempt settled, one warning in the chat
 * lists the configuration errors, the servers that failed and those that need an OAuth sign-in,
 * and ends with "Run /mcp to fix."; a disabled server is not listed. The screens must be equal.
 */
import { assert, assertEquals } from "../support/assert.ts";
import { startInteractiveScenario } from "../support/interactive_scenario.ts";
import { startOAuthMcpServer } from "../support/oauth_mcp_server.ts";

const TIMEOUT = 90_000;
const SIZE = { width: 100, height: 30 };

Deno.test("MCP-TUI-02 start-up with a broken mcp.json entry, a server that cannot start and one that needs sign-in: 'MCP servers need attention: … Run /mcp to fix.' in the chat, as pi 1.6.0 shows it", async () => {
  const oauth = startOAuthMcpServer();
  const run = async (reference: boolean) => {
    const s = await startInteractiveScenario([], { reference, ...SIZE });
    try {
      await Deno.writeTextFile(
        `${s.agent.agentDir}/mcp.json`,
        JSON.stringify({
          mcpServers: {
            broken: { command: "/nonexistent/x" },
            bad: { nonsense: 1 },
            guarded: { url: oauth.url },
            off: { command: "true", enabled: false },
          },
        }),
      );
      await s.pane.command(`clear; ${s.piCommand()}`);
      await s.pane.waitFor((t) => t.includes("Run /mcp to fix."), TIMEOUT, "the attention report");
      return s.normalized(await s.pane.settle(1000)).replaceAll(oauth.url, "<oauth>");
    } finally {
      await s.close();
    }
  };
  try {
    const ours = await run(false);
    const report = [
      " Warning: MCP servers need attention:",
      '   config: <root>/agent/mcp.json: server "bad" needs either "command" (stdio)',
      ' or "url" (streamable HTTP)',
      "   broken: failed: spawn /nonexistent/x ENOENT",
      "   guarded: needs sign-in",
      " Run /mcp to fix.",
    ].join("\n");
    assert(ours.includes(report), ours);
    assert(!ours.includes("off:"), ours);
    assertEquals(ours, await run(true));
  } finally {
    await oauth.close();
  }
});
