/**
 * Time to a first TUI frame: a fresh process loads the whole kit, builds a TuiMainScreen on an
 * in-memory terminal, draws one frame of a few dozen styled, wide and wrapped lines with an
 * overlay, and exits. Variants, run alternately, medians shown:
 * - ours from source: src/tui/mod.ts under `deno run` (as `deno task pi` loads it);
 * - ours bundled: a `deno bundle` of src/tui/mod.ts built into the temp folder. The shipped binary
 *   (`deno compile`) loads modules already transpiled from its embedded eszip, so it starts like
 *   this rather than like the source; the bundle is the closest form that can be built here;
 * - ours, core only: the renderer and text utilities the frame uses, from source;
 * - an empty Deno program: what any Deno process costs on this machine right now;
 * - pi-tui 1.6.0's index.js under the reference's Node 22.
 *
 * Reported per variant: wall time from spawn to exit; and inside the process, ms from the
 * runtime's time origin to the kit being loaded (the first line after the imports) and to the frame
 * being written, plus the CPU ms the process had used by then (all threads; steadier than wall
 * time when the machine is busy) and the main thread's share of it (steadier still: the work the
 * kit itself costs, less the runtime's, is the difference to the empty program's). Wall time includes the runtime's own start-up, which no kit can
 * shorten (the empty program's wall), so the budget of issue 19 ("loading the kit and drawing a
 * first frame < 60 ms") is judged on the in-process figure of the bundled kit.
 *
 * Usage: deno run -A scripts/bench/tui_first_frame.ts [rounds] [--kit=<a src/tui folder>] [--base=<a src/tui folder>]
 * (`--kit` measures another copy of the kit instead of this one; `--base` adds another copy's source, bundled
 * and core variants to the same alternated rounds, e.g. an older commit's from `git worktree add` or
 * `git archive <commit> src/tui src/util | tar -x -C <dir>`, for before/after figures under the same load;
 * `--no-reference` leaves pi-tui out.)
 *
 * @module
 */
import { findReference } from "../reference/locate.ts";
import { median } from "./common.ts";

const FRAME = `
const loadedMs = performance.now();
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

/**
 * The child's last lines: its figures as JSON, then exit. `cpu` reads {user, system} in µs (all threads);
 * `schedstat` reads the main thread's /proc schedstat line, whose first field is the ns it has run: that
 * thread's CPU time since the process started, which neither the compiler and GC threads nor the wait
 * for a core on a busy machine inflate.
 */
function report(cpu: string, schedstat: string, exit: string): string {
  return `const c = ${cpu};\nconst threadCpuMs = Number(${schedstat}.split(" ")[0]) / 1e6;\n` +
    `console.log(JSON.stringify({ loadedMs, frameMs, cpuMs: (c.user + c.system) / 1000, threadCpuMs, bytes }));\n` +
    `${exit}\n`;
}

const denoReport = report(
  "Deno.cpuUsage()",
  'Deno.readTextFileSync("/proc/self/task/" + Deno.pid + "/schedstat")',
  "Deno.exit(0);",
);

interface Sample {
  wallMs: number;
  loadedMs: number;
  frameMs: number;
  cpuMs: number;
  threadCpuMs: number;
  bytes: number;
}

async function run(cmd: string, args: string[]): Promise<Sample> {
  const start = performance.now();
  const out = await new Deno.Command(cmd, { args, stdin: "null", stdout: "piped", stderr: "piped" }).output();
  const wallMs = performance.now() - start;
  if (!out.success) {
    throw new Error(`${cmd} ${args.join(" ")} failed: ${new TextDecoder().decode(out.stderr)}`);
  }
  return { wallMs, ...JSON.parse(new TextDecoder().decode(out.stdout)) };
}

/** One kind of process to time. */
interface Variant {
  name: string;
  cmd: string;
  args: string[];
  samples: Sample[];
}

const positional = Deno.args.filter((arg) => !arg.startsWith("--"));
const kitArg = Deno.args.find((arg) => arg.startsWith("--kit="))?.slice("--kit=".length);
const baseArg = Deno.args.find((arg) => arg.startsWith("--base="))?.slice("--base=".length);
const rounds = Number(positional[0] ?? 15);
const config = new URL("../../deno.json", import.meta.url).pathname;
const kit = kitArg
  ? new URL(`file://${await Deno.realPath(kitArg)}/`)
  : new URL("../../src/tui/", import.meta.url);
const loadAverage = () => Deno.loadavg().map((n) => n.toFixed(2)).join(", ");
const loadAtStart = loadAverage();
const dir = Deno.makeTempDirSync({ prefix: "tui-first-frame-" });
try {
  const variants: Variant[] = [];
  const add = (name: string, cmd: string, args: string[]) => variants.push({ name, cmd, args, samples: [] });
  // The project config, as `deno task pi` runs: its node_modules folder resolves the npm packages.
  const denoRun = (script: string) => ["run", "-A", "--no-prompt", "--config", config, script];
  const child = (file: string, imports: string) => {
    Deno.writeTextFileSync(`${dir}/${file}`, `${imports}\n${FRAME}\n${denoReport}`);
    return `${dir}/${file}`;
  };
  /** The three forms of one copy of the kit: from source, bundled, and the core alone. */
  const addKit = async (label: string, prefix: string, kitUrl: URL) => {
    const modUrl = new URL("mod.ts", kitUrl).href;
    add(
      `${label}, source (src/tui/mod.ts)`,
      Deno.execPath(),
      denoRun(child(`${prefix}ours.ts`, `import * as T from ${JSON.stringify(modUrl)};`)),
    );

    const bundle = `${dir}/${prefix}tui_bundle.js`;
    const built = await new Deno.Command(Deno.execPath(), {
      args: ["bundle", "--quiet", "--config", config, "--output", bundle, new URL("mod.ts", kitUrl).pathname],
      stdout: "piped",
      stderr: "piped",
    }).output();
    if (!built.success) throw new Error(`deno bundle failed: ${new TextDecoder().decode(built.stderr)}`);
    const bundleKb = Deno.statSync(bundle).size / 1024;
    add(
      `${label}, bundled (deno bundle of mod.ts, ${bundleKb.toFixed(0)} KB)`,
      Deno.execPath(),
      [
        "run",
        "-A",
        "--no-prompt",
        "--no-config",
        child(`${prefix}bundled.js`, `import * as T from "./${prefix}tui_bundle.js";`),
      ],
    );

    // The core alone: the renderer and the text utilities the frame uses, without the components (from their
    // own modules: utils.ts, pi-tui's utils module, also builds its character-class values as it loads).
    const coreUrl = (file: string) => JSON.stringify(new URL(file, kitUrl).href);
    add(
      `${label}, core only, source (tui_main_screen.ts + utils_wrap.ts + utils_slice.ts)`,
      Deno.execPath(),
      denoRun(child(
        `${prefix}core.ts`,
        `import { TuiMainScreen } from ${coreUrl("tui_main_screen.ts")};\n` +
          `import { wrapTextWithAnsi } from ${coreUrl("utils_wrap.ts")};\n` +
          `import { truncateToWidth } from ${coreUrl("utils_slice.ts")};\n` +
          `const T = { TuiMainScreen, truncateToWidth, wrapTextWithAnsi };`,
      )),
    );
  };
  await addKit("ours", "", kit);
  if (baseArg) await addKit("base", "base_", new URL(`file://${await Deno.realPath(baseArg)}/`));

  // An empty Deno program: its in-process figures are the runtime's, its wall time the floor.
  const empty = `${dir}/empty.ts`;
  Deno.writeTextFileSync(
    empty,
    `const loadedMs = performance.now(), frameMs = loadedMs, bytes = 0;\n${denoReport}`,
  );
  add("empty Deno program", Deno.execPath(), ["run", "-A", "--no-prompt", "--no-config", empty]);

  const ref = Deno.args.includes("--no-reference") ? undefined : findReference();
  if (ref) {
    const index = `${ref.nodeModules}/@earendil-works/pi-tui/dist/index.js`;
    const theirs = `${dir}/theirs.mjs`;
    Deno.writeTextFileSync(
      theirs,
      `import { readFileSync } from "node:fs";\n` +
        `import * as T from ${JSON.stringify(new URL(`file://${index}`).href)};\n${FRAME}\n` +
        report(
          "process.cpuUsage()",
          'readFileSync("/proc/self/task/" + process.pid + "/schedstat", "utf8")',
          "process.exit(0);",
        ),
    );
    add("pi-tui 1.6.0 (Node 22)", ref.node, [theirs]);
  }

  // Warm-up: module and transpile caches on every side.
  for (const v of variants) await run(v.cmd, v.args);
  for (let i = 0; i < rounds; i++) {
    for (const v of variants) v.samples.push(await run(v.cmd, v.args));
  }

  const med = (samples: Sample[], key: keyof Sample) => median(samples.map((s) => s[key]));
  console.log(
    `first TUI frame${
      kitArg ? ` of the kit in ${kit.pathname}` : ""
    }, ${rounds} alternating rounds, medians ` +
      `(load average ${loadAtStart} at start, ${loadAverage()} at end):`,
  );
  for (const v of variants) {
    console.log(
      `${v.name}: wall ${med(v.samples, "wallMs").toFixed(1)} ms (min ${
        Math.min(...v.samples.map((s) => s.wallMs)).toFixed(1)
      }); in-process: loaded at ${med(v.samples, "loadedMs").toFixed(1)} ms, first frame at ${
        med(v.samples, "frameMs").toFixed(1)
      } ms (${med(v.samples, "cpuMs").toFixed(1)} ms CPU, main thread ${
        med(v.samples, "threadCpuMs").toFixed(1)
      } ms); ${v.samples[0].bytes} chars written`,
    );
  }
  if (baseArg) {
    for (let i = 0; i < 3; i++) {
      const [ours, base] = [variants[i], variants[i + 3]];
      const ratio = (key: keyof Sample) => (med(ours.samples, key) / med(base.samples, key)).toFixed(2);
      console.log(
        `${ours.name.split(", ").slice(1).join(", ")}: ours/base first frame ${ratio("frameMs")}×, ` +
          `CPU ${ratio("cpuMs")}×, main thread ${ratio("threadCpuMs")}×, wall ${ratio("wallMs")}×`,
      );
    }
  }
  const bundled = variants[1];
  const frame = med(bundled.samples, "frameMs");
  const source = med(variants[0].samples, "frameMs");
  console.log(
    `budget (issue 19: load the kit and draw a first frame < 60 ms), judged on the bundled kit's in-process ` +
      `time to the frame, as the shipped binary loads transpiled modules and wall time includes the runtime's ` +
      `own start: ${frame.toFixed(1)} ms, ${frame < 60 ? "within" : "OVER"} the budget ` +
      `(from source: ${source.toFixed(1)} ms, ${source < 60 ? "within" : "over"})`,
  );
} finally {
  Deno.removeSync(dir, { recursive: true });
}
