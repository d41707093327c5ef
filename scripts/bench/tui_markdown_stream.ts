/**
 * Streaming markdown into the main screen: a reply of N bytes arrives in 16-character deltas; each delta goes to
 * a Markdown component (setText) inside a TuiMainScreen over a recording terminal, and a frame is drawn after
 * every delta (the worst case: a real stream coalesces many deltas into one 16 ms frame). Counts the UTF-8 bytes
 * the terminal receives, the total time and the time spent in Markdown.render, for ours under Deno and pi-tui
 * 1.6.0 under Node in the same run. Bytes must grow linearly with the text (only changed lines are rewritten), so
 * the 2 MiB / 256 KiB ratio of bytes is about 8. The time in Markdown.render is reported apart from the frame's
 * other work (TuiMainScreen composing and diffing all lines) and from flattening the +=-built text.
 *
 * pi-tui lexes and walks the whole text on every delta (quadratic), so it gets the smaller sizes.
 *
 * Usage: deno run -A scripts/bench/tui_markdown_stream.ts [--ours 262144,2097152] [--theirs 32768,131072]
 *   [--every 1]   (draw a frame every N deltas)
 *
 * @module
 */
import { findReference } from "../reference/locate.ts";

const BODY = `
const SIZE = Number(SIZE_ARG), DELTA = 16, EVERY = Number(EVERY_ARG);
const sections = (i) => [
  "## Section " + i + "\\n\\n",
  "Paragraph " + i + " with **bold**, *italic*, \`code " + i + "\` and a [link](https://example.com/" + i + ") " +
    "that runs long enough to wrap across the terminal width at least once or twice, 中文 text and emoji 🎉.\\n\\n",
  "- item one of " + i + "\\n- item two with \`x\`\\n  - nested " + i + "\\n\\n",
  "\`\`\`ts\\nconst value" + i + " = compute(" + i + ");\\nconsole.log(value" + i + ");\\n\`\`\`\\n\\n",
  "| key | value |\\n|---|---|\\n| a" + i + " | " + i + " |\\n| b | text " + i + " |\\n\\n",
  "> quoted note " + i + " with *emphasis*\\n\\n",
];
let doc = "";
for (let i = 0; doc.length < SIZE; i++) doc += sections(i).join("");
doc = doc.slice(0, SIZE);
const encoder = new TextEncoder();
const term = { columns: 100, rows: 40, kittyProtocolActive: false, bytes: 0,
  start() {}, stop() {}, drainInput: async () => {}, write(d) { this.bytes += encoder.encode(d).length; }, moveBy() {},
  hideCursor() {}, showCursor() {}, clearLine() {}, clearFromCursor() {}, clearScreen() {}, setTitle() {},
  setProgress() {}, setProgramStatus() {} };
const id = (t) => t;
const wrap = (a, b) => (t) => "\\x1b[" + a + "m" + t + "\\x1b[" + b + "m";
const theme = { heading: wrap(36, 39), link: wrap(34, 39), linkUrl: wrap(2, 22), code: wrap(33, 39),
  codeBlock: wrap(32, 39), codeBlockBorder: wrap(90, 39), quote: wrap(35, 39), quoteBorder: wrap(95, 39),
  hr: id, listBullet: wrap(96, 39), bold: wrap(1, 22), italic: wrap(3, 23), strikethrough: wrap(9, 29),
  underline: wrap(4, 24) };
const md = new T.Markdown("", 1, 0, theme);
let renderMs = 0;
const render = md.render.bind(md);
md.render = (w) => { const t = performance.now(); const lines = render(w); renderMs += performance.now() - t; return lines; };
const tui = new T.TuiMainScreen(term);
tui.addChild(md);
tui.renderNow();
const start = performance.now();
let text = "", deltas = 0, flattenMs = 0;
for (let i = 0; i < doc.length; i += DELTA) {
  text += doc.slice(i, i + DELTA);
  md.setText(text);
  if (++deltas % EVERY === 0) {
    // The text grows by +=, so V8 holds it as a rope; the first full read copies it into one string (in the
    // component on either side). Done here, timed apart: it is the caller's cost, not the renderer's.
    const t = performance.now(); text.trim(); flattenMs += performance.now() - t;
    tui.renderNow();
  }
}
tui.renderNow();
const totalMs = performance.now() - start;
console.log(JSON.stringify({ size: SIZE, deltas, bytes: term.bytes, totalMs, renderMs, flattenMs, lines: md.render(100).length }));
`;

function option(name: string, fallback: string): string {
  const at = Deno.args.indexOf(`--${name}`);
  return at >= 0 ? Deno.args[at + 1] ?? fallback : fallback;
}
const oursSizes = option("ours", "262144,2097152").split(",").map(Number);
const theirSizes = option("theirs", "262144").split(",").map(Number);
const every = Number(option("every", "64"));

interface Result {
  size: number;
  deltas: number;
  bytes: number;
  totalMs: number;
  renderMs: number;
  flattenMs: number;
  lines: number;
}

const dir = Deno.makeTempDirSync({ prefix: "tui-md-stream-" });
try {
  const write = (name: string, importLine: string, size: number) => {
    const path = `${dir}/${name}`;
    const body = BODY.replace("SIZE_ARG", String(size)).replace("EVERY_ARG", String(every));
    Deno.writeTextFileSync(path, `${importLine}\n${body}`);
    return path;
  };
  const run = async (cmd: string, runArgs: string[]): Promise<Result> => {
    const out = await new Deno.Command(cmd, { args: runArgs, stdout: "piped", stderr: "inherit" }).output();
    return JSON.parse(new TextDecoder().decode(out.stdout));
  };
  const config = new URL("../../deno.json", import.meta.url).pathname;
  const ourModule = new URL("../../src/tui/mod.ts", import.meta.url).href;
  const ref = findReference();
  const theirModule = ref && new URL(`file://${ref.nodeModules}/@earendil-works/pi-tui/dist/index.js`).href;
  const rows: [string, Result][] = [];
  const sizes = [...new Set([...theirSizes, ...oursSizes])].sort((a, b) => a - b);
  for (const size of sizes) {
    const ours = write(`ours_${size}.ts`, `import * as T from ${JSON.stringify(ourModule)};`, size);
    rows.push([
      "ours (Deno)",
      await run(Deno.execPath(), ["run", "-A", "--no-prompt", "--config", config, ours]),
    ]);
    if (ref && theirModule && theirSizes.includes(size)) {
      const theirs = write(`theirs_${size}.mjs`, `import * as T from ${JSON.stringify(theirModule)};`, size);
      rows.push(["pi-tui 1.6.0 (Node)", await run(ref.node, [theirs])]);
    }
  }
  console.log(`markdown streamed in 16-character deltas, a frame every ${every} delta(s), 100x40 terminal:`);
  for (const [name, r] of rows) {
    console.log(
      `${name.padEnd(20)} ${String(r.size).padStart(8)} B  ${String(r.deltas).padStart(6)} deltas  ` +
        `${String(r.bytes).padStart(10)} bytes written (${(r.bytes / r.size).toFixed(2)}/B)  ` +
        `total ${r.totalMs.toFixed(0)} ms  Markdown.render ${r.renderMs.toFixed(0)} ms  ` +
        `string flatten ${r.flattenMs.toFixed(0)} ms  ` +
        `(${((r.totalMs * 1000) / r.deltas).toFixed(1)} µs/delta)  ${r.lines} lines`,
    );
  }
  for (const name of ["ours (Deno)", "pi-tui 1.6.0 (Node)"]) {
    const mine = rows.filter(([n]) => n === name).map(([, r]) => r);
    if (mine.length < 2) continue;
    const [small, large] = [mine[0]!, mine[mine.length - 1]!];
    console.log(
      `${name}: ${large.size / small.size}x the text -> ${
        (large.bytes / small.bytes).toFixed(2)
      }x the bytes, ` +
        `${(large.totalMs / small.totalMs).toFixed(2)}x the total time, ` +
        `${(large.renderMs / small.renderMs).toFixed(2)}x the Markdown.render time`,
    );
  }
} finally {
  Deno.removeSync(dir, { recursive: true });
}
