/**
 * `pi.registerMcpServer()`, `pi.getMcpServers()` and the `mcp_servers_change` event (issue 14,
 * 1.6.0's docs/extensions.md "MCP Servers"): an `-e` extension (tests/fixtures/mcp/register_extension.ts)
 * registers the fixture MCP server while loading, has invalid registrations refused, registers a
 * second server on `session_start`, and records what it saw as session entries. Run in JSON mode in
 * our pi and in pi 1.6.0: the entries, the tool results and the declared tools are equal.
 */
import { assertEquals } from "../support/assert.ts";
import type { ScriptedTurn } from "../support/fake_provider/mod.ts";
import { runMcp, TEST_SERVER } from "./mcp_harness.ts";

const EXTENSION = new URL("../fixtures/mcp/register_extension.ts", import.meta.url).pathname;

const TURNS: ScriptedTurn[] = [
  { content: [{ type: "toolCall", id: "c1", name: "mcp__ext__echo", arguments: { text: "hi" } }] },
  { content: [{ type: "toolCall", id: "c2", name: "mcp__late__echo", arguments: { text: "later" } }] },
  { content: [{ type: "text", text: "done" }] },
];

const LATE_TURNS: ScriptedTurn[] = [
  { content: [{ type: "toolCall", id: "c1", name: "mcp__late__echo", arguments: { text: "one" } }] },
  { content: [{ type: "toolCall", id: "c2", name: "mcp__late__echo", arguments: { text: "two" } }] },
  { content: [{ type: "text", text: "done" }] },
];

type Line = Record<string, unknown>;

async function run(reference: boolean, lateOnly = false) {
  const result = await runMcp({
    reference,
    args: ["-e", EXTENSION, "--mode", "json"],
    env: {
      MCP_DENO: Deno.execPath(),
      MCP_TEST_SERVER: TEST_SERVER,
      ...(lateOnly ? { MCP_LATE_ONLY: "1" } : {}),
    },
    turns: lateOnly ? LATE_TURNS : TURNS,
  });
  assertEquals(result.result.code, 0, result.stderr);
  const tools = (result.requests[0].body as { tools: Line[] }).tools.map((tool) => String(tool.name));
  return {
    entries: result.sessionLines.filter((line) => line.type === "custom").map((
      line,
    ) => [line.customType, line.data]),
    results: (result.jsonLines as Line[]).filter((line) => line.type === "tool_execution_end").map((line) => [
      line.toolName,
      (line.result as Line).content,
      line.isError,
    ]),
    // Servers connect in parallel, so their tools are declared in the order they connected.
    tools: tools.sort(),
    stderr: result.stderr,
  };
}

Deno.test("MCP-EXT-01 pi.registerMcpServer: servers registered while loading and on session_start connect; invalid ones throw; mcp_servers_change lists them (equal to pi 1.6.0)", async () => {
  const ours = await run(false);
  const path = "$PI_PACKAGE/tests/fixtures/mcp/register_extension.ts";
  assertEquals(ours.entries, [
    ["mcp-start", {
      servers: [["ext", "direct", "string"], ["e-x-t", "direct", "string"]],
      errors: [
        `Invalid MCP server registered by extension "${path}": server "bad": url must be an http or https URL`,
        `Invalid MCP server registered by extension "${path}": server "no_command" needs either "command" (stdio) or "url" (streamable HTTP)`,
      ],
    }],
    ["mcp-change", { servers: [["ext", "direct"], ["e-x-t", "direct"], ["late", "direct"]] }],
  ]);
  assertEquals(ours.results, [
    ["mcp__ext__echo", [{ type: "text", text: "echo: hi" }], false],
    ["mcp__late__echo", [{ type: "text", text: "echo: later" }], false],
  ]);
  assertEquals(ours.tools.filter((name) => name.startsWith("mcp__")).length, 27);
  assertEquals(ours.stderr, "");
  assertEquals(ours, await run(true));
});

Deno.test("MCP-EXT-02 a server registered on session_start without any mcp.json starts MCP; unregistering it closes it and its tools go (equal to pi 1.6.0)", async () => {
  const ours = await run(false, true);
  assertEquals(ours.entries, [
    ["mcp-change", { servers: ["late"] }],
    ["mcp-change", { servers: [] }],
  ]);
  assertEquals(ours.results[0], ["mcp__late__echo", [{ type: "text", text: "echo: one" }], false]);
  assertEquals(ours.results[1][2], true);
  assertEquals(ours, await run(true, true));
});
