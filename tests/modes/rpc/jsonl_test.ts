/** Strict JSONL framing. IDs: RPC-01. */
import { assertEquals } from "../../support/assert.ts";
import { JsonlSplitter, readJsonlLines, serializeJsonLine } from "../../../src/modes/rpc/jsonl.ts";

Deno.test("RPC-01 serializeJsonLine keeps U+2028/U+2029 raw and ends with LF", () => {
  assertEquals(serializeJsonLine({ a: "x\u2028y\u2029z" }), '{"a":"x\u2028y\u2029z"}\n');
});

Deno.test("RPC-01 splitting is on LF only; one trailing CR is stripped; the unterminated tail comes at end", () => {
  const s = new JsonlSplitter();
  assertEquals(s.push('{"a":"x\u2028'), []);
  assertEquals(s.push('y"}\r\n{"b":\r1}\n\n{"c"'), ['{"a":"x\u2028y"}', '{"b":\r1}', ""]);
  assertEquals(s.push(":2}\r"), []);
  assertEquals(s.end(), ['{"c":2}']);
  assertEquals(s.end(), []);
});

Deno.test("RPC-01 readJsonlLines decodes UTF-8 split across chunks and flushes the last line at EOF", async () => {
  const bytes = new TextEncoder().encode('{"t":"é\u2028€"}\nlast');
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      for (let i = 0; i < bytes.length; i++) controller.enqueue(bytes.slice(i, i + 1));
      controller.close();
    },
  });
  const lines: string[] = [];
  await readJsonlLines(stream, (l) => lines.push(l));
  assertEquals(lines, ['{"t":"é\u2028€"}', "last"]);
});

Deno.test("RPC-01 readJsonlLines reads a byte reader (Deno.stdin's shape) into one reused buffer intact", async () => {
  const bytes = new TextEncoder().encode('{"t":"é\u2028€"}\r\n{"n":2}\nlast');
  let offset = 0;
  // One byte per read, so every multi-byte character is split across reads of the same buffer.
  const reader = {
    read(buffer: Uint8Array): Promise<number | null> {
      if (offset >= bytes.length) return Promise.resolve(null);
      buffer[0] = bytes[offset++];
      return Promise.resolve(1);
    },
  };
  const lines: string[] = [];
  await readJsonlLines(reader, (l) => lines.push(l));
  assertEquals(lines, ['{"t":"é\u2028€"}', '{"n":2}', "last"]);
});

Deno.test("RPC-01 a 5 MB line arriving in small chunks is split once and intact", async () => {
  const big = "x".repeat(5_000_000);
  const bytes = new TextEncoder().encode(`${big}\nnext\n`);
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      for (let i = 0; i < bytes.length; i += 1024) controller.enqueue(bytes.slice(i, i + 1024));
      controller.close();
    },
  });
  const lines: string[] = [];
  const started = performance.now();
  await readJsonlLines(stream, (l) => lines.push(l));
  assertEquals(lines.map((l) => l.length), [5_000_000, 4]);
  // Quadratic rescanning would take many seconds here.
  assertEquals(performance.now() - started < 5000, true);
});

Deno.test("RPC-01 reading a byte reader never touches the ReadableStream global (its first use loads Deno's streams code)", async () => {
  const original = Object.getOwnPropertyDescriptor(globalThis, "ReadableStream")!;
  let touched = 0;
  Object.defineProperty(globalThis, "ReadableStream", {
    configurable: true,
    get() {
      touched++;
      return original.value ?? original.get?.call(globalThis);
    },
  });
  try {
    const chunks = [new TextEncoder().encode('{"a":1}\n{"b":2}\n')];
    const reader = {
      read(buffer: Uint8Array): Promise<number | null> {
        const chunk = chunks.shift();
        if (!chunk) return Promise.resolve(null);
        buffer.set(chunk);
        return Promise.resolve(chunk.length);
      },
    };
    const lines: string[] = [];
    await readJsonlLines(reader, (line) => lines.push(line));
    assertEquals(lines, ['{"a":1}', '{"b":2}']);
    assertEquals(touched, 0);
  } finally {
    Object.defineProperty(globalThis, "ReadableStream", original);
  }
});
