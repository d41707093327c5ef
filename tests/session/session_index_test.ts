/**
 * The session index (issue 12, SES-08): `<session>.jsonl.idx` lets a resume skip scanning the
 * session's bytes. What a read through the index gives must equal a full read — entries (keys,
 * order, values), warnings, torn-tail state — on every fixture session, cold (no index: the scan
 * writes one) and warm (from the index); a file appended by another process after the index was
 * written is read through the index plus the appended bytes; a stale, corrupt or deleted index
 * is ignored (and rewritten) without losing anything; a torn last line is never indexed.
 */
import { deepStrictEqual as assertEquals, strictEqual } from "node:assert/strict";
import { join } from "node:path";
import { fixtureFiles } from "./support/fixture_files.ts";
import { readSessionFile } from "../../src/session/session_file.ts";
import {
  type IndexedReadOptions,
  readSessionFileIndexed,
  sessionIndexPath,
} from "../../src/session/session_index.ts";
import { messageRole } from "../../src/session/entry_stubs.ts";
import { writeBigSession } from "../../scripts/bench/session_gen.ts";

/** Entry stubs as resume makes them (settings, labels and names kept whole). */
const SHALLOW: IndexedReadOptions = {};
/** Every entry that can be a stub is one (the header, labels and settings too). */
const SHALLOW_ALL: IndexedReadOptions = { stubAll: true };
/** Write an index after any scan, however small. */
const ALWAYS = { minScanBytes: 1 };

/** A load as text: every entry serialised (reading every deferred value), keys, warnings, state. */
function view(loaded: ReturnType<typeof readSessionFile> | ReturnType<typeof readSessionFileIndexed>) {
  return {
    lines: loaded.entries.map((e) => JSON.stringify(e)),
    keys: loaded.entries.map((e) => Object.keys(e).join(",")),
    warnings: loaded.warnings,
    endsWithNewline: loaded.endsWithNewline,
    blank: loaded.blank,
  };
}

const full = (path: string) => view(readSessionFile(path));

async function inTempDir(fn: (dir: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "pi-index-" });
  try {
    await fn(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/** A generated session (big tool results, a compaction) of about 1.5 MB. */
async function bigSession(path: string): Promise<void> {
  await writeBigSession(path, { messages: 800, toolBytes: 6000, cwd: "/p", provider: "fake", model: "m" });
}

/** Appends `text` to `path` from another process (`sh`), as a second pi would. */
async function appendFromAnotherProcess(path: string, text: string): Promise<void> {
  const child = new Deno.Command("sh", {
    args: ["-c", 'printf "%s" "$TEXT" >> "$FILE"'],
    env: { TEXT: text, FILE: path },
    stdout: "null",
    stderr: "piped",
  });
  const out = await child.output();
  strictEqual(out.code, 0, new TextDecoder().decode(out.stderr));
}

/** Two entries continuing the session after `parentId`. */
function continuation(parentId: string, text: string): string {
  const user = {
    type: "message",
    id: "aaaa0001",
    parentId,
    timestamp: "2026-01-02T00:00:00.000Z",
    message: { role: "user", content: [{ type: "text", text }], timestamp: 1767312000000 },
  };
  const answer = {
    type: "message",
    id: "aaaa0002",
    parentId: "aaaa0001",
    timestamp: "2026-01-02T00:00:01.000Z",
    message: {
      role: "assistant",
      content: [{ type: "text", text: `re: ${text}` }],
      timestamp: 1767312000001,
    },
  };
  return `${JSON.stringify(user)}\n${JSON.stringify(answer)}\n`;
}

function lastId(path: string): string {
  const entries = readSessionFile(path).entries as unknown as { id: string }[];
  return entries[entries.length - 1].id;
}

Deno.test("SES-08 issue 12: reads through the session index equal a full read on every fixture session, cold and warm", async () => {
  const files = await fixtureFiles();
  strictEqual(files.length > 20, true, `fixtures found: ${files.length}`);
  await inTempDir(async (dir) => {
    for (const fixture of files) {
      for (const lazy of [SHALLOW, SHALLOW_ALL]) {
        const path = join(dir, "s.jsonl");
        await Deno.copyFile(fixture, path);
        await Deno.remove(sessionIndexPath(path)).catch(() => {});
        const expected = full(path);
        const cold = readSessionFileIndexed(path, lazy, ALWAYS);
        assertEquals(view(cold), expected, `${fixture} (cold)`);
        assertEquals([cold.stats.index, cold.stats.wrote], ["none", true], fixture);
        const warm = readSessionFileIndexed(path, lazy, ALWAYS);
        assertEquals(view(warm), expected, `${fixture} (warm)`);
        strictEqual(warm.stats.index, "used", fixture);
        // Only a last line without `\n` (a torn write) is read again; indexed lines are not.
        const text = await Deno.readTextFile(path);
        strictEqual(
          warm.stats.scannedBytes,
          new TextEncoder().encode(text.slice(text.lastIndexOf("\n") + 1)).length,
        );
        strictEqual(warm.stats.wrote, false, fixture);
      }
    }
  });
});

Deno.test("SES-08 issue 12: a big session is indexed by default; the next read scans nothing and equals a full read", async () => {
  await inTempDir(async (dir) => {
    const path = join(dir, "big.jsonl");
    await bigSession(path);
    const size = (await Deno.stat(path)).size;
    strictEqual(size > 1 << 20, true);
    const expected = full(path);
    const cold = readSessionFileIndexed(path, SHALLOW);
    assertEquals(cold.stats, { index: "none", scannedBytes: size, wrote: true });
    assertEquals(view(cold), expected);
    // The index holds the small fields and offsets, not the content.
    strictEqual((await Deno.stat(sessionIndexPath(path))).size < size / 4, true);
    const warm = readSessionFileIndexed(path, SHALLOW);
    assertEquals(warm.stats, { index: "used", scannedBytes: 0, wrote: false });
    assertEquals(view(warm), expected);
  });
});

Deno.test("SES-08 issue 12: a session appended by another process after its index was written: the index plus the new lines", async () => {
  await inTempDir(async (dir) => {
    const path = join(dir, "big.jsonl");
    await bigSession(path);
    readSessionFileIndexed(path, SHALLOW);
    const indexBytes = await Deno.readFile(sessionIndexPath(path));
    const extra = continuation(lastId(path), "appended by another pi");
    await appendFromAnotherProcess(path, extra);
    const warm = readSessionFileIndexed(path, SHALLOW);
    assertEquals(warm.stats, {
      index: "used",
      scannedBytes: new TextEncoder().encode(extra).length,
      wrote: false,
    });
    assertEquals(view(warm), full(path));
    // A small appended part does not rewrite the index.
    assertEquals(await Deno.readFile(sessionIndexPath(path)), indexBytes);
  });
});

Deno.test("SES-08 issue 12: deferred values still read right when another process appends after the indexed load", async () => {
  await inTempDir(async (dir) => {
    const path = join(dir, "big.jsonl");
    await bigSession(path);
    readSessionFileIndexed(path, SHALLOW);
    const expected = full(path);
    const warm = readSessionFileIndexed(path, SHALLOW);
    strictEqual(warm.stats.index, "used");
    await appendFromAnotherProcess(path, continuation(lastId(path), "late"));
    assertEquals(view(warm), expected);
  });
});

Deno.test("SES-08 issue 12: a stale session index (the file rewritten, cut or replaced) is ignored and rewritten", async () => {
  await inTempDir(async (dir) => {
    const path = join(dir, "big.jsonl");
    const other = join(dir, "other.jsonl");
    await bigSession(path);
    await writeBigSession(other, {
      messages: 800,
      toolBytes: 6000,
      cwd: "/elsewhere",
      provider: "fake",
      model: "m",
      id: "019ad000-0000-7000-8000-0000000000ff",
    });
    readSessionFileIndexed(path, SHALLOW);
    const index = await Deno.readFile(sessionIndexPath(path));
    const original = await Deno.readFile(path);
    const changes: [string, () => Promise<void>][] = [
      ["another session's bytes", () => Deno.copyFile(other, path)],
      ["cut to half its lines", async () => {
        const text = new TextDecoder().decode(original);
        const lines = text.split("\n");
        await Deno.writeTextFile(path, lines.slice(0, lines.length / 2).join("\n") + "\n");
      }],
      ["rewritten with the same size but other tail bytes", async () => {
        const copy = original.slice();
        // The last entry's timestamp: another digit (same length, still valid JSON).
        let at = copy.length - 1;
        while (copy[at] < 0x30 || copy[at] > 0x39) at--;
        copy[at] = copy[at] === 0x30 ? 0x31 : 0x30;
        await Deno.writeFile(path, copy);
      }],
      ["rewritten then appended to (bigger, other start)", async () => {
        await Deno.copyFile(other, path);
        await appendFromAnotherProcess(path, continuation(lastId(path), "more"));
      }],
    ];
    for (const [name, change] of changes) {
      await Deno.writeFile(sessionIndexPath(path), index);
      await change();
      const read = readSessionFileIndexed(path, SHALLOW, ALWAYS);
      strictEqual(read.stats.index, "invalid", name);
      strictEqual(read.stats.wrote, true, name);
      assertEquals(view(read), full(path), name);
      strictEqual(readSessionFileIndexed(path, SHALLOW, ALWAYS).stats.index, "used", `${name}: rewritten`);
      await Deno.writeFile(path, original);
    }
  });
});

Deno.test("SES-08 issue 12: a corrupt or deleted session index loses nothing: the session is scanned and indexed again", async () => {
  await inTempDir(async (dir) => {
    const path = join(dir, "big.jsonl");
    await bigSession(path);
    const expected = full(path);
    readSessionFileIndexed(path, SHALLOW);
    const good = await Deno.readFile(sessionIndexPath(path));
    const flipped = (at: number) => {
      const copy = good.slice();
      copy[at] ^= 0x01;
      return copy;
    };
    const metaEnd = good.indexOf(0x0a);
    const text = new TextDecoder().decode(good.subarray(0, metaEnd));
    const corruptions: [string, Uint8Array | string][] = [
      ["garbage", "not an index\n"],
      ["empty", ""],
      ["cut in half", good.slice(0, good.length / 2)],
      ["its last 8 bytes (checksum) missing", good.slice(0, good.length - 8)],
      ["a byte changed in the columns", flipped(Math.floor((metaEnd + good.length) / 2))],
      ["a byte changed in the strings", flipped(good.length - 64)],
      ["a byte changed in the meta line", flipped(Math.floor(metaEnd / 2))],
      [
        "another format version",
        new Uint8Array([
          ...new TextEncoder().encode(text.replace('"piSessionIndex":2', '"piSessionIndex":9')),
          ...good.subarray(metaEnd),
        ]),
      ],
      [
        "the earlier text format",
        '{"piSessionIndex":1,"size":10,"lines":1,"blank":false,"entries":0,"warnings":[],"check":[]}\n{"end":0,"hash":0}\n',
      ],
      ["a folder", "FOLDER"],
    ];
    for (const [name, bytes] of corruptions) {
      await Deno.remove(sessionIndexPath(path), { recursive: true }).catch(() => {});
      if (bytes === "FOLDER") await Deno.mkdir(sessionIndexPath(path));
      else if (typeof bytes === "string") await Deno.writeTextFile(sessionIndexPath(path), bytes);
      else await Deno.writeFile(sessionIndexPath(path), bytes);
      const read = readSessionFileIndexed(path, SHALLOW);
      strictEqual(read.stats.index, "invalid", name);
      assertEquals(view(read), expected, name);
      if (bytes !== "FOLDER") {
        strictEqual(read.stats.wrote, true, name);
        assertEquals(await Deno.readFile(sessionIndexPath(path)), good, `${name}: rewritten`);
      }
    }
    await Deno.remove(sessionIndexPath(path), { recursive: true });
    const read = readSessionFileIndexed(path, SHALLOW);
    assertEquals([read.stats.index, read.stats.wrote], ["none", true]);
    assertEquals(view(read), expected);
    // No temp file is left next to the session.
    const names = [];
    for await (const e of Deno.readDir(dir)) names.push(e.name);
    assertEquals(names.sort(), ["big.jsonl", "big.jsonl.idx"]);
  });
});

Deno.test("SES-08 issue 12: a torn last line is never indexed: it is warned about each time, and read once completed", async () => {
  await inTempDir(async (dir) => {
    const path = join(dir, "big.jsonl");
    await bigSession(path);
    const line = continuation(lastId(path), "torn").split("\n")[0];
    const cut = Math.floor(line.length / 2);
    await appendFromAnotherProcess(path, line.slice(0, cut));
    const torn = full(path);
    strictEqual(torn.warnings.length, 1);
    strictEqual(torn.warnings[0].includes("ignored incomplete last line"), true);
    const cold = readSessionFileIndexed(path, SHALLOW);
    assertEquals(view(cold), torn);
    const warm = readSessionFileIndexed(path, SHALLOW);
    assertEquals([warm.stats.index, warm.stats.scannedBytes], ["used", cut]);
    assertEquals(view(warm), torn);
    // Another process finishes the line: the entry is there, without a warning.
    await appendFromAnotherProcess(path, `${line.slice(cut)}\n`);
    const done = readSessionFileIndexed(path, SHALLOW);
    strictEqual(done.stats.index, "used");
    assertEquals(view(done), full(path));
    assertEquals(done.warnings, []);
    strictEqual(done.entries.length, torn.lines.length + 1);
  });
});

Deno.test("SES-08 issue 12: resumed entries are stubs: roles without reading a line, bodies read from the file on first use", async () => {
  await inTempDir(async (dir) => {
    const path = join(dir, "big.jsonl");
    await bigSession(path);
    readSessionFileIndexed(path, SHALLOW);
    const warm = readSessionFileIndexed(path, SHALLOW);
    strictEqual(warm.stats.index, "used");
    const entries = warm.entries as unknown as Record<string, unknown>[];
    const at = entries.findIndex((e) => e.type === "message" && messageRole(e) === "toolResult");
    const entry = entries[at];
    // Nothing of the message was read yet: `message` is still the accessor that makes it.
    strictEqual(typeof Object.getOwnPropertyDescriptor(entry, "message")?.get, "function");
    assertEquals(Object.keys(entry), ["type", "id", "parentId", "timestamp", "message"]);
    // The line is read when the body is used: change its text in place (same length) first.
    const bytes = await Deno.readFile(path);
    const text = new TextDecoder().decode(bytes);
    const line = text.split("\n").find((l) => l.includes(`"id":"${entry.id}"`))!;
    const changed = line.replace("const x = 1", "const y = 2");
    strictEqual(changed.length, line.length);
    await Deno.writeFile(path, new TextEncoder().encode(text.replace(line, changed)));
    const message = entry.message as { role: string; content: { text: string }[] };
    strictEqual(message.role, "toolResult");
    strictEqual(message.content[0].text.includes("const y = 2"), true);
    assertEquals(JSON.stringify(entry), changed);
  });
});

Deno.test("SES-08 issue 12: a session file replaced after a resume: a stub's first read names the file and line", async () => {
  await inTempDir(async (dir) => {
    const path = join(dir, "big.jsonl");
    await bigSession(path);
    readSessionFileIndexed(path, SHALLOW);
    const warm = readSessionFileIndexed(path, SHALLOW);
    const entries = warm.entries as unknown as Record<string, unknown>[];
    const last = entries[entries.length - 1];
    await Deno.copyFile(path, `${path}.copy`);
    await Deno.rename(`${path}.copy`, path);
    let error: Error | undefined;
    try {
      JSON.stringify(last);
    } catch (e) {
      error = e as Error;
    }
    const lines = (await Deno.readTextFile(path)).trimEnd().split("\n").length;
    strictEqual(
      error?.message,
      `Session file ${path} was replaced since it was loaded (line ${lines} cannot be read); reopen the session.`,
    );
  });
});

Deno.test("SES-08 issue 12: messageRole of a resumed stub follows its message once it is made or assigned", async () => {
  await inTempDir(async (dir) => {
    const path = join(dir, "big.jsonl");
    await bigSession(path);
    readSessionFileIndexed(path, SHALLOW);
    const warm = readSessionFileIndexed(path, SHALLOW);
    strictEqual(warm.stats.index, "used");
    const entries = warm.entries as unknown as Record<string, unknown>[];
    const users = entries.filter((e) => e.type === "message" && messageRole(e) === "user");
    const [assigned, made, untouched] = users;
    assigned.message = { role: "assistant", content: [] };
    strictEqual(messageRole(assigned), "assistant");
    strictEqual((made.message as { role: string }).role, "user");
    (made.message as { role: string }).role = "custom";
    strictEqual(messageRole(made), "custom");
    strictEqual(messageRole(untouched), "user");
    // A copy is not a stub: its role is its message's.
    strictEqual(messageRole({ ...untouched }), "user");
    strictEqual(messageRole({ message: { role: "toolResult" } }), "toolResult");
  });
});
