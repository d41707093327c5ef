/**
 * Lazy session loading (issue 12): a lazy read must give exactly what a full read gives — the
 * same entries (keys, order, values), warnings, torn-tail state — on every fixture session and on
 * lines built to trip a byte scanner; deferred values are read back correctly after another
 * process appends, and a replaced file is refused with the file and line named.
 */
import { deepStrictEqual as assertEquals, match, strictEqual, throws } from "node:assert/strict";
import { join } from "node:path";
import { fixtureFiles } from "./support/fixture_files.ts";
import { readSessionFile } from "../../src/session/session_file.ts";
import { type LazyReadOptions, readSessionFileLazily } from "../../src/session/lazy_session_file.ts";

const ALL_LAZY: LazyReadOptions = { eagerLineBytes: 0, inlineValueBytes: 0 };
const MODES: [string, LazyReadOptions][] = [["default thresholds", {}], ["everything lazy", ALL_LAZY], [
  "small thresholds",
  { eagerLineBytes: 40, inlineValueBytes: 8 },
]];

/** What a load yields, as text: every entry serialised (reading every deferred value). */
function view(path: string, lazy: LazyReadOptions | false) {
  const loaded = readSessionFile(path, lazy);
  return {
    lines: loaded.entries.map((e) => JSON.stringify(e)),
    keys: loaded.entries.map((e) => Object.keys(e).join(",")),
    warnings: loaded.warnings,
    endsWithNewline: loaded.endsWithNewline,
    blank: loaded.blank,
    header: JSON.stringify(loaded.header),
  };
}

Deno.test("SES-08 issue 12: a lazy read equals a full read on every fixture session", async () => {
  const files = await fixtureFiles();
  strictEqual(files.length > 20, true, `fixtures found: ${files.length}`);
  for (const file of files) {
    const full = view(file, false);
    for (const [name, options] of MODES) assertEquals(view(file, options), full, `${file} (${name})`);
  }
});

async function withFile(text: string, fn: (path: string) => void | Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "pi-lazy-" });
  try {
    const path = join(dir, "s.jsonl");
    await Deno.writeTextFile(path, text);
    await fn(path);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

const HEADER =
  '{"type":"session","version":3,"id":"019ad000-0000-7000-8000-000000000001","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/p"}';

Deno.test("SES-08 issue 12: escapes, odd spacing, odd keys and torn lines read the same lazily", async () => {
  const big = "x".repeat(3000);
  const lines = [
    HEADER,
    // Escaped backslashes right before a closing quote, escaped quotes, braces inside strings.
    JSON.stringify({
      type: "custom",
      id: "a1",
      parentId: null,
      timestamp: "t",
      data: { s: `\\${big}\\`, q: `"}]{[${big}"` },
    }),
    // Spaces, tabs and CR around every token; a `__proto__` key; duplicate keys (the last wins).
    ` { "type" : "custom" ,\t"id":"a2", "parentId" : "a1" , "timestamp":"t", "__proto__": {"x": "${big}"}, "data" : [ 1 , 2 , "${big}" ] , "data": {"k": [true, false, null, -1.5e3, "${big}"]} }\r`,
    // Non-ASCII text, surrogate pairs and \\u escapes.
    JSON.stringify({
      type: "message",
      id: "a3",
      parentId: "a2",
      timestamp: "t",
      message: { role: "user", content: [{ type: "text", text: `é€😀 \u2028 ${big}` }], timestamp: 1 },
    }),
    // Not an object; malformed (a bad scalar inside a big line); a string that never closes.
    `["${big}"]`,
    `{"type":"custom","id":"a4","parentId":"a3","timestamp":"t","data":{"n": 01, "s": "${big}"}}`,
    `{"type":"custom","id":"a5","parentId":"a3","timestamp":"t","data":"${big}`,
    "   ",
    JSON.stringify({ type: "label", id: "a6", parentId: "a3", timestamp: "t", targetId: "a3", label: "ok" }),
    // A torn last line, cut inside a big string.
    `{"type":"custom","id":"a7","parentId":"a6","timestamp":"t","data":"${big.slice(0, 2500)}`,
  ];
  await withFile(lines.join("\n"), (path) => {
    const full = view(path, false);
    strictEqual(full.warnings.length, 4);
    strictEqual(full.endsWithNewline, false);
    for (const [name, options] of MODES) assertEquals(view(path, options), full, name);
  });
});

Deno.test("SES-08 issue 12: deferred values are read on first use, then kept as plain values", async () => {
  const text = "y".repeat(5000);
  const entry = {
    type: "message",
    id: "b1",
    parentId: null,
    timestamp: "t",
    message: {
      role: "toolResult",
      toolCallId: "c",
      toolName: "read",
      content: [{ type: "text", text }],
      isError: false,
      timestamp: 2,
    },
  };
  await withFile(`${HEADER}\n${JSON.stringify(entry)}\n`, (path) => {
    const { entries } = readSessionFileLazily(path);
    const message =
      (entries[1] as unknown as { message: { role: string; content: { text: string }[] } }).message;
    // Small fields are plain values; the big content is an accessor until read.
    strictEqual(message.role, "toolResult");
    strictEqual(typeof Object.getOwnPropertyDescriptor(message, "content")?.get, "function");
    const content = message.content;
    strictEqual(content[0].text, text);
    strictEqual(message.content, content);
    strictEqual(Object.getOwnPropertyDescriptor(message, "content")?.value, content);
    message.content = [{ text: "replaced" }];
    assertEquals(message.content, [{ text: "replaced" }]);
    strictEqual(Object.getOwnPropertyDescriptor(message, "content")?.writable, true);
  });
});

Deno.test("SES-08 issue 12: another process appending between the scan and a read changes nothing", async () => {
  const text = "z".repeat(4000);
  const entry = {
    type: "message",
    id: "b1",
    parentId: null,
    timestamp: "t",
    message: { role: "user", content: text, timestamp: 2 },
  };
  await withFile(`${HEADER}\n${JSON.stringify(entry)}\n{"type":"custom","id":"torn`, async (path) => {
    const { entries } = readSessionFileLazily(path, ALL_LAZY);
    // Another writer finishes the torn line and appends more entries.
    const more = JSON.stringify({
      ...entry,
      id: "b2",
      parentId: "b1",
      message: { ...entry.message, content: "other" },
    });
    await Deno.writeTextFile(path, `"}\n${more}\n${more}\n`, { append: true });
    assertEquals(JSON.stringify(entries[1]), JSON.stringify(entry));
    strictEqual((entries[0] as unknown as { id: string }).id, "019ad000-0000-7000-8000-000000000001");
  });
});

Deno.test("SES-08 issue 12: a file replaced after the scan is refused naming the file and line", async () => {
  const entry = {
    type: "message",
    id: "b1",
    parentId: null,
    timestamp: "t",
    message: { role: "user", content: "w".repeat(4000), timestamp: 2 },
  };
  await withFile(`${HEADER}\n${JSON.stringify(entry)}\n`, async (path) => {
    const { entries } = readSessionFileLazily(path);
    const replacement = `${path}.new`;
    await Deno.writeTextFile(replacement, `${HEADER}\n`);
    await Deno.rename(replacement, path);
    throws(
      () => (entries[1] as unknown as { message: { content: string } }).message.content,
      (error: Error) => {
        match(
          error.message,
          /was replaced since it was loaded \(line 2 cannot be read\); reopen the session\.$/,
        );
        strictEqual(error.message.includes(path), true);
        return true;
      },
    );
  });
});

Deno.test("SES-08 issue 12: a file cut short after the scan is refused naming the file and line", async () => {
  const entry = {
    type: "message",
    id: "b1",
    parentId: null,
    timestamp: "t",
    message: { role: "user", content: "v".repeat(4000), timestamp: 2 },
  };
  await withFile(`${HEADER}\n${JSON.stringify(entry)}\n`, async (path) => {
    const { entries } = readSessionFileLazily(path);
    await Deno.truncate(path, HEADER.length + 100);
    throws(
      () => (entries[1] as unknown as { message: { content: string } }).message.content,
      (error: Error) => {
        strictEqual(
          error.message,
          `Session file ${path} changed on disk since it was loaded (line 2 is no longer where it was); reopen the session.`,
        );
        return true;
      },
    );
  });
});
