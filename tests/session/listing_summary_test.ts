/**
 * Cheap session listing (issue 12, SES-16): the listing reads only what it shows (header, name,
 * first user message, message count, last activity) and skips tool results unread, yet lists
 * exactly what a full parse of every line gives — on every fixture session and on files built to
 * trip the skipping (lines longer than a read, torn and complete unterminated tails, CRLF, a
 * malformed first line). The per-folder listing cache serves unchanged files, reads only the
 * appended part of grown ones, and is never trusted over the files.
 */
import { strictEqual } from "node:assert/strict";
import { join } from "node:path";
import { listSessionsInDir } from "../../src/session/listing.ts";
import { LISTING_CACHE_NAME } from "../../src/session/listing_cache.ts";
import { expectSameAsFullParse } from "./support/full_listing.ts";

type Loose = Record<string, unknown>;
const FIXTURES = new URL("../fixtures/sessions/", import.meta.url).pathname;

async function withDir(fn: (dir: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "pi-list-" });
  try {
    await fn(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

async function copyFixtures(dir: string, from = FIXTURES, prefix = ""): Promise<void> {
  for await (const e of Deno.readDir(from)) {
    if (e.isDirectory) await copyFixtures(dir, join(from, e.name), `${prefix}${e.name}-`);
    else if (e.name.endsWith(".jsonl")) await Deno.copyFile(join(from, e.name), join(dir, prefix + e.name));
  }
}

Deno.test("SES-16 issue 12: the cheap listing equals a full parse on every fixture session, cold and cached", async () => {
  await withDir(async (dir) => {
    await copyFixtures(dir);
    const n = await expectSameAsFullParse(dir);
    strictEqual(n > 20, true);
    // Second listing: served from the cache written by the first.
    await Deno.stat(join(dir, LISTING_CACHE_NAME));
    await expectSameAsFullParse(dir);
  });
});

const HEADER = (id: string) =>
  JSON.stringify({ type: "session", version: 3, id, timestamp: "2026-01-01T00:00:00.000Z", cwd: "/p" });
const msg = (id: string, role: string, content: unknown, timestamp: number, extra: Loose = {}) =>
  JSON.stringify({
    type: "message",
    id,
    parentId: null,
    timestamp: "2026-01-01T00:00:01.000Z",
    message: { role, content, timestamp, ...extra },
  });
const tool = (id: string, size: number) =>
  msg(id, "toolResult", [{ type: "text", text: `"q" \\ ${"t".repeat(size)}` }], 5, {
    toolCallId: "c",
    toolName: "read",
    isError: false,
  });

Deno.test("SES-16 issue 12: long skipped lines, torn and unterminated tails, CRLF and odd first lines list as a full parse", async () => {
  await withDir(async (dir) => {
    const big = 700_000; // longer than a read chunk: the skipped line spans several reads
    const files: Record<string, string> = {
      "long-tools.jsonl": [
        HEADER("a"),
        tool("1", big),
        msg("2", "user", "after the big one", 10),
        tool("3", 300),
        "",
      ].join("\n"),
      "torn-tool-tail.jsonl": [
        HEADER("b"),
        msg("1", "user", [{ type: "text", text: "q" }], 3),
        tool("2", big).slice(0, 500_000),
      ].join("\n"),
      "complete-tool-tail.jsonl": [HEADER("c"), msg("1", "user", "q", 3), tool("2", big)].join("\n"),
      "short-torn-tail.jsonl": [HEADER("d"), msg("1", "user", "q", 3), tool("2", 10).slice(0, 60)].join("\n"),
      "big-user.jsonl": [
        HEADER("e"),
        tool("0", 100),
        msg("1", "user", [{ type: "text", text: "é".repeat(90_000) }], 4),
        msg("2", "assistant", [{ type: "text", text: "a" }], 99),
      ].join("\n") + "\n",
      "crlf.jsonl": [
        HEADER("f"),
        msg("1", "user", "crlf", 7),
        JSON.stringify({ type: "session_info", id: "9", parentId: null, timestamp: "t", name: " Named " }),
        tool("2", 400),
        "",
      ].join("\r\n"),
      "malformed-first.jsonl": [
        "{not json",
        "",
        HEADER("g"),
        msg("1", "user", "x", 1),
        '{"type":"message","id":"2"',
        "",
      ].join("\n"),
      "not-a-session.jsonl": ['{"type":"message","id":"1"}', HEADER("h"), ""].join("\n"),
      "name-cleared.jsonl": [
        HEADER("i"),
        JSON.stringify({ type: "session_info", id: "1", parentId: null, timestamp: "t", name: "A" }),
        JSON.stringify({ type: "session_info", id: "2", parentId: "1", timestamp: "t", name: "" }),
        "",
      ].join("\n"),
      "empty.jsonl": "",
    };
    for (const [name, text] of Object.entries(files)) await Deno.writeTextFile(join(dir, name), text);
    strictEqual(await expectSameAsFullParse(dir), Object.keys(files).length);
    const infos = await listSessionsInDir(dir);
    strictEqual(infos.find((i) => i.id === "b")?.messageCount, 1);
    strictEqual(infos.find((i) => i.id === "c")?.messageCount, 2);
  });
});

Deno.test("SES-16 issue 12: the listing cache follows appends and replacements and survives being damaged", async () => {
  await withDir(async (dir) => {
    const path = join(dir, "s.jsonl");
    await Deno.writeTextFile(
      path,
      [HEADER("a"), msg("1", "user", "first", 1), tool("2", 5000), ""].join("\n"),
    );
    await expectSameAsFullParse(dir);
    // Another process appends a turn and a name: only the new bytes are read, the result is whole.
    await Deno.writeTextFile(
      path,
      [
        msg("3", "user", "second", 50),
        JSON.stringify({ type: "session_info", id: "4", parentId: "3", timestamp: "t", name: "grown" }),
        "",
      ].join("\n"),
      { append: true },
    );
    await expectSameAsFullParse(dir);
    strictEqual((await listSessionsInDir(dir))[0].messageCount, 3);
    // An unterminated line being written is shown, then counted once it is finished.
    await Deno.writeTextFile(path, tool("5", 100).slice(0, 40), { append: true });
    await expectSameAsFullParse(dir);
    await Deno.writeTextFile(path, tool("5", 100).slice(40) + "\n", { append: true });
    await expectSameAsFullParse(dir);
    strictEqual((await listSessionsInDir(dir))[0].messageCount, 4);
    // Rewritten in place with other content (longer): the cached prefix no longer matches.
    const text = await Deno.readTextFile(path);
    await Deno.writeTextFile(path, text.replace('"first"', '"FIRST"') + msg("6", "user", "x", 60) + "\n");
    await expectSameAsFullParse(dir);
    strictEqual((await listSessionsInDir(dir))[0].firstMessage, "FIRST");
    // A damaged cache is ignored and rewritten.
    await Deno.writeTextFile(join(dir, LISTING_CACHE_NAME), "{oops");
    await expectSameAsFullParse(dir);
    JSON.parse(await Deno.readTextFile(join(dir, LISTING_CACHE_NAME)));
  });
});
