/**
 * The codemode sandbox on its own (issue 14): a script runs in a Deno Worker with every permission
 * denied and reaches the outside only through the host's tools. Escape attempts (the file system,
 * processes, the network, environment variables, `import()`, timers) fail; an endless loop is ended
 * by the deadline, a script waiting on nothing fails at once, an abort ends it, and calls still
 * running when it ends see their signal abort.
 */
import { assert, assertEquals } from "../../support/assert.ts";
import {
  runInSandbox,
  type SandboxOptions,
  type SandboxResult,
} from "../../../src/extensions/builtin/codemode/sandbox.ts";

function run(code: string, extra: Partial<SandboxOptions> = {}): Promise<SandboxResult> {
  return runInSandbox({ code, tools: [], globals: [], store: {}, ...extra });
}

async function value(code: string): Promise<unknown> {
  const result = await run(code);
  if (!result.ok) throw new Error(`script failed: ${result.error.message}`);
  return result.value;
}

Deno.test("CM-SBX-01 escape attempts: no file, process, network, environment or module access from a script", async () => {
  const secret = await Deno.makeTempFile();
  await Deno.writeTextFile(secret, "secret");
  // A server the script could reach if it had network access.
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    () => new Response("secret"),
  );
  const path = JSON.stringify(secret);
  try {
    // [script, what its error must say ("" where only failing matters)]
    const attempts: [string, string | RegExp][] = [
      [`return await globalThis.Deno.readTextFile(${path});`, "Requires read access"],
      [`return globalThis.Deno.readTextFileSync(${path});`, "Requires read access"],
      [`await globalThis.Deno.writeTextFile(${path}, "pwned");`, "Requires write access"],
      [
        `return new globalThis.Deno.Command("sh", { args: ["-c", "echo hi"] }).outputSync();`,
        // With LD_PRELOAD in the environment (libfaketime in the fresh-machine check) Deno refuses
        // with "Requires --allow-run permissions to spawn subprocess with LD_PRELOAD …" instead.
        /Requires (run access|--allow-run permissions)/,
      ],
      [`return globalThis.Deno.env.get("HOME");`, "Requires env access"],
      [
        `return await (await globalThis.fetch("http://127.0.0.1:${server.addr.port}/")).text();`,
        "Requires net access",
      ],
      [`return await import(${JSON.stringify(new URL("file://" + secret).href)});`, "Requires read access"],
      [`const fs = await import("node:fs"); return fs.readFileSync(${path}, "utf8");`, ""],
      [`const cp = await import("node:child_process"); return cp.execSync("echo hi").toString();`, ""],
    ];
    for (const [code, expected] of attempts) {
      const result = await run(code);
      assert(!result.ok, `escaped: ${code} gave ${JSON.stringify(result)}`);
      const said = typeof expected === "string"
        ? result.error.message.includes(expected)
        : expected.test(result.error.message);
      assert(said, `${code}: ${result.error.message}`);
      assert(!JSON.stringify(result).includes('"secret"'), code);
    }
    assertEquals(await Deno.readTextFile(secret), "secret");
  } finally {
    await server.shutdown();
    await Deno.remove(secret);
  }
});

Deno.test("CM-SBX-02 a script sees no runtime names: Deno, fetch, timers, process, require are undefined", async () => {
  assertEquals(
    await value(
      `return [typeof Deno, typeof fetch, typeof setTimeout, typeof setInterval, typeof process, typeof require, typeof postMessage, typeof self];`,
    ),
    Array(8).fill("undefined"),
  );
});

Deno.test("CM-SBX-03 an endless loop ends at the deadline; a script waiting on nothing fails at once; abort ends a script", async () => {
  const started = performance.now();
  const loop = await run("while (true) {}", { timeoutMs: 300 });
  assertEquals(loop.ok ? undefined : loop.error, {
    kind: "timeout",
    message: "Execution timed out after 300 ms",
  });
  assert(performance.now() - started < 5_000);

  const stuck = await run("await new Promise(() => {});");
  assertEquals(
    stuck.ok ? undefined : stuck.error.message,
    "The script is waiting on a promise that can never settle: no tool call is pending, and timers do not exist here.",
  );

  const controller = new AbortController();
  const aborted = run("while (true) {}", { signal: controller.signal });
  controller.abort(new Error("Operation aborted"));
  assertEquals((await aborted).ok ? undefined : ((await aborted) as { error: unknown }).error, {
    kind: "aborted",
    message: "Operation aborted",
  });
});

Deno.test("CM-SBX-04 tool calls cross as JSON; a call still running when the script ends sees its signal abort", async () => {
  let seen: AbortSignal | undefined;
  const result = await run(`tools.slow({}); return await tools.echo({ a: [1, "x"] });`, {
    tools: [
      { name: "echo", jsName: "echo", description: "", call: (args) => ({ got: args }) },
      {
        name: "slow",
        jsName: "slow",
        description: "",
        call: (_args, signal) => {
          seen = signal;
          return new Promise(() => {});
        },
      },
    ],
  });
  assertEquals(result.ok ? result.value : result.error, { got: { a: [1, "x"] } });
  assertEquals(seen?.aborted, true);
});

Deno.test("CM-SBX-04 a call that finished before the script ended keeps its signal unaborted (an MCP call would send its server a cancellation)", async () => {
  const signals: AbortSignal[] = [];
  const result = await run(
    `let n = 0; for (let i = 0; i < 3; i++) n += await tools.echo({ i }); await Promise.all([tools.echo({ i: 3 }), tools.echo({ i: 4 })]); tools.slow({}); return n;`,
    {
      tools: [
        {
          name: "echo",
          jsName: "echo",
          description: "",
          call: (args, signal) => {
            signals.push(signal);
            return (args as { i: number }).i;
          },
        },
        {
          name: "slow",
          jsName: "slow",
          description: "",
          call: (_args, signal) => {
            signals.push(signal);
            return new Promise(() => {});
          },
        },
      ],
    },
  );
  assertEquals(result.ok ? result.value : result.error, 3);
  // Five finished echo calls, then the slow one still running when the script returned.
  assertEquals(signals.map((signal) => signal.aborted), [false, false, false, false, false, true]);
});

Deno.test("CM-SBX-05 output items in order, store writes, and a thrown error with its line", async () => {
  const ok = await run(`text("a"); console.log("b", 1); store("k", [1]); store("x", undefined); return 5;`, {
    store: { x: "2" },
  });
  assertEquals(ok, {
    ok: true,
    output: [{ type: "text", text: "a" }, { type: "text", text: "b 1", console: true }],
    value: 5,
    storeWrites: { set: { k: [1] }, delete: ["x"] },
  });
  const failed = await run(`text("x");\n\nthrow new TypeError("bad");`);
  assertEquals(failed.ok ? undefined : failed.error, {
    kind: "script",
    name: "TypeError",
    message: "bad",
    stack: "TypeError: bad\n    at <anonymous> (codemode.js:3:7)",
  });
});
