/**
 * RPC-19 user `!command` execution (src/tools/bash_executor.ts), as 1.6.0 does it: escape
 * sequences removed even when a chunk boundary cuts one, the tail kept with the whole output in a
 * file once it grows, `truncated` also when earlier output was dropped from memory, and a
 * cancelled command without an exit code.
 */
import { assertEquals } from "../support/assert.ts";
import { executeBashWithOperations } from "../../src/tools/bash_executor.ts";
import type { BashOperations } from "../../src/tools/shell.ts";

/** A backend that replays `chunks` as the command's output and exits with `code`. */
function replay(chunks: string[], code = 0): BashOperations {
  return {
    exec: (_command, _cwd, { onData }) => {
      for (const chunk of chunks) onData(new TextEncoder().encode(chunk));
      return Promise.resolve({ exitCode: code });
    },
  };
}

Deno.test("RPC-19 escape sequences split across chunks leave no fragments", async () => {
  const seen: string[] = [];
  const r = await executeBashWithOperations(
    "x",
    "/tmp",
    replay(["\u001b[3", "1mred\u001b[0m\r\n", "\u001b]0;title\u0007ok"]),
    {
      onChunk: (t) => seen.push(t),
    },
  );
  assertEquals(r.output, "red\nok");
  assertEquals(seen.join(""), "red\nok");
  assertEquals([r.exitCode, r.cancelled, r.truncated, r.fullOutputPath], [0, false, false, undefined]);
});

Deno.test("RPC-19 large output: the tail, the whole output in a 0600 file, truncated", async () => {
  const line = "y".repeat(99) + "\n";
  const chunks = Array.from({ length: 3000 }, () => line); // 300 KB, past the 100 KB kept in memory
  const r = await executeBashWithOperations("x", "/tmp", replay(chunks, 3));
  try {
    assertEquals(r.truncated, true);
    assertEquals(r.exitCode, 3);
    assertEquals(await Deno.readTextFile(r.fullOutputPath!), chunks.join(""));
    assertEquals((await Deno.stat(r.fullOutputPath!)).mode! & 0o777, 0o600);
    assertEquals(r.output.endsWith(line.trimEnd()), true);
  } finally {
    if (r.fullOutputPath) await Deno.remove(r.fullOutputPath);
  }
});

Deno.test("RPC-19 a cancelled command has no exit code", async () => {
  const controller = new AbortController();
  const ops: BashOperations = {
    exec: (_c, _d, { onData }) => {
      onData(new TextEncoder().encode("partial\n"));
      controller.abort();
      return Promise.reject(new Error("aborted"));
    },
  };
  const r = await executeBashWithOperations("x", "/tmp", ops, { signal: controller.signal });
  assertEquals([r.output, r.exitCode, r.cancelled], ["partial\n", undefined, true]);
});
