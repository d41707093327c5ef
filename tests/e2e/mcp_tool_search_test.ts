/**
 * Tool search end to end (issue 14): the real CLI with an MCP server whose tools have `deferred`
 * exposure, the fake provider asking for `tool_search` and then for the tools it loaded. What the
 * model is offered before and after a search, the results it gets and the session file are compared
 * with pi 1.6.0 run the same way.
 */
import { runMcp, stdioServer } from "./mcp_harness.ts";
import type { ScriptedTurn } from "../support/fake_provider/mod.ts";
import { assert, assertEquals } from "../support/assert.ts";

type Line = Record<string, unknown>;

function call(id: string, name: string, args: Record<string, unknown> = {}): ScriptedTurn {
  return { content: [{ type: "toolCall", id, name, arguments: args }] };
}

const DONE: ScriptedTurn = { content: [{ type: "text", text: "done" }] };

const DEFERRED = { mcpServers: { fx: stdioServer({ exposure: "deferred" }) } };

function toolNames(request: { body: Record<string, unknown> }): string[] {
  return (request.body.tools as Line[] | undefined ?? []).map((tool) => tool.name as string);
}

function results(lines: Line[]): { text: string; isError: unknown; details: unknown }[] {
  return lines.flatMap((line) => {
    const message = line.message as Line | undefined;
    if (message?.role !== "toolResult") return [];
    const content = message.content as { text?: string }[];
    return [{
      text: content.map((c) => c.text ?? "").join(""),
      isError: message.isError,
      details: message.details,
    }];
  });
}

Deno.test("MCP-TS-01 deferred MCP tools: tool_search loads matches for the next request; requests and session equal pi 1.6.0's", async () => {
  const turns = [
    call("c1", "tool_search", { query: "echo text" }),
    call("c2", "mcp__fx__echo", { text: "hi" }),
    call("c3", "tool_search", { query: "zzz" }),
    call("c4", "tool_search", { query: "   " }),
    DONE,
  ];
  const ours = await runMcp({ globalConfig: DEFERRED, turns });
  const ref = await runMcp({ globalConfig: DEFERRED, turns, reference: true });
  assertEquals([ours.result.code, ours.stderr], [0, ""]);
  assertEquals(ref.result.code, 0, ref.stderr);

  // Before the search only tool_search is offered; after it the two matches, in rank order.
  const base = ["read", "bash", "edit", "write", "tool_search"];
  assertEquals(ours.requests.map(toolNames), [
    base,
    [...base, "mcp__fx__echo", "mcp__fx__big"],
    [...base, "mcp__fx__echo", "mcp__fx__big"],
    [...base, "mcp__fx__echo", "mcp__fx__big"],
    [...base, "mcp__fx__echo", "mcp__fx__big"],
  ]);
  const search = (ours.requests[0].body.tools as Line[]).find((tool) => tool.name === "tool_search")!;
  assertEquals(search.input_schema, {
    type: "object",
    properties: {
      query: { type: "string", description: "Search query for deferred tools." },
      limit: { type: "number", description: "Maximum number of tools to return. Defaults to 8." },
    },
    required: ["query"],
  });
  const system = (ours.requests[0].body.system as { text: string }[]).map((s) => s.text).join("\n");
  assert(system.includes("- tool_search: Search for tools that are not loaded yet and load the matches"));
  assert(system.includes("- mcp__fx (tool_search)\n"));

  assertEquals(results(ours.sessionLines), [
    {
      text:
        "Loaded 2 tools. They are available from your next call:\n- mcp__fx__echo: Echo the text back.\n- mcp__fx__big: A large text result.",
      isError: false,
      details: { loaded: ["mcp__fx__echo", "mcp__fx__big"] },
    },
    { text: "echo: hi", isError: false, details: { server: "fx", tool: "echo" } },
    { text: "No matching tools found.", isError: false, details: { loaded: [] } },
    { text: "query must not be empty", isError: true, details: {} },
  ]);
  // The transcript records the loaded tools with a system message right after the search result.
  const systemLines = ours.sessionLines.filter((line) =>
    (line.message as Line | undefined)?.role === "system"
  );
  assertEquals(systemLines.length, 2);
  assertEquals(
    ((systemLines[1].message as Line).toolsAdded as Line[]).map((tool) => tool.name),
    ["mcp__fx__echo", "mcp__fx__big"],
  );
  assertEquals(ours.requests, ref.requests);
  assertEquals(ours.sessionLines, ref.sessionLines);
});

Deno.test("MCP-TS-02 tool_search limit, exact names and tools already loaded equal pi 1.6.0's", async () => {
  const config = {
    mcpServers: {
      fx: stdioServer({ exposure: "deferred", toolExposure: { "env": "direct", "crash": "hidden" } }),
    },
  };
  const turns = [
    call("c1", "tool_search", { query: "add", limit: 0 }),
    call("c2", "tool_search", { query: "add", limit: 1.5 }),
    call("c3", "tool_search", { query: "fx__add", limit: 1 }),
    call("c4", "tool_search", { query: "add" }),
    call("c5", "mcp__fx__add", { a: 2, b: 3 }),
    call("c6", "tool_search", { query: "crash exits server" }),
    DONE,
  ];
  const ours = await runMcp({ globalConfig: config, turns });
  const ref = await runMcp({ globalConfig: config, turns, reference: true });
  assertEquals([ours.result.code, ours.stderr], [0, ""]);
  const texts = results(ours.sessionLines).map((result) => result.text);
  assertEquals(texts.slice(0, 2), ["limit must be a positive integer", "limit must be a positive integer"]);
  assertEquals(
    texts[2],
    "Loaded 1 tool. They are available from your next call:\n- mcp__fx__add: Add numbers",
  );
  // A hidden tool is never found; the direct one is declared from the start.
  assert(!texts[5].includes("crash"), texts[5]);
  assert(toolNames(ours.requests[0]).includes("mcp__fx__env"));
  assertEquals(ours.requests, ref.requests);
  assertEquals(ours.sessionLines, ref.sessionLines);
});

Deno.test("MCP-TS-03 without builtin:tool-search deferred tools are unreachable, with pi 1.6.0's warning", async () => {
  const args = ["--no-extensions", "-e", "builtin:mcp"];
  const ours = await runMcp({ globalConfig: DEFERRED, turns: [DONE], args });
  assertEquals(ours.result.code, 0, ours.stderr);
  assertEquals(toolNames(ours.requests[0]), ["read", "bash", "edit", "write"]);
  assertEquals(
    ours.stderr.trim(),
    "MCP tools are only reachable from the codemode or tool_search tool, but neither is active; they cannot be called.",
  );
});
