/**
 * MCP servers end to end (issue 14, first slice): the real CLI, a real MCP server built with the
 * official SDK (tests/fixtures/mcp/test_server.ts, stdio and streamable HTTP), and the fake
 * provider asking for `mcp__…` tool calls. The main run is compared with pi 1.6.0 run the same way:
 * the requests (tool declarations, the `mcp_servers` system prompt section), the session file and
 * the JSON records are equal.
 */
import { comparableJsonLine } from "./scenario.ts";
import { runMcp, startHttpServer, stdioServer } from "./mcp_harness.ts";
import type { ScriptedTurn } from "../support/fake_provider/mod.ts";
import { assert, assertEquals } from "../support/assert.ts";

function call(id: string, name: string, args: Record<string, unknown> = {}): ScriptedTurn {
  return { content: [{ type: "toolCall", id, name, arguments: args }] };
}

/** The fixture's `image` tool result. */
const PNG_1X1 =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";

const DONE: ScriptedTurn = { content: [{ type: "text", text: "done" }] };

type Line = Record<string, unknown>;

function toolResults(lines: Line[]): { id: unknown; content: unknown; isError: unknown; details: unknown }[] {
  return lines.flatMap((line) => {
    const message = line.message as Line | undefined;
    return message?.role === "toolResult"
      ? [{
        id: message.toolCallId,
        content: message.content,
        isError: message.isError,
        details: message.details,
      }]
      : [];
  });
}

function text(value: string) {
  return [{ type: "text", text: value }];
}

// `fx` exposes its tools directly; `other` (codemode exposure) is only listed in the mcp_servers
// section. autoEnableCodemode false keeps the codemode tool out (tests/e2e/mcp_codemode_test.ts covers
// it), so this run is about direct tools alone.
const PARITY_CONFIG = {
  autoEnableCodemode: false,
  mcpServers: {
    fx: stdioServer({ exposure: "direct" }),
    other: stdioServer({ description: "Other tools for tests\nsecond line" }),
  },
};

const PARITY_TURNS: ScriptedTurn[] = [
  call("c1", "mcp__fx__echo", { text: "hello" }),
  call("c2", "mcp__fx__fail"),
  call("c3", "mcp__fx__image"),
  call("c4", "mcp__fx__add", { a: 2, b: 3 }),
  call("c5", "mcp__fx__crash"),
  call("c6", "mcp__fx__echo", { text: "back" }),
  call("c7", "mcp__fx__slow", { ms: 500 }),
  call("c8", "mcp__fx__log"),
  call("c9", "mcp__fx__big"),
  DONE,
];

Deno.test("MCP-01 direct MCP tools: requests, session, JSON records and mcp.log equal pi 1.6.0's", async () => {
  const args = ["--mode", "json"];
  const ours = await runMcp({ globalConfig: PARITY_CONFIG, turns: PARITY_TURNS, args });
  const ref = await runMcp({ globalConfig: PARITY_CONFIG, turns: PARITY_TURNS, args, reference: true });
  assertEquals(ours.result.code, 0, ours.result.stderr);
  assertEquals(ref.result.code, 0, ref.result.stderr);

  // What the model is told: the fx tools with their schemas, and the section listing `other`.
  const request = ours.requests[0].body as { tools: Line[]; system: { text: string }[] };
  const fxTools = request.tools.filter((tool) => String(tool.name).startsWith("mcp__"));
  assertEquals(fxTools.map((tool) => tool.name), [
    "mcp__fx__echo",
    "mcp__fx__add",
    "mcp__fx__image",
    "mcp__fx__fail",
    "mcp__fx__crash",
    "mcp__fx__slow",
    "mcp__fx__log",
    "mcp__fx__big",
    "mcp__fx__env",
  ]);
  assertEquals(fxTools[1].description, "Add numbers");
  assertEquals(fxTools[2].input_schema, { type: "object", properties: {}, required: [] });
  assert(
    request.system.at(-1)!.text.endsWith(
      "<mcp_servers>\nMCP servers whose tools are not declared to you. Call the tools of `codemode` servers from codemode scripts.\n- mcp__other (codemode): Other tools for tests\n</mcp_servers>",
    ),
    request.system.at(-1)!.text,
  );

  // What the tools gave, as the session file records it.
  const results = toolResults(ours.sessionLines);
  assertEquals(results.slice(0, 8).map((r) => [r.id, r.content, r.isError]), [
    ["c1", text("echo: hello"), false],
    ["c2", text("it failed on purpose"), true],
    ["c3", [...text("one pixel"), { type: "image", data: PNG_1X1, mimeType: "image/png" }], false],
    ["c4", text("5"), false],
    ["c5", text("MCP connection closed"), true],
    ["c6", text("echo: back"), false],
    ["c7", text("waited 500 ms"), false],
    ["c8", text("logged"), false],
  ]);
  const big = (results[8].content as { text: string }[])[0].text;
  assert(
    big.startsWith("Warning: truncated output (original token count: 7500)\nTotal output lines: 1\n\n"),
    big,
  );
  assert(big.includes("…9520 chars truncated…"), big);
  assert(big.endsWith("\n\n[Full output: $OUTPUT.txt (read it with offset/limit)]"), big);
  assertEquals(results[8].details, { server: "fx", tool: "big", fullOutputPath: "$OUTPUT.txt" });
  assertEquals(ours.log, "$TIME [fx] warning fixture: first line\n    second line\n");

  // The same as pi 1.6.0.
  assertEquals(ours.requests, ref.requests);
  assertEquals(ours.sessionLines, ref.sessionLines);
  assertEquals(ours.jsonLines.map(comparableJsonLine), ref.jsonLines.map(comparableJsonLine));
  assertEquals(ours.log, ref.log);
});

Deno.test("MCP-02 a broken mcp.json is reported on stderr with its file and problem, and the run goes on", async () => {
  const malformed = await runMcp({ globalConfig: '{ "mcpServers": { "a": ', turns: [DONE] });
  assertEquals([malformed.result.code, malformed.result.stdout], [0, "done\n"]);
  assertEquals(
    malformed.stderr,
    "MCP servers need attention:\n  config: $ROOT/agent/mcp.json: Unexpected end of JSON input\n",
  );

  const invalid = await runMcp({
    globalConfig: {
      mcpServers: {
        legacy: { type: "sse", url: "http://127.0.0.1:9/sse" },
        nothing: { command: 5 },
        "bad name": { command: "x" },
        slow: { command: "x", timeout: -1 },
        wrong: { url: "http://127.0.0.1:9/mcp", exposure: "sometimes" },
      },
    },
    turns: [DONE],
  });
  assertEquals([invalid.result.code, invalid.result.stdout], [0, "done\n"]);
  assertEquals(
    invalid.stderr,
    [
      "MCP servers need attention:",
      '  config: $ROOT/agent/mcp.json: server "legacy": legacy SSE transport is not supported; use the streamable HTTP URL',
      '  config: $ROOT/agent/mcp.json: server "nothing" needs either "command" (stdio) or "url" (streamable HTTP)',
      '  config: $ROOT/agent/mcp.json: invalid server name "bad name" (use letters, digits, "_" and "-")',
      '  config: $ROOT/agent/mcp.json: server "slow": timeout must be a positive number of seconds',
      '  config: $ROOT/agent/mcp.json: server "wrong": exposure must be one of "codemode", "deferred", "direct", "hidden"',
      "",
    ].join("\n"),
  );
});

Deno.test("MCP-03 a server that cannot start is reported, its tools do not exist, the other server works", async () => {
  const run = await runMcp({
    globalConfig: {
      mcpServers: {
        fx: stdioServer({ exposure: "direct" }),
        dead: { command: "/nonexistent/mcp-server", exposure: "direct" },
      },
    },
    turns: [call("c1", "mcp__dead__echo", { text: "x" }), call("c2", "mcp__fx__echo", { text: "y" }), DONE],
  });
  assertEquals([run.result.code, run.result.stdout], [0, "done\n"]);
  assertEquals(
    run.stderr,
    "MCP servers need attention:\n  dead: failed: spawn /nonexistent/mcp-server ENOENT\n",
  );
  assertEquals(toolResults(run.sessionLines).map((r) => [r.content, r.isError]), [
    [text("Tool mcp__dead__echo not found"), true],
    [text("echo: y"), false],
  ]);
});

Deno.test("MCP-04 project .pi/mcp.json: read only in trusted projects; overrides by name; env ${VAR} and relative cwd", async () => {
  const globalConfig = { mcpServers: { fx: stdioServer({ exposure: "hidden" }) } };
  const projectConfig = {
    mcpServers: {
      // A partial override: only exposure changes, the command stays the global one.
      fx: { exposure: "direct" },
      proj: stdioServer({ exposure: "direct", env: { GREETING: "hi ${MCP_TEST_NAME}" }, cwd: "sub" }),
    },
  };
  const turns = [
    call("c1", "mcp__proj__env", { name: "GREETING" }),
    call("c2", "mcp__fx__echo", { text: "z" }),
    DONE,
  ];
  const trusted = await runMcp({
    globalConfig,
    projectConfig,
    turns,
    args: ["--approve"],
    env: { MCP_TEST_NAME: "there" },
    prepare: async (cwd) => await Deno.mkdir(`${cwd}/sub`),
  });
  assertEquals([trusted.result.code, trusted.stderr], [0, ""]);
  assertEquals(toolResults(trusted.sessionLines).map((r) => [r.content, r.isError]), [
    [text("GREETING=hi there cwd=$ROOT/project/sub"), false],
    [text("echo: z"), false],
  ]);

  const untrusted = await runMcp({ globalConfig, projectConfig, turns: [DONE], args: ["--no-approve"] });
  assertEquals(untrusted.result.code, 0, untrusted.result.stderr);
  const tools = (untrusted.requests[0].body as { tools: Line[] }).tools.map((tool) => tool.name);
  assertEquals(tools, ["read", "bash", "edit", "write"]);
});

Deno.test("MCP-05 streamable HTTP server: a header from ${VAR}, timeout reset by progress, a wrong token fails to connect", async () => {
  const server = await startHttpServer({ MCP_TEST_TOKEN: "sesame" });
  try {
    const config = {
      mcpServers: {
        web: { url: server.url, headers: { Authorization: "Bearer ${WEB_TOKEN}" }, exposure: "direct" },
      },
    };
    // A warm HTTP server answers `initialize` at once, so a 1 s timeout is safe to test here:
    // progress notifications reset it, silence does not.
    const quick = { ...config.mcpServers.web, timeout: 1 };
    const turns = [
      call("c1", "mcp__web__add", { a: 20, b: 22 }),
      call("c2", "mcp__quick__slow", { ms: 1500 }),
      call("c3", "mcp__quick__slow", { ms: 1500, progress: false }),
      DONE,
    ];
    const ok = await runMcp({
      globalConfig: { mcpServers: { ...config.mcpServers, quick } },
      turns,
      env: { WEB_TOKEN: "sesame" },
    });
    assertEquals([ok.result.code, ok.stderr], [0, ""]);
    assertEquals(toolResults(ok.sessionLines).map((r) => [r.content, r.isError]), [
      [text("42"), false],
      [text("waited 1500 ms"), false],
      [text("MCP request timed out after 1000ms"), true],
    ]);

    const denied = await runMcp({ globalConfig: config, turns: [DONE], env: { WEB_TOKEN: "wrong" } });
    assertEquals(denied.result.code, 0);
    assert(denied.stderr.startsWith("MCP servers need attention:\n  web: failed: "), denied.stderr);
    // The token never reaches the output.
    assert(!denied.stderr.includes("wrong") && !denied.stderr.includes("sesame"), denied.stderr);
  } finally {
    await server.stop();
  }
});

Deno.test("MCP-06 --no-mcp: no server connects and no MCP tool is declared", async () => {
  const run = await runMcp({
    globalConfig: { mcpServers: { fx: stdioServer({ exposure: "direct" }) } },
    turns: [DONE],
    args: ["--no-mcp"],
  });
  assertEquals([run.result.code, run.stderr], [0, ""]);
  const tools = (run.requests[0].body as { tools: Line[] }).tools.map((tool) => tool.name);
  assertEquals(tools, ["read", "bash", "edit", "write"]);
});

/** `@modelcontextprotocol/server-everything` from npm, run under this Deno over stdio. */
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

Deno.test("MCP-07 @modelcontextprotocol/server-everything: tool and resource tool declarations and results equal pi 1.6.0's", async () => {
  const config = { mcpServers: { everything: EVERYTHING } };
  const turns = [
    call("c1", "mcp__everything__echo", { message: "hi" }),
    call("c2", "mcp__everything__get_sum", { a: 2, b: 40 }),
    call("c3", "mcp__everything__get_tiny_image"),
    call("c4", "mcp__everything__get_structured_content", { location: "New York" }),
    call("c5", "mcp__everything__get_resource_links", { count: 2 }),
    call("c6", "mcp__everything__trigger_long_running_operation", { duration: 1, steps: 3 }),
    call("c7", "list_mcp_resources", {}),
    call("c8", "list_mcp_resource_templates", { server: "everything" }),
    call("c9", "read_mcp_resource", {
      server: "everything",
      uri: "demo://resource/static/document/features.md",
    }),
    call("c10", "read_mcp_resource", { server: "nowhere", uri: "demo://x" }),
    DONE,
  ];
  const ours = await runMcp({ globalConfig: config, turns });
  const ref = await runMcp({ globalConfig: config, turns, reference: true });
  assertEquals(ours.result.code, 0, ours.result.stderr);
  const results = toolResults(ours.sessionLines);
  assertEquals(results[0].content, text("Echo: hi"));
  assertEquals(
    results[9].content,
    text('MCP server "nowhere" has no resources. Servers with resources: everything'),
  );
  assertEquals(ours.requests, ref.requests);
  assertEquals(ours.sessionLines, ref.sessionLines);
});

Deno.test("MCP-11 --tools and --exclude-tools apply to MCP tools as in pi 1.6.0 (declared tools equal)", async () => {
  const config = { mcpServers: { fx: stdioServer({ exposure: "direct" }) } };
  const cases = [
    ["--exclude-tools", "mcp__fx__e*,bash"],
    ["--tools", "read,mcp__fx__echo,mcp__fx__a*"],
    ["--tools", "read,write"],
  ];
  for (const args of cases) {
    const ours = await runMcp({ globalConfig: config, turns: [DONE], args });
    const ref = await runMcp({ globalConfig: config, turns: [DONE], args, reference: true });
    const names = (run: typeof ours) =>
      (run.requests[0].body as { tools: Line[] }).tools.map((tool) => tool.name as string);
    assertEquals(names(ours), names(ref), args.join(" "));
    assertEquals(ours.requests, ref.requests, args.join(" "));
  }
});
