/**
 * Conformance of SettingsList with pi-tui 1.6.0: values cycling, submenus (done with a value,
 * cancel, navigateTo), fuzzy search through the Input field, scrolling, descriptions, mouse,
 * with the render recorded after every key, at widths 1/20/80/200.
 */
import { compareByWidth } from "../support/tui_case_helpers.ts";
import { js, type TuiCase } from "../support/tui_oracle.ts";

const THEME = `{
  label: (s, sel) => sel ? '\\x1b[1m' + s + '\\x1b[22m' : s,
  value: (s, sel) => sel ? '<' + s + '>' : '(' + s + ')',
  description: (s) => '\\x1b[2m' + s + '\\x1b[22m',
  cursor: '→ ',
  hint: (s) => '#' + s,
}`;

/** Items as JS source, since submenus are functions: a SelectList submenu from the kit itself. */
const ITEMS = `[
  { id: 'theme', label: 'Theme', currentValue: 'dark', values: ['dark', 'light', 'auto'], description: 'Colour theme of the interface' },
  { id: 'model', label: 'Model', currentValue: 'claude', submenu: (current, done) => {
      const l = new T.SelectList([{ value: 'claude', label: 'claude' }, { value: 'gpt', label: 'gpt' }, { value: 'gemini', label: 'gemini' }], 5,
        { selectedPrefix: (s) => s, selectedText: (s) => '*' + s, description: (s) => s, scrollInfo: (s) => s, noMatch: (s) => s });
      l.setSelectedIndex(['claude', 'gpt', 'gemini'].indexOf(current));
      l.onSelect = (i) => done(i.value);
      l.onCancel = () => done();
      return l;
    } },
  { id: 'jump', label: 'Jump to thinking', currentValue: '→', submenu: (current, done) => ({
      render: (w) => ['jump submenu ' + current],
      handleInput: (d) => { if (d === '\\r') done(undefined, { navigateTo: 'thinking' }); else done('j:' + d); },
    }) },
  { id: 'thinking', label: 'Thinking level', currentValue: 'medium', values: ['off', 'low', 'medium', 'high'],
    submenu: (current, done) => ({ render: () => ['thinking submenu ' + current], handleInput: (d) => done(d === '\\r' ? 'high' : undefined) }) },
  { id: 'cjk', label: '中文设置项', currentValue: '开启', values: ['开启', '关闭'], description: '这是一个中文描述，用于测试宽字符的换行处理' },
  { id: 'emoji', label: '🚀 Rockets', currentValue: '👍🏽 yes', values: ['👍🏽 yes', '👎 no'] },
  { id: 'ansi', label: '\\x1b[35mStyled\\x1b[39m', currentValue: '\\x1b[4munderlined value\\x1b[24m', values: [] },
  { id: 'long', label: 'A label that is much longer than thirty-six columns wide', currentValue: 'a value that is long enough to be truncated on narrow widths', description: 'line one\\nline two with \\x1b[31mred\\x1b[39m' },
  { id: 'unknown', label: 'Unknown value', currentValue: 'zzz', values: ['a', 'b'] },
  { id: 'plain', label: 'Plain', currentValue: '' },
]`;

const KEYS: Record<string, string> = {
  up: "\x1b[A",
  down: "\x1b[B",
  left: "\x1b[D",
  pgup: "\x1b[5~",
  pgdn: "\x1b[6~",
  enter: "\r",
  space: " ",
  esc: "\x1b",
  bs: "\x7f",
  t: "t",
  h: "h",
  i: "i",
  n: "n",
  k: "k",
  z: "z",
  x: "x",
};

function drive(
  name: string,
  opts: {
    items?: string;
    maxVisible?: number;
    search?: boolean;
    setup?: string;
    width: number;
    keys: string[];
  },
): TuiCase {
  const keys = opts.keys.map((k) => KEYS[k]);
  return {
    name,
    body: `
      const log = [];
      const items = ${opts.items ?? ITEMS};
      const list = new T.SettingsList(items, ${opts.maxVisible ?? 4}, ${THEME},
        (id, v) => log.push('change:' + id + '=' + v), () => log.push('cancel')${
      opts.search ? ", { enableSearch: true }" : ""
    });
      ${opts.setup ?? ""}
      const frames = [list.render(${opts.width})];
      for (const k of ${js(keys)}) { list.handleInput(k); frames.push(list.render(${opts.width})); }
      return { frames, log, values: items.map((i) => i.currentValue) };
    `,
  };
}

export function cases(): TuiCase[] {
  const out: TuiCase[] = [];
  const sequences: Record<string, string[]> = {
    cycle: ["enter", "enter", "space", "down", "down", "down", "down", "enter", "space"],
    scroll: ["down", "down", "down", "down", "down", "down", "down", "down", "down", "down", "up", "up"],
    pages: ["pgdn", "pgdn", "pgdn", "pgup", "esc"],
    submenu: ["down", "enter", "down", "enter", "enter", "esc", "up", "esc"],
    navigate: ["down", "down", "enter", "enter", "enter", "x"],
    submenu_value: ["down", "down", "enter", "z", "down"],
  };
  for (const width of [1, 20, 80, 200]) {
    for (const [seq, keys] of Object.entries(sequences)) {
      out.push(drive(`keys/${seq}/w${width}`, { width, keys }));
    }
    out.push(
      drive(`search/w${width}`, {
        width,
        search: true,
        keys: [
          "t",
          "h",
          "i",
          "n",
          "k",
          "down",
          "enter",
          "bs",
          "bs",
          "bs",
          "bs",
          "bs",
          "left",
          "space",
          "enter",
        ],
      }),
    );
    out.push(
      drive(`search-nomatch/w${width}`, {
        width,
        search: true,
        keys: ["z", "z", "x", "down", "enter", "bs"],
      }),
    );
    out.push(
      drive(`search-space/w${width}`, { width, search: true, keys: ["space", "t", "space", "h", "esc"] }),
    );
    out.push(drive(`empty/w${width}`, { width, items: "[]", keys: ["down", "enter", "esc"] }));
    out.push(
      drive(`empty-search/w${width}`, { width, items: "[]", search: true, keys: ["down", "t", "esc"] }),
    );
  }
  out.push(
    drive("maxVisible1/w40", { width: 40, maxVisible: 1, keys: ["down", "down", "pgdn", "up"] }),
    drive("maxVisible20/w40", { width: 40, maxVisible: 20, keys: ["up", "enter"] }),
    drive("updateValue-and-selectItem/w60", {
      width: 60,
      setup:
        "list.updateValue('theme', 'light'); list.updateValue('nope', 'x'); list.selectItem('cjk'); list.selectItem('nope');",
      keys: ["enter"],
    }),
    drive("selectItem-with-search/w60", {
      width: 60,
      search: true,
      setup: "list.handleInput('e'); list.selectItem('theme'); list.selectItem('plain');",
      keys: ["enter"],
    }),
    drive("cursor-theme-wide/w50", {
      width: 50,
      setup: "",
      items:
        `[{ id: 'a', label: 'Alpha', currentValue: 'one', values: ['one', 'two'] }, { id: 'b', label: 'B', currentValue: 'x' }]`,
      keys: ["down", "up", "enter"],
    }),
    {
      name: "invalidate-reaches-submenu",
      body: `
        let n = 0;
        const items = [{ id: 's', label: 'S', currentValue: 'v', submenu: () => ({ render: () => ['sub ' + n], invalidate: () => { n++; } }) }];
        const list = new T.SettingsList(items, 3, ${THEME}, () => {}, () => {});
        list.invalidate(); list.handleInput('\\r'); list.invalidate(); list.invalidate();
        return [n, list.render(20), list.capturesViewportInput];
      `,
    },
    {
      name: "mouse",
      body: `
        const log = [];
        const items = ${ITEMS};
        const list = new T.SettingsList(items, 4, ${THEME}, (id, v) => log.push(id + '=' + v), () => log.push('cancel'));
        const ev = (type, y, extra) => ({ type, button: type === 'wheel' ? 'none' : 'left', x: 3, y, screenX: 3, screenY: y, width: 60, height: 8, shift: false, alt: false, ctrl: false, ...extra });
        const results = [];
        for (const e of [ev('wheel', 0, { wheelDelta: 2 }), ev('wheel', 0, { wheelDelta: -1 }), ev('wheel', 0, { wheelDelta: -1 }),
          ev('move', 1), ev('press', 1, { button: 'middle' }), ev('press', 0), ev('click', 0), ev('press', 7), ev('press', 1), ev('click', 1),
          ev('click', 0), ev('press', 0)]) {
          results.push([list.handleMouse(e) ?? null, list.render(60)]);
        }
        return { results, log };
      `,
    },
    {
      name: "mouse-search",
      body: `
        const log = [];
        const items = ${ITEMS};
        const list = new T.SettingsList(items, 4, ${THEME}, (id, v) => log.push(id + '=' + v), () => {}, { enableSearch: true });
        const ev = (type, y, extra) => ({ type, button: 'left', x: 3, y, screenX: 3, screenY: y, width: 60, height: 8, shift: false, alt: false, ctrl: false, ...extra });
        const results = [];
        for (const e of [ev('press', 0), ev('press', 1), ev('press', 2), ev('click', 2), ev('press', 3), ev('click', 3)]) {
          const r = list.handleMouse(e);
          results.push([r ? { handled: r.handled ?? null, focus: r.focus ?? null } : null, list.render(60)]);
        }
        return { results, log };
      `,
    },
  );
  return out;
}

Deno.test("SettingsList renders, cycles, opens submenus and searches like pi-tui 1.6.0", async () => {
  await compareByWidth("settings_list", cases());
});
