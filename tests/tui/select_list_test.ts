/**
 * Conformance of SelectList with pi-tui 1.6.0: key sequences (arrows, page keys, Enter, Escape)
 * with the render recorded after every key, filters, layout options, custom truncation, mouse,
 * at widths 1/20/41/80/200 with ANSI, CJK and emoji labels and descriptions.
 */
import { compareByWidth } from "../support/tui_case_helpers.ts";
import { js, type TuiCase } from "../support/tui_oracle.ts";

/** Bracketing theme: every styled span is visible in the output. */
const THEME = `{
  selectedPrefix: (s) => '[P:' + s + ']',
  selectedText: (s) => '\\x1b[1m' + s + '\\x1b[22m',
  description: (s) => '\\x1b[2m' + s + '\\x1b[22m',
  scrollInfo: (s) => '{' + s + '}',
  noMatch: (s) => '!' + s + '!',
}`;

const ITEMS = [
  { value: "model", label: "model", description: "Select the model to use for this session" },
  { value: "compact", label: "compact", description: "Compact the conversation\nkeeping a summary" },
  { value: "clear", label: "", description: "Clear everything" },
  { value: "cjk", label: "中文命令名称", description: "描述：这是一个很长的中文描述文本" },
  { value: "emoji", label: "🚀 launch", description: "Launch 👍🏽 with emoji 👨‍👩‍👧 in the text" },
  { value: "ansi", label: "\x1b[31mred\x1b[39m label", description: "\x1b[32mgreen\x1b[39m description" },
  {
    value: "long",
    label: "a-very-long-command-name-that-exceeds-the-primary-column-width",
    description: "and a long description too, long enough to be cut on any usual terminal width at all",
  },
  { value: "nodesc", label: "no description" },
  { value: "tabbed", label: "tab\there", description: "tab\tin\tdescription" },
  { value: "copy", label: "copy", description: "   " },
  { value: "export", label: "export", description: "Export the session to HTML" },
  { value: "exit", label: "exit", description: "Quit" },
];

const KEYS: Record<string, string> = {
  up: "\x1b[A",
  down: "\x1b[B",
  pgup: "\x1b[5~",
  pgdn: "\x1b[6~",
  enter: "\r",
  esc: "\x1b",
  ctrlc: "\x03",
  x: "x",
  j: "j",
  k: "k",
  space: " ",
  ctrld: "\x04",
};

/** Builds a list, applies `setup`, then records the render and callbacks after each key. */
function drive(
  name: string,
  opts: {
    items?: unknown;
    maxVisible?: number;
    layout?: string;
    setup?: string;
    width: number;
    keys: string[];
  },
): TuiCase {
  const keys = opts.keys.map((k) => k === "restore" ? null : KEYS[k]);
  return {
    name,
    body: `
      const log = [];
      const list = new T.SelectList(${js(opts.items ?? ITEMS)}, ${opts.maxVisible ?? 5}, ${THEME}${
      opts.layout ? `, ${opts.layout}` : ""
    });
      list.onSelect = (i) => log.push('select:' + i.value);
      list.onCancel = () => log.push('cancel');
      list.onSelectionChange = (i) => log.push('change:' + i.value);
      ${opts.setup ?? ""}
      const frames = [list.render(${opts.width})];
      try {
        for (const k of ${js(keys)}) {
          // "restore" is no key: it puts the default keybindings back mid-sequence.
          if (k === null) T.setKeybindings(new T.KeybindingsManager(T.TUI_KEYBINDINGS));
          else list.handleInput(k);
          frames.push(list.render(${opts.width}));
        }
      } finally {
        T.setKeybindings(new T.KeybindingsManager(T.TUI_KEYBINDINGS));
      }
      const sel = list.getSelectedItem();
      return { frames, log, selected: sel ? sel.value : null };
    `,
  };
}

export function cases(): TuiCase[] {
  const out: TuiCase[] = [];
  const sequences: Record<string, string[]> = {
    down7: ["down", "down", "down", "down", "down", "down", "down"],
    upwrap: ["up", "up", "enter"],
    pages: ["pgdn", "pgdn", "pgdn", "pgup", "enter", "esc"],
    misc: ["x", "ctrlc", "down", "enter"],
  };
  for (const width of [1, 20, 41, 80, 200]) {
    for (const [seq, keys] of Object.entries(sequences)) {
      out.push(drive(`keys/${seq}/w${width}`, { width, keys }));
    }
    out.push(drive(`all-visible/w${width}`, { width, maxVisible: 20, keys: ["up", "down", "down"] }));
    out.push(drive(`max1/w${width}`, { width, maxVisible: 1, keys: ["down", "pgdn", "up"] }));
    out.push(drive(`max0/w${width}`, { width, maxVisible: 0, keys: ["down", "enter"] }));
    out.push(drive(`empty/w${width}`, { width, items: [], keys: ["down", "up", "pgdn", "enter", "esc"] }));
    out.push(
      drive(`filter-c/w${width}`, { width, setup: "list.setFilter('C');", keys: ["down", "down", "down"] }),
    );
    out.push(
      drive(`filter-none/w${width}`, { width, setup: "list.setFilter('zzz');", keys: ["down", "enter"] }),
    );
    out.push(
      drive(`layout-min10-max20/w${width}`, {
        width,
        layout: "{ minPrimaryColumnWidth: 10, maxPrimaryColumnWidth: 20 }",
        keys: ["down", "down", "down", "down"],
      }),
    );
    out.push(
      drive(`layout-swapped/w${width}`, {
        width,
        layout: "{ minPrimaryColumnWidth: 40, maxPrimaryColumnWidth: 8 }",
        keys: ["down", "down", "down"],
      }),
    );
    out.push(
      drive(`layout-truncate/w${width}`, {
        width,
        layout:
          "{ maxPrimaryColumnWidth: 16, truncatePrimary: (c) => c.text.length > c.maxWidth ? '…' + c.text.slice(-(c.maxWidth)) + (c.isSelected ? '*' : '') + c.columnWidth : c.text }",
        keys: ["down", "down", "down", "down", "down", "down"],
      }),
    );
  }
  out.push(
    drive("layout-min-only/w80", { width: 80, layout: "{ minPrimaryColumnWidth: 50 }", keys: ["down"] }),
    drive("layout-max-only/w80", { width: 80, layout: "{ maxPrimaryColumnWidth: 5 }", keys: ["down"] }),
    drive("layout-zero/w80", {
      width: 80,
      layout: "{ minPrimaryColumnWidth: 0, maxPrimaryColumnWidth: -3 }",
      keys: [],
    }),
    drive("setSelectedIndex/w60", {
      width: 60,
      setup:
        "list.setSelectedIndex(99); const a = list.getSelectedItem().value; list.setSelectedIndex(-4); log.push(a);",
      keys: ["up", "up"],
    }),
    drive("filter-reset-selection/w60", {
      width: 60,
      setup:
        "list.handleInput('\\x1b[B'); list.handleInput('\\x1b[B'); list.setFilter('e'); list.setFilter('');",
      keys: ["down"],
    }),
    drive("no-callbacks/w30", {
      width: 30,
      setup: "list.onSelect = undefined; list.onCancel = undefined;",
      keys: ["enter", "esc"],
    }),
    drive("user-keybindings/w60", {
      width: 60,
      // The list reads the global keybindings: j/k and space replace the arrows and Enter.
      setup: `T.setKeybindings(new T.KeybindingsManager(T.TUI_KEYBINDINGS, {
        'tui.select.down': 'j', 'tui.select.up': 'k', 'tui.select.confirm': 'space', 'tui.select.pageDown': 'ctrl+d' }));`,
      keys: ["j", "j", "down", "k", "space", "enter", "ctrld", "restore", "down", "enter"],
    }),
    {
      name: "capturesViewportInput-and-invalidate",
      body:
        `const l = new T.SelectList([], 3, ${THEME}); l.invalidate(); return [l.capturesViewportInput, l.getSelectedItem()];`,
    },
    {
      name: "mouse",
      body: `
        const log = [];
        const list = new T.SelectList(${js(ITEMS)}, 4, ${THEME});
        list.onSelect = (i) => log.push('select:' + i.value);
        list.onSelectionChange = (i) => log.push('change:' + i.value);
        const ev = (type, y, extra) => ({ type, button: type === 'wheel' ? 'none' : 'left', x: 3, y, screenX: 3, screenY: y, width: 60, height: 5, shift: false, alt: false, ctrl: false, ...extra });
        const results = [];
        for (const e of [ev('wheel', 0, { wheelDelta: 1 }), ev('wheel', 0, { wheelDelta: -3 }), ev('wheel', 0, { wheelDelta: -1 }),
          ev('wheel', 0, { wheelDelta: 0 }), ev('move', 2), ev('press', 2, { button: 'right' }), ev('press', 3), ev('click', 0),
          ev('press', 9), ev('release', 1), ev('press', 1), ev('click', 1), ev('press', -1)]) {
          results.push([list.handleMouse(e) ?? null, list.render(60)]);
        }
        const empty = new T.SelectList([], 4, ${THEME});
        return { results, log, empty: empty.handleMouse(ev('press', 0)) ?? null };
      `,
    },
  );
  return out;
}

Deno.test("SelectList renders and reacts to keys and the mouse like pi-tui 1.6.0", async () => {
  await compareByWidth("select_list", cases());
});
