/**
 * Keystroke latency in the Editor: a TuiMainScreen on an in-memory recording terminal holds 2,000
 * chat lines (Text components) above a focused Editor; each keystroke goes in through the
 * terminal's input callback, as a real key would, and is timed until the TUI has written its frame
 * (the last write of the frame). The same script runs ours (src/tui/mod.ts under Deno) and
 * pi-tui 1.6.0 (the reference, under Node) in the same run. Keys are spaced 25 ms apart so the
 * renderer's frame throttle never holds a frame back; typing, word moves, backspace, a new line
 * and kills are mixed. The budget: median < 4 ms for ours.
 *
 * Usage: deno run -A scripts/bench/tui_keystroke.ts [keystrokes]
 *
 * @module
 */
import { findReference } from "../reference/locate.ts";
import { median } from "./common.ts";

const BENCH = (keystrokes: number) => `
let onInput;
let writes = 0;
let bytes = 0;
let lastWriteAt = 0;
const terminal = {
  columns: 120, rows: 40, kittyProtocolActive: false,
  start(input) { onInput = input; }, stop() {}, drainInput: async () => {},
  write(d) { writes++; bytes += d.length; lastWriteAt = performance.now(); },
  moveBy() {}, hideCursor() {}, showCursor() {}, clearLine() {}, clearFromCursor() {}, clearScreen() {},
  setTitle() {}, setProgress() {}, setProgramStatus() {},
};
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const tui = new T.TuiMainScreen(terminal);
for (let i = 0; i < 2000; i++) {
  tui.addChild(new T.Text('\\x1b[1m' + (i % 2 ? 'assistant' : 'user') + '\\x1b[22m: chat line ' + i +
    ' with \\x1b[32mgreen\\x1b[39m words, 中文 and 🚀 ' + 'lorem '.repeat(i % 9), 1, 0));
}
const theme = {
  borderColor: (s) => '\\x1b[2m' + s + '\\x1b[22m',
  selectList: { selectedPrefix: (s) => s, selectedText: (s) => s, description: (s) => s, scrollInfo: (s) => s, noMatch: (s) => s },
};
const editor = new T.Editor(tui, theme, { paddingX: 1 });
tui.addChild(editor);
tui.setFocus(editor);
tui.start();
await sleep(50);
const script = [...'hello world, this is a fairly long prompt that wraps ', '\\x1b[1;5D', '\\x1b[1;5D', '\\x1b[F',
  ...'typed more ', '\\x7f', '\\x7f', '\\n', ...'second line ', '\\x17', '\\x1b[A', '\\x1b[B', '\\x0b', '\\x19'];
const samples = [];
for (let i = 0; i < ${keystrokes} + 20; i++) {
  const key = script[i % script.length];
  const before = writes;
  const t0 = performance.now();
  onInput(key);
  const deadline = t0 + 2000;
  while (writes === before && performance.now() < deadline) await sleep(0);
  // The frame's writes all happen in one render; let it finish before reading the last one.
  await sleep(0);
  if (writes === before) throw new Error('no frame written for key ' + JSON.stringify(key));
  if (i >= 20) samples.push(lastWriteAt - t0);
  await sleep(25);
}
tui.stop();
const text = editor.getText();
`;

function child(modUrl: string, exit: string, keystrokes: number): string {
  return `import * as T from ${JSON.stringify(modUrl)};\n${
    BENCH(keystrokes)
  }\nconsole.log(JSON.stringify({ samples, textLength: text.length }));\n${exit}\n`;
}

interface Result {
  samples: number[];
  textLength: number;
}

async function run(cmd: string, args: string[]): Promise<Result> {
  const out = await new Deno.Command(cmd, { args, stdin: "null", stdout: "piped", stderr: "piped" }).output();
  const stdout = new TextDecoder().decode(out.stdout);
  if (!out.success) throw new Error(`${cmd} failed: ${new TextDecoder().decode(out.stderr)}`);
  return JSON.parse(stdout.trim().split("\n").pop()!);
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];
}

function summary(name: string, r: Result): string {
  const s = r.samples;
  return `${name}: median ${median(s).toFixed(2)} ms, p90 ${percentile(s, 0.9).toFixed(2)} ms, max ${
    Math.max(...s).toFixed(2)
  } ms over ${s.length} keystrokes`;
}

const keystrokes = Number(Deno.args[0] ?? 200);
const dir = Deno.makeTempDirSync({ prefix: "tui-keystroke-" });
try {
  const ours = `${dir}/ours.ts`;
  Deno.writeTextFileSync(
    ours,
    child(new URL("../../src/tui/mod.ts", import.meta.url).href, "Deno.exit(0);", keystrokes),
  );
  const denoArgs = [
    "run",
    "-A",
    "--no-prompt",
    "--config",
    new URL("../../deno.json", import.meta.url).pathname,
    ours,
  ];
  const a = await run(Deno.execPath(), denoArgs);
  console.log(`keystroke to written frame, Editor under 2,000 Text lines, TuiMainScreen 120x40:`);
  console.log(summary("ours (Deno, src/tui)", a));
  const ref = findReference();
  if (ref) {
    const theirs = `${dir}/theirs.mjs`;
    const index = `${ref.nodeModules}/@earendil-works/pi-tui/dist/index.js`;
    Deno.writeTextFileSync(theirs, child(new URL(`file://${index}`).href, "process.exit(0);", keystrokes));
    const b = await run(ref.node, [theirs]);
    console.log(summary("pi-tui 1.6.0 (Node 22)", b));
    console.log(`median ratio ours/pi-tui: ${(median(a.samples) / median(b.samples)).toFixed(2)}`);
    if (a.textLength !== b.textLength) {
      console.log(`note: final text lengths differ (${a.textLength} vs ${b.textLength})`);
    }
  } else {
    console.log("pi-tui reference not installed: no comparison");
  }
  console.log(median(a.samples) < 4 ? "within the 4 ms budget" : "OVER the 4 ms budget");
} finally {
  Deno.removeSync(dir, { recursive: true });
}
