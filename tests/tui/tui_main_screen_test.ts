/**
 * Conformance of TuiMainScreen with pi-tui 1.6.0: the exact bytes written to a recording terminal
 * (fixed columns and rows, built inside each case) through the same sequence of frames — children
 * added and removed, lines changed, content growing past the screen and shrinking, resizes,
 * overlays with every anchor, margins, sizes as numbers and percentages, focus changes, the
 * hardware cursor at CURSOR_MARKER, fake cursors, and stop().
 */
import { compareWithPiTui, js, type TuiCase } from "../support/tui_oracle.ts";

/**
 * The case prelude: a recording terminal, line components and a `step` helper that runs an action,
 * draws a frame and records what was written for it.
 */
const PRELUDE = `
const out = [];
let chunk = [];
const term = {
  columns: COLS, rows: ROWS, kittyProtocolActive: false,
  start() { chunk.push('<start>'); }, stop() { chunk.push('<stop>'); },
  drainInput: async () => {}, write(d) { chunk.push(d); }, moveBy() {},
  hideCursor() { chunk.push('<hide>'); }, showCursor() { chunk.push('<show>'); },
  clearLine() {}, clearFromCursor() {}, clearScreen() {}, setTitle() {}, setProgress() {}, setProgramStatus() {},
};
class Lines { constructor(lines) { this.lines = lines; } render(w) { return this.lines.map((l) => T.truncateToWidth(l, w)); } invalidate() {} }
class Input { constructor(text) { this.text = text; this.focused = false; }
  render(w) { const t = this.focused ? '> ' + this.text + T.CURSOR_MARKER + T.renderFakeCursor(' ') : '> ' + this.text; return [T.truncateToWidth(t, w)]; }
  handleInput(d) { this.text += d; } invalidate() {} }
const tui = new T.TuiMainScreen(term, HW);
const step = (fn) => { chunk = []; fn(); tui.renderNow(); out.push(chunk.join('')); };
tui.start();
out.push(chunk.join(''));
`;

function lines(n: number, prefix = "line"): string[] {
  return Array.from({ length: n }, (_, i) => `${prefix} ${i}`);
}

interface Scenario {
  name: string;
  cols?: number;
  rows?: number;
  hw?: boolean;
  /** JS statements, each becomes one recorded frame. */
  steps: string[];
  /** Whether to stop at the end (recording what stop writes). */
  stop?: boolean;
}

function caseOf(s: Scenario): TuiCase {
  const prelude = PRELUDE.replace("COLS", String(s.cols ?? 20)).replace("ROWS", String(s.rows ?? 6))
    .replace("HW", String(s.hw ?? false));
  const steps = s.steps.map((code) => `step(() => { ${code} });`).join("\n");
  const stop = s.stop === false ? "" : "chunk = []; tui.stop(); out.push(chunk.join(''));";
  return {
    name: s.name,
    body: `${prelude}\n${steps}\n${stop}\nreturn { out, fullRedraws: tui.fullRedraws };`,
  };
}

const scenarios: Scenario[] = [];
for (const n of [0, 1, 5, 6, 7, 15]) {
  scenarios.push({ name: `first/${n}`, steps: [`tui.addChild(new Lines(${js(lines(n))}));`] });
}
scenarios.push({
  name: "edit/middle-line",
  steps: [`globalThis.a = new Lines(${js(lines(5))}); tui.addChild(a);`, `a.lines[2] = 'changed';`],
});
scenarios.push({
  name: "edit/no-change",
  steps: [`tui.addChild(new Lines(${js(lines(3))}));`, ``, ``],
});
scenarios.push({
  name: "edit/append-within-screen",
  steps: [`globalThis.a = new Lines(${js(lines(2))}); tui.addChild(a);`, `a.lines.push('x', 'y');`],
});
scenarios.push({
  name: "edit/append-past-screen",
  steps: [
    `globalThis.a = new Lines(${js(lines(4))}); tui.addChild(a);`,
    `a.lines.push(...${js(lines(5, "more"))});`,
    `a.lines.push('again');`,
    `a.lines[a.lines.length - 2] = 'edited near bottom';`,
  ],
});
scenarios.push({
  name: "edit/above-viewport",
  steps: [`globalThis.a = new Lines(${js(lines(10))}); tui.addChild(a);`, `a.lines[0] = 'top changed';`],
});
scenarios.push({
  name: "shrink/end",
  steps: [`globalThis.a = new Lines(${js(lines(5))}); tui.addChild(a);`, `a.lines.length = 2;`],
});
scenarios.push({
  name: "shrink/to-empty",
  steps: [`globalThis.a = new Lines(${js(lines(4))}); tui.addChild(a);`, `a.lines.length = 0;`],
});
scenarios.push({
  name: "shrink/change-and-shrink",
  steps: [
    `globalThis.a = new Lines(${js(lines(5))}); tui.addChild(a);`,
    `a.lines.length = 3; a.lines[1] = 'B';`,
  ],
});
scenarios.push({
  name: "shrink/clear-on-shrink",
  steps: [
    `tui.setClearOnShrink(true); globalThis.a = new Lines(${js(lines(5))}); tui.addChild(a);`,
    `a.lines.length = 2;`,
  ],
});
scenarios.push({
  name: "shrink/long-scrolled",
  steps: [`globalThis.a = new Lines(${js(lines(20))}); tui.addChild(a);`, `a.lines.length = 3;`],
});
scenarios.push({
  name: "shrink/scrolled-a-little",
  steps: [`globalThis.a = new Lines(${js(lines(9))}); tui.addChild(a);`, `a.lines.length = 7;`],
});
scenarios.push({
  name: "children/add-remove",
  steps: [
    `globalThis.a = new Lines(['A1','A2']); globalThis.b = new Lines(['B1']); tui.addChild(a); tui.addChild(b);`,
    `tui.removeChild(a);`,
    `tui.addChild(a);`,
    `tui.clear();`,
  ],
});
scenarios.push({
  name: "resize/width",
  steps: [
    `tui.addChild(new Lines(['a fairly long line that wraps', 'b']));`,
    `term.columns = 10;`,
    `term.columns = 30;`,
  ],
});
scenarios.push({
  name: "resize/height",
  steps: [
    `tui.addChild(new Lines(${js(lines(8))}));`,
    `term.rows = 4;`,
    `term.rows = 12;`,
  ],
});
scenarios.push({
  name: "styled/ansi-cjk",
  steps: [
    `globalThis.a = new Lines(['\\x1b[31mred\\x1b[0m plain', '中文字符 wide', '\\x1b]8;;http://x\\x07link\\x1b]8;;\\x07']); tui.addChild(a);`,
    `a.lines[1] = '中文 changed 字';`,
  ],
});
scenarios.push({
  name: "styled/osc133-prefix",
  steps: [`tui.addChild(new Lines(['\\x1b]133;A\\x07prompt', 'x']));`],
});
for (const hw of [false, true]) {
  scenarios.push({
    name: `cursor/hw-${hw}`,
    hw,
    steps: [
      `globalThis.a = new Lines(['title']); globalThis.i = new Input('hi'); tui.addChild(a); tui.addChild(i); tui.addChild(new Lines(['footer']));`,
      `tui.setFocus(i);`,
      `i.handleInput('!');`,
      `tui.setFocus(null);`,
    ],
  });
}
scenarios.push({
  name: "cursor/toggle-hardware",
  steps: [
    `globalThis.i = new Input('x'); tui.addChild(i); tui.setFocus(i);`,
    `tui.setShowHardwareCursor(true);`,
    `tui.setShowHardwareCursor(false);`,
  ],
});
scenarios.push({
  name: "stop/preserve-screen",
  stop: false,
  steps: [`tui.addChild(new Lines(['a','b']));`, `tui.stop({ preserveScreen: true });`],
});
scenarios.push({
  name: "render/overwide-line",
  stop: false,
  steps: [
    `globalThis.a = {lines: ['ok'], render() { return this.lines; }, invalidate() {}}; tui.addChild(a);`,
    `a.lines = ['ok', 'x'.repeat(30)];`,
  ],
});

// Overlays: every anchor, with and without a margin, on a screen with some content.
const ANCHORS = [
  "center",
  "top-left",
  "top-right",
  "bottom-left",
  "bottom-right",
  "top-center",
  "bottom-center",
  "left-center",
  "right-center",
];
const BOX = `new Lines(['+----+', '|box |', '+----+'])`;
for (const anchor of ANCHORS) {
  for (const margin of [0, 1]) {
    scenarios.push({
      name: `overlay/${anchor}/m${margin}`,
      steps: [
        `tui.addChild(new Lines(${js(lines(3, "base"))}));`,
        `globalThis.h = tui.showOverlay(${BOX}, { anchor: ${js(anchor)}, width: 6, margin: ${margin} });`,
        `h.hide();`,
      ],
    });
  }
}
const OPTIONS: Record<string, string> = {
  "width-pct": `{ width: '50%' }`,
  "width-min": `{ width: 2, minWidth: 8 }`,
  "width-default": `{}`,
  "maxheight": `{ width: 8, maxHeight: 2 }`,
  "maxheight-pct": `{ width: 8, maxHeight: '34%' }`,
  "row-col": `{ width: 6, row: 1, col: 3 }`,
  "row-col-pct": `{ width: 6, row: '100%', col: '50%' }`,
  "offsets": `{ width: 6, anchor: 'top-left', offsetX: 2, offsetY: 1 }`,
  "margin-obj": `{ width: 6, anchor: 'bottom-right', margin: { right: 2, bottom: 1 } }`,
  "clamped": `{ width: 6, row: 50, col: 50 }`,
};
for (const [name, options] of Object.entries(OPTIONS)) {
  scenarios.push({
    name: `overlay-opts/${name}`,
    steps: [
      `tui.addChild(new Lines(${js(lines(4, "base"))}));`,
      `globalThis.h = tui.showOverlay(${BOX}, ${options}); globalThis.b = h.getBounds() ?? null;`,
      `chunk.push(JSON.stringify(h.getBounds()));`,
    ],
  });
}
scenarios.push({
  name: "overlay/long-content",
  steps: [
    `tui.addChild(new Lines(${js(lines(12, "base"))}));`,
    `tui.showOverlay(${BOX}, { width: 6 });`,
  ],
});
scenarios.push({
  name: "overlay/stack-focus",
  steps: [
    `globalThis.i = new Input('base'); tui.addChild(i); tui.setFocus(i);`,
    `globalThis.o1 = new Input('one'); globalThis.h1 = tui.showOverlay(o1, { width: 8, anchor: 'top-left' });`,
    `globalThis.o2 = new Input('two'); globalThis.h2 = tui.showOverlay(o2, { width: 8, anchor: 'bottom-right' });`,
    `chunk.push(String(h2.isFocused()), String(h1.isFocused())); h1.focus();`,
    `h1.unfocus();`,
    `chunk.push(String(i.focused), String(o2.focused)); tui.hideOverlay();`,
    `h1.setHidden(true);`,
    `chunk.push(String(tui.hasOverlay()), String(i.focused)); h1.setHidden(false);`,
  ],
});
scenarios.push({
  name: "overlay/non-capturing-and-visible",
  steps: [
    `globalThis.i = new Input('base'); tui.addChild(i); tui.setFocus(i);`,
    `globalThis.h = tui.showOverlay(new Lines(['nc']), { width: 4, nonCapturing: true }); chunk.push(String(i.focused));`,
    `globalThis.v = tui.showOverlay(new Lines(['vis']), { width: 4, anchor: 'top-right', visible: (w) => w > 15 });`,
    `term.columns = 12;`,
    `chunk.push(String(tui.hasOverlay()));`,
  ],
});
scenarios.push({
  name: "overlay/cjk-over-wide",
  steps: [
    `tui.addChild(new Lines(['中文中文中文中文中文', '\\x1b[44mblue background line\\x1b[0m']));`,
    `tui.showOverlay(new Lines(['ab', 'cd']), { width: 3, row: 0, col: 3 });`,
  ],
});

// Kitty image lines (the sequence is written by hand: the case environment has no image support).
const IMG = (id: number, rows: number) => `\x1b_Ga=T,f=100,i=${id},r=${rows},c=4,q=2;AAAA\x1b\\`;
scenarios.push({
  name: "images/kitty-block-edits",
  rows: 8,
  steps: [
    `globalThis.a = new Lines(['above', ${js(IMG(7, 3))}, '', '', 'below']); tui.addChild(a);`,
    `a.lines[0] = 'above changed';`,
    `a.lines[4] = 'below changed';`,
    `a.lines[2] = 'text inside the image rows';`,
    `a.lines.splice(1, 1);`,
    `a.lines.splice(1, 0, ${js(IMG(9, 2))}, '');`,
  ],
});
scenarios.push({
  name: "images/overlay-over-image",
  rows: 8,
  steps: [
    `tui.addChild(new Lines(['top', ${js(IMG(3, 2))}, '', 'end']));`,
    `globalThis.h = tui.showOverlay(new Lines(['OV']), { row: 1, col: 0, width: 6 });`,
    `h.hide();`,
  ],
});
scenarios.push({
  name: "images/resize-clears-images",
  rows: 8,
  steps: [`tui.addChild(new Lines([${js(IMG(4, 2))}, '', 'x']));`, `term.columns = 30;`],
});
scenarios.push({
  name: "render/force-and-state",
  steps: [
    `globalThis.a = new Lines(${js(lines(4))}); tui.addChild(a);`,
    `chunk.push(JSON.stringify(tui.captureRenderState()));`,
    `tui.renderNow(true);`,
    `globalThis.saved = tui.captureRenderState(); a.lines[1] = 'x';`,
    `tui.restoreRenderState({ ...saved, previousLines: saved.previousLines.slice(0, 2) }); a.lines[3] = 'y';`,
    `chunk.push(String(tui.getClearOnShrink()), String(tui.fullRedraws));`,
  ],
});
scenarios.push({
  name: "render/stopped-does-nothing",
  stop: false,
  steps: [`tui.addChild(new Lines(['a']));`, `tui.stop();`, `tui.addChild(new Lines(['b']));`],
});
scenarios.push({
  name: "render/tabs-and-thai",
  steps: [`tui.addChild(new Lines(['a\tb\tc', 'กำ ຳ', '\x1b[7mrev\x1b[27m']));`],
});

const cases: TuiCase[] = scenarios.map(caseOf);

// Input goes through the terminal's onInput: capture it with a terminal whose start() keeps the handler.
cases.push({
  name: "input/routing",
  body: `${
    PRELUDE.replace("COLS", "20").replace("ROWS", "6").replace("HW", "false")
      .replace("start() { chunk.push('<start>'); }", "start(onInput) { this.onInput = onInput; }")
  }
globalThis.i = new Input(''); tui.addChild(i); tui.setFocus(i);
const remove = tui.addInputListener((d) => d === 'x' ? { consume: true } : d === 'u' ? { data: 'U' } : undefined);
for (const d of ['a', 'x', 'u', '\\x1b[97;1:3u']) term.onInput(d);
remove();
term.onInput('x');
await new Promise((r) => setTimeout(r, 30));
step(() => {});
tui.stop();
return { out, text: i.text };`,
});

// A frame past 1 MiB is written in chunks of at most 1 Mi UTF-16 units, never splitting a surrogate pair.
for (
  const [name, line] of [["ascii", "x".repeat(60)], ["emoji", "🚀".repeat(30)], ["mixed", "a🚀".repeat(20)]]
) {
  cases.push({
    name: `render/bounded-writes/${name}`,
    body: `${PRELUDE.replace("COLS", "80").replace("ROWS", "24").replace("HW", "false")}
const lines = Array.from({ length: 20000 }, (_, i) => i % 7 === 0 ? ${js(line)}.slice(0, 58) + i : ${
      js(line)
    });
step(() => tui.addChild({ render: () => lines, invalidate() {} }));
const writes = [];
term.write = (d) => writes.push(d);
tui.renderNow(true);
let sum = 0;
const all = writes.join('');
for (let i = 0; i < all.length; i += 997) sum = (sum * 31 + all.charCodeAt(i)) >>> 0;
tui.stop();
return { sizes: writes.map((w) => w.length), splitPair: writes.some((w) => { const c = w.charCodeAt(w.length - 1); return c >= 0xd800 && c <= 0xdbff; }), sum, total: all.length };`,
  });
}

Deno.test("TuiMainScreen writes the same bytes as pi-tui 1.6.0", async () => {
  await compareWithPiTui("tui_main_screen", cases);
});
