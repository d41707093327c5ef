/**
 * Our stdio client transport on `Deno.Command` (src/extensions/builtin/mcp/stdio_transport.ts),
 * against a real child process (tests/fixtures/mcp/stdio_echo_server.ts): framing of lines split
 * across chunks, a server dying mid-call with its stderr tail, the environment and folder it gets,
 * Node's spawn failure text, and the close sequence (end of stdin, SIGTERM, SIGKILL).
 */
import { assert, assertEquals, assertRejects, assertStringIncludes } from "../../support/assert.ts";
import { denoDir } from "../../support/agent_env.ts";
import {
  defaultEnvironment,
  DenoStdioClientTransport,
  type StdioServerParameters,
} from "../../../src/extensions/builtin/mcp/stdio_transport.ts";

const SERVER = new URL("../../fixtures/mcp/stdio_echo_server.ts", import.meta.url).pathname;

function server(args: string[] = [], extra: Partial<StdioServerParameters> = {}): StdioServerParameters {
  return {
    command: Deno.execPath(),
    args: ["run", "-A", "--no-config", "--quiet", SERVER, ...args],
    env: { DENO_DIR: denoDir(), NO_COLOR: "1" },
    ...extra,
  };
}

/** A started transport recording what it hears. */
async function open(params: StdioServerParameters) {
  const transport = new DenoStdioClientTransport(params);
  const messages: unknown[] = [];
  const errors: string[] = [];
  let closedResolve: () => void = () => {};
  const closed = new Promise<void>((done) => (closedResolve = done));
  let closes = 0;
  transport.onmessage = (message) => messages.push(message);
  transport.onerror = (error) => errors.push(error.message);
  transport.onclose = () => {
    closes++;
    closedResolve();
  };
  await transport.start();
  /** Waits (with a deadline) until `count` messages arrived. */
  const received = async (count: number) => {
    const deadline = Date.now() + 20_000;
    while (messages.length < count) {
      if (Date.now() > deadline) {
        throw new Error(`only ${messages.length} messages: ${JSON.stringify(messages)}`);
      }
      await new Promise((done) => setTimeout(done, 10));
    }
  };
  return { transport, messages, errors, closed, closes: () => closes, received };
}

Deno.test("MCP stdio transport: lines split across chunks, CRLF endings and bad lines (MCP stdio framing)", async () => {
  const t = await open(server());
  await t.transport.send({ jsonrpc: "2.0", id: 1, method: "split" });
  await t.received(3);
  assertEquals(t.messages, [
    { jsonrpc: "2.0", id: 1, result: { text: "héllo" } },
    { jsonrpc: "2.0", method: "notifications/message", params: { n: 1 } },
    { jsonrpc: "2.0", id: 1, result: { second: true } },
  ]);
  assertEquals(t.errors.length, 1);
  assertStringIncludes(t.errors[0], "JSON");
  await t.transport.send({ jsonrpc: "2.0", id: 2, method: "echo", params: { a: [1, "x"] } });
  await t.received(4);
  assertEquals(t.messages[3], { jsonrpc: "2.0", id: 2, result: { echo: { a: [1, "x"] } } });
  const started = Date.now();
  await t.transport.close();
  await t.closed;
  assert(Date.now() - started < 2_000, "a server that exits at the end of stdin is not signalled");
  assertEquals(t.closes(), 1);
});

Deno.test("MCP stdio transport: a server that dies mid-call closes the transport and leaves its stderr", async () => {
  const t = await open(server());
  await t.transport.send({ jsonrpc: "2.0", id: 1, method: "die" });
  await t.closed;
  assertEquals(t.closes(), 1);
  assertEquals(t.transport.stderr, "fatal: the server fell over\n");
  await assertRejects(() => t.transport.send({ jsonrpc: "2.0", id: 2, method: "echo" }), "Not connected");
  await t.transport.close();
  assertEquals(t.closes(), 1);
});

Deno.test("MCP stdio transport: environment is the inherited defaults plus the given env; cwd is used", async () => {
  const cwd = await Deno.realPath(await Deno.makeTempDir({ prefix: "pi_stdio_cwd_" }));
  try {
    const params = server([], { cwd });
    params.env = {
      ...params.env,
      PI_TEST_VALUE: "given",
      PATH: "/given/bin:" + (Deno.env.get("PATH") ?? ""),
    };
    const t = await open(params);
    await t.transport.send({ jsonrpc: "2.0", id: 1, method: "env" });
    await t.received(1);
    const { env, cwd: childCwd } =
      (t.messages[0] as { result: { env: Record<string, string>; cwd: string } }).result;
    assertEquals(childCwd, cwd);
    assertEquals(env.PI_TEST_VALUE, "given");
    assertEquals(env.PATH, params.env.PATH);
    const expected = { ...defaultEnvironment(), ...params.env };
    assertEquals(Object.keys(env).sort(), Object.keys(expected).sort());
    await t.transport.close();
    await t.closed;
  } finally {
    await Deno.remove(cwd, { recursive: true });
  }
});

Deno.test("MCP stdio transport: a missing command fails with Node's `spawn <cmd> ENOENT`", async () => {
  const transport = new DenoStdioClientTransport({ command: "/nonexistent/mcp-server" });
  const errors: string[] = [];
  transport.onerror = (error) => errors.push(error.message);
  await assertRejects(() => transport.start(), "spawn /nonexistent/mcp-server ENOENT");
  assertEquals(errors, ["spawn /nonexistent/mcp-server ENOENT"]);
});

Deno.test("MCP stdio transport: close sends SIGTERM 2 s after stdin ends, SIGKILL 2 s later", async () => {
  const dir = await Deno.makeTempDir({ prefix: "pi_stdio_close_" });
  try {
    for (
      const [mode, minMs, maxMs] of [["ignore-eof", 2_000, 3_900], ["ignore-term", 4_000, 9_000]] as const
    ) {
      const log = `${dir}/${mode}.log`;
      const t = await open(server([mode, log]));
      // The server answers, so its SIGTERM listener is in place before close.
      await t.transport.send({ jsonrpc: "2.0", id: 1, method: "echo" });
      await t.received(1);
      const started = Date.now();
      await t.transport.close();
      await t.closed;
      const took = Date.now() - started;
      assert(took >= minMs - 50 && took < maxMs, `${mode}: closed after ${took} ms`);
      assertEquals(await Deno.readTextFile(log), "SIGTERM\n", mode);
      assertEquals(t.closes(), 1);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("MCP stdio transport: a stdio server connects without the SDK's stdio transport, cross-spawn or Node's child_process", async () => {
  const dir = await Deno.makeTempDir({ prefix: "pi_stdio_modules_" });
  try {
    const connection = new URL("../../../src/extensions/builtin/mcp/connection.ts", import.meta.url).href;
    const fixture = new URL("../../fixtures/mcp/test_server.ts", import.meta.url).pathname;
    const script = `${dir}/connect.ts`;
    await Deno.writeTextFile(
      script,
      `import { McpServerConnection } from ${JSON.stringify(connection)};
const c = new McpServerConnection({
  entry: { name: "fx", source: "mcp.json", scope: "global", config: { command: ${
        JSON.stringify(Deno.execPath())
      },
    args: ["run", "-A", "--no-config", "--quiet", ${JSON.stringify(fixture)}] } },
  cwd: ${JSON.stringify(dir)},
});
await c.getClient();
console.log(c.state, c.tools.length > 0);
await c.close();
`,
    );
    const log = `${dir}/v8.log`;
    const out = await new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "-A",
        "--no-prompt",
        "--config",
        new URL("../../../deno.json", import.meta.url).pathname,
        `--v8-flags=--log-function-events,--logfile=${log},--no-logfile-per-isolate`,
        script,
      ],
      env: { DENO_DIR: denoDir() },
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
      signal: AbortSignal.timeout(90_000),
    }).output();
    assertEquals(
      new TextDecoder().decode(out.stdout),
      "connected true\n",
      new TextDecoder().decode(out.stderr),
    );
    const scripts = [...(await Deno.readTextFile(log)).matchAll(/^script-details,\d+,([^,]*),/gm)].map((m) =>
      m[1]
    );
    // Control: the log names the SDK modules that do load.
    assert(scripts.some((url) => url.includes("/shared/protocol.js")), "the log names the SDK's protocol.js");
    const unwanted = scripts.filter((url) =>
      /cross-spawn|\/client\/stdio\.js|\/client\/streamableHttp\.js|child_process/.test(url)
    );
    assertEquals([...new Set(unwanted)], []);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
