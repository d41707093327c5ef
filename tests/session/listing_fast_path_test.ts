/**
 * The listing's fast path (issue 12, SES-16): lines in pi's own compact layout are judged from
 * their first and last bytes (type, role, message time) and line ends are found 16 bytes at a
 * time by WebAssembly, yet every folder lists exactly as a full parse of every line (pi 1.6.0's
 * `SessionManager.list`) — with the search in WebAssembly and in plain code, with a small
 * buffer that puts read boundaries everywhere, on lines built to fool a byte-level reading:
 * torn writes continued by the next append, odd timestamps, escapes, other layouts.
 */
import { deepStrictEqual as assertEquals, strictEqual } from "node:assert/strict";
import { join } from "node:path";
import { listSessionsInDir } from "../../src/session/listing.ts";
import { summarizeSessionFile, summaryOptions, summaryStats } from "../../src/session/session_summary.ts";
import { LineBuffer } from "../../src/session/newline_scan.ts";
import { expectSameAsFullParse } from "./support/full_listing.ts";

type Loose = Record<string, unknown>;

const HEADER = (id: string) =>
  JSON.stringify({ type: "session", version: 3, id, timestamp: "2026-01-01T00:00:00.000Z", cwd: "/p" });
let seq = 0;
/** A message entry exactly as pi writes it (message last, its timestamp last). */
const msg = (role: string, content: unknown, timestamp: unknown, extra: Loose = {}) =>
  JSON.stringify({
    type: "message",
    id: (seq++).toString(16).padStart(8, "0"),
    parentId: null,
    timestamp: "2026-01-01T00:00:07.000Z",
    message: { role, content, ...extra, timestamp },
  });
const tool = (size: number, t = 5) =>
  JSON.stringify({
    type: "message",
    id: (seq++).toString(16).padStart(8, "0"),
    parentId: null,
    timestamp: "2026-01-01T00:00:07.000Z",
    message: {
      role: "toolResult",
      toolCallId: "c",
      toolName: "read",
      content: [{ type: "text", text: `{"a": "q"} \\ ${"t".repeat(size)}` }],
      isError: false,
      timestamp: t,
    },
  });
const answer = (t: unknown) =>
  msg("assistant", [{ type: "toolCall", id: "c1", name: "read", arguments: { path: "a" } }], t, {
    usage: { input: 1, output: 2, cost: { total: 0 } },
    stopReason: "toolUse",
  });
const info = (name: string) =>
  JSON.stringify({ type: "session_info", id: "i", parentId: null, timestamp: "t", name });

/** Files whose lines look like pi's layout at one end but are not what they seem. */
export function oddFiles(): Record<string, string[]> {
  const first = msg("user", "first", 100);
  return {
    // A torn line continued by the next append: a full parse rejects the merged line.
    "merged-user-assistant": [
      HEADER("m1"),
      first,
      msg("user", "q", 3).slice(0, 90) + answer(999),
      answer(50),
    ],
    "merged-late-cut": [HEADER("m2"), first, answer(7).slice(0, -12) + answer(998)],
    "merged-after-role": [
      HEADER("m3"),
      first,
      msg("assistant", "x", 5).slice(0, 120) + msg("user", "y", 997),
    ],
    "merged-tool": [
      HEADER("m4"),
      first,
      tool(300).slice(0, 200) + answer(996),
      tool(10).slice(0, 40) + tool(20),
    ],
    "merged-info": [HEADER("m5"), first, answer(5).slice(0, 100) + info("hidden"), info("shown")],
    "merged-into-ignored": [
      HEADER("m6"),
      first,
      '{"type":"label","id":"x","parentId":null,"tar' + answer(995),
    ],
    // Message times the byte reading must leave to the parser.
    "times": [
      HEADER("t1"),
      first,
      answer(200).replace('"timestamp":200}}', '"timestamp":0200}}'),
      answer(1234567890123456),
      answer(300.5),
      answer(-5),
      answer("9999"),
      answer(1e21),
      msg("assistant", "no time", undefined),
      answer(250),
    ],
    "zero-and-missing-times": [HEADER("t2"), msg("user", "only", 0), msg("assistant", "late", undefined)],
    // Escapes and layouts.
    "escapes": [
      HEADER("e1"),
      first,
      answer(900).replace('"type":"message"', '"type":"mess\\u0061ge"'),
      answer(901).replace('"role":"assistant"', '"role":"\\u0061ssistant"'),
      tool(5, 902).replace('"role":"toolResult"', '"role":"us\\u0065r"'),
      info("x").replace('"type":"session_info"', '"type":"session_\\u0069nfo"'),
      '{"type":"message_x","id":"1","message":{"role":"user","content":"no","timestamp":903}}',
    ],
    "layouts": [
      HEADER("l1"),
      first,
      answer(800).replace('"type":"message"', '"type": "message"'),
      answer(801).replace('"message":{"role"', '"message": {"role"'),
      JSON.stringify({
        type: "message",
        id: "z",
        parentId: null,
        timestamp: "2026-01-01T00:00:09.000Z",
        message: { role: "user", timestamp: 802, content: "content after time" },
      }),
      JSON.stringify({ type: "message", id: "y", message: { role: "user", timestamp: 803 } }),
      JSON.stringify({ type: "message", id: "w", message: { role: "custom", content: "c", timestamp: 804 } }),
      answer(805) + "   ",
      " " + answer(806),
      "5",
      "null",
      "[]",
      '"text"',
      "   ",
    ],
    "crlf": [HEADER("c1"), first, answer(700), tool(30), info("crlf name")].map((l) => l + "\r"),
    "empty-first-user": [
      HEADER("u1"),
      msg("user", [], 1),
      msg("user", [{ type: "image" }], 2),
      msg("user", "x", 3),
    ],
  };
}

/** Lines of several sizes whose merged second entry falls on every offset around read boundaries. */
export function boundaryFiles(bufferBytes: number): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (let d = 0; d < 48; d++) {
    const lines = [HEADER(`b${d}`), msg("user", "first", 100)];
    // Fill up to just before a boundary, then a merged line whose second entry straddles it.
    const head = lines.join("\n").length + 1;
    const pad = tool(0).length;
    lines.push(tool(Math.max(0, bufferBytes - head - pad - 60 + d)));
    lines.push(answer(9).slice(0, 70) + answer(990 + d), answer(20));
    out[`boundary-${d}`] = lines;
  }
  return out;
}

async function withDir(fn: (dir: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "pi-list-fast-" });
  try {
    await fn(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

async function withOptions(bufferBytes: number, wasm: boolean, fn: () => Promise<void>): Promise<void> {
  const saved = { ...summaryOptions };
  Object.assign(summaryOptions, { bufferBytes, wasm });
  try {
    await fn();
  } finally {
    Object.assign(summaryOptions, saved);
  }
}

Deno.test("SES-16 issue 12: the fast listing equals a full parse on torn, merged, odd-time, escaped and re-laid-out lines, in WebAssembly and plain code, at every read boundary", async () => {
  await withDir(async (dir) => {
    const files = { ...oddFiles(), ...boundaryFiles(4096) };
    for (const [name, lines] of Object.entries(files)) {
      await Deno.writeTextFile(join(dir, `${name}.jsonl`), lines.join("\n") + "\n");
    }
    for (
      const [bufferBytes, wasm] of [[1 << 20, true], [1 << 20, false], [4096, true], [4096, false]] as const
    ) {
      await withOptions(bufferBytes, wasm, async () => {
        // A fresh folder each time: the listing cache written by a run must not answer the next.
        await withDir(async (copy) => {
          for await (const e of Deno.readDir(dir)) await Deno.copyFile(join(dir, e.name), join(copy, e.name));
          strictEqual(await expectSameAsFullParse(copy), Object.keys(files).length, `${bufferBytes} ${wasm}`);
        });
      });
    }
    const infos = new Map((await listSessionsInDir(dir)).map((i) => [i.id, i]));
    // The merged lines are not messages; their second halves' times do not count.
    strictEqual(infos.get("m1")?.messageCount, 2);
    strictEqual(infos.get("m1")?.modified.getTime(), 100);
    strictEqual(infos.get("m4")?.messageCount, 1);
    strictEqual(infos.get("m5")?.name, "shown");
    strictEqual(infos.get("b7")?.messageCount, 3);
  });
});

Deno.test("SES-16 issue 12: a pi-written session is listed from its bytes: two lines parsed, every byte read once", async () => {
  await withDir(async (dir) => {
    const lines = [HEADER("g"), info("named")];
    for (let i = 0; i < 300; i++) {
      lines.push(
        msg("user", `turn ${i}`, 1000 + i),
        answer(2000 + i),
        tool(3000, 3000 + i),
        answer(4000 + i),
      );
    }
    const path = join(dir, "g.jsonl");
    await Deno.writeTextFile(path, lines.join("\n") + "\n");
    const size = (await Deno.stat(path)).size;
    const before = { ...summaryStats };
    const { shown } = await summarizeSessionFile(path);
    // The header and the first user message are parsed (and the name: session_info is rare).
    strictEqual(summaryStats.parsedLines - before.parsedLines, 3);
    strictEqual(summaryStats.quickLines - before.quickLines, lines.length - 3);
    strictEqual(summaryStats.bytesRead - before.bytesRead, size);
    assertEquals(
      { count: shown.messageCount, first: shown.firstMessage, name: shown.name, last: shown.lastActivity },
      { count: 1200, first: "turn 0", name: "named", last: 4299 },
    );
    await expectSameAsFullParse(dir);
  });
});

Deno.test("SES-16 issue 12: the WebAssembly search finds the same line ends and keys as plain code, one at a time and in batches", () => {
  const fast = new LineBuffer(8192);
  const plain = new LineBuffer(8192, false);
  strictEqual(fast.accelerated, true);
  strictEqual(plain.accelerated, false);
  // A fixed pseudo-random sequence: newlines, `{"ty` and near misses at every alignment.
  let x = 12345;
  const rand = () => (x = (Math.imul(x, 1103515245) + 12345) >>> 0) / 2 ** 32;
  // Long runs without `\n` or `{` reach the 64-byte skipping.
  const pieces = [
    "\n",
    '{"ty',
    '{"t',
    '{"',
    "{",
    "y",
    "a",
    '"',
    "ü",
    "x".repeat(70),
    "é".repeat(45),
    "-".repeat(130),
  ];
  for (let round = 0; round < 40; round++) {
    const bytes = new TextEncoder().encode(
      Array.from({ length: 200 + round * 37 }, () => pieces[Math.floor(rand() * pieces.length)]).join(""),
    );
    const n = Math.min(bytes.length, 8192);
    fast.bytes.set(bytes.subarray(0, n));
    plain.bytes.set(bytes.subarray(0, n));
    for (let from = 0; from < n; from += 1 + Math.floor(rand() * 5)) {
      const end = from + Math.floor(rand() * (n - from + 1));
      strictEqual(fast.next(from, end), plain.next(from, end), `next(${from}, ${end})`);
      strictEqual(fast.newline(from, end), plain.newline(from, end), `newline(${from}, ${end})`);
      const count = fast.scan(from, end);
      strictEqual(count, plain.scan(from, end), `scan(${from}, ${end})`);
      assertEquals(fast.stops.slice(0, count), plain.stops.slice(0, count));
    }
  }
});
