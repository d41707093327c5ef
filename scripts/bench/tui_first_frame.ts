/**
 * Time to a first TUI frame: a fresh process loads the whole kit (src/tui/mod.ts under Deno, the
 * reference's pi-tui 1.6.0 index.js under Node), builds a TuiMainScreen on an in-memory terminal,
 * draws one frame of a few dozen styled, wide and wrapped lines with an overlay, and exits.
 * Reported: wall time from spawn to exit (the budget: < 60 ms for ours) and, inside the process,
 * the ms from the runtime's time origin to the frame being written. Runs alternate, medians shown.
 *
 * Usage: deno run -A scripts/bench/tui_first_frame.ts [rounds]
 *
 * @module
 */
import { findReference } from "../reference/locate.ts";
import { median } from "./common.ts";

const FRAME = `
const writes = [];
const terminal = {
  columns: 100, rows: 30, kittyProtocolActive: false,
  start() {}, stop() {}, drainInput: async () => {}, write(d) { writes.push(d); }, moveBy() {},
  hideCursor() {}, showCursor() {}, clearLine() {}, clearFromCursor() {}, clearScreen() {},
  setTitle() {}, setProgress() {}, setProgramStatus() {},
};
class Lines { constructor(lines) { this.lines = lines; } render(w) { return this.lines.flatMap((l) => T.wrapTextWithAnsi(l, w)); } invalidate() {} }
const tui = new T.TuiMainScreen(terminal);
const lines = [];
for (let i = 0; i < 40; i++) {
  lines.push('\\x1b[1muser\\x1b[22m: message ' + i + ' with some \\x1b[32mgreen\\x1b[39m text, 中文字符 and an emoji 🚀 ' + 'word '.repeat(i % 20));
}
tui.addChild(new Lines(lines));
tui.showOverlay(new Lines(['┌ overlay ┐', '│ content │', '└─────────┘']), { anchor: 'top-right', width: 11, nonCapturing: true });
tui.renderNow();
const frameMs = performance.now();
const bytes = writes.join('').length;
`;

function denoChild(modUrl: string): string {
  return `import * as T from ${
    JSON.stringify(modUrl)
  };\n${FRAME}\nconsole.log(JSON.stringify({ frameMs, bytes }));\nDeno.exit(0);\n`;
}

function nodeChild(indexUrl: string): string {
  return `import * as T from ${
    JSON.stringify(indexUrl)
  };\n${FRAME}\nconsole.log(JSON.stringify({ frameMs, bytes }));\nprocess.exit(0);\n`;
}

interface Sample {
  wallMs: number;
  frameMs: number;
  bytes: number;
}

async function run(cmd: string, args: string[]): Promise<Sample> {
  const start = performance.now();
  const out = await new Deno.Command(cmd, { args, stdin: "null", stdout: "piped", stderr: "piped" }).output();
  const wallMs = performance.now() - start;
  if (!out.success) throw new Error(`${cmd} failed: ${new TextDecoder().decode(out.stderr)}`);
  const result = JSON.parse(new TextDecoder().decode(out.stdout));
  return { wallMs, frameMs: result.frameMs, bytes: result.bytes };
}

const rounds = Number(Deno.args[0] ?? 15);
const dir = Deno.makeTempDirSync({ prefix: "tui-first-frame-" });
try {
  const ours = `${dir}/ours.ts`;
  Deno.writeTextFileSync(ours, denoChild(new URL("../../src/tui/mod.ts", import.meta.url).href));
  // The project config, as `deno task pi` runs: its node_modules folder resolves the npm packages.
  const denoArgs = [
    "run",
    "-A",
    "--no-prompt",
    "--config",
    new URL("../../deno.json", import.meta.url).pathname,
    ours,
  ];
  const ref = findReference();
  let theirs: string | undefined;
  if (ref) {
    theirs = `${dir}/theirs.mjs`;
    const index = `${ref.nodeModules}/@earendil-works/pi-tui/dist/index.js`;
    Deno.writeTextFileSync(theirs, nodeChild(new URL(`file://${index}`).href));
  }
  // The core alone: the renderer and the text utilities the frame uses, without the components.
  const core = `${dir}/core.ts`;
  const coreUrl = (file: string) => JSON.stringify(new URL(`../../src/tui/${file}`, import.meta.url).href);
  Deno.writeTextFileSync(
    core,
    `import { TuiMainScreen } from ${coreUrl("tui_main_screen.ts")};\n` +
      `import { truncateToWidth, wrapTextWithAnsi } from ${coreUrl("utils.ts")};\n` +
      `const T = { TuiMainScreen, truncateToWidth, wrapTextWithAnsi };\n${FRAME}\n` +
      `console.log(JSON.stringify({ frameMs, bytes }));\nDeno.exit(0);\n`,
  );
  const coreArgs = denoArgs.map((arg) => arg === ours ? core : arg);
  // An empty Deno program: what any Deno process costs on this machine right now.
  const empty = `${dir}/empty.ts`;
  Deno.writeTextFileSync(empty, `console.log(JSON.stringify({ frameMs: performance.now(), bytes: 0 }));\n`);
  const emptyArgs = ["run", "-A", "--no-prompt", "--no-config", empty];
  // Warm-up: module caches on both sides.
  await run(Deno.execPath(), denoArgs);
  await run(Deno.execPath(), emptyArgs);
  await run(Deno.execPath(), coreArgs);
  if (ref && theirs) await run(ref.node, [theirs]);
  const a: Sample[] = [];
  const b: Sample[] = [];
  const e: Sample[] = [];
  const c: Sample[] = [];
  for (let i = 0; i < rounds; i++) {
    a.push(await run(Deno.execPath(), denoArgs));
    e.push(await run(Deno.execPath(), emptyArgs));
    c.push(await run(Deno.execPath(), coreArgs));
    if (ref && theirs) b.push(await run(ref.node, [theirs]));
  }
  const show = (name: string, samples: Sample[]) =>
    console.log(
      `${name}: wall ${median(samples.map((s) => s.wallMs)).toFixed(1)} ms (min ${
        Math.min(...samples.map((s) => s.wallMs)).toFixed(1)
      }), first frame at ${median(samples.map((s) => s.frameMs)).toFixed(1)} ms in-process, ${
        samples[0].bytes
      } chars written`,
    );
  console.log(`first TUI frame, ${rounds} alternating rounds, medians:`);
  show("ours (Deno, src/tui)", a);
  show("ours, core only (tui_main_screen.ts + utils.ts)", c);
  show("empty Deno program", e);
  if (b.length > 0) {
    show("pi-tui 1.6.0 (Node 22)", b);
    console.log(
      `wall ratio ours/pi-tui: ${
        (median(a.map((s) => s.wallMs)) / median(b.map((s) => s.wallMs))).toFixed(2)
      }`,
    );
  } else {
    console.log("pi-tui reference not installed: no comparison");
  }
  const budget = median(a.map((s) => s.wallMs));
  console.log(budget < 60 ? `within the 60 ms budget` : `OVER the 60 ms budget`);
} finally {
  Deno.removeSync(dir, { recursive: true });
}
