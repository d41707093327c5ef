/**
 * Conformance of the TUI core with pi-tui 1.6.0: Container (concatenation, the same array while
 * children and their lines are unchanged, mouse routing to the child under the pointer),
 * compositeTuiLine (overlay text spliced into plain, styled, wide and linked lines at any column),
 * renderFakeCursor, CURSOR_MARKER, isFocusable and isViewportTUI, at widths 1/20/80/200.
 */
import { compareWithPiTui, js, type TuiCase } from "../support/tui_oracle.ts";

const WIDTHS = [1, 20, 80, 200];

const BASES: Record<string, string> = {
  plain: "The quick brown fox jumps over the lazy dog",
  empty: "",
  ansi: "\x1b[31mred\x1b[0m \x1b[1;32mbold green\x1b[22m still green\x1b[39m plain \x1b[4munder\x1b[24m",
  cjk: "中文字符混合English文本和日本語のテキスト",
  emoji: "emoji 🚀 rocket 👍🏽 thumbs 👨‍👩‍👧 family end",
  link: "see \x1b]8;;https://example.com\x07the link text\x1b]8;;\x07 after",
  bg: "\x1b[44m blue background across the line \x1b[0m",
  long: "x".repeat(250),
};

const OVERLAYS: Record<string, string> = {
  box: "[box]",
  styled: "\x1b[7minverse\x1b[27m",
  wide: "宽字符",
  over: "overlay text longer than its slot",
};

const cases: TuiCase[] = [];
/** Composite cases by width: one suite each, so no capture grows past what a pipe takes at once. */
const compositeCases: Record<number, TuiCase[]> = {};

for (const width of WIDTHS) {
  compositeCases[width] = [];
  for (const [baseName, base] of Object.entries(BASES)) {
    compositeCases[width].push({
      name: `composite/${baseName}/w${width}`,
      body: `
        const out = [];
        const overlays = ${js(OVERLAYS)};
        for (const [name, o] of Object.entries(overlays)) {
          for (const col of [...new Set([0, 3, Math.floor(${width} / 2), ${width} - 1])]) {
            for (const w of [1, 12]) {
              const line = T.compositeTuiLine(${js(base)}, o, col, w, ${width});
              out.push([name, col, w, line, T.visibleWidth(line)]);
            }
          }
        }
        return out;`,
    });
  }
}

const CONTAINER_PRELUDE = `
class Lines { constructor(lines) { this.lines = lines; this.renders = 0; }
  render(w) { this.renders++; return this.lines.map((l) => T.truncateToWidth(l, w)); } invalidate() { this.invalidated = true; } }
`;

for (const width of WIDTHS) {
  cases.push({
    name: `container/concat/w${width}`,
    body: `${CONTAINER_PRELUDE}
      const c = new T.Container();
      const a = new Lines(${js(Object.values(BASES).slice(0, 4))});
      const b = new Lines([]);
      const d = new Lines(${js(Object.values(BASES).slice(4))});
      c.addChild(a); c.addChild(b); c.addChild(d);
      const first = c.render(${width});
      const out = { first: [...first] };
      out.sameWhenUnchanged = c.render(${width}) === first;
      out.otherWidth = c.render(${width} + 1) === first;
      const again = c.render(${width});
      a.lines = [...a.lines];
      out.sameWhenCopiedEqual = c.render(${width}) === again;
      a.lines[0] = 'changed';
      const changed = c.render(${width});
      out.newWhenChanged = changed !== again;
      out.changed = [...changed];
      c.removeChild(b);
      out.sameAfterRemovingEmpty = c.render(${width}) === changed;
      c.removeChild(new Lines([]));
      c.invalidate();
      out.invalidated = [a.invalidated === true, d.invalidated === true, b.invalidated === true];
      c.clear();
      out.cleared = c.render(${width});
      out.renders = [a.renders, b.renders, d.renders];
      return out;`,
  });
  cases.push({
    name: `container/nested/w${width}`,
    body: `${CONTAINER_PRELUDE}
      const outer = new T.Container(); const inner = new T.Container();
      const a = new Lines(['inner a', '中文 inner']); const b = new Lines(['outer b']);
      inner.addChild(a); outer.addChild(inner); outer.addChild(b);
      const first = outer.render(${width});
      const innerFirst = inner.render(${width});
      const out = { lines: [...first], same: outer.render(${width}) === first, innerSame: inner.render(${width}) === innerFirst };
      a.lines.push('more');
      out.after = [...outer.render(${width})];
      out.innerChanged = inner.render(${width}) !== innerFirst;
      return out;`,
  });
  cases.push({
    name: `container/mouse/w${width}`,
    body: `${CONTAINER_PRELUDE}
      const log = [];
      class Clickable extends Lines { constructor(lines, result, name) { super(lines); this.result = result; this.name = name; }
        handleMouse(e) { log.push([this.name, e.x, e.y, e.width, e.height, e.screenX, e.screenY]); return this.result; } }
      const c = new T.Container();
      const top = new Clickable(['t0', 't1'], { handled: true }, 'top');
      const mid = new Clickable(['m0'], undefined, 'mid');
      const focus = new Clickable(['f0', 'f1', 'f2'], { focus: true, capture: true }, 'focus');
      focus.handleInput = () => {};
      c.addChild(top); c.addChild(mid); c.addChild(focus);
      c.render(${width});
      const results = [];
      for (const y of [-1, 0, 1, 2, 3, 5, 6, 9]) {
        const r = c.handleMouse({ type: 'press', button: 'left', x: 0, y, screenX: 4, screenY: y + 10, width: ${width}, height: 6, shift: false, alt: false, ctrl: false });
        results.push(r === undefined ? null : { handled: r.handled, capture: r.capture, focus: r.focus,
          target: r.target && [r.target.component.name, r.target.originX, r.target.originY, r.target.width, r.target.height],
          focusTarget: r.focusTarget === c ? 'container' : r.focusTarget?.name ?? null });
      }
      const wide = c.handleMouse({ type: 'click', button: 'left', x: 1, y: 0, screenX: 1, screenY: 0, width: ${width} + 7, height: 6, shift: false, alt: false, ctrl: false, clickCount: 2 });
      return { log, results, wide: wide?.target?.component.name ?? null };`,
  });
}

cases.push({
  name: "container/mouse/delegating-container",
  body: `
    const child = { render: () => ['c'], invalidate() {}, handleInput() {}, handleMouse: () => ({ focus: true }) };
    class Host extends T.Container { handleInput() {} }
    const host = new Host(); host.addChild(child);
    const r = host.handleMouse({ type: 'press', button: 'left', x: 0, y: 0, screenX: 0, screenY: 0, width: 10, height: 1, shift: false, alt: false, ctrl: false });
    return { focusTargetIsHost: r.focusTarget === host, targetIsChild: r.target.component === child };`,
});

for (const width of WIDTHS) {
  cases.push({
    name: `markers/w${width}`,
    body: `
      const text = 'abc'.repeat(${width});
      const fc = T.renderFakeCursor(text.slice(0, ${width}));
      return { cursor: T.CURSOR_MARKER, fake: fc, width: T.visibleWidth(fc), markerWidth: T.visibleWidth(T.CURSOR_MARKER + 'x'),
        composite: T.compositeTuiLine(text.slice(0, ${width}), fc, 0, Math.min(3, ${width}), ${width}) };`,
  });
}

cases.push({
  name: "guards",
  body: `
    return {
      focusable: [T.isFocusable(null), T.isFocusable({ render: () => [], invalidate() {} }),
        T.isFocusable({ focused: false, render: () => [], invalidate() {} })],
      viewport: [T.isViewportTUI({}), T.isViewportTUI({ [Symbol.for('@earendil-works/pi-tui/viewport')]: true })],
    };`,
});

Deno.test("Container and the cursor markers match pi-tui 1.6.0", async () => {
  await compareWithPiTui("tui_core", cases);
});

// The Node side of the harness loses output past one pipe buffer (64 KiB), so width 200 is split in two.
for (const width of WIDTHS) {
  const all = compositeCases[width];
  const parts = width === 200 ? [all.slice(0, 4), all.slice(4)] : [all];
  parts.forEach((part, i) => {
    const suite = `tui_composite_w${width}${parts.length > 1 ? `_${i + 1}` : ""}`;
    Deno.test(`compositeTuiLine matches pi-tui 1.6.0 at width ${width} (${suite})`, async () => {
      await compareWithPiTui(suite, part);
    });
  });
}
