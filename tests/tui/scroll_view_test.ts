/**
 * ScrollView and MouseRegion through the public API equal pi-tui 1.6.0's: ScrollView's inline
 * render (the blank scrollbar column of `scrollbar: "always"` at widths 1/20/80/200), its scroll
 * arithmetic driven through `updateLayout` (clamping, follow-end and its suppression, overscroll
 * remainders, start/end, scrollbar visibility and activity, render requests), its errors; and
 * MouseRegion's delegation of render, invalidate and mouse events.
 */
import { compareWithPiTui, js, type TuiCase } from "../support/tui_oracle.ts";

const PRELUDE = `
  let requests = 0;
  const request = () => { requests++; };
  const child = (lines) => ({ render: (w) => lines.map((l) => l.slice(0, Math.max(w, 1))), invalidate() {} });
  const state = (v) => ({ top: v.scrollTop, following: v.isFollowingEnd, vh: v.viewportHeight,
    bar: v.scrollbar, visible: v.isScrollbarVisible, active: v.isScrollbarActive, requests });
`;

const LINES = ["plain", "\x1b[32mgreen\x1b[39m", "你好世界", "👍🏽 wide", "a\tb", ""];

function renderCases(): TuiCase[] {
  const out: TuiCase[] = [];
  for (const scrollbar of ["hidden", "auto", "always"]) {
    for (const width of [1, 20, 80, 200]) {
      out.push({
        name: `render/${scrollbar}/w${width}`,
        body: `${PRELUDE}
          const v = new T.ScrollView(child(${js(LINES)}), { scrollbar: ${js(scrollbar)} });
          return { lines: v.render(${width}), contentWidth: v.getContentWidth(${width}), ...state(v) };`,
      });
    }
  }
  return out;
}

/** Scroll scripts: [name, options, content height, viewport height, operations]. */
const SCRIPTS: [string, string, number, number, string][] = [
  [
    "none/scrollBy",
    "{}",
    50,
    10,
    "out.push(v.scrollBy(5), v.scrollBy(100), v.scrollBy(-3), v.scrollBy(-100), v.scrollBy(0), v.scrollBy(NaN))",
  ],
  [
    "none/scrollTo",
    "{}",
    50,
    10,
    "v.scrollTo(7); out.push(state(v)); v.scrollTo(1e9); out.push(state(v)); v.scrollTo(-4); out.push(state(v)); v.scrollTo(NaN); v.scrollTo(3.9)",
  ],
  [
    "end/initial",
    "{ follow: 'end' }",
    50,
    10,
    "out.push(v.scrollBy(-1)); out.push(state(v)); out.push(v.scrollBy(1))",
  ],
  [
    "end/grow-while-following",
    "{ follow: 'end' }",
    50,
    10,
    "v.updateLayout(60, 10, request); out.push(state(v)); v.scrollBy(-5); v.updateLayout(80, 10, request)",
  ],
  [
    "end/disableFollow",
    "{ follow: 'end' }",
    50,
    10,
    "v.scrollTo(40, { disableFollow: true }); out.push(state(v)); v.updateLayout(55, 10, request); out.push(state(v)); v.scrollTo(45)",
  ],
  [
    "end/suppressed-then-away",
    "{ follow: 'end' }",
    50,
    10,
    "v.scrollTo(40, { disableFollow: true }); v.scrollBy(-2); out.push(state(v)); v.updateLayout(50, 10, request); v.scrollBy(2)",
  ],
  [
    "end/start-end",
    "{ follow: 'end' }",
    50,
    10,
    "v.scrollToStart(); out.push(state(v)); v.scrollToStart(); out.push(state(v)); v.scrollToEnd(); out.push(state(v)); v.scrollToEnd()",
  ],
  [
    "end/short-content",
    "{ follow: 'end' }",
    5,
    10,
    "v.scrollToStart(); out.push(state(v)); v.scrollBy(3); out.push(state(v)); v.scrollToEnd()",
  ],
  [
    "none/shrink-clamps",
    "{}",
    50,
    10,
    "v.scrollTo(35); v.updateLayout(20, 10, request); out.push(state(v)); v.updateLayout(20, 30, request)",
  ],
  [
    "auto/scroll-shows-bar",
    "{ scrollbar: 'auto', scrollbarHideDelayMs: 60000 }",
    50,
    10,
    "out.push(state(v)); v.scrollBy(3); out.push(state(v)); v.updateLayout(5, 10, request)",
  ],
  [
    "auto/active",
    "{ scrollbar: 'auto' }",
    50,
    10,
    "v.setScrollbarActive(true); out.push(state(v)); v.setScrollbarActive(true); v.scrollBy(1); out.push(state(v)); v.setScrollbarActive(false)",
  ],
  [
    "always/visible",
    "{ scrollbar: 'always' }",
    50,
    10,
    "out.push(state(v)); v.updateLayout(50, 0, request); out.push(state(v)); v.setScrollbar('hidden')",
  ],
  [
    "set-scrollbar",
    "{}",
    50,
    10,
    "v.setScrollbar('hidden'); out.push(state(v)); v.setScrollbar('auto'); v.scrollBy(2); out.push(state(v)); v.setScrollbar('always'); out.push(state(v)); v.setScrollbar('auto')",
  ],
  [
    "fractions",
    "{ scrollbarHideDelayMs: -5 }",
    12.7,
    3.2,
    "out.push(state(v)); v.scrollBy(2.9); out.push(state(v)); v.scrollBy(-0.5); v.scrollTo(Infinity)",
  ],
  [
    "primary-contain",
    "{ primary: true, overscroll: 'contain', axis: 'vertical' }",
    20,
    10,
    "out.push(v.primary, v.overscroll, v.followEnd); out.push(v.scrollBy(-3))",
  ],
];

function scrollCases(): TuiCase[] {
  return SCRIPTS.map(([name, options, content, viewport, ops]) => ({
    name: `scroll/${name}`,
    body: `${PRELUDE}
      const v = new T.ScrollView(child(['x']), ${options});
      const out = [state(v)];
      v.updateLayout(${content}, ${viewport}, request);
      out.push(state(v));
      ${ops};
      out.push(state(v));
      return out;`,
  }));
}

const ERROR_CASES: TuiCase[] = [
  {
    name: "error/axis",
    body: `new T.ScrollView({ render: () => [], invalidate() {} }, { axis: 'horizontal' });`,
  },
  {
    name: "error/addChild",
    body:
      `new T.ScrollView({ render: () => [], invalidate() {} }).addChild({ render: () => [], invalidate() {} });`,
  },
  {
    name: "error/removeChild",
    body: `const c = { render: () => [], invalidate() {} }; new T.ScrollView(c).removeChild(c);`,
  },
  { name: "error/clear", body: `new T.ScrollView({ render: () => [], invalidate() {} }).clear();` },
  {
    name: "children-and-invalidate",
    body: `let n = 0; const c = { render: () => ['a'], invalidate() { n++; } };
      const v = new T.ScrollView(c); v.invalidate(); return { children: v.children.length, same: v.children[0] === c, n };`,
  },
];

const EVENT = `{ type: 'press', button: 'left', x: 2, y: 1, screenX: 5, screenY: 7, width: 10, height: 3,
  shift: false, alt: false, ctrl: false }`;

const MOUSE_REGION_CASES: TuiCase[] = [
  [
    "child-handles",
    "(e) => ({ handled: true, render: false })",
    "(e) => { seen.push('region'); return { handled: true }; }",
  ],
  ["child-focus", "(e) => ({ focus: true })", "(e) => ({ handled: true })"],
  [
    "child-ignores",
    "(e) => undefined",
    "(e) => { seen.push('region:' + e.x + ',' + e.y); return { capture: true }; }",
  ],
  ["child-unhandled", "(e) => ({ handled: false })", "(e) => undefined"],
  ["no-child-handler", null, "(e) => ({ handled: true, focus: true })"],
].map(([name, childMouse, onMouse]) => ({
  name: `mouse-region/${name}`,
  body: `const seen = [];
    let invalidated = 0;
    const child = { render: (w) => ['child ' + w], invalidate() { invalidated++; } ${
    childMouse
      ? `, handleMouse: (e) => { seen.push('child:' + e.x + ',' + e.y); return (${childMouse})(e); }`
      : ""
  } };
    const region = new T.MouseRegion(child, ${onMouse});
    const result = region.handleMouse(${EVENT});
    region.invalidate();
    return { lines: region.render(7), result: result === undefined ? 'undefined' : { ...result,
      target: result.target && { ...result.target, component: result.target.component === child ? 'child' : 'other' },
      focusTarget: result.focusTarget && (result.focusTarget === child ? 'child' : 'other') }, seen, invalidated };`,
}));

Deno.test("ScrollView and MouseRegion behave like pi-tui 1.6.0 (inline render, scroll state, errors, mouse delegation)", async () => {
  await compareWithPiTui("scroll_view", [
    ...renderCases(),
    ...scrollCases(),
    ...ERROR_CASES,
    ...MOUSE_REGION_CASES,
  ]);
});
