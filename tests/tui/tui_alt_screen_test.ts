/**
 * Conformance of TuiAltScreen with pi-tui 1.6.0: the exact bytes written to a recording terminal
 * of fixed size through the same script of frames — entering the alternate screen, first frames at
 * widths 1/20/80/200, content growing while following output or scrolled away, keyboard and wheel
 * scrolling (SGR and X10 reports, Alt for five times, fixed line counts), resizes, layout roots of
 * stacks with nested scroll views (overscroll chaining and containment, scrollbars and their
 * dragging), mouse events routed to components with click counts, text selection with copy on
 * release, flashes, the jump-to-end label, transcript search, OSC 133 prompt jumps, and stop()
 * with and without preserving the screen.
 */
import { compareWithPiTui, js, type TuiCase } from "../support/tui_oracle.ts";
import { altScreenCase, type AltScreenScenario } from "./alt_screen_cases.ts";

const KEY = {
  pageUp: "\x1b[5~",
  pageDown: "\x1b[6~",
  ctrlHome: "\x1b[1;5H",
  ctrlEnd: "\x1b[1;5F",
  ctrlUp: "\x1b[1;5A",
  ctrlDown: "\x1b[1;5B",
  search: "\x1b[102;6u",
  enter: "\r",
  shiftEnter: "\x1b[13;2u",
  escape: "\x1b",
  ctrlG: "\x07",
};

const scenarios: AltScreenScenario[] = [];

// First frames and stop() at every width.
for (const cols of [1, 20, 80, 200]) {
  scenarios.push({
    name: `basic/short/w${cols}`,
    cols,
    setup:
      `tui.addChild(new Lines(['hello', '\\x1b[31mred\\x1b[0m and plain', '你好世界 wide', '👍🏽 emoji', 'a\\tb']));`,
    steps: [],
  });
  scenarios.push({
    name: `basic/long-follow/w${cols}`,
    cols,
    setup: `tui.addChild(numbered(30)); tui.addChild(new Fill(2, '='));`,
    steps: [`tui.scrollBy(-5);`, `tui.scrollBy(2);`, `tui.scrollToTop();`, `tui.scrollToBottom();`],
  });
}

scenarios.push({
  name: "basic/stop-preserve/w20",
  setup: `tui.addChild(numbered(12));`,
  steps: [`tui.scrollBy(-3);`],
  stop: "{ preserveScreen: true }",
});
scenarios.push({
  name: "basic/no-mouse",
  options: "{ mouse: false }",
  setup: `tui.addChild(numbered(3));`,
  steps: [],
});
scenarios.push({
  name: "basic/hardware-cursor",
  hw: true,
  setup:
    `class Cur { constructor() { this.focused = false; } render(w) { return ['> ab' + T.CURSOR_MARKER + 'cd']; } invalidate() {} handleInput() {} }
    globalThis.cur = new Cur(); tui.addChild(numbered(3)); tui.addChild(cur); tui.setFocus(cur);`,
  steps: [``, `tui.setShowHardwareCursor(false);`],
});

// Growing content: followed at the end, kept when scrolled away.
scenarios.push({
  name: "grow/following",
  setup: `globalThis.doc = numbered(4); tui.addChild(doc);`,
  steps: [
    `doc.lines.push('five', 'six', 'seven');`,
    `doc.lines.push('eight');`,
    `doc.lines[7] = 'EIGHT';`,
    `doc.lines.splice(2, 4);`,
  ],
});
scenarios.push({
  name: "grow/scrolled-away",
  setup: `globalThis.doc = numbered(10); tui.addChild(doc);`,
  steps: [
    `tui.scrollBy(-2);`,
    `doc.lines.push('a', 'b', 'c');`,
    `tui.scrollToBottom();`,
    `doc.lines.push('d');`,
  ],
});

// Keys.
scenarios.push({
  name: "keys/pages",
  setup: `tui.addChild(numbered(40));`,
  steps: [
    `input(${js(KEY.pageUp)});`,
    `input(${js(KEY.pageUp)});`,
    `input(${js(KEY.pageDown)});`,
    `input(${js(KEY.ctrlHome)});`,
    `input(${js(KEY.pageUp)});`,
    `input(${js(KEY.ctrlEnd)});`,
    `input('x');`,
    `input('\\x1b[I'); input('\\x1b[O');`,
  ],
});
scenarios.push({
  name: "keys/prompts",
  setup:
    `tui.addChild(new Lines(Array.from({ length: 30 }, (_, i) => i % 7 === 0 ? '\\x1b]133;A\\x07prompt ' + i : 'out ' + i)));`,
  steps: [
    `input(${js(KEY.ctrlUp)});`,
    `input(${js(KEY.ctrlUp)});`,
    `input(${js(KEY.ctrlDown)});`,
    `input(${js(KEY.ctrlHome)}); input(${js(KEY.ctrlUp)});`,
    `input(${js(KEY.ctrlDown)});`,
  ],
});

// Wheel.
scenarios.push({
  name: "wheel/sgr",
  setup: `tui.addChild(numbered(30));`,
  steps: [
    `sgr(64, 3, 2);`,
    `sgr(64, 3, 2); sgr(64, 3, 2);`,
    `sgr(65, 0, 0);`,
    `sgr(72, 5, 5);`,
    `sgr(73, 5, 5);`,
    `input('\\x1b[M' + String.fromCharCode(96) + '!!');`,
    `input('\\x1b[M' + String.fromCharCode(97) + '!!');`,
    `sgr(66, 1, 1);`,
  ],
});
scenarios.push({
  name: "wheel/lines3",
  options: "{ wheelScrollLines: 3 }",
  setup: `tui.addChild(numbered(30));`,
  steps: [`sgr(64, 0, 0);`, `tui.setWheelScrollLines(2); sgr(64, 0, 0);`, `sgr(65, 0, 0); sgr(65, 0, 0);`],
});

// Resizes.
scenarios.push({
  name: "resize/grow-shrink",
  setup: `tui.addChild(numbered(15)); tui.addChild(new Fill(3, '#'));`,
  steps: [`resize(30, 8);`, `resize(10, 4);`, `tui.scrollBy(-4);`, `resize(25, 10);`, ``],
});

// Layout roots.
const LAYOUT = `
  globalThis.body = new T.ScrollView(numbered(25, 'body'), { scrollbar: 'always' });
  globalThis.side = new T.ScrollView(numbered(12, 'side'), { overscroll: 'contain', scrollbar: 'auto', scrollbarHideDelayMs: 60000 });
  const main = new T.HStack([{ component: body, grow: 1 }, { component: side, basis: 8 }], { gap: 1 });
  globalThis.root = new T.VStack([new Lines(['HEADER']), { component: main, grow: 1 }, new Lines(['footer'])]);
  tui.setLayoutRoot(root);`;
scenarios.push({
  name: "layout/fixed-regions",
  cols: 30,
  rows: 8,
  setup: LAYOUT,
  steps: [
    `tui.scrollBy(3);`,
    `sgr(65, 25, 3);`,
    `sgr(65, 25, 3); sgr(65, 25, 3); sgr(65, 25, 3); sgr(65, 25, 3); sgr(65, 25, 3); sgr(65, 25, 3); sgr(65, 25, 3);`,
    `sgr(64, 2, 3);`,
    `sgr(65, 2, 3);`,
    `resize(40, 12);`,
    `tui.setLayoutRoot(undefined); tui.addChild(numbered(3, 'plain'));`,
  ],
});
scenarios.push({
  name: "layout/scrollbar-drag",
  cols: 30,
  rows: 8,
  setup: LAYOUT,
  steps: [
    `sgr(35, 20, 3);`,
    `sgr(0, 20, 3);`,
    `sgr(32, 20, 5);`,
    `sgr(32, 20, 1);`,
    `sgr(0, 20, 6, true);`,
    `sgr(0, 20, 6);`,
    `sgr(0, 20, 6, true); sgr(35, 2, 2);`,
  ],
});
scenarios.push({
  name: "layout/nested-chain",
  cols: 24,
  rows: 8,
  setup: `
    globalThis.inner = new T.ScrollView(numbered(6, 'in'));
    const doc = new T.VStack([numbered(4, 'top'), { component: inner, basis: 3 }, numbered(10, 'bottom')]);
    globalThis.outer = new T.ScrollView(doc, { primary: true, follow: 'end', scrollbar: 'always' });
    tui.setLayoutRoot(outer);`,
  steps: [
    `sgr(64, 1, 1);`,
    `sgr(64, 1, 2); sgr(64, 1, 2);`,
    `sgr(65, 1, 2);`,
    `tui.scrollToTop();`,
    `sgr(64, 1, 5);`,
  ],
  extra: `{ inner: inner.scrollTop, outer: outer.scrollTop }`,
});
scenarios.push({
  name: "layout/align-visible",
  cols: 40,
  rows: 6,
  setup: `
    const left = new Lines(['L1', 'L2', 'L3', 'L4']);
    const wide = { component: new Lines(['only when wide']), visible: (v) => v.width >= 30 };
    const row = new T.HStack([left, { component: new Lines(['mid']), grow: 1 }, wide], { align: 'center', gap: 2 });
    tui.setLayoutRoot(new T.VStack([row, { component: new Fill(9, '.'), grow: 1, minSize: 1 }], { gap: 1 }));`,
  steps: [`resize(20, 6);`, `resize(40, 3);`],
});

// Mouse events to components.
scenarios.push({
  name: "mouse/components",
  cols: 20,
  rows: 6,
  setup: `
    globalThis.a = new Clicky('a', ['button A'], { handled: true });
    globalThis.b = new Clicky('b', ['capture B'], (e) => e.type === 'press' ? { capture: true } : { handled: true, render: false });
    const region = new T.MouseRegion(new Lines(['region']), (e) => { events.push('region:' + e.type + ':' + e.x + ',' + e.y); return { handled: true }; });
    tui.setLayoutRoot(new T.VStack([a, b, region, new Lines(['plain text'])]));`,
  steps: [
    `sgr(0, 2, 0); sgr(0, 2, 0, true);`,
    `sgr(0, 2, 0); sgr(0, 2, 0, true);`,
    `sgr(0, 3, 1); sgr(32, 6, 4); sgr(0, 6, 4, true);`,
    `sgr(0, 1, 2); sgr(0, 1, 2, true);`,
    `sgr(35, 4, 3); sgr(64, 4, 0);`,
    `sgr(2, 1, 0); sgr(2, 1, 0, true);`,
  ],
});

scenarios.push({
  name: "mouse/implicit-children",
  cols: 20,
  rows: 5,
  setup: `tui.addChild(numbered(6));
    tui.addChild(new Clicky('child', ['click me', 'second row'], (e) => e.type === 'wheel' ? undefined : { handled: true }));
    tui.addChild(numbered(2, 'tail'));`,
  steps: [
    `sgr(0, 3, 1); sgr(0, 3, 1, true);`,
    `tui.scrollBy(-2);`,
    `sgr(0, 4, 3); sgr(0, 4, 3, true);`,
    `sgr(65, 4, 3);`,
  ],
});

// Selection and copying.
scenarios.push({
  name: "select/drag-osc52",
  cols: 24,
  setup:
    `tui.addChild(new Lines(['alpha beta gamma', 'path/to/file.ts here', '\\x1b[1mbold\\x1b[22m 你好 end', 'last line']));`,
  steps: [
    `sgr(0, 2, 0);`,
    `sgr(32, 8, 1);`,
    `sgr(32, 4, 2);`,
    `sgr(0, 4, 2, true);`,
    `sgr(0, 0, 3); sgr(0, 0, 3, true);`,
  ],
});
scenarios.push({
  name: "select/multi-click",
  cols: 24,
  options: `{ copySelection: async (t) => { copied.push(t); return t.length > 5 ? true : 'too short'; } }`,
  setup: `tui.addChild(new Lines(['alpha beta gamma', 'path/to/file.ts here', 'x']));`,
  steps: [
    `sgr(0, 3, 1); sgr(0, 3, 1, true);`,
    `sgr(0, 3, 1); sgr(0, 3, 1, true);`,
    `sgr(0, 3, 1); sgr(0, 3, 1, true);`,
    `sgr(0, 7, 0); sgr(0, 7, 0, true); sgr(0, 7, 0); sgr(0, 7, 0, true);`,
    `tui.resetTextSelection();`,
    `sgr(0, 0, 2); sgr(0, 0, 2, true); sgr(0, 0, 2); sgr(0, 0, 2, true);`,
  ],
});
scenarios.push({
  name: "select/no-copy-on-select",
  options: `{ copyOnSelect: false }`,
  setup: `tui.addChild(numbered(20));`,
  steps: [
    `sgr(0, 0, 1); sgr(32, 4, 3); sgr(0, 4, 3, true);`,
    `tui.scrollBy(-2);`,
    `input('\\x1b[O');`,
    `tui.setCopyOnSelect(!tui.getCopyOnSelect()); sgr(0, 0, 0); sgr(32, 3, 0); sgr(0, 3, 0, true);`,
  ],
});
scenarios.push({
  name: "select/link-click",
  options: `{ openUrl: (u) => copied.push('open ' + u) }`,
  setup:
    `tui.addChild(new Lines(['see \\x1b]8;;https://example.com\\x07the link\\x1b]8;;\\x07 here', 'next']));`,
  steps: [`sgr(0, 6, 0); sgr(0, 6, 0, true);`, `sgr(0, 1, 1); sgr(0, 1, 1, true);`],
});

// Flashes and the jump-to-end label.
scenarios.push({
  name: "flash/messages",
  cols: 24,
  setup: `tui.addChild(numbered(4));`,
  steps: [`tui.flash('Saved');`, `tui.flash('A much longer message than fits', 60000);`, `resize(8, 6);`],
});
scenarios.push({
  name: "indicator/jump-to-end",
  cols: 24,
  options: `{ scrollToEndIndicator: () => '\\x1b[7m ↓ new output \\x1b[27m' }`,
  setup: `tui.addChild(numbered(20));`,
  steps: [`tui.scrollBy(-3);`, `sgr(35, 9, 5);`, `sgr(0, 9, 5);`, `tui.scrollBy(-1);`, `sgr(0, 0, 5);`],
});

// Search.
scenarios.push({
  name: "search/query-next-previous-close",
  cols: 50,
  rows: 10,
  setup:
    `tui.addChild(new Lines(Array.from({ length: 40 }, (_, i) => i % 6 === 0 ? 'match here ' + i + ' and Match again' : 'filler line ' + i)));`,
  steps: [
    `input(${js(KEY.search)});`,
    `input('m');`,
    `input('atch');`,
    `input(${js(KEY.enter)});`,
    `input(${js(KEY.ctrlG)}); input(${js(KEY.ctrlG)});`,
    `input(${js(KEY.shiftEnter)});`,
    `input('x');`,
    `input('\\x7f');`,
    `input(${js(KEY.escape)});`,
  ],
});
scenarios.push({
  name: "search/wrapped-and-none",
  cols: 40,
  rows: 8,
  setup:
    `tui.addChild(new Lines(['the quick brown', 'fox jumps over', 'the lazy dog', ...Array.from({ length: 20 }, (_, i) => 'pad ' + i)]));`,
  steps: [
    `input(${js(KEY.search)});`,
    `input('brown fox');`,
    `input(' jumps');`,
    `input('zzz');`,
    `input(${js(KEY.search)});`,
  ],
});
scenarios.push({
  name: "search/narrow",
  cols: 34,
  rows: 6,
  options:
    `{ searchMatchStyle: (t) => '[' + t + ']', searchCurrentMatchStyle: (t) => '<' + t + '>', searchNavigationButtonStyle: (t, h) => h ? '*' + t + '*' : t }`,
  setup: `tui.addChild(numbered(12, 'word'));`,
  steps: [
    `input(${js(KEY.search)});`,
    `input('word 1');`,
    `sgr(35, 20, 3);`,
    `sgr(0, 20, 3);`,
    `tui.stop(); tui.start();`,
  ],
});

// Selection auto-scroll while dragging on a scroll view's edge row (interval timers faked).
scenarios.push({
  name: "timers/selection-auto-scroll",
  cols: 20,
  fakeTimers: true,
  setup: `tui.addChild(numbered(30));`,
  steps: [
    `tui.scrollBy(-12);`,
    `sgr(0, 2, 2); sgr(32, 4, 5);`,
    `tick(); tick();`,
    `tick();`,
    `sgr(32, 3, 0);`,
    `tick(); tick(); tick();`,
    `sgr(32, 3, 3);`,
    `tick(); sgr(0, 3, 3, true);`,
  ],
  extra: `{ timers: timers.length, cleared: cleared.length }`,
});

// Images: Kitty placements re-placed by id and cropped at the viewport's edges; iTerm2 falls back to text.
const PNG =
  `(() => { const b = [137, 80, 78, 71, 13, 10, 26, 10, 0, 0, 0, 13, 73, 72, 68, 82, 0, 0, 0, 40, 0, 0, 0, 60, 8, 6, 0, 0, 0, 1, 2, 3, 4];
  return btoa(String.fromCharCode(...b)); })()`;
for (const protocol of ["kitty", "iterm2"]) {
  scenarios.push({
    name: `image/${protocol}`,
    cols: 30,
    rows: 6,
    setup: `T.setCapabilities({ images: ${js(protocol)}, trueColor: true, hyperlinks: true });
      T.setCellDimensions({ widthPx: 10, heightPx: 20 });
      tui.addChild(numbered(8));
      tui.addChild(new T.Image(${PNG}, 'image/png', { fallbackColor: (t) => '<' + t + '>' }, { maxWidthCells: 4, maxHeightCells: 3, imageId: 4242 }));
      tui.addChild(numbered(8, 'after'));`,
    steps: [
      `tui.scrollBy(-4);`,
      `tui.scrollBy(-2);`,
      `tui.scrollBy(-3);`,
      `tui.scrollBy(-2);`,
      `tui.scrollToTop();`,
      `tui.scrollToBottom();`,
      `resize(20, 5);`,
    ],
    extra:
      `(() => { const images = T.getCapabilities().images; T.resetCapabilitiesCache(); return { images }; })()`,
  });
}

// Overlays, focus, components that take viewport keys, wheel handled by a component, restarts.
scenarios.push({
  name: "misc/overlay-focus",
  cols: 30,
  rows: 8,
  setup: `tui.addChild(numbered(20));
    globalThis.box = new Clicky('overlay', ['+------+', '| menu |', '+------+'], (e) => e.type === 'press' ? { focus: true } : e.type === 'wheel' ? { handled: true } : undefined);
    box.handleInput = (d) => events.push('key:' + JSON.stringify(d));`,
  steps: [
    `globalThis.handle = tui.showOverlay(box, { anchor: 'center', width: 10 });`,
    `sgr(0, 12, 3); sgr(0, 12, 3, true);`,
    `sgr(64, 12, 3);`,
    `sgr(64, 1, 1);`,
    `input(${js(KEY.pageUp)}); input('q');`,
    `handle.setHidden(true); input(${js(KEY.pageUp)});`,
    `handle.setHidden(false); handle.hide();`,
    `sgr(0, 1, 6); sgr(32, 8, 7); sgr(0, 8, 7, true);`,
  ],
  extra: `{ viewport: T.isViewportTUI(tui), mode: tui.mode }`,
});
scenarios.push({
  name: "misc/captures-viewport-input",
  cols: 24,
  setup:
    `globalThis.ed = { focused: false, capturesViewportInput: true, render: (w) => ['> edit' + T.CURSOR_MARKER], invalidate() {},
      handleInput(d) { events.push('ed:' + JSON.stringify(d)); } };
    tui.addChild(numbered(20)); tui.addChild(ed); tui.setFocus(ed);`,
  steps: [
    `input(${js(KEY.pageUp)});`,
    `ed.capturesViewportInput = false; input(${js(KEY.pageUp)});`,
    `input(${js(KEY.ctrlEnd)});`,
  ],
});
scenarios.push({
  name: "misc/wheel-to-component",
  cols: 24,
  rows: 6,
  setup: `
    globalThis.wheel = new Clicky('wheel', ['wheel target', 'row 2'], (e) => e.type === 'wheel' ? { handled: true, render: e.wheelDelta < 0 } : undefined);
    const list = new T.ScrollView(numbered(20, 'item'), { scrollbar: 'auto', scrollbarHideDelayMs: 60000 });
    tui.setLayoutRoot(new T.VStack([{ component: wheel, shrink: 0 }, { component: list, grow: 1 }]));`,
  steps: [
    `sgr(64, 2, 0);`,
    `sgr(65, 2, 1);`,
    `sgr(65, 2, 3); sgr(65, 2, 3);`,
    `sgr(35, 23, 3);`,
    `sgr(35, 23, 4);`,
    `sgr(35, 5, 4);`,
    `sgr(73, 5, 4);`,
  ],
});
scenarios.push({
  name: "misc/restart-and-roots",
  cols: 20,
  setup: `globalThis.a = numbered(10, 'a'); globalThis.b = numbered(3, 'b'); tui.addChild(a);`,
  steps: [
    `tui.scrollBy(-2);`,
    `tui.stop({ preserveScreen: true }); tui.start();`,
    `tui.setLayoutRoot(b); tui.setLayoutRoot(b);`,
    `tui.invalidate(); tui.requestRender(true);`,
    `tui.stop(); tui.start(); tui.setLayoutRoot(undefined);`,
  ],
  extra: `{ prefix: tui.getExitRestorePrefix(), suffix: tui.getExitRestoreSuffix(), lines: tui.render(12) }`,
});
scenarios.push({
  name: "misc/cursor-in-clipped-box",
  cols: 20,
  rows: 6,
  hw: true,
  setup:
    `globalThis.ed = { focused: true, render: (w) => ['e0', 'e1', 'e2', 'e3' + T.CURSOR_MARKER + 'x', 'e4'], invalidate() {}, handleInput() {} };
    tui.setLayoutRoot(new T.VStack([numbered(2, 'top'), { component: ed, basis: 2 }, { component: numbered(5, 'rest'), grow: 1 }]));
    tui.setFocus(ed);`,
  steps: [``, `resize(20, 4);`],
});

// The layout and the search box at every width (one group per width keeps each capture small).
for (const cols of [1, 20, 80, 200]) {
  scenarios.push({
    name: `width${cols}/layout`,
    cols,
    rows: 7,
    setup: LAYOUT,
    steps: [
      `tui.scrollBy(-3);`,
      `sgr(65, ${Math.max(0, cols - 3)}, 3);`,
      `sgr(35, ${Math.max(0, cols - 1)}, 2);`,
      `resize(${cols}, 9);`,
    ],
  });
  scenarios.push({
    name: `width${cols}/search`,
    cols,
    rows: 7,
    setup:
      `tui.addChild(new Lines(Array.from({ length: 30 }, (_, i) => i % 4 === 0 ? 'the needle ' + i + ' 你好 needle' : 'hay ' + i)));`,
    steps: [
      `input(${js(KEY.search)});`,
      `input('needle');`,
      `input(${js(KEY.enter)});`,
      `input(${js(KEY.shiftEnter)}); input(${js(KEY.shiftEnter)});`,
      `input(${js(KEY.escape)});`,
    ],
  });
}

Deno.test("TuiAltScreen writes the same bytes as pi-tui 1.6.0 (frames, scrolling, wheel, layout, mouse, selection, search, stop)", async () => {
  // One capture per group of scenarios (its first name segment), so that no case runner's output nears
  // a pipe's 64 KiB.
  const groups = new Map<string, TuiCase[]>();
  for (const scenario of scenarios) {
    const group = scenario.name.split("/")[0];
    groups.set(group, [...(groups.get(group) ?? []), altScreenCase(scenario)]);
  }
  const failures: string[] = [];
  for (const [group, cases] of groups) {
    await compareWithPiTui(`alt_screen_${group}`, cases).catch((e: Error) => failures.push(e.message));
  }
  if (failures.length > 0) throw new Error(failures.join("\n\n"));
});
