/**
 * The codemode worker started ahead of the next script (issue 14's speed budget) keeps scripts
 * apart exactly as a worker per script did: a script taking the spare worker sees nothing another
 * script left (globals, prototypes, store values it did not pass), escape attempts still fail, and
 * an endless loop still ends at its deadline. A disposed pool starts no more workers.
 */
import { assert, assertEquals } from "../../support/assert.ts";
import { runInSandbox, SandboxPool } from "../../../src/extensions/builtin/codemode/sandbox.ts";

function run(pool: SandboxPool, code: string, timeoutMs?: number) {
  return runInSandbox({ code, tools: [], globals: [], store: {}, timeoutMs }, pool);
}

Deno.test("CM-SBX-06 a pooled worker runs one script only: the next script sees none of its state", async () => {
  const pool = new SandboxPool();
  pool.prewarm();
  try {
    const first = await run(
      pool,
      `globalThis.leak = 1; Object.prototype.polluted = 2; Array.prototype.push = () => 0; store("k", 1); return "set";`,
    );
    assert(first.ok, JSON.stringify(first));
    assertEquals(first.value, "set");
    for (let i = 0; i < 3; i++) {
      const next = await run(
        pool,
        `const a = []; a.push(1); return [typeof globalThis.leak, "polluted" in {}, a.length, load("k") === undefined];`,
      );
      assert(next.ok, JSON.stringify(next));
      assertEquals(next.value, ["undefined", false, 1, true]);
    }
  } finally {
    pool.dispose();
  }
});

Deno.test("CM-SBX-07 a pooled worker is as confined: no file or environment access, and timeout_ms ends a loop", async () => {
  const pool = new SandboxPool();
  pool.prewarm();
  try {
    const read = await run(pool, `return await globalThis.Deno.readTextFile("/etc/hostname");`);
    assert(!read.ok && read.error.message.includes("Requires read access"), JSON.stringify(read));
    const env = await run(pool, `return globalThis.Deno.env.get("HOME");`);
    assert(!env.ok && env.error.message.includes("Requires env access"), JSON.stringify(env));
    const started = performance.now();
    const loop = await run(pool, `while (true) {}`, 300);
    assert(!loop.ok && loop.error.kind === "timeout", JSON.stringify(loop));
    assertEquals(loop.error.message, "Execution timed out after 300 ms");
    assert(performance.now() - started < 10_000);
    // The pool goes on after a terminated loop.
    const after = await run(pool, `return 42;`);
    assert(after.ok && after.value === 42, JSON.stringify(after));
  } finally {
    pool.dispose();
  }
});

Deno.test("CM-SBX-08 a spare worker is started ahead, taken by one script, replaced after it; a disposed pool starts none", async () => {
  const pool = new SandboxPool();
  assertEquals(pool.hasSpare, false);
  pool.prewarm();
  assertEquals(pool.hasSpare, true);
  const running = run(pool, `return 1;`);
  assertEquals(pool.hasSpare, false, "the script took the spare worker");
  assert((await running).ok);
  const deadline = Date.now() + 10_000;
  while (!pool.hasSpare && Date.now() < deadline) await new Promise((done) => setTimeout(done, 10));
  assertEquals(pool.hasSpare, true, "a new spare started after the script ended");
  pool.dispose();
  assertEquals(pool.hasSpare, false);
  pool.prewarm();
  assertEquals(pool.hasSpare, false);
  const result = await run(pool, `return typeof Deno;`);
  assert(result.ok, JSON.stringify(result));
  assertEquals(result.value, "undefined");
  assertEquals(pool.hasSpare, false);
});
