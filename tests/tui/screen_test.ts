/**
 * TuiMainScreen on a real terminal emulator (@xterm/headless through VirtualTerminal): after any
 * sequence of differential frames — edits, growth past the screen, shrinking, overlays, resizes,
 * the hardware cursor — the emulator holds exactly what one full redraw of the final frame gives
 * on a fresh terminal: the same text and attributes in scrollback and screen, the cursor in the
 * same place. Checked after every step of scripted sequences and of 1,000 seeded random edits.
 */
import { assertEquals } from "../support/assert.ts";
import { VirtualTerminal } from "../support/virtual_terminal.ts";
import { TuiMainScreen } from "../../src/tui/tui_main_screen.ts";
import { type Component, CURSOR_MARKER } from "../../src/tui/tui_component.ts";
import type { OverlayOptions } from "../../src/tui/tui_types.ts";
import { truncateToWidth } from "../../src/tui/utils.ts";

/** What the screen should show: lines, overlays in the order shown, an optional cursor. */
interface Model {
  lines: string[];
  overlays: { lines: string[]; options: OverlayOptions }[];
  /** Cursor: line index and the visible column before which CURSOR_MARKER goes. */
  cursor?: { line: number; col: number };
  clearOnShrink: boolean;
}

/** Renders the model's lines, cut to the width, with the cursor marker where the model says. */
class ModelView implements Component {
  constructor(private readonly model: Model) {}
  render(width: number): string[] {
    const { lines, cursor } = this.model;
    return lines.map((line, i) => {
      const cut = truncateToWidth(line, width, "");
      if (cursor?.line !== i) return cut;
      // Put the marker after the first `col` characters of plain text (lines with a cursor stay plain).
      // deno-lint-ignore no-control-regex
      const plain = truncateToWidth(line.replace(/\x1b\[[0-9;]*m/g, ""), width, "");
      const chars = [...plain];
      const at = Math.min(cursor.col, chars.length);
      return chars.slice(0, at).join("") + CURSOR_MARKER + chars.slice(at).join("");
    });
  }
  invalidate(): void {}
}

class Static implements Component {
  constructor(private readonly lines: string[]) {}
  render(width: number): string[] {
    return this.lines.map((l) => truncateToWidth(l, width, ""));
  }
  invalidate(): void {}
}

/** A TUI on a virtual terminal drawing a model. */
function mount(model: Model, columns: number, rows: number) {
  const terminal = new VirtualTerminal(columns, rows);
  const tui = new TuiMainScreen(terminal, true);
  tui.setClearOnShrink(model.clearOnShrink);
  tui.addChild(new ModelView(model));
  const handles = model.overlays.map((o) => tui.showOverlay(new Static(o.lines), o.options));
  tui.start();
  return { terminal, tui, handles };
}

/** What one full redraw of the model gives on a fresh terminal of this size. */
async function fullRedraw(model: Model, columns: number, rows: number) {
  const snapshot: Model = structuredClone({ ...model, overlays: model.overlays.map((o) => ({ ...o })) });
  const { terminal, tui } = mount(snapshot, columns, rows);
  tui.renderNow();
  const screen = { buffer: await terminal.styledBuffer(), cursor: await absoluteCursor(terminal) };
  tui.stop();
  return screen;
}

/** Where the cursor is in scrollback + screen; null when the cursor is hidden (its place is then free). */
async function absoluteCursor(terminal: VirtualTerminal) {
  await terminal.flush();
  if (!terminal.cursorVisible) return null;
  const buffer = terminal.xterm.buffer.active;
  return { x: buffer.cursorX, y: buffer.cursorY + buffer.baseY };
}

async function assertSameAsFullRedraw(terminal: VirtualTerminal, model: Model, context: string) {
  const expected = await fullRedraw(model, terminal.columns, terminal.rows);
  const actual = { buffer: await terminal.styledBuffer(), cursor: await absoluteCursor(terminal) };
  assertEquals(actual, expected, context);
}

function lines(n: number, prefix = "line"): string[] {
  return Array.from({ length: n }, (_, i) => `${prefix} ${i}`);
}

Deno.test("scripted differential frames leave the screen a full redraw gives", async () => {
  const model: Model = { lines: lines(3), overlays: [], clearOnShrink: false };
  const { terminal, tui } = mount(model, 30, 8);
  const steps: [string, () => Promise<void> | void][] = [
    ["first frame", () => {}],
    ["edit middle", () => void (model.lines[1] = "\x1b[31mred\x1b[0m middle 中文")],
    ["append past the screen", () => void model.lines.push(...lines(12, "more"))],
    ["edit bottom", () => void (model.lines[model.lines.length - 1] = "\x1b[1mbold\x1b[22m bottom")],
    ["edit above the screen", () => void (model.lines[0] = "top edited")],
    ["shrink a little", () => void (model.lines.length = 13)],
    ["change and shrink", () => {
      model.lines.length = 11;
      model.lines[9] = "changed before the end";
    }],
    ["shrink below the screen top", () => void (model.lines.length = 4)],
    ["cursor", () => void (model.cursor = { line: 2, col: 3 })],
    ["overlay", () => {
      const o = {
        lines: ["+--+", "|ov|", "+--+"],
        options: { anchor: "bottom-right", width: 4 } as OverlayOptions,
      };
      model.overlays.push(o);
      tui.showOverlay(new Static(o.lines), o.options);
    }],
    ["hide overlay", () => {
      model.overlays.pop();
      tui.hideOverlay();
    }],
    ["narrower", () => terminal.resize(12, 8)],
    ["shorter", () => terminal.resize(12, 5)],
    ["wider and taller", () => terminal.resize(40, 10)],
    ["clear", () => void (model.lines.length = 0)],
    ["again", () => void model.lines.push("back")],
  ];
  for (const [name, action] of steps) {
    await action();
    tui.renderNow();
    await assertSameAsFullRedraw(terminal, model, name);
  }
  tui.stop();
});

/** mulberry32: a small seeded PRNG, so the random edits are the same on every run. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = ["alpha", "beta", "中文", "字符", "🚀", "👍🏽", "x", "longer-word", "  ", "tab"];
const STYLES = [["", ""], ["\x1b[31m", "\x1b[39m"], ["\x1b[1m", "\x1b[22m"], ["\x1b[44m", "\x1b[49m"], [
  "\x1b[4m",
  "\x1b[24m",
]];
const ANCHORS = [
  "center",
  "top-left",
  "top-right",
  "bottom-left",
  "bottom-right",
  "top-center",
  "bottom-center",
];

async function randomEdits(seed: number, count: number, clearOnShrink: boolean) {
  const random = prng(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)];
  const text = () => {
    const words = Array.from({ length: 1 + Math.floor(random() * 8) }, () => {
      const [open, close] = pick(STYLES);
      return open + pick(WORDS) + close;
    });
    return words.join(" ");
  };
  const model: Model = { lines: [text()], overlays: [], clearOnShrink };
  const { terminal, tui, handles } = mount(model, 24, 8);
  tui.renderNow();
  const log: string[] = [];
  for (let i = 0; i < count; i++) {
    const r = random();
    let what: string;
    if (r < 0.3 && model.lines.length > 0) {
      const at = Math.floor(random() * model.lines.length);
      model.lines[at] = text();
      what = `edit ${at}`;
    } else if (r < 0.45) {
      const at = Math.floor(random() * (model.lines.length + 1));
      model.lines.splice(at, 0, text());
      what = `insert ${at}`;
    } else if (r < 0.55 && model.lines.length > 0) {
      const at = Math.floor(random() * model.lines.length);
      model.lines.splice(at, 1);
      what = `delete ${at}`;
    } else if (r < 0.65) {
      const n = 1 + Math.floor(random() * 10);
      for (let k = 0; k < n; k++) model.lines.push(text());
      what = `append ${n}`;
    } else if (r < 0.72) {
      const n = Math.floor(random() * model.lines.length);
      model.lines.length = n;
      what = `truncate ${n}`;
    } else if (r < 0.8) {
      if (model.cursor || model.lines.length === 0) {
        model.cursor = undefined;
        what = "no cursor";
      } else {
        model.cursor = { line: Math.floor(random() * model.lines.length), col: Math.floor(random() * 6) };
        what = `cursor ${model.cursor.line}:${model.cursor.col}`;
      }
    } else if (r < 0.88) {
      if (model.overlays.length > 0 && random() < 0.5) {
        model.overlays.pop();
        handles.pop()!.hide();
        what = "hide overlay";
      } else {
        const o = {
          lines: Array.from({ length: 1 + Math.floor(random() * 4) }, text),
          options: {
            anchor: pick(ANCHORS),
            width: random() < 0.5 ? 4 + Math.floor(random() * 10) : "50%",
            margin: Math.floor(random() * 2),
          } as OverlayOptions,
        };
        model.overlays.push(o);
        handles.push(tui.showOverlay(new Static(o.lines), o.options));
        what = `overlay ${o.options.anchor}`;
      }
    } else if (r < 0.9) {
      const columns = 8 + Math.floor(random() * 30);
      const rows = 4 + Math.floor(random() * 10);
      await terminal.resize(columns, rows);
      what = `resize ${columns}x${rows}`;
    } else {
      what = "no change";
    }
    // A line with the cursor must be plain text for the model's marker placement.
    if (model.cursor && model.cursor.line >= model.lines.length) model.cursor = undefined;
    log.push(what);
    tui.renderNow();
    await assertSameAsFullRedraw(terminal, model, `seed ${seed}, edit ${i}: ${log.slice(-5).join(", ")}`);
  }
  tui.stop();
  return tui.fullRedraws;
}

Deno.test("1,000 seeded random edits: every differential frame equals a full redraw", async () => {
  const fullRedraws = await randomEdits(1, 1000, false);
  console.log(`full redraws: ${fullRedraws} of 1000 frames`);
  // Most frames must have been differential, or the comparison proves little.
  if (fullRedraws > 500) throw new Error(`too many full redraws: ${fullRedraws}`);
});

Deno.test("random edits with clearOnShrink", async () => {
  await randomEdits(7, 300, true);
});
