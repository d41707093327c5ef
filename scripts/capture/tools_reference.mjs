// Captures the reference pi (1.6.0) read/write/edit tools' outputs on our fixtures.
//
//   <reference node> scripts/capture/tools_reference.mjs
//
// The reference is found at $PI_REFERENCE_DIR, else <repo>/.cache/reference (the folder holding
// node_modules; `deno task reference` installs it there). The script
// (1) regenerates the input files under tests/fixtures/tools/{read,write,edit}/files
// deterministically, (2) runs every case below with the reference tool in a fresh temp copy of
// those files, and (3) writes tests/fixtures/tools/<tool>/expected.json: the case list with the
// reference's content, details or error message, and the bytes of the files it left on disk.
// Temp directory paths in messages are replaced by "<DIR>"; image payloads are stored as
// sha256 + length.
import { createHash } from "node:crypto";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, "../..");
const referenceDir = process.env.PI_REFERENCE_DIR ?? join(repo, ".cache/reference");
const pkg = join(referenceDir, "node_modules/@earendil-works/pi-coding-agent");
const tools = join(pkg, "dist/core/tools");
const { createReadTool, createReadToolDefinition } = await import(join(tools, "read.js"));
const { createWriteTool, createWriteToolDefinition } = await import(join(tools, "write.js"));
const { createEditTool, createEditToolDefinition } = await import(join(tools, "edit.js"));
const photon = createRequire(join(pkg, "dist/utils/photon.js"))("@silvia-odwyer/photon-node");

// PI_TOOLS_FIXTURE_OUT writes elsewhere (tests/tools/fixtures_current_test.ts compares with the committed ones).
const fixtureRoot = process.env.PI_TOOLS_FIXTURE_OUT ?? join(repo, "tests/fixtures/tools");

// ---------- input files ----------

function pixels(w, h, seed) {
  const px = new Uint8Array(w * h * 4);
  let s = seed;
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const i = (y * w + x) * 4;
      s = (s * 1103515245 + 12345) & 0x7fffffff;
      px[i] = (x * 7 + (s & 15)) & 255;
      px[i + 1] = (y * 5 + ((s >> 4) & 15)) & 255;
      px[i + 2] = ((x ^ y) + ((s >> 8) & 31)) & 255;
      px[i + 3] = 255;
    }
  }
  return px;
}

function image(w, h, seed) {
  return new photon.PhotonImage(pixels(w, h, seed), w, h);
}

/** A JPEG with an EXIF APP1 segment carrying `orientation`, inserted right after SOI. */
function withExifOrientation(jpeg, orientation) {
  const tiff = [
    0x4d,
    0x4d,
    0x00,
    0x2a,
    0,
    0,
    0,
    8,
    0,
    1,
    0x01,
    0x12,
    0,
    3,
    0,
    0,
    0,
    1,
    0,
    orientation,
    0,
    0,
    0,
    0,
    0,
    0,
  ];
  const payload = [0x45, 0x78, 0x69, 0x66, 0, 0, ...tiff];
  const len = payload.length + 2;
  const app1 = [0xff, 0xe1, len >> 8, len & 255, ...payload];
  return Buffer.concat([Buffer.from(jpeg.subarray(0, 2)), Buffer.from(app1), Buffer.from(jpeg.subarray(2))]);
}

/** A PNG whose acTL chunk (animation control) precedes IDAT: file-type calls it image/apng. */
function apngFrom(png) {
  const b = Buffer.from(png);
  const ihdrEnd = 8 + 8 + 13 + 4;
  const actl = Buffer.from([0, 0, 0, 8, 0x61, 0x63, 0x54, 0x4c, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0]);
  return Buffer.concat([b.subarray(0, ihdrEnd), actl, b.subarray(ihdrEnd)]);
}

/** A 24-bit uncompressed BMP of w×h pixels (rows bottom-up, padded to 4 bytes). */
function bmp(w, h) {
  const row = Math.ceil((w * 3) / 4) * 4;
  const size = 54 + row * h;
  const b = Buffer.alloc(size);
  b.write("BM", 0, "ascii");
  b.writeUInt32LE(size, 2);
  b.writeUInt32LE(54, 10);
  b.writeUInt32LE(40, 14);
  b.writeInt32LE(w, 18);
  b.writeInt32LE(h, 22);
  b.writeUInt16LE(1, 26);
  b.writeUInt16LE(24, 28);
  b.writeUInt32LE(row * h, 34);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const i = 54 + y * row + x * 3;
      b[i] = (x * 80) & 255;
      b[i + 1] = (y * 120) & 255;
      b[i + 2] = 200;
    }
  }
  return b;
}

function numbered(n, width = 0) {
  return Array.from({ length: n }, (_, i) => `line ${i + 1}${"x".repeat(width)}`).join("\n");
}

const readFiles = {
  "small.txt": "alpha\nbeta\ngamma\ndelta\nepsilon\n",
  "no_trailing_newline.txt": "one\ntwo\nthree",
  "empty.txt": "",
  "unicode.txt": "héllo wörld\n日本語テキスト\nemoji 😀 here\nΩ≈ç√∫\n",
  "bom.txt": "\uFEFFfirst line after BOM\nsecond\n",
  "crlf.txt": "dos one\r\ndos two\r\ndos three\r\n",
  "tabs.txt": "\tindented\n\t\tdouble\nend\n",
  "many_lines.txt": numbered(2500) + "\n",
  "wide_lines.txt": numbered(1000, 90) + "\n",
  "long_first_line.txt": "A".repeat(60 * 1024) + "\nshort second line\n",
  "long_middle_line.txt": "first\nsecond\n" + "B".repeat(52 * 1024) + "\nlast\n",
  "exact_limit.txt": numbered(2000),
  "dir/nested.md": "# Nested\n\ncontent\n",
  "Screenshot 2024-01-01 at 10.00.00\u202FAM.txt": "macOS screenshot name\n",
  "binary.bin": Buffer.from([0x00, 0x01, 0xfe, 0xff, 0x41, 0x42, 0x0a, 0xc3, 0x28, 0x43]),
  "image.png": Buffer.from(image(3, 2, 1).get_bytes()),
  "image.jpg": Buffer.from(image(4, 3, 2).get_bytes_jpeg(80)),
  "image.webp": Buffer.from(image(5, 4, 3).get_bytes_webp()),
  "image.gif": Buffer.from("R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7", "base64"),
  "image.bmp": bmp(3, 2),
  "png_named.txt": Buffer.from(image(2, 2, 4).get_bytes()),
  "animated.png": apngFrom(image(2, 2, 5).get_bytes()),
  "wide.png": Buffer.from(image(2400, 30, 6).get_bytes()),
  "tall.jpg": Buffer.from(image(20, 2300, 7).get_bytes_jpeg(80)),
  "rotated_small.jpg": withExifOrientation(image(30, 20, 8).get_bytes_jpeg(80), 6),
  "rotated_big.jpg": withExifOrientation(image(2100, 40, 9).get_bytes_jpeg(80), 6),
};

const editFiles = {
  "simple.txt": "function greet() {\n  return 'hello';\n}\n\nconst x = 1;\nconst y = 2;\n",
  "crlf.txt": "line one\r\nline two\r\nline three\r\n",
  "bom.txt": "\uFEFFconfig = 1\nname = demo\n",
  "bom_crlf.txt": "\uFEFFa = 1\r\nb = 2\r\n",
  "fuzzy.txt": "He said \u201Chello\u201D \u2014 it\u2019s fine.   \nprice:\u00A0100\u2013200\nplain line\n",
  "unicode.txt": "café ☕\n日本語\nemoji 😀\n",
  "dupes.txt": "foo\nbar\nfoo\nbaz\nfoo\n",
  "long.txt": numbered(40) + "\n",
  "no_trailing_newline.txt": "first\nsecond\nlast",
  "mixed_endings.txt": "lf first\nthen crlf\r\nend\n",
};

const writeFiles = {
  "existing.txt": "old content\n",
  "adir/keep.txt": "keep\n",
};

function writeInputs(tool, files) {
  const dir = join(fixtureRoot, tool, "files");
  rmSync(dir, { recursive: true, force: true });
  for (const [name, data] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), data);
  }
  return dir;
}

// ---------- cases ----------

const readCases = [
  ["READ-03 whole small file", { path: "small.txt" }],
  ["READ-03 file without trailing newline", { path: "no_trailing_newline.txt" }],
  ["READ-03 empty file", { path: "empty.txt" }],
  ["READ-03 unicode file", { path: "unicode.txt" }],
  ["READ-03 BOM kept in text", { path: "bom.txt" }],
  ["READ-03 CRLF kept in text", { path: "crlf.txt" }],
  ["READ-03 tabs", { path: "tabs.txt" }],
  ["READ-03 nested path with @ prefix", { path: "@dir/nested.md" }],
  ["READ-03 macOS screenshot AM/PM variant", { path: "Screenshot 2024-01-01 at 10.00.00 AM.txt" }],
  ["READ-03 offset only", { path: "small.txt", offset: 3 }],
  ["READ-04 limit only leaves more lines", { path: "small.txt", limit: 2 }],
  ["READ-04 offset and limit", { path: "small.txt", offset: 2, limit: 2 }],
  ["READ-03 limit reaching the end", { path: "small.txt", offset: 4, limit: 10 }],
  ["READ-03 offset at the trailing empty line", { path: "small.txt", offset: 6 }],
  ["READ-04 offset zero reads from start", { path: "small.txt", offset: 0, limit: 1 }],
  ["READ-03 offset beyond end of file", { path: "small.txt", offset: 7 }],
  ["READ-03 offset far beyond end", { path: "empty.txt", offset: 5 }],
  ["READ-04 truncated by line limit", { path: "many_lines.txt" }],
  ["READ-04 truncated by line limit from offset", { path: "many_lines.txt", offset: 1001 }],
  ["READ-04 limit larger than line budget", { path: "many_lines.txt", offset: 10, limit: 2100 }],
  ["READ-04 exactly 2000 lines is not truncated", { path: "exact_limit.txt" }],
  ["READ-04 truncated by byte limit", { path: "wide_lines.txt" }],
  ["READ-04 truncated by byte limit from offset", { path: "wide_lines.txt", offset: 600 }],
  ["READ-04 first line exceeds byte limit", { path: "long_first_line.txt" }],
  ["READ-04 line at offset exceeds byte limit", { path: "long_middle_line.txt", offset: 3 }],
  ["READ-04 long line after offset truncates by bytes", { path: "long_middle_line.txt", offset: 1 }],
  ["READ-03 binary file read as text", { path: "binary.bin" }],
  ["READ-02 png image", { path: "image.png" }],
  ["READ-02 jpeg image", { path: "image.jpg" }],
  ["READ-02 webp image", { path: "image.webp" }],
  ["READ-02 gif image", { path: "image.gif" }],
  ["READ-02 bmp image", { path: "image.bmp" }],
  ["READ-02 image sniffed by bytes, not extension", { path: "png_named.txt" }],
  ["READ-02 animated png is read as text", { path: "animated.png" }],
  ["READ-02 wide png resized with dimension note", { path: "wide.png" }],
  ["READ-02 tall jpeg resized with dimension note", { path: "tall.jpg" }],
  ["READ-02 EXIF-rotated small jpeg passes through", { path: "rotated_small.jpg" }],
  ["READ-02 EXIF-rotated big jpeg resized upright", { path: "rotated_big.jpg" }],
  ["READ-02 autoResizeImages false keeps original", { path: "wide.png" }, { autoResizeImages: false }],
  ["READ-05 missing file", { path: "missing.txt" }],
  ["READ-05 directory", { path: "dir" }],
].map(([name, args, options]) => ({ name, args, ...(options ? { options } : {}) }));

const writeCases = [
  ["WRITE-01 new file", { path: "new.txt", content: "hello\nworld\n" }],
  ["WRITE-01 creates parent folders", { path: "deep/er/still/file.md", content: "# t\n" }],
  ["WRITE-01 overwrites existing file", { path: "existing.txt", content: "replaced" }],
  ["WRITE-01 empty content", { path: "empty.txt", content: "" }],
  ["WRITE-01 @ prefix stripped", { path: "@at.txt", content: "at" }],
  ["WRITE-01 CRLF content written verbatim", { path: "crlf.txt", content: "a\r\nb\r\n" }],
  ["WRITE-01 unicode content (byte count differs on purpose)", {
    path: "uni.txt",
    content: "héllo 日本 😀\n",
  }],
  ["WRITE-01 path is a directory", { path: "adir", content: "x" }],
].map(([name, args]) => ({ name, args, check: [args.path.replace(/^@/, "")] }));

const editCases = [
  ["EDIT-05 single replacement", {
    path: "simple.txt",
    edits: [{ oldText: "return 'hello';", newText: "return 'hi';" }],
  }],
  ["EDIT-05 multiple disjoint edits", {
    path: "simple.txt",
    edits: [{ oldText: "const x = 1;", newText: "const x = 10;" }, {
      oldText: "function greet()",
      newText: "function greet(name)",
    }],
  }],
  ["EDIT-01 legacy oldText/newText folded into edits", {
    path: "simple.txt",
    oldText: "const y = 2;",
    newText: "const y = 3;\nconst z = 4;",
  }],
  ["EDIT-01 edits sent as a JSON string", {
    path: "simple.txt",
    edits: JSON.stringify([{ oldText: "const y = 2;", newText: "" }]),
  }],
  ["EDIT-05 deleting lines", {
    path: "simple.txt",
    edits: [{ oldText: "\nconst x = 1;\nconst y = 2;\n", newText: "\n" }],
  }],
  ["EDIT-04 not found (single)", {
    path: "simple.txt",
    edits: [{ oldText: "nothing like this", newText: "x" }],
  }],
  ["EDIT-04 not found (multi)", {
    path: "simple.txt",
    edits: [{ oldText: "const x = 1;", newText: "a" }, { oldText: "missing", newText: "b" }],
  }],
  ["EDIT-04 duplicate (single)", { path: "dupes.txt", edits: [{ oldText: "foo", newText: "qux" }] }],
  ["EDIT-04 duplicate (multi)", {
    path: "dupes.txt",
    edits: [{ oldText: "bar", newText: "BAR" }, { oldText: "foo", newText: "qux" }],
  }],
  ["EDIT-04 empty oldText (single)", { path: "simple.txt", edits: [{ oldText: "", newText: "x" }] }],
  ["EDIT-04 empty oldText (multi)", {
    path: "simple.txt",
    edits: [{ oldText: "const", newText: "let" }, { oldText: "", newText: "x" }],
  }],
  ["EDIT-04 overlapping edits", {
    path: "simple.txt",
    edits: [{ oldText: "const x = 1;\nconst y", newText: "a" }, { oldText: "const y = 2;", newText: "b" }],
  }],
  ["EDIT-04 no change (single)", {
    path: "simple.txt",
    edits: [{ oldText: "const x = 1;", newText: "const x = 1;" }],
  }],
  ["EDIT-04 no change (multi)", {
    path: "simple.txt",
    edits: [{ oldText: "const x = 1;", newText: "const x = 1;" }, {
      oldText: "const y = 2;",
      newText: "const y = 2;",
    }],
  }],
  ["EDIT-02 missing file", { path: "nope.txt", edits: [{ oldText: "a", newText: "b" }] }],
  ["EDIT-01 empty edits array", { path: "simple.txt", edits: [] }],
  ["EDIT-02 CRLF preserved", {
    path: "crlf.txt",
    edits: [{ oldText: "line two", newText: "line 2\nline 2b" }],
  }],
  ["EDIT-02 CRLF in oldText matches", {
    path: "crlf.txt",
    edits: [{ oldText: "line one\r\nline two", newText: "joined" }],
  }],
  ["EDIT-02 BOM preserved", { path: "bom.txt", edits: [{ oldText: "config = 1", newText: "config = 2" }] }],
  ["EDIT-02 BOM and CRLF preserved", {
    path: "bom_crlf.txt",
    edits: [{ oldText: "b = 2", newText: "b = 3" }],
  }],
  ["EDIT-02 mixed endings follow the first", {
    path: "mixed_endings.txt",
    edits: [{ oldText: "end", newText: "END" }],
  }],
  ["EDIT-03 fuzzy match on smart quotes and dashes", {
    path: "fuzzy.txt",
    edits: [{ oldText: 'He said "hello" - it\'s fine.', newText: 'He said "bye".' }],
  }],
  ["EDIT-03 fuzzy match on nbsp and en dash", {
    path: "fuzzy.txt",
    edits: [{ oldText: "price: 100-200", newText: "price: 300" }],
  }],
  ["EDIT-03 exact edit next to a fuzzy one", {
    path: "fuzzy.txt",
    edits: [{ oldText: "plain line", newText: "PLAIN" }, { oldText: "it's fine.", newText: "ok." }],
  }],
  ["EDIT-03 unicode file", {
    path: "unicode.txt",
    edits: [{ oldText: "日本語", newText: "にほんご" }, { oldText: "😀", newText: "🎉🎉" }],
  }],
  ["EDIT-05 diff with distant changes and skipped context", {
    path: "long.txt",
    edits: [{ oldText: "line 3\n", newText: "line three\n" }, {
      oldText: "line 30\n",
      newText: "line thirty\nline 30b\n",
    }],
  }],
  ["EDIT-05 diff with near changes keeps context", {
    path: "long.txt",
    edits: [{ oldText: "line 10\n", newText: "line ten\n" }, { oldText: "line 16\n", newText: "" }],
  }],
  ["EDIT-05 diff at end of file without newline", {
    path: "no_trailing_newline.txt",
    edits: [{ oldText: "last", newText: "final\nextra" }],
  }],
  ["EDIT-05 @ prefix", { path: "@simple.txt", edits: [{ oldText: "greet", newText: "welcome" }] }],
  ["EDIT-01 a single edit object is one edit", {
    path: "simple.txt",
    edits: { oldText: "const x = 1;", newText: "const x = 2;" },
  }],
  ["EDIT-01 a single edit object sent as a JSON string", {
    path: "simple.txt",
    edits: JSON.stringify({ oldText: "const y = 2;", newText: "const y = 5;" }),
  }],
  ["EDIT-02 untouched line endings kept in a mixed file", {
    path: "mixed_endings.txt",
    edits: [{ oldText: "lf first", newText: "LF FIRST\nadded" }],
  }],
  ["EDIT-02 CRLF edit spanning lines in a mixed file", {
    path: "mixed_endings.txt",
    edits: [{ oldText: "then crlf\nend", newText: "joined" }],
  }],
].map(([name, args]) => ({ name, args, check: [String(args.path).replace(/^@/, "")] }));

// Parallel edits on one file: the mutation queue must apply them one after another.
editCases.push({
  name: "EDIT-06 parallel edits on one file are serialised",
  parallel: [
    { path: "simple.txt", edits: [{ oldText: "const x = 1;", newText: "const x = 100;" }] },
    { path: "simple.txt", edits: [{ oldText: "const y = 2;", newText: "const y = 200;" }] },
    { path: "simple.txt", edits: [{ oldText: "return 'hello';", newText: "return 'hey';" }] },
  ],
  check: ["simple.txt"],
});

// ---------- running ----------

function sanitize(value, dir) {
  if (typeof value === "string") return value.split(dir).join("<DIR>");
  if (Array.isArray(value)) return value.map((v) => sanitize(v, dir));
  if (value && typeof value === "object") {
    const out = {};
    for (const [k, v] of Object.entries(value)) out[k] = sanitize(v, dir);
    return out;
  }
  return value;
}

function summarizeContent(content) {
  return content.map((c) =>
    c.type === "image"
      ? {
        type: "image",
        mimeType: c.mimeType,
        dataSha256: createHash("sha256").update(c.data).digest("hex"),
        dataLength: c.data.length,
      }
      : c
  );
}

/** Image payloads in structured results as sha256 + length, like content blocks. */
function summarizeStructured(value) {
  if (value && typeof value === "object" && value.type === "image" && typeof value.data === "string") {
    const { data, ...rest } = value;
    return { ...rest, dataSha256: createHash("sha256").update(data).digest("hex"), dataLength: data.length };
  }
  return value;
}

async function runOne(tool, args) {
  const prepared = tool.prepareArguments ? tool.prepareArguments(structuredClone(args)) : args;
  try {
    const result = await tool.execute("call-1", prepared);
    const out = { content: summarizeContent(result.content), details: result.details ?? null };
    if (result.structuredContent !== undefined) {
      out.structuredContent = summarizeStructured(result.structuredContent);
    }
    return out;
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
}

async function capture(toolName, create, define, files, cases) {
  const inputs = writeInputs(toolName, files);
  const out = [];
  for (const c of cases) {
    const dir = mkdtempSync(join(tmpdir(), "pi-ref-tools-"));
    try {
      cpSync(inputs, dir, { recursive: true });
      const tool = create(dir, c.options);
      const entry = { ...c };
      if (c.parallel) {
        const results = await Promise.all(c.parallel.map((args) => runOne(tool, args)));
        entry.results = sanitize(results, dir);
      } else {
        Object.assign(entry, sanitize(await runOne(tool, c.args), dir));
      }
      if (c.check) {
        entry.filesAfter = {};
        for (const rel of c.check) {
          try {
            entry.filesAfter[rel] = readFileSync(join(dir, rel)).toString("base64");
          } catch {
            entry.filesAfter[rel] = null;
          }
        }
      }
      out.push(entry);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  const tool = create("/tmp");
  const definition = define("/tmp");
  const meta = {
    generatedBy: "scripts/capture/tools_reference.mjs",
    reference: JSON.parse(readFileSync(join(pkg, "package.json"), "utf-8")).version,
    tool: {
      name: tool.name,
      label: tool.label,
      description: tool.description,
      parameters: JSON.parse(JSON.stringify(tool.parameters)),
      promptSnippet: definition.promptSnippet ?? null,
      promptGuidelines: definition.promptGuidelines ?? null,
      outputSchema: definition.outputSchema ? JSON.parse(JSON.stringify(definition.outputSchema)) : null,
      constrainedSampling: definition.constrainedSampling ?? null,
    },
    cases: out,
  };
  writeFileSync(join(fixtureRoot, toolName, "expected.json"), JSON.stringify(meta, null, 2) + "\n");
  console.log(`${toolName}: ${out.length} cases`);
}

await capture("read", createReadTool, createReadToolDefinition, readFiles, readCases);
await capture("write", createWriteTool, createWriteToolDefinition, writeFiles, writeCases);
await capture("edit", createEditTool, createEditToolDefinition, editFiles, editCases);
