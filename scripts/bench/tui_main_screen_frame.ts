/**
 * Cost of one TuiMainScreen frame under a long transcript: 2,000 styled chat lines (a Container of
 * message components, as the app builds it) with an input line below; each frame changes the input
 * line, like a keystroke. Measured in-process per frame (render, diff, write to an in-memory
 * terminal), ours under Deno against pi-tui 1.6.0 under Node in the same run; medians of rounds.
 *
 * Usage: deno run -A scripts/bench/tui_main_screen_frame.ts [frames]
 *
 * @module
 */
import { findReference } from "../reference/locate.ts";
import { median } from "./common.ts";

const BODY = `
const frames = Number(FRAMES);
const term = { columns: 120, rows: 40, kittyProtocolActive: false, written: 0,
  start() {}, stop() {}, drainInput: async () => {}, write(d) { this.written += d.length; }, moveBy() {},
  hideCursor() {}, showCursor() {}, clearLine() {}, clearFromCursor() {}, clearScreen() {}, setTitle() {},
  setProgress() {}, setProgramStatus() {} };
class Message { constructor(i) { this.lines = [];
  for (let k = 0; k < 4; k++) this.lines.push('\\x1b[1mmsg ' + i + '\\x1b[22m line ' + k + ' \\x1b[32mgreen\\x1b[39m 中文 text ' + 'w '.repeat((i + k) % 40)); }
  render() { return this.lines; } invalidate() {} }
class InputLine { constructor() { this.text = ''; this.focused = false; }
  render(w) { return [T.truncateToWidth('> ' + this.text + (this.focused ? T.CURSOR_MARKER : ''), w)]; } invalidate() {} }
const chat = new T.Container();
for (let i = 0; i < 500; i++) chat.addChild(new Message(i));
const input = new InputLine();
const tui = new T.TuiMainScreen(term);
tui.addChild(chat); tui.addChild(input); tui.setFocus(input);
tui.renderNow();
const times = [];
for (let f = 0; f < frames; f++) {
  input.text += String.fromCharCode(97 + (f % 26));
  if (input.text.length > 60) input.text = '';
  const t0 = performance.now();
  tui.renderNow();
  times.push(performance.now() - t0);
}
times.sort((a, b) => a - b);
console.log(JSON.stringify({ median: times[Math.floor(times.length / 2)], p90: times[Math.floor(times.length * 0.9)], written: term.written }));
`;

const frames = Number(Deno.args[0] ?? 300);
const dir = Deno.makeTempDirSync({ prefix: "tui-frame-" });
try {
  const body = BODY.replace("FRAMES", String(frames));
  const ours = `${dir}/ours.ts`;
  Deno.writeTextFileSync(
    ours,
    `import * as T from ${JSON.stringify(new URL("../../src/tui/mod.ts", import.meta.url).href)};\n${body}`,
  );
  const runs: Record<string, string[]> = {
    "ours (Deno)": [
      Deno.execPath(),
      "run",
      "-A",
      "--no-prompt",
      "--config",
      new URL("../../deno.json", import.meta.url).pathname,
      ours,
    ],
  };
  const ref = findReference();
  if (ref) {
    const theirs = `${dir}/theirs.mjs`;
    const index = new URL(`file://${ref.nodeModules}/@earendil-works/pi-tui/dist/index.js`).href;
    Deno.writeTextFileSync(theirs, `import * as T from ${JSON.stringify(index)};\n${body}`);
    runs["pi-tui 1.6.0 (Node)"] = [ref.node, theirs];
  }
  const results: Record<string, { median: number; p90: number; written: number }[]> = {};
  for (let round = 0; round < 5; round++) {
    for (const [name, [cmd, ...args]] of Object.entries(runs)) {
      const out = await new Deno.Command(cmd, { args, stdout: "piped", stderr: "inherit" }).output();
      (results[name] ??= []).push(JSON.parse(new TextDecoder().decode(out.stdout)));
    }
  }
  console.log(`one keystroke frame under 2,000 chat lines (${frames} frames x 5 rounds):`);
  for (const [name, samples] of Object.entries(results)) {
    console.log(
      `${name}: median ${median(samples.map((s) => s.median)).toFixed(3)} ms, p90 ${
        median(samples.map((s) => s.p90)).toFixed(3)
      } ms, ${samples[0].written} chars written`,
    );
  }
} finally {
  Deno.removeSync(dir, { recursive: true });
}
