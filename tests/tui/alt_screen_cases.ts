/**
 * Shared scaffolding of the TuiAltScreen conformance suites: a recording terminal of fixed size
 * built inside each case, line components, and `step`, which runs an action, draws a frame and
 * records the bytes written for it.
 *
 * @module
 */
import type { TuiCase } from "../support/tui_oracle.ts";

/** One scripted run of a TuiAltScreen. */
export interface AltScreenScenario {
  name: string;
  cols?: number;
  rows?: number;
  /** JS source of the TuiAltScreenOptions object. */
  options?: string;
  /** Show the hardware cursor. */
  hw?: boolean;
  /** JS statements run before start() (adding children, setting a layout root). */
  setup?: string;
  /** JS statements, each becomes one recorded frame (`input(data)` feeds the terminal's input). */
  steps: string[];
  /** Whether stop() ends the run (recording what it writes); a string is stop()'s options. */
  stop?: boolean | string;
  /** JS expression added to the result (state read at the end). */
  extra?: string;
  /** Replace setInterval with a recorder; `tick()` runs the newest interval callback. */
  fakeTimers?: boolean;
}

/**
 * The case prelude. `out` collects one string per frame; `term.cols`/`term.rows` may change
 * before `resize()`. Components: `Lines` (fixed lines, truncated to the width), `Fill` (width-
 * dependent rows), `Clicky` (records the mouse events it gets and may handle them).
 */
const PRELUDE = `
const out = [];
let chunk = [];
let onInput = () => {};
let onResize = () => {};
const term = {
  cols: COLS, rows: ROWS, kittyProtocolActive: false,
  get columns() { return this.cols; },
  start(i, r) { onInput = i; onResize = r; chunk.push('<start>'); }, stop() { chunk.push('<stop>'); },
  drainInput: async () => {}, write(d) { chunk.push(d); }, moveBy() {},
  hideCursor() { chunk.push('<hide>'); }, showCursor() { chunk.push('<show>'); },
  clearLine() {}, clearFromCursor() {}, clearScreen() {}, setTitle() {}, setProgress() {}, setProgramStatus() {},
};
class Lines { constructor(lines) { this.lines = lines; } render(w) { return this.lines.map((l) => T.truncateToWidth(l, w)); } invalidate() {} }
const numbered = (n, prefix = 'line') => new Lines(Array.from({ length: n }, (_, i) => prefix + ' ' + i));
class Fill { constructor(n, ch) { this.n = n; this.ch = ch; } render(w) { return Array.from({ length: this.n }, (_, i) => String(i % 10) + this.ch.repeat(Math.max(0, w - 1))); } invalidate() {} }
const events = [];
class Clicky { constructor(name, lines, result) { this.name = name; this.lines = lines; this.result = result; }
  render(w) { return this.lines.map((l) => T.truncateToWidth(l, w)); } invalidate() {}
  handleMouse(e) { events.push(this.name + ':' + e.type + ':' + e.button + ':' + e.x + ',' + e.y + ':' + e.width + 'x' + e.height + (e.wheelDelta !== undefined ? ':d' + e.wheelDelta : '') + (e.clickCount !== undefined ? ':c' + e.clickCount : '')); return typeof this.result === 'function' ? this.result(e) : this.result; } }
const copied = [];
const tui = new T.TuiAltScreen(term, HW, undefined, OPTIONS);
const input = (data) => onInput(data);
const resize = (cols, rows) => { term.cols = cols; term.rows = rows; onResize(); };
const sgr = (button, x, y, release = false) => input('\\x1b[<' + button + ';' + (x + 1) + ';' + (y + 1) + (release ? 'm' : 'M'));
const step = (fn) => { chunk = []; fn(); tui.renderNow(); out.push(chunk.join('')); };
`;

/** The case of a scenario: frames, then what stop() wrote, the screen lines and the viewport state. */
export function altScreenCase(s: AltScreenScenario): TuiCase {
  const prelude = PRELUDE.replace("COLS", String(s.cols ?? 20)).replace("ROWS", String(s.rows ?? 6))
    .replace("HW", String(s.hw ?? false)).replace("OPTIONS", s.options ?? "{}");
  const steps = s.steps.map((code) => `step(() => { ${code} });`).join("\n");
  const stopOptions = typeof s.stop === "string" ? s.stop : "";
  const stop = s.stop === false ? "" : `chunk = []; tui.stop(${stopOptions}); out.push(chunk.join(''));`;
  const body = `${prelude}
${s.setup ?? ""}
chunk = []; tui.start(); tui.renderNow(); out.push(chunk.join(''));
${steps}
const state = { screen: tui.getScreenLines(), top: tui.viewportTop, following: tui.isFollowingOutput,
  fullRedraws: tui.fullRedraws, events, copied, selection: tui.hasActiveSelection() };
${stop}
return { out, state${s.extra ? `, extra: ${s.extra}` : ""} };`;
  return { name: s.name, body: s.fakeTimers ? withFakeIntervals(body) : body };
}

/**
 * `body` run with setInterval/clearInterval replaced by recorders: `tick()` calls the newest interval
 * unless cleared. The handles are objects with `unref()`, as Node's are (pi-tui calls it).
 */
function withFakeIntervals(body: string): string {
  return `
    const realSet = globalThis.setInterval, realClear = globalThis.clearInterval;
    const timers = []; const cleared = [];
    globalThis.setInterval = (fn, ms) => { const t = { fn, ms, unref() {} }; timers.push(t); return t; };
    globalThis.clearInterval = (t) => { cleared.push(t); };
    const tick = () => { const t = timers[timers.length - 1]; if (t && !cleared.includes(t)) t.fn(); };
    try { ${body} } finally { globalThis.setInterval = realSet; globalThis.clearInterval = realClear; }
  `;
}
