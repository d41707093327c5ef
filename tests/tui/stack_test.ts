/**
 * HStack and VStack rendered inline equal pi-tui 1.6.0's: the lines at widths 1/20/80/200 for
 * children of fixed and width-dependent output, ANSI styles, CJK, emoji and tabs, with gaps,
 * grow/shrink/basis/min/max, alignment and viewport-dependent visibility, nested stacks, plus the
 * widths each child was asked to render at (the measuring passes are part of the contract).
 * One suite per width keeps each runner's output under a pipe's 64 KiB.
 */
import { js, type TuiCase } from "../support/tui_oracle.ts";
import { compareByWidth } from "../support/tui_case_helpers.ts";

/** Test components built inside a case body: they log the widths they are rendered at. */
const PRELUDE = `
  const calls = [];
  const raw = (name, lines) => ({ render(w) { calls.push(name + '@' + w); return lines; }, invalidate() {} });
  const fill = (name, ch, n) => ({ render(w) { calls.push(name + '@' + w);
    return Array.from({ length: n }, (_, i) => String(i % 10) + ch.repeat(Math.max(0, w - 1))); }, invalidate() {} });
  const wrap = (name, text) => ({ render(w) { calls.push(name + '@' + w); return T.wrapTextWithAnsi(text, w); }, invalidate() {} });
`;

/** Child sets, as JS array expressions over the prelude's helpers. */
const CHILDREN: Record<string, string> = {
  plain: `[raw('a', ['hello']), raw('b', ['world', 'again'])]`,
  styled:
    `[raw('a', ['\\x1b[31mred\\x1b[0m text', '\\x1b[1mbold']), raw('b', ['\\x1b[44mblue bg\\x1b[49m'])]`,
  cjk: `[raw('a', ['你好世界', '日本語']), { component: raw('b', ['👍🏽 ok', 'e\\u0301']), grow: 1 }]`,
  tabs: `[raw('a', ['a\\tb']), raw('b', ['x'])]`,
  grow: `[{ component: fill('a', 'a', 2), grow: 1 }, { component: fill('b', 'b', 3), grow: 2 }]`,
  basis:
    `[{ component: raw('a', ['abcdefghij']), basis: 4 }, { component: raw('b', ['xyz']), basis: 'auto', grow: 1, maxSize: 10 }, { component: raw('c', ['tail']), basis: 6, shrink: 0 }]`,
  minmax:
    `[{ component: wrap('a', 'the quick brown fox jumps over the lazy dog'), minSize: 5, maxSize: 12 }, { component: wrap('b', 'lorem ipsum dolor sit amet'), minSize: 3 }]`,
  overflow:
    `[wrap('a', 'one two three four five six'), wrap('b', 'seven eight nine ten eleven'), wrap('c', 'twelve thirteen fourteen')]`,
  visible:
    `[{ component: raw('side', ['SIDE']), visible: (v) => v.width >= 40 }, { component: wrap('main', 'main content that wraps around'), grow: 1 }]`,
  empty: `[]`,
  zero: `[{ component: raw('a', ['aaa']), basis: 0 }, raw('b', ['bbb'])]`,
  nested:
    `[new T.VStack([raw('a', ['top']), raw('b', ['bottom line'])], { gap: 1 }), { component: new T.HStack([raw('c', ['c1']), raw('d', ['d1', 'd2'])], { gap: 2 }), grow: 1 }]`,
};

const OPTIONS: Record<string, string> = {
  default: `{}`,
  gap2: `{ gap: 2 }`,
  center: `{ align: 'center', gap: 1 }`,
  end: `{ align: 'end' }`,
  start: `{ align: 'start', gap: 0.7 }`,
};

const WIDTHS = [1, 20, 80, 200];

function cases(kind: "HStack" | "VStack"): TuiCase[] {
  const out: TuiCase[] = [];
  for (const [childName, children] of Object.entries(CHILDREN)) {
    for (const [optionName, options] of Object.entries(OPTIONS)) {
      // Every child set with default options at every width; the other options at two widths.
      const widths = optionName === "default" ? WIDTHS : [20, 80];
      for (const width of widths) {
        out.push({
          name: `${kind}/${childName}/${optionName}/w${width}`,
          body: `${PRELUDE}
            const stack = new T.${kind}(${children}, ${options});
            const lines = stack.render(${js(width)});
            return { lines, calls };`,
        });
      }
    }
  }
  return out;
}

function mutationCases(kind: "HStack" | "VStack"): TuiCase[] {
  return [{
    name: `${kind}/add-remove-clear`,
    body: `${PRELUDE}
      const a = raw('a', ['A']); const b = raw('b', ['B']); const c = raw('c', ['C']);
      const stack = new T.${kind}([a], { gap: 1 });
      stack.addChild(b, { grow: 3, basis: 2, minSize: -4, maxSize: Infinity, shrink: NaN });
      stack.addChild(c);
      const before = stack.render(12);
      stack.removeChild(b);
      const removed = stack.render(12);
      const children = stack.children.length;
      stack.clear();
      return { before, removed, children, cleared: stack.render(12), after: stack.children.length, calls };`,
  }, {
    name: `${kind}/invalidate-and-mouse`,
    body: `${PRELUDE}
      let invalidated = 0;
      const a = { render: () => ['row a'], invalidate() { invalidated++; }, handleMouse: (e) => ({ handled: true }) };
      const stack = new T.${kind}([a, raw('b', ['row b'])]);
      stack.render(10);
      stack.invalidate();
      const event = { type: 'press', button: 'left', x: 1, y: 0, screenX: 1, screenY: 0, width: 10, height: 2, shift: false, alt: false, ctrl: false };
      const result = stack.handleMouse(event);
      return { invalidated, handled: result?.handled, target: result?.target?.originX };`,
  }];
}

Deno.test("HStack and VStack render like pi-tui 1.6.0 (widths, flex, alignment, visibility, nesting)", async () => {
  await compareByWidth("stack", [
    ...cases("HStack"),
    ...cases("VStack"),
    ...mutationCases("HStack"),
    ...mutationCases("VStack"),
  ]);
});
