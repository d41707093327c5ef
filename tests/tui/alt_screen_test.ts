/**
 * TuiAltScreen on a real terminal emulator (@xterm/headless through VirtualTerminal): after any
 * sequence of frames — content appended and edited, keyboard, wheel and programmatic scrolling,
 * scrollbar drags, resizes — the alternate screen shows exactly what one full render of the same
 * content at the same scroll position shows on a fresh terminal (text and cell attributes). Checked
 * after every step of scripted sequences and of seeded random ones, for the implicit document and
 * for a layout root with fixed header/footer and a scroll view with a scrollbar. And stop() leaves
 * the whole document on the main screen.
 */
import { assertEquals } from "../support/assert.ts";
import { VirtualTerminal } from "../support/virtual_terminal.ts";
import { TuiAltScreen } from "../../src/tui/tui_alt_screen.ts";
import { ScrollView } from "../../src/tui/components/scroll_view.ts";
import { VStack } from "../../src/tui/components/v_stack.ts";
import type { Component } from "../../src/tui/tui_component.ts";
import { truncateToWidth, wrapTextWithAnsi } from "../../src/tui/utils.ts";

/** The document: paragraphs wrapped to the width (so resizes change the line count). */
class Doc implements Component {
  constructor(readonly paragraphs: string[]) {}
  render(width: number): string[] {
    return this.paragraphs.flatMap((p) => wrapTextWithAnsi(p, width));
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

const SAMPLES = [
  "plain text line",
  "\x1b[31mred\x1b[0m then \x1b[1mbold\x1b[22m and \x1b[44mblue background\x1b[49m",
  "你好世界，这是一行中文文字",
  "emoji 👍🏽 and 🎉 party",
  "a longer paragraph that wraps over several rows when the terminal is narrow enough to need it",
  "",
  "\x1b[7mreverse\x1b[27m end",
];

type Mode = "implicit" | "layout";

/** Layout mode: a header, the document in a scroll view with an always-on scrollbar, a footer. */
function layoutRoot(view: ScrollView): Component {
  return new VStack([
    new Static(["HEADER \x1b[32mok\x1b[39m"]),
    { component: view, grow: 1 },
    new Static(["footer"]),
  ]);
}

function mount(
  mode: Mode,
  doc: Doc,
  columns: number,
  rows: number,
  preset?: { top: number; following: boolean },
) {
  const terminal = new VirtualTerminal(columns, rows);
  const tui = new TuiAltScreen(terminal, false, undefined, {});
  const view = mode === "layout"
    ? new ScrollView(doc, { follow: "end", scrollbar: "always" })
    : new ScrollView(doc, { follow: "end", primary: true });
  if (preset && !preset.following) {
    // Position the fresh view before its first frame: tell it the size it will get, then scroll.
    const viewport = mode === "layout" ? Math.max(0, rows - 2) : rows;
    view.updateLayout(doc.render(view.getContentWidth(columns)).length, viewport, () => {});
    view.scrollTo(preset.top);
  }
  if (mode === "layout") tui.setLayoutRoot(layoutRoot(view));
  else if (preset) tui.setLayoutRoot(view);
  else tui.addChild(doc);
  tui.start();
  tui.renderNow();
  return { terminal, tui, view };
}

/** The live screen equals a fresh full render of the same content at the same scroll position. */
async function assertMatchesFresh(
  live: { terminal: VirtualTerminal; tui: TuiAltScreen },
  mode: Mode,
  doc: Doc,
  label: string,
) {
  const preset = { top: live.tui.viewportTop, following: live.tui.isFollowingOutput };
  const fresh = mount(mode, new Doc([...doc.paragraphs]), live.terminal.columns, live.terminal.rows, preset);
  try {
    assertEquals(fresh.tui.viewportTop, preset.top, `${label}: fresh view top`);
    assertEquals(await live.terminal.styledBuffer(), await fresh.terminal.styledBuffer(), label);
    assertEquals(live.terminal.xterm.buffer.active.type, "alternate", `${label}: on the alternate screen`);
  } finally {
    fresh.tui.stop({ preserveScreen: true });
  }
}

/** A small seeded generator, so a failure names a reproducible seed. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

async function runScript(mode: Mode, seed: number, steps: number) {
  const next = random(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)];
  const doc = new Doc(Array.from({ length: 12 }, (_, i) => `${i}: ${pick(SAMPLES)}`));
  const live = mount(mode, doc, 30, 10);
  try {
    for (let step = 0; step < steps; step++) {
      const action = Math.floor(next() * 9);
      let label: string;
      if (action === 0) {
        const count = 1 + Math.floor(next() * 6);
        for (let i = 0; i < count; i++) doc.paragraphs.push(`${doc.paragraphs.length}: ${pick(SAMPLES)}`);
        live.tui.requestRender();
        label = `append ${count}`;
      } else if (action === 1) {
        const index = Math.floor(next() * doc.paragraphs.length);
        doc.paragraphs[index] = `${index}* ${pick(SAMPLES)}`;
        live.tui.requestRender();
        label = `edit ${index}`;
      } else if (action === 2) {
        const lines = Math.floor(next() * 17) - 8;
        live.tui.scrollBy(lines);
        label = `scrollBy ${lines}`;
      } else if (action === 3) {
        const up = next() < 0.5;
        live.terminal.sendInput(`\x1b[<${up ? 64 : 65};${2 + Math.floor(next() * 10)};4M`);
        label = `wheel ${up ? "up" : "down"}`;
      } else if (action === 4) {
        const key = pick(["\x1b[5~", "\x1b[6~", "\x1b[1;5H", "\x1b[1;5F"]);
        live.terminal.sendInput(key);
        label = `key ${JSON.stringify(key)}`;
      } else if (action === 5) {
        const columns = 8 + Math.floor(next() * 40);
        const rows = 4 + Math.floor(next() * 12);
        await live.terminal.resize(columns, rows);
        label = `resize ${columns}x${rows}`;
      } else if (action === 6 && mode === "layout") {
        // Drag the scrollbar thumb from its track's top row to a random row.
        const column = live.terminal.columns - 1;
        const row = 1 + Math.floor(next() * Math.max(1, live.terminal.rows - 2));
        live.terminal.sendInput(`\x1b[<0;${column + 1};2M`);
        live.terminal.sendInput(`\x1b[<32;${column + 1};${row + 1}M`);
        live.terminal.sendInput(`\x1b[<0;${column + 1};${row + 1}m`);
        // Move the pointer off the bar: hovering draws the thumb solid, which a fresh render would not.
        live.terminal.sendInput("\x1b[<35;1;2M");
        label = `drag scrollbar to ${row}`;
      } else if (action === 7) {
        if (next() < 0.5) live.tui.scrollToTop();
        else live.tui.scrollToBottom();
        label = "top/bottom";
      } else {
        doc.paragraphs.splice(0, Math.min(doc.paragraphs.length - 1, Math.floor(next() * 4)));
        live.tui.requestRender();
        label = "drop first paragraphs";
      }
      live.tui.renderNow();
      await assertMatchesFresh(live, mode, doc, `seed ${seed} step ${step} (${label})`);
    }
  } finally {
    live.tui.stop({ preserveScreen: true });
  }
}

Deno.test("alt screen on xterm: scripted scrolls and resizes leave the screen of one full render", async () => {
  for (const mode of ["implicit", "layout"] as const) {
    const doc = new Doc(Array.from({ length: 30 }, (_, i) => `${i}: ${SAMPLES[i % SAMPLES.length]}`));
    const live = mount(mode, doc, 40, 12);
    try {
      await assertMatchesFresh(live, mode, doc, `${mode}: first frame`);
      const steps: [string, () => void | Promise<void>][] = [
        ["scrollBy -7", () => live.tui.scrollBy(-7)],
        ["wheel up x3", () => {
          for (let i = 0; i < 3; i++) live.terminal.sendInput("\x1b[<64;5;5M");
        }],
        ["append while scrolled away", () => {
          doc.paragraphs.push("new 1", "new 2 \x1b[33myellow\x1b[39m");
          live.tui.requestRender();
        }],
        ["resize narrower", () => live.terminal.resize(22, 9)],
        ["page down", () => live.terminal.sendInput("\x1b[6~")],
        ["bottom", () => live.tui.scrollToBottom()],
        ["append while following", () => {
          doc.paragraphs.push("tail \x1b[1mbold\x1b[22m", "你好 tail");
          live.tui.requestRender();
        }],
        ["resize wider and taller", () => live.terminal.resize(60, 16)],
        ["top", () => live.tui.scrollToTop()],
        ["resize to one column", () => live.terminal.resize(1, 5)],
        ["resize back", () => live.terminal.resize(40, 12)],
      ];
      for (const [label, action] of steps) {
        await action();
        live.tui.renderNow();
        await assertMatchesFresh(live, mode, doc, `${mode}: ${label}`);
      }
    } finally {
      live.tui.stop({ preserveScreen: true });
    }
  }
});

Deno.test("alt screen on xterm: seeded random frames leave the screen of one full render", async () => {
  for (const mode of ["implicit", "layout"] as const) {
    for (let seed = 1; seed <= 6; seed++) await runScript(mode, seed, 40);
  }
});

Deno.test("alt screen on xterm: stop() returns to the main screen and prints the whole document there", async () => {
  const doc = new Doc([
    "first line",
    "\x1b[31msecond\x1b[39m line",
    ...Array.from({ length: 20 }, (_, i) => `row ${i}`),
  ]);
  const terminal = new VirtualTerminal(30, 8);
  const tui = new TuiAltScreen(terminal, false, undefined, {});
  tui.addChild(doc);
  tui.start();
  tui.renderNow();
  tui.scrollBy(-5);
  tui.renderNow();
  await terminal.flush();
  assertEquals(terminal.xterm.buffer.active.type, "alternate");
  tui.stop();
  await terminal.flush();
  assertEquals(terminal.xterm.buffer.active.type, "normal");
  const buffer = await terminal.styledBuffer();
  assertEquals(buffer.slice(0, 3), [
    "first line",
    "s{fg16777216:1}e{fg16777216:1}c{fg16777216:1}o{fg16777216:1}n{fg16777216:1}d{fg16777216:1} line",
    "row 0",
  ]);
  assertEquals(buffer[buffer.length - 1], "row 19");
});

Deno.test("alt screen on xterm: search matches and a dragged selection show as styled cells", async () => {
  const doc = new Doc([
    "alpha needle beta",
    "gamma",
    "needle at start",
    ...Array.from({ length: 10 }, (_, i) => `pad ${i}`),
  ]);
  const terminal = new VirtualTerminal(80, 8);
  const tui = new TuiAltScreen(terminal, false, undefined, { copySelection: () => Promise.resolve(true) });
  tui.addChild(doc);
  try {
    tui.start();
    tui.scrollToTop();
    tui.renderNow();
    terminal.sendInput("\x1b[102;6u"); // ctrl+shift+f opens the search box
    terminal.sendInput("needle");
    tui.renderNow();
    const screen = await terminal.styledBuffer();
    // The search box covers the top right; the first match (current) is bold and inverse, the next underlined.
    assertEquals(screen[0].startsWith("alpha n{b,r}e{b,r}e{b,r}d{b,r}l{b,r}e{b,r} beta"), true, screen[0]);
    assertEquals(screen[2].startsWith("n{u}e{u}e{u}d{u}l{u}e{u} at start"), true, screen[2]);
    assertEquals(
      (await terminal.viewport()).some((row) => row.includes(" 1/2 ")),
      true,
      "the box counts the matches",
    );
    terminal.sendInput("\r"); // next match
    tui.renderNow();
    const next = await terminal.styledBuffer();
    assertEquals(next[0].startsWith("alpha n{u}e{u}"), true, next[0]);
    assertEquals(next[2].startsWith("n{b,r}e{b,r}e{b,r}d{b,r}l{b,r}e{b,r} at"), true, next[2]);
    terminal.sendInput("\x1b"); // close
    terminal.sendInput("\x1b[<0;1;4M"); // press at "pad 0" row 3, column 0
    terminal.sendInput("\x1b[<32;3;5M"); // drag to row 4, column 2
    tui.renderNow();
    const selected = await terminal.styledBuffer();
    assertEquals(selected[3], "p{r}a{r}d{r} {r}0{r}");
    assertEquals(selected[4], "p{r}a{r}d{r} 1");
    assertEquals(tui.hasActiveSelection(), true);
  } finally {
    tui.stop({ preserveScreen: true });
  }
});
