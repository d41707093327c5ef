/**
 * The fullscreen layout engine's internal names (pi-tui 1.6.0's dist/layout.js, layout-node.js and
 * components/stack.js, which its index does not export) give the same results as ours:
 * allocateStackSizes over flex options and sizes, visibleStackEntries, renderLayoutFrame on trees
 * of stacks and scroll views at widths 1/20/80/200 (painted lines, every box's rect and clip, the
 * primary scroll view), the render cache reuse, hit-testing (getLayoutBoxesAt, getScrollViewsAt,
 * getScrollViewBox) and scrollbar geometry.
 */
import { compareWithPiTui, js, type TuiCase } from "../support/tui_oracle.ts";
import { loadInternal } from "./colors_internal_modules.ts";

const IMPORTS = loadInternal("L", "layout.js", "layout.ts") +
  loadInternal("S", "components/stack.js", "components/stack.ts") +
  loadInternal("N", "layout-node.js", "layout_node.ts");

/** Entry option sets for allocateStackSizes, with intrinsic sizes. */
const ALLOCATIONS: [string, string, number[]][] = [
  ["plain", "[{}, {}, {}]", [3, 5, 2]],
  ["grow-one", "[{}, { grow: 1 }, {}]", [3, 5, 2]],
  ["grow-weights", "[{ grow: 1 }, { grow: 2 }, { grow: 3 }]", [1, 1, 1]],
  ["grow-max", "[{ grow: 1, maxSize: 4 }, { grow: 1 }]", [2, 2]],
  ["grow-all-max", "[{ grow: 1, maxSize: 3 }, { grow: 1, maxSize: 3 }]", [1, 1]],
  ["shrink-default", "[{}, {}]", [30, 10]],
  ["shrink-zero", "[{ shrink: 0 }, {}]", [30, 10]],
  ["shrink-min", "[{ minSize: 25 }, { minSize: 8 }]", [30, 10]],
  ["shrink-weights", "[{ shrink: 3 }, { shrink: 1 }, { shrink: 1 }]", [20, 20, 20]],
  ["basis-fixed", "[{ basis: 7 }, { basis: 'auto' }, { basis: 0 }]", [3, 5, 2]],
  ["basis-clamped", "[{ basis: 50, maxSize: 12 }, { basis: 1, minSize: 4 }]", [0, 0]],
  ["fractional", "[{ basis: 3.7, grow: 1 }, { basis: 2.2 }]", [0, 0]],
  ["negative", "[{ basis: -5 }, { minSize: -2, maxSize: -1 }]", [4, 4]],
  ["min-over-max", "[{ minSize: 9, maxSize: 3 }, {}]", [1, 1]],
  ["empty", "[]", []],
  ["single-grow", "[{ grow: 5 }]", [0]],
  ["missing-intrinsic", "[{}, {}, { grow: 1 }]", [4]],
];
const AVAILABLE = ["undefined", "0", "1", "10", "20", "47.9", "200"];
const GAPS = [0, 1, 3];

function allocationCases(): TuiCase[] {
  const out: TuiCase[] = [];
  for (const [name, entries, sizes] of ALLOCATIONS) {
    for (const available of AVAILABLE) {
      const gaps = available === "20" ? GAPS : [1];
      for (const gap of gaps) {
        out.push({
          name: `allocate/${name}/${available}/g${gap}`,
          body: `${IMPORTS}
            const entries = ${entries}.map((e) => ({ component: { render: () => [], invalidate() {} }, ...e }));
            return S.allocateStackSizes(entries, ${js(sizes)}, ${available}, ${gap});`,
        });
      }
    }
  }
  return out;
}

/** Component helpers for layout trees, and a serializer of boxes. */
const TREE = `
  const raw = (name, lines) => ({ name, render: (w) => lines.map((l) => T.truncateToWidth(l, w, '')), invalidate() {} });
  const numbered = (name, n) => raw(name, Array.from({ length: n }, (_, i) => name + ' ' + i));
  const nameOf = (c) => c.name ?? c.constructor?.name ?? '?';
  const box = (b) => ({ c: nameOf(b.component), rect: b.rect, clip: b.clip, off: b.lineOffset, sv: b.scrollView ? true : undefined,
    content: b.scrollContentLines?.length, children: b.children.map(box) });
`;

/** Layout trees as JS expressions (`root` and optionally named scroll views). */
const TREES: Record<string, string> = {
  leaf: `const root = numbered('leaf', 12);`,
  cursor: `const root = raw('cur', ['a', 'b', 'c', 'd', 'e' + T.CURSOR_MARKER, 'f', 'g', 'h', 'i', 'j']);`,
  scroll: `const sv = new T.ScrollView(numbered('doc', 30), { scrollbar: 'always' }); const root = sv;`,
  scrollFollow:
    `const sv = new T.ScrollView(numbered('doc', 30), { follow: 'end', scrollbar: 'auto' }); const root = sv;`,
  vstack: `const sv = new T.ScrollView(numbered('body', 20), { scrollbar: 'always' });
    const root = new T.VStack([raw('head', ['HEAD', 'second']), { component: sv, grow: 1 }, { component: raw('foot', ['FOOT']), basis: 1 }], { gap: 1 });`,
  hstack: `const a = new T.ScrollView(numbered('left', 15), { scrollbar: 'always' });
    const b = new T.ScrollView(numbered('right', 4), { primary: true });
    const root = new T.HStack([{ component: a, grow: 1 }, { component: raw('mid', ['|', '|']), basis: 1 }, { component: b, basis: 9 }], { gap: 1, align: 'center' });`,
  nested: `const inner = new T.ScrollView(numbered('in', 8), { scrollbar: 'always' });
    const doc = new T.VStack([numbered('top', 3), { component: inner, basis: 3 }, numbered('bottom', 6)]);
    const sv = new T.ScrollView(doc, { follow: 'end' }); const root = sv;`,
  squeezed:
    `const root = new T.HStack([{ component: raw('a', ['aaaa']), basis: 0 }, { component: raw('b', ['bbbb']), grow: 1 }, { component: raw('c', ['cc']), visible: (v) => v.width > 30 }]);`,
  styled:
    `const root = new T.VStack([raw('s', ['\\x1b[31mred\\x1b[0m 你好 👍🏽 end', '\\x1b]133;A\\x07prompt line', 'tab\\there']),
    { component: new T.ScrollView(raw('t', ['\\x1b[44mblue bg line that is long\\x1b[49m', 'x', 'y', 'z']), { scrollbar: 'always' }), basis: 2 }]);`,
};

function frameCases(): TuiCase[] {
  const out: TuiCase[] = [];
  for (const [name, tree] of Object.entries(TREES)) {
    for (const width of [1, 20, 80, 200]) {
      out.push({
        name: `frame/${name}/w${width}`,
        body: `${IMPORTS}${TREE}${tree}
          let requests = 0;
          const frame = L.renderLayoutFrame(root, ${width}, 8, () => requests++);
          const scrolled = typeof sv === 'undefined' ? undefined : (sv.scrollBy(3), L.renderLayoutFrame(root, ${width}, 8, () => requests++, frame.renderCache));
          return { lines: frame.lines, root: box(frame.root), primary: frame.primaryScrollView ? true : false,
            size: [frame.width, frame.height], cached: frame.renderCache.size, requests,
            scrolled: scrolled && { lines: scrolled.lines, top: sv.scrollTop } };`,
      });
    }
  }
  return out;
}

function hitCases(): TuiCase[] {
  const out: TuiCase[] = [];
  for (const name of ["vstack", "hstack", "nested"]) {
    out.push({
      name: `hit/${name}`,
      body: `${IMPORTS}${TREE}${TREES[name]}
        const frame = L.renderLayoutFrame(root, 30, 10, () => {});
        const points = [];
        for (const [x, y] of [[0, 0], [5, 2], [29, 3], [12, 5], [26, 9], [3, 7], [40, 4], [-1, 0]]) {
          points.push({ x, y, boxes: L.getLayoutBoxesAt(frame, x, y).map((b) => nameOf(b.component) + '@' + b.rect.x + ',' + b.rect.y),
            views: L.getScrollViewsAt(frame, x, y).map((v) => v.viewportHeight) });
        }
        const views = [];
        const visit = (b) => { if (b.scrollView) views.push(b.scrollView); b.children.forEach(visit); };
        visit(frame.root);
        return { points, geometry: views.map((v) => { const b = L.getScrollViewBox(frame, v);
          return [L.getScrollbarGeometry(b), L.getScrollbarGeometry(b, true), b.rect]; }) };`,
    });
  }
  return out;
}

const NODE_CASES: TuiCase[] = [{
  name: "node/protocol",
  body: `${IMPORTS}
    const plain = { render: () => [], invalidate() {} };
    const custom = { render: () => [], invalidate() {}, [N.LAYOUT_NODE]() { return { type: 'vstack', entries: [], gap: 2, align: 'end' }; } };
    const v = new T.VStack([plain, { component: plain, grow: 2.5, shrink: -1, visible: () => false }], { gap: 2.9, align: 'center' });
    const node = N.getLayoutNode(v);
    return { symbol: N.LAYOUT_NODE === Symbol.for('@earendil-works/pi-tui/layout-node'), plain: N.getLayoutNode(plain) ?? null,
      custom: N.getLayoutNode(custom), stack: { ...node, entries: node.entries.map((e) => ({ ...e, component: e.component === plain, visible: typeof e.visible })) },
      scroll: N.getLayoutNode(new T.ScrollView(plain)).type,
      visible: S.visibleStackEntries(node.entries, { width: 10, height: 10 }).length };`,
}];

Deno.test("layout engine internals equal pi-tui 1.6.0 (allocation, frames, hit-testing, scrollbars)", async () => {
  await compareWithPiTui("layout_allocate", allocationCases());
  await compareWithPiTui("layout_frame", frameCases().filter((c) => !c.name.endsWith("/w200")));
  await compareWithPiTui("layout_frame_w200", frameCases().filter((c) => c.name.endsWith("/w200")));
  await compareWithPiTui("layout_hit", [...hitCases(), ...NODE_CASES]);
});
