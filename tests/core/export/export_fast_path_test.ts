/**
 * The fast file export (lines copied into the page, src/core/export/session_file_data.ts) writes
 * exactly the page and warnings of the straightforward one (SessionManager.open + JSON.stringify):
 * on every fixture session and on files made of awkward lines (whitespace, escapes, invalid
 * UTF-8, odd numbers, duplicate and numeric keys, torn and blank lines, old versions).
 */
import { join } from "node:path";
import { assert, assertEquals, assertRejects } from "../../support/assert.ts";
import { fixtureFiles } from "../../session/support/fixture_files.ts";
import {
  exportSessionFileStraight,
  exportSessionFileToHtml,
  type SessionExportData,
  writeSessionData,
} from "../../../src/core/export/export_html.ts";
import { CanonicalLineScanner } from "../../../src/core/export/canonical_json.ts";
import { base64Of, Base64Sink } from "../../../src/core/export/base64_sink.ts";

const FIXTURES = new URL("../../fixtures/", import.meta.url).pathname;
const enc = new TextEncoder();

interface Outcome {
  page?: Uint8Array;
  warnings?: string[];
  error?: string;
  /** The session file afterwards (the straightforward way may migrate it). */
  session: Uint8Array;
}

/** Exports `content` as `<dir>/session.jsonl` one way, from a fresh copy each time. */
function exportOnce(dir: string, content: Uint8Array, fast: boolean): Outcome {
  for (const e of Deno.readDirSync(dir)) Deno.removeSync(join(dir, e.name));
  const file = join(dir, "session.jsonl");
  const out = join(dir, "page.html");
  Deno.writeFileSync(file, content);
  try {
    const result = (fast ? exportSessionFileToHtml : exportSessionFileStraight)(file, out);
    assertEquals(result.path, out);
    return { page: Deno.readFileSync(out), warnings: result.warnings, session: Deno.readFileSync(file) };
  } catch (error) {
    let written = false;
    try {
      Deno.statSync(out);
      written = true;
    } catch { /* not written: as it should be */ }
    return {
      error: `${(error as Error).message}${written ? " (page written)" : ""}`,
      session: Deno.readFileSync(file),
    };
  }
}

function assertSameExport(dir: string, content: Uint8Array, label: string): Outcome {
  const fast = exportOnce(dir, content, true);
  const straight = exportOnce(dir, content, false);
  assertEquals(fast.error, straight.error, `${label}: error`);
  assertEquals(fast.warnings, straight.warnings, `${label}: warnings`);
  if (!sameBytes(straight.session, content)) {
    // The load rewrote the file (a v1 file's entries get random ids, a blank one a fresh header).
    assertEquals(withNumberedIds(fast, fast.session), withNumberedIds(straight, straight.session), label);
    return fast;
  }
  assert(sameBytes(fast.session, content), `${label}: the fast way changed the session file`);
  assert(fast.page?.length === straight.page?.length, `${label}: page length`);
  if (fast.page && straight.page) assert(sameBytes(fast.page, straight.page), `${label}: the pages differ`);
  return fast;
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

/** The outcome's page and session texts with each id (and the header's time) replaced by its number. */
function withNumberedIds(outcome: Outcome, session: Uint8Array): string[] {
  let text = new TextDecoder().decode(session);
  const page = outcome.page ? new TextDecoder().decode(outcome.page) : "";
  const open = '<script id="session-data" type="application/json">';
  const at = page.indexOf(open) + open.length;
  const end = page.indexOf("</script>", at);
  let data = outcome.page ? JSON.stringify(sessionData(outcome.page)) : "";
  // A blank file gets a header with a new id and time; a v1 file's entries get new ids.
  const lines = text.split("\n").filter((l) => l.trim()).map((l) => JSON.parse(l));
  const ids = [...lines.map((l) => l.id as string), lines[0]?.timestamp as string];
  for (const [n, id] of ids.entries()) {
    text = text.replaceAll(`"${id}"`, `"#${n}"`);
    data = data.replaceAll(`"${id}"`, `"#${n}"`);
  }
  return [page.slice(0, at), page.slice(end), data, text];
}

/** The session data of a page, decoded. */
function sessionData(page: Uint8Array): Record<string, unknown> {
  const text = new TextDecoder().decode(page);
  const open = '<script id="session-data" type="application/json">';
  const at = text.indexOf(open) + open.length;
  const b64 = text.slice(at, text.indexOf("</script>", at));
  return JSON.parse(new TextDecoder().decode(Uint8Array.from(atob(b64), (c) => c.charCodeAt(0))));
}

Deno.test("HTML-02 CLI-11 the fast export writes the same page and warnings as the straightforward one for every fixture session", async () => {
  const files = [
    ...await fixtureFiles(),
    join(FIXTURES, "export", "rich.jsonl"),
  ];
  assert(files.length >= 20, `only ${files.length} fixture sessions found`);
  const dir = await Deno.makeTempDir();
  try {
    for (const file of files) assertSameExport(dir, Deno.readFileSync(file), file);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

const HEADER = '{"type":"session","version":3,"id":"019ad000-0000-7000-8000-000000000001",' +
  '"timestamp":"2026-01-01T00:00:00.000Z","cwd":"/example/project"}';

function entry(id: string, parentId: string | null, extra: string): string {
  return `{"type":"custom","id":"${id}","parentId":${parentId === null ? "null" : `"${id.slice(0, -1)}a"`},` +
    `"timestamp":"2026-01-01T00:00:01.000Z"${extra}}`;
}

/** Lines JSON.stringify would write differently, lines the load skips, and lines it keeps as they are. */
const AWKWARD_LINES: string[] = [
  entry("e1", null, ',"customType":"plain","data":{"text":"ünïcödé ✓ 😀 \\" \\\\ \\n \\t \\u001b \\u0000"}}'),
  `{ "type": "custom", "id": "e2", "parentId": null, "data": 1 }`,
  entry("e3", null, ',"data":"caf\\u00e9 \\/ \\u001B \\ud83d\\ude00"'),
  entry("e4", null, ',"data":"lone \\ud800 surrogate \\udc00"'),
  entry(
    "e5",
    null,
    ',"data":[1.0,1e3,-0,0.1,12345678901234567890,1.5e-7,-12,0,1E2,100000000000000000000000]',
  ),
  entry("e6", null, ',"data":{"a":1,"a":2,"b":{"c":1,"c":{"d":3}}}'),
  entry("e7", null, ',"data":{"b":1,"2":2,"1":1,"01":3}'),
  entry("e8", null, ',"data":{"__proto__":{"x":1},"y":2}'),
  entry("e9", null, ',"data":true') + "\r",
  "\uFEFF" + entry("e10", null, ',"data":null'),
  "",
  "   ",
  " ".repeat(80),
  "\u00a0\u00a0",
  "[1,2,3]",
  '"just a string"',
  "{not json",
  entry("e11", null, ',"data":"raw\ttab"'),
  '{"type":"session","version":3,"id":"later-header","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/"}',
  entry("e12", null, `,"data":${"[".repeat(300)}${"]".repeat(300)}`),
  entry("e13", null, `,"data":{${Array.from({ length: 200 }, (_, i) => `"k${i}":${i}`).join(",")}}`),
  entry("e14", null, ',"data":{"":1,"x":[],"y":{},"z":[{}],"w":false}'),
  entry("e15", null, ',"data":"\u2028\u2029 \u007f"'),
  '{"type":"custom","id":7,"parentId":null,"data":"numeric id"}',
  // Long lines, whose big values the session loader reads lazily.
  entry("L1", null, `,"data":{"text":"${'ü \\"q\\" \\n'.repeat(800)}","n":[${"1,".repeat(500)}2]}`),
  entry("L2", null, `,"data":{"text":"${"caf\\u00e9 ".repeat(800)}"}`),
  entry("L3", null, `,"data":{"text":"${"x".repeat(3000)}\traw tab"}`),
  entry("L4", null, `,"data":{"text":"${"x".repeat(3000)}", "spaced": true}`),
];

/** Lines as bytes, with some invalid UTF-8 spliced into strings. */
async function awkwardFile(lines: string[], tail: string): Promise<Uint8Array> {
  const parts: Uint8Array<ArrayBuffer>[] = [enc.encode(HEADER + "\n")];
  for (const line of lines) parts.push(enc.encode(line + "\n"));
  // Invalid UTF-8: a lone continuation byte, an overlong form, a UTF-16 surrogate, a cut sequence.
  for (const [i, bad] of [[0x80], [0xc0, 0xaf], [0xed, 0xa0, 0x80], [0xe2, 0x82]].entries()) {
    const [a, b] = entry(`u${i}`, null, ',"data":"x@y"').split("@");
    parts.push(enc.encode(a), new Uint8Array(bad), enc.encode(b + "\n"));
  }
  parts.push(enc.encode(tail));
  return new Uint8Array(await new Blob(parts).arrayBuffer());
}

Deno.test("HTML-02 CLI-11 awkward lines: the fast export equals the straightforward one, however each line is written", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const tails = [
      "", // Ends with a newline.
      entry("t1", null, ',"data":"torn"').slice(0, -4), // A torn last line: skipped with a warning.
      entry("t2", null, ',"data":"unterminated but whole"'), // Kept.
      '{"type":"custom","parentId":null,"data":"the last entry has no id"}\n', // No leafId.
      '{"type":"custom","id":{"odd":1},"parentId":null}\n',
    ];
    for (const [i, tail] of tails.entries()) {
      const outcome = assertSameExport(dir, await awkwardFile(AWKWARD_LINES, tail), `tail ${i}`);
      assert(outcome.warnings && outcome.warnings.length >= 5, `tail ${i}: warnings ${outcome.warnings}`);
    }
    // Each line alone after the header too (so every one is also the first and the last entry).
    for (const line of AWKWARD_LINES) assertSameExport(dir, enc.encode(`${HEADER}\n${line}\n`), line);
    // The leaf is the last entry's id; with no entry it is null; without an id the page has none.
    const data = sessionData(assertSameExport(dir, enc.encode(`${HEADER}\n`), "header only").page!);
    assertEquals(data.leafId, null);
    assertEquals(data.entries, []);
    const noId = assertSameExport(dir, await awkwardFile([], tails[3]), "no id").page!;
    assertEquals("leafId" in sessionData(noId), false);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("CLI-11 files the load must change or refuse take the straightforward way: old versions, blank files, no header", async () => {
  const dir = await Deno.makeTempDir();
  try {
    for (const name of ["v1.jsonl", "v2.jsonl"]) {
      const content = Deno.readFileSync(join(FIXTURES, "sessions", name));
      const outcome = assertSameExport(dir, content, name);
      // The load migrated the file, both ways alike.
      assert(outcome.session.length !== content.length, `${name} was not migrated`);
    }
    for (
      const [label, text] of [
        ["blank", "\n  \n"],
        ["empty", ""],
        ["no header", `${entry("e1", null, "")}\n`],
        ["header without id", '{"type":"session","version":3}\n'],
        ["header of another version", HEADER.replace('"version":3', '"version":4') + "\n"],
        ["string version", HEADER.replace('"version":3', '"version":"3"') + "\n"],
        ["header after a bad line", `{oops\n${HEADER}\n`],
        ["header with spaces", HEADER.replaceAll(",", ", ") + "\n" + entry("e1", null, "") + "\n"],
      ] as const
    ) assertSameExport(dir, enc.encode(text), label);
    const refused = exportOnce(dir, enc.encode(`${entry("e1", null, "")}\n`), true);
    assert(refused.error?.startsWith("Not a valid session file"), refused.error);
    assert(!refused.error?.includes("page written"), "a refused file must not leave a page");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("HTML-02 the canonical-line scan accepts what JSON.stringify writes and only lines that round-trip", () => {
  const scanner = new CanonicalLineScanner();
  const accepts = (line: string) => {
    const bytes = enc.encode(line + "\n");
    return scanner.scan(bytes, 0, bytes.length - 1);
  };
  // A seeded generator of values: every JSON.stringify output is accepted.
  let seed = 12345;
  const random = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32;
  const pick = <T>(xs: T[]) => xs[Math.floor(random() * xs.length)];
  const strings = [
    "",
    "a",
    "ü",
    "😀",
    '"',
    "\\",
    "\n",
    "\u0001",
    "\u001f",
    "\u007f",
    "\u2028",
    "/",
    "\ud800",
    "x y",
  ];
  const value = (depth: number): unknown => {
    const kind = Math.floor(random() * (depth > 3 ? 4 : 6));
    if (kind === 0) return pick([0, -1, 1.5, 1e21, 1e-7, 123456789012345, 2 ** 53 + 2, -0.25, 0.1 + 0.2]);
    if (kind === 1) return Array.from({ length: 3 }, () => pick(strings)).join("");
    if (kind === 2) return pick([true, false, null]);
    if (kind === 3) return pick(strings);
    if (kind === 4) return Array.from({ length: Math.floor(random() * 4) }, () => value(depth + 1));
    const o: Record<string, unknown> = {};
    for (let k = 0; k < random() * 5; k++) {
      o[pick(["a", "b", "type", "id", "ü", "k\n", "a1"]) + k] = value(depth + 1);
    }
    return o;
  };
  for (let i = 0; i < 2000; i++) {
    const line = JSON.stringify({ type: "custom", id: `x${i}`, data: value(0) });
    const lone = /\\ud[89a-f]/.test(line); // Lone surrogates are escaped; the scan leaves them to JSON.parse.
    assertEquals(accepts(line), !lone, line);
    // Every accepted variant round-trips: whitespace, other escapes, other number forms.
    for (
      const variant of [
        line.replace(/,/g, ", "),
        line.replace(/\\n/g, "\\u000a"),
        line.replace(/ü/g, "\\u00fc"),
        line.replace(/(\d)(,|\]|\})/, "$1.0$2"),
        line.replace(/\\u00([01])/g, "\\u00$1".toUpperCase()),
        line.replace('"data":', '"data":1,"data":'),
      ]
    ) if (accepts(variant)) assertEquals(JSON.stringify(JSON.parse(variant)), variant, variant);
  }
  // Every entry of the fixture sessions that round-trips is copied, not re-serialised.
  for (const name of ["branched.jsonl", "compacted.jsonl", "edits.jsonl", "labels.jsonl"]) {
    for (const line of Deno.readTextFileSync(join(FIXTURES, "sessions", name)).split("\n")) {
      if (line && JSON.stringify(JSON.parse(line)) === line) assert(accepts(line), `${name}: ${line}`);
    }
  }
});

Deno.test("HTML-02 the base64 sink writes what one base64 of everything would be, in any pieces", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = join(dir, "out.txt");
    // Pieces around the sink's 3 MiB step and its text step, with a surrogate pair on the cut.
    const bigText = "a".repeat((3 << 18) - 1) + "😀" + "é".repeat(1000);
    const bytes = new Uint8Array((3 << 20) + 7).map((_, i) => (i * 31) & 0xff);
    const pieces: (string | Uint8Array<ArrayBuffer>)[] = [
      "{",
      bytes.subarray(0, 5),
      bigText,
      bytes,
      "ü",
      bytes.subarray(1, 2),
      "",
    ];
    const file = Deno.openSync(path, { write: true, create: true, truncate: true });
    const sink = new Base64Sink(file);
    for (const p of pieces) typeof p === "string" ? sink.writeText(p) : sink.write(p);
    sink.finish();
    file.close();
    const all = new Uint8Array(await new Blob(pieces).arrayBuffer());
    assertEquals(await Deno.readTextFile(path), base64Of(all));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("CLI-11 the fast export of a missing file is the same error, and writes nothing", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const missing = join(dir, "missing.jsonl");
    await assertRejects(
      () => Promise.resolve().then(() => exportSessionFileToHtml(missing, join(dir, "p.html"))),
      `File not found: ${missing}`,
    );
    assertEquals([...Deno.readDirSync(dir)].length, 0);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("RPC-21 HTML-02 a live session's data is written entry by entry as the very text of JSON.stringify", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const header = JSON.parse(HEADER);
    const entries = AWKWARD_LINES.flatMap((l) => {
      try {
        return [JSON.parse(l)];
      } catch {
        return [];
      }
    });
    const cases: SessionExportData[] = [
      { header, entries, leafId: "e2" },
      { header, entries: [], leafId: null },
      { header: null, entries, leafId: null, systemPrompt: "You are pi. ü 😀", tools: [{ name: "read" }] },
      { header, entries, leafId: "x", systemPrompt: undefined, tools: undefined },
    ];
    for (const data of cases) {
      const path = join(dir, "data.txt");
      const file = Deno.openSync(path, { write: true, create: true, truncate: true });
      const sink = new Base64Sink(file);
      writeSessionData(sink, data);
      sink.finish();
      file.close();
      assertEquals(await Deno.readTextFile(path), base64Of(enc.encode(JSON.stringify(data))));
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
