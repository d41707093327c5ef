import { deepStrictEqual as assertEquals } from "node:assert/strict";
import {
  DEFAULT_MAX_BYTES,
  DEFAULT_MAX_LINES,
  formatSize,
  GREP_MAX_LINE_LENGTH,
  truncateHead,
  truncateLine,
  truncateTail,
  utf8ByteLength,
} from "../../src/tools/truncate.ts";

// Expected objects below were printed by the reference's core/tools/truncate.js (0.73.1, and 1.6.0 for the
// final-newline and surrogate cases) on the same inputs.
const base = { lastLinePartial: false, firstLineExceedsLimit: false, maxLines: 2000, maxBytes: 51200 };

Deno.test("TOOLS-COMMON truncation defaults match the reference", () => {
  assertEquals([DEFAULT_MAX_LINES, DEFAULT_MAX_BYTES, GREP_MAX_LINE_LENGTH], [2000, 51200, 500]);
});

Deno.test("TOOLS-COMMON truncateHead leaves small content untouched", () => {
  assertEquals(truncateHead("a\nb"), {
    ...base,
    content: "a\nb",
    truncated: false,
    truncatedBy: null,
    totalLines: 2,
    totalBytes: 3,
    outputLines: 2,
    outputBytes: 3,
  });
});

Deno.test("TOOLS-COMMON truncateHead by lines", () => {
  assertEquals(truncateHead("a\nb\nc\nd", { maxLines: 2 }), {
    ...base,
    maxLines: 2,
    content: "a\nb",
    truncated: true,
    truncatedBy: "lines",
    totalLines: 4,
    totalBytes: 7,
    outputLines: 2,
    outputBytes: 3,
  });
});

Deno.test("TOOLS-COMMON truncateHead by bytes keeps whole lines", () => {
  assertEquals(truncateHead("aaaa\nbbbb\ncccc", { maxBytes: 9 }), {
    ...base,
    maxBytes: 9,
    content: "aaaa\nbbbb",
    truncated: true,
    truncatedBy: "bytes",
    totalLines: 3,
    totalBytes: 14,
    outputLines: 2,
    outputBytes: 9,
  });
});

Deno.test("TOOLS-COMMON truncateHead flags an over-long first line", () => {
  assertEquals(truncateHead("aaaaaaaaaa\nb", { maxBytes: 5 }), {
    ...base,
    maxBytes: 5,
    content: "",
    truncated: true,
    truncatedBy: "bytes",
    totalLines: 2,
    totalBytes: 12,
    outputLines: 0,
    outputBytes: 0,
    firstLineExceedsLimit: true,
  });
});

Deno.test("TOOLS-COMMON truncateTail by lines and bytes", () => {
  assertEquals(truncateTail("a\nb\nc\nd", { maxLines: 2 }), {
    ...base,
    maxLines: 2,
    content: "c\nd",
    truncated: true,
    truncatedBy: "lines",
    totalLines: 4,
    totalBytes: 7,
    outputLines: 2,
    outputBytes: 3,
  });
  assertEquals(truncateTail("aaaa\nbbbb\ncccc", { maxBytes: 9 }), {
    ...base,
    maxBytes: 9,
    content: "bbbb\ncccc",
    truncated: true,
    truncatedBy: "bytes",
    totalLines: 3,
    totalBytes: 14,
    outputLines: 2,
    outputBytes: 9,
  });
});

Deno.test("TOOLS-COMMON truncateTail keeps a partial last line on a UTF-8 boundary", () => {
  assertEquals(truncateTail("x\né€😀abc", { maxBytes: 6 }), {
    ...base,
    maxBytes: 6,
    content: "abc",
    truncated: true,
    truncatedBy: "bytes",
    totalLines: 2,
    totalBytes: 14,
    outputLines: 1,
    outputBytes: 3,
    lastLinePartial: true,
  });
});

Deno.test("TOOLS-COMMON formatSize and truncateLine texts", () => {
  assertEquals(
    [0, 1023, 1024, 1536, 1048575, 1048576, 5 * 1048576 + 100].map(formatSize),
    ["0B", "1023B", "1.0KB", "1.5KB", "1024.0KB", "1.0MB", "5.0MB"],
  );
  assertEquals(truncateLine("x".repeat(12), 10), { text: "xxxxxxxxxx... [truncated]", wasTruncated: true });
  assertEquals(truncateLine("short"), { text: "short", wasTruncated: false });
});

Deno.test("TOOLS-COMMON utf8ByteLength agrees with TextEncoder, lone surrogates included", () => {
  for (const s of ["", "abc", "é€😀", "\ud800x", "x\udc00", "a\ud83d"]) {
    assertEquals(utf8ByteLength(s), new TextEncoder().encode(s).length, JSON.stringify(s));
  }
});

Deno.test("TOOLS-COMMON a final newline ends the last line; it is not another line (1.6.0)", () => {
  assertEquals(truncateHead("a\nb\n"), {
    ...base,
    content: "a\nb\n",
    truncated: false,
    truncatedBy: null,
    totalLines: 2,
    totalBytes: 4,
    outputLines: 2,
    outputBytes: 4,
  });
  assertEquals(truncateTail("x\ny\nz\n", { maxLines: 2 }), {
    ...base,
    maxLines: 2,
    content: "y\nz",
    truncated: true,
    truncatedBy: "lines",
    totalLines: 3,
    totalBytes: 6,
    outputLines: 2,
    outputBytes: 3,
  });
  assertEquals(truncateHead("").totalLines, 0);
});

Deno.test("TOOLS-COMMON truncateLine never splits a surrogate pair (1.6.0)", () => {
  assertEquals(truncateLine("ab\u{1F600}cd", 3), { text: "ab... [truncated]", wasTruncated: true });
});
