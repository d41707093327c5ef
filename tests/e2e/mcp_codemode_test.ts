/**
 * Codemode end to end (issue 14): the real CLI with an MCP server of the default `codemode`
 * exposure, the fake provider sending scripts to the `codemode` tool. The tools offered, the
 * `codemode` schema and description, the results the model gets and the session file are compared
 * with pi 1.6.0 run the same way, after normalising what cannot be equal: wall times, the remaining
 * milliseconds of a timeout, error columns (V8 and QuickJS point at different characters of a
 * throwing line) and the `models` line of 1.6.0's description (classifier and image models are not in
 * this build yet).
 */
import { runMcp, stdioServer } from "./mcp_harness.ts";
import type { ScriptedTurn } from "../support/fake_provider/mod.ts";
import { assert, assertEquals } from "../support/assert.ts";

type Line = Record<string, unknown>;

function script(id: string, code: string): ScriptedTurn {
  return { content: [{ type: "toolCall", id, name: "codemode", arguments: { code } }] };
}

const DONE: ScriptedTurn = { content: [{ type: "text", text: "done" }] };
const CONFIG = { mcpServers: { fx: stdioServer({ description: "Fixture tools" }) } };
const MODELS_LINE =
  "\n- `models`: classifiers and image generation. Read $PI_PACKAGE/docs/codemode.md first.";

/** Scripts whose results must equal 1.6.0's. */
const CORPUS: [string, string][] = [
  [
    "call",
    `const r = await tools.mcp__fx__echo({ text: "hi" });\nconsole.log("got", r.content[0].text);\nreturn r;`,
  ],
  [
    "parallel",
    `const [a, b] = await Promise.all([tools.mcp__fx__add({ a: 1, b: 2 }), tools.mcp__fx__echo({ text: "x" })]);\ntext("first");\ntext({ a: 1 });\nreturn [a.structuredContent, b.isError];`,
  ],
  ["throws", `text("before");\nthrow new Error("boom");`],
  ["loop", `// @options: {"timeout_ms": 500}\nwhile (true) {}`],
  ["tool error", `const r = await tools.read({ path: "nope.txt" });\nreturn r;`],
  [
    "globals",
    `return [typeof Deno, typeof fetch, typeof setTimeout, typeof process, typeof require, ALL_TOOLS.length];`,
  ],
  ["mcp isError", `return await tools.mcp__fx__fail({});`],
  ["store", `store("k", { n: 1 }); store("gone", 2); store("gone", undefined); return load("k");`],
  ["load later", `return [load("k"), load("gone")];`],
  [
    "allSettled",
    `const r = await Promise.allSettled([tools.read({ path: "a.txt" }), tools.read({ path: "missing" })]);\nreturn r.map((x) => x.status);`,
  ],
  [
    "bash",
    `const r = await tools.bash({ command: "echo one; exit 3" });\nreturn [r.output, r.exit_code, r.truncated];`,
  ],
  ["exit", `text("kept");\nexit();\ntext("never");`],
  ["unknown tool", `await tools.mcp__fx__ech({ text: "x" });`],
  ["bad args", `await tools.mcp__fx__add({ a: "x" });`],
  ["options line misplaced", `text(1);\n// @options: {"timeout_ms": 10}`],
  ["bad options", `// @options: {"timeout": 10}\ntext(1);`],
  ["empty", `   `],
  ["never settles", `await new Promise(() => {});`],
  ["budget", `// @options: {"max_output_tokens": 5}\ntext("a".repeat(30));\nconsole.log("tail");`],
  ["searchTools", `return await searchTools("add numbers", { limit: 2 });`],
  ["describeNamespace", `return await describeNamespace("fx");`],
  ["describe missing", `return [await describeTool("nope"), await describeNamespace("nope")];`],
  [
    "console levels",
    `console.info("i"); console.warn({ w: 1 }); console.error(new Error("e")); console.debug(null, 2);`,
  ],
  ["return types", `text(undefined); text(null); text(1.5); text([1, "a"]); return "s";`],
  [
    "image",
    `image("data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==");`,
  ],
  ["bad image", `image("https://example.com/x.png");`],
  [
    "mid-way failure",
    `await tools.mcp__fx__echo({ text: "1" });\nawait tools.read({ path: "missing" });\nawait tools.mcp__fx__echo({ text: "2" });`,
  ],
  ["thrown value", `throw { code: 7 };`],
  ["store not json", `store("f", () => 1);`],
  ["store key", `store(1, 2);`],
];

function normalize(value: unknown): unknown {
  return JSON.parse(
    JSON.stringify(value)
      .replace(/Wall time \d+\.\d seconds/g, "Wall time X seconds")
      .replace(/timed out after \d+ ms/g, "timed out after N ms")
      .replace(/codemode\.js:(\d+):\d+/g, "codemode.js:$1:C")
      .replaceAll(JSON.stringify(MODELS_LINE).slice(1, -1), "")
      .replace(/\/pi-codemode-[0-9a-f]{16}\./g, "/pi-codemode-HEX."),
  );
}

function resultTexts(lines: Line[]): string[] {
  return lines.flatMap((line) => {
    const message = line.message as Line | undefined;
    return message?.role === "toolResult"
      ? [(message.content as { type: string; text?: string }[]).map((c) => c.text ?? `<${c.type}>`).join("")]
      : [];
  });
}

const prepare = (cwd: string) => Deno.writeTextFile(`${cwd}/a.txt`, "alpha\n");

Deno.test("MCP-CM-01 codemode: tools offered, codemode schema, script results and session lines equal pi 1.6.0's for a corpus of scripts", async () => {
  const turns = [...CORPUS.map(([_, code], i) => script(`c${i}`, code)), DONE];
  const ours = await runMcp({ globalConfig: CONFIG, turns, prepare, timeoutMs: 180_000 });
  const ref = await runMcp({ globalConfig: CONFIG, turns, prepare, reference: true, timeoutMs: 180_000 });
  assertEquals([ours.result.code, ours.stderr], [0, ""]);
  assertEquals(ref.result.code, 0, ref.stderr);

  const first = ours.requests[0].body as { tools: Line[]; system: { text: string }[] };
  assertEquals(first.tools.map((tool) => tool.name), ["read", "bash", "edit", "write", "codemode"]);
  const codemode = first.tools.find((tool) => tool.name === "codemode")!;
  assertEquals(codemode.input_schema, {
    type: "object",
    properties: { code: { type: "string", description: "Raw JavaScript source." } },
    required: ["code"],
  });
  assert(
    String(first.tools[1].description).endsWith(
      "\n\nCodemode: `tools.bash(args)` resolves to `{ output, truncated, full_output_path?, exit_code, wall_time_seconds }`.",
    ),
  );
  const system = first.system.map((s) => s.text).join("\n");
  assert(system.includes("- codemode: Run JavaScript that calls other tools\n"));
  assert(system.includes("- mcp__fx (codemode): Fixture tools\n"));

  const texts = resultTexts(ours.sessionLines).map((text) => String(normalize(text)));
  const at = (name: string) => texts[CORPUS.findIndex(([label]) => label === name)];
  assertEquals(
    at("call"),
    'Script completed\nWall time X seconds\nOutput:\n{"content":[{"type":"text","text":"echo: hi"}]}\n<console_output>\ngot echo: hi\n</console_output>',
  );
  assertEquals(
    at("throws"),
    "Script failed\nWall time X seconds\nOutput:\nbefore\nScript error:\nError: boom\n    at <anonymous> (codemode.js:2:C)\n\nNo tool calls were made.",
  );
  assertEquals(
    at("loop"),
    "Script failed\nWall time X seconds\nOutput:\nScript error:\nScript timed out: Execution timed out after N ms\n\nNo tool calls were made.",
  );
  assertEquals(
    at("globals"),
    'Script completed\nWall time X seconds\nOutput:\n["undefined","undefined","undefined","undefined","undefined",13]',
  );
  // The store survives to the next script, and the session records the writes.
  assertEquals(at("load later"), 'Script completed\nWall time X seconds\nOutput:\n[{"n":1},null]');
  const stores = ours.sessionLines.filter((line) => line.customType === "codemode-store").map((line) =>
    line.data
  );
  assertEquals(stores, [{ set: { k: { n: 1 } }, delete: ["gone"] }]);
  // Each tool call of a script is recorded on its result message.
  const nested = ours.sessionLines.flatMap((line) => {
    const message = line.message as Line | undefined;
    return message?.nestedCalls ? [message.nestedCalls] : [];
  });
  assertEquals(nested[0], {
    calls: [{ id: "c0/1", name: "mcp__fx__echo", status: "ok", arguments: { text: "hi" }, durationMs: 0 }],
    complete: true,
  });

  assertEquals(normalize(ours.requests), normalize(ref.requests));
  assertEquals(normalize(ours.sessionLines), normalize(ref.sessionLines));
});

Deno.test("MCP-CM-02 mixed exposures: a direct tool says how scripts call it, tool_search loads a deferred one, hidden ones stay out of ALL_TOOLS; equal to pi 1.6.0", async () => {
  const config = {
    mcpServers: { fx: stdioServer({ toolExposure: { echo: "direct", add: "deferred", "c*": "hidden" } }) },
  };
  const turns = [
    { content: [{ type: "toolCall", id: "c1", name: "tool_search", arguments: { query: "add numbers" } }] },
    { content: [{ type: "toolCall", id: "c2", name: "mcp__fx__add", arguments: { a: 1, b: 2 } }] },
    script(
      "c3",
      `return [ALL_TOOLS.map((t) => t.name), await describeNamespace("fx"), (await searchTools("large text")).map((t) => t.name), await describeTool("mcp__fx__echo")];`,
    ),
    DONE,
  ] as ScriptedTurn[];
  const ours = await runMcp({ globalConfig: config, turns });
  const ref = await runMcp({ globalConfig: config, turns, reference: true });
  assertEquals([ours.result.code, ours.stderr], [0, ""]);
  const names = ours.requests.map((request) => (request.body.tools as Line[]).map((tool) => tool.name));
  assertEquals(names[0], ["read", "bash", "edit", "write", "codemode", "tool_search", "mcp__fx__echo"]);
  assertEquals(names[1], [...names[0], "mcp__fx__add"]);
  const echo = (ours.requests[0].body.tools as Line[]).find((tool) => tool.name === "mcp__fx__echo")!;
  assertEquals(
    echo.description,
    "Echo the text back.\n\nCodemode: `tools.mcp__fx__echo(args)` resolves to `{ content, structuredContent?, isError? }`.",
  );
  const listed = JSON.parse(resultTexts(ours.sessionLines)[2].split("Output:\n")[1])[0] as string[];
  assert(!listed.includes("mcp__fx__crash") && listed.includes("mcp__fx__add"), listed.join(","));
  assertEquals(normalize(ours.requests), normalize(ref.requests));
  assertEquals(normalize(ours.sessionLines), normalize(ref.sessionLines));
});

Deno.test("MCP-CM-03 --tools, --exclude-tools and --no-tools choose codemode and tool_search like other tools; scripts still reach the MCP tools; equal to pi 1.6.0", async () => {
  const config = { mcpServers: { fx: stdioServer({}), d: stdioServer({ exposure: "deferred" }) } };
  const cases: [string[], string[]][] = [
    [["--tools", "read"], ["read"]],
    [["--tools", "read,codemode"], ["read", "codemode"]],
    [["--tools", "read,tool_search,mcp__fx__*"], ["read", "tool_search"]],
    [["--exclude-tools", "codemode"], ["read", "bash", "edit", "write", "tool_search"]],
    [["--no-tools"], []],
  ];
  for (const [args, expected] of cases) {
    const ours = await runMcp({ globalConfig: config, turns: [DONE], args });
    const ref = await runMcp({ globalConfig: config, turns: [DONE], args, reference: true });
    const names = (run: typeof ours) =>
      ((run.requests[0].body.tools ?? []) as Line[]).map((tool) => tool.name);
    assertEquals(names(ours), expected, args.join(" "));
    assertEquals(names(ours), names(ref), args.join(" "));
  }
  // An allowlist without mcp__ entries keeps the MCP tools reachable from scripts.
  const turns = [script("c1", `return (await tools.mcp__fx__echo({ text: "hi" })).content[0].text;`), DONE];
  const args = ["--tools", "read,codemode"];
  const ours = await runMcp({ globalConfig: config, turns, args });
  const ref = await runMcp({ globalConfig: config, turns, args, reference: true });
  assertEquals(
    String(normalize(resultTexts(ours.sessionLines)[0])),
    "Script completed\nWall time X seconds\nOutput:\necho: hi",
  );
  assertEquals(normalize(ours.sessionLines), normalize(ref.sessionLines));
});

/** `@modelcontextprotocol/server-everything` from npm, run under this Deno over stdio (default exposure). */
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
};

Deno.test("MCP-CM-04 @modelcontextprotocol/server-everything through codemode: parallel calls, structured content, resource tools, images; equal to pi 1.6.0", async () => {
  const config = { mcpServers: { everything: EVERYTHING } };
  const turns = [
    script(
      "c1",
      `const [e, s, st] = await Promise.all([tools.mcp__everything__echo({ message: "hi" }), tools.mcp__everything__get_sum({ a: 2, b: 40 }), tools.mcp__everything__get_structured_content({ location: "New York" })]);\nreturn [e.content[0].text, s.content[0].text, st.structuredContent];`,
    ),
    script(
      "c2",
      `const r = await tools.list_mcp_resources({});\nconst doc = await tools.read_mcp_resource({ server: "everything", uri: "demo://resource/static/document/features.md" });\nreturn [r.resources.length > 0, doc.contents[0].text.slice(0, 40)];`,
    ),
    script(
      "c3",
      `const img = await tools.mcp__everything__get_tiny_image({});\nimage(img.content.find((b) => b.type === "image"));\nreturn (await describeNamespace("everything")).tools.length;`,
    ),
    DONE,
  ];
  const ours = await runMcp({ globalConfig: config, turns });
  const ref = await runMcp({ globalConfig: config, turns, reference: true });
  assertEquals([ours.result.code, ours.stderr], [0, ""]);
  const texts = resultTexts(ours.sessionLines).map((text) => String(normalize(text)));
  assertEquals(
    texts[0],
    'Script completed\nWall time X seconds\nOutput:\n["Echo: hi","The sum of 2 and 40 is 42.",{"temperature":33,"conditions":"Cloudy","humidity":82}]',
  );
  assertEquals(
    texts[1],
    'Script completed\nWall time X seconds\nOutput:\n[true,"# Everything Server - Features\\n\\n**[Archi"]',
  );
  assert(/\[Image saved to \S+\/pi-codemode-HEX\.png \(image\/png, [\d.]+KB\)\]/.test(texts[2]), texts[2]);
  assertEquals(normalize(ours.requests), normalize(ref.requests));
  assertEquals(normalize(ours.sessionLines), normalize(ref.sessionLines));
});
