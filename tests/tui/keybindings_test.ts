/**
 * Conformance of keybindings with pi-tui 1.6.0: the TUI_KEYBINDINGS table (ids, default keys,
 * descriptions), KeybindingsManager with defaults and with user overrides (single keys, lists,
 * unbinding, duplicates, unknown ids, conflicts, replacement), matching of input per keybinding
 * with the kitty protocol off and on, the global manager, and getSelectPageIndex.
 */
import { compareWithPiTui, js, type TuiCase } from "../support/tui_oracle.ts";

/** Inputs every keybinding is tried against. */
const POOL = [
  "\x1b[A",
  "\x1b[B",
  "\x1b[C",
  "\x1b[D",
  "\x1bb",
  "\x1bf",
  "\x1b[1;5D",
  "\x1b[1;5C",
  "\x1b[1;3D",
  "\x1b[H",
  "\x1b[F",
  "\x1b[5~",
  "\x1b[6~",
  "\x1b[5;5~",
  "\x1b[6;5~",
  "\x1b[1;5H",
  "\x1b[1;5F",
  "\x1b[1;6A",
  "\x1b[1;5A",
  "\x1b[1;6B",
  "\x1b[1;5B",
  "\x7f",
  "\x1b\x7f",
  "\x1b[3~",
  "\x1b[3;3~",
  "\x1bd",
  "\r",
  "\n",
  "\x1b\r",
  "\x1b[13;2u",
  "\t",
  "\x1b",
  "\x1b[27u",
  "\x01",
  "\x02",
  "\x03",
  "\x04",
  "\x05",
  "\x06",
  "\x07",
  "\x0b",
  "\x15",
  "\x17",
  "\x19",
  "\x1by",
  "\x1d",
  "\x1b\x1d",
  "\x1f",
  "\x1b[45;5u",
  "\x1b[102;6u",
  "\x1b[103;6u",
  "\x1b[99;5u",
  "a",
];

function managerCase(name: string, setup: string): TuiCase {
  return {
    name,
    body: `const m = ${setup};
      const out = { resolved: m.getResolvedBindings(), conflicts: m.getConflicts(), user: m.getUserBindings() };
      return out;`,
  };
}

function matchCase(name: string, setup: string): TuiCase {
  return {
    name,
    body: `const m = ${setup};
      const pool = ${js(POOL)};
      const out = {};
      for (const id of Object.keys(T.TUI_KEYBINDINGS)) {
        const row = [];
        for (const kitty of [false, true]) {
          T.setKittyProtocolActive(kitty);
          row.push(pool.filter((s) => m.matches(s, id)));
        }
        T.setKittyProtocolActive(false);
        out[id] = JSON.stringify(row[0]) === JSON.stringify(row[1]) ? row[0] : row;
      }
      return out;`,
  };
}

const manager = (user: unknown) => `new T.KeybindingsManager(T.TUI_KEYBINDINGS, ${js(user)})`;

const OVERRIDES: Record<string, unknown> = {
  none: {},
  single: { "tui.input.submit": "ctrl+s" },
  list: { "tui.editor.cursorLeft": ["ctrl+h", "left"] },
  unbind: { "tui.editor.cursorLeft": [], "tui.select.cancel": [] },
  duplicates: { "tui.editor.undo": ["ctrl+z", "ctrl+z", "ctrl+-", "ctrl+z"] },
  undefinedValue: { "tui.editor.undo": undefined },
  unknownId: { "tui.nope": "ctrl+x", "app.custom": ["ctrl+y"] },
  conflictTwo: { "tui.input.submit": "ctrl+s", "tui.select.confirm": "ctrl+s" },
  conflictThree: {
    "tui.editor.yank": ["ctrl+y", "alt+y"],
    "tui.editor.yankPop": ["alt+y"],
    "tui.input.copy": ["alt+y", "ctrl+y"],
  },
  conflictWithDefaultOnly: { "tui.input.submit": "ctrl+c" },
  conflictUnknownIgnored: { "tui.nope": "ctrl+s", "tui.input.submit": "ctrl+s" },
  sameKeyTwiceInOne: { "tui.input.submit": ["ctrl+s", "ctrl+s"] },
  shiftedSpellings: { "tui.input.newLine": ["shift+enter", "alt+enter", "ctrl+shift+j"] },
  mixedCase: { "tui.editor.cursorUp": ["Ctrl+P", "UP"] },
  everything: {
    "tui.editor.cursorUp": ["up", "ctrl+p"],
    "tui.editor.cursorDown": ["down", "ctrl+n"],
    "tui.editor.historyPrevious": "alt+p",
    "tui.editor.historyNext": "alt+n",
    "tui.altScreen.lineUp": "ctrl+shift+up",
    "tui.altScreen.halfPageUp": ["ctrl+u"],
    "tui.editor.deleteToLineStart": ["ctrl+shift+backspace"],
  },
};

const PAGE_INDEX_INPUTS = ["\x1b[5~", "\x1b[6~", "\x1b[A", "x", "\x1b[5;5~", "\x1b[57421u"];
const PAGE_INDEX_STATES = [
  [0, 10, 5],
  [3, 10, 5],
  [9, 10, 5],
  [7, 10, 3],
  [0, 0, 5],
  [2, 1, 5],
  [4, 10, 0],
  [5, 10, 20],
];

const CASES: TuiCase[] = [
  { name: "table", body: "return T.TUI_KEYBINDINGS;" },
  ...Object.entries(OVERRIDES).map(([name, user]) => managerCase(`manager/${name}`, manager(user))),
  ...["none", "single", "list", "unbind", "conflictThree", "shiftedSpellings", "mixedCase", "everything"].map(
    (
      name,
    ) => matchCase(`matches/${name}`, manager(OVERRIDES[name])),
  ),
  {
    name: "manager/getters",
    body: `const m = ${manager(OVERRIDES.list)};
      const keys = m.getKeys("tui.editor.cursorLeft"); keys.push("x");
      const user = m.getUserBindings(); user["tui.input.submit"] = "ctrl+q";
      return { keys: m.getKeys("tui.editor.cursorLeft"), unknownKeys: m.getKeys("tui.unknown"),
        def: m.getDefinition("tui.editor.cursorLeft"), unknownDef: m.getDefinition("tui.unknown") ?? null,
        user: m.getUserBindings(), submit: m.getKeys("tui.input.submit"), unknownMatch: m.matches("\\r", "tui.unknown") };`,
  },
  {
    name: "manager/conflict-copies",
    body: `const m = ${manager(OVERRIDES.conflictTwo)};
      const c = m.getConflicts(); c[0].keybindings.push("x"); c.push({ key: "y", keybindings: [] });
      return m.getConflicts();`,
  },
  {
    name: "manager/setUserBindings",
    body: `const m = ${manager(OVERRIDES.conflictTwo)};
      const before = [m.getConflicts(), m.matches("\\x13", "tui.input.submit"), m.matches("\\r", "tui.input.submit")];
      m.setUserBindings({ "tui.input.submit": ["ctrl+q"] });
      const after = [m.getConflicts(), m.matches("\\x13", "tui.input.submit"), m.matches("\\x11", "tui.input.submit"),
        m.getResolvedBindings()["tui.select.confirm"]];
      m.setUserBindings({});
      return { before, after, reset: m.getKeys("tui.input.submit") };`,
  },
  {
    name: "manager/user-object-is-kept",
    body: `const user = { "tui.input.submit": "ctrl+s" };
      const m = new T.KeybindingsManager(T.TUI_KEYBINDINGS, user);
      user["tui.input.submit"] = "ctrl+q";
      return [m.getKeys("tui.input.submit"), m.getUserBindings()];`,
  },
  {
    name: "manager/custom-definitions",
    body:
      `const defs = { "app.run": { defaultKeys: "ctrl+r", description: "Run" }, "app.stop": { defaultKeys: ["ctrl+x", "escape"] },
        "app.none": { defaultKeys: [] } };
      const m = new T.KeybindingsManager(defs, { "app.stop": "ctrl+c", "app.run": "ctrl+c", "tui.input.submit": "ctrl+c" });
      return { resolved: m.getResolvedBindings(), conflicts: m.getConflicts(), run: m.matches("\\x03", "app.run"),
        submit: m.matches("\\r", "tui.input.submit"), def: m.getDefinition("app.none") };`,
  },
  {
    name: "manager/null-override",
    body: `const m = new T.KeybindingsManager(T.TUI_KEYBINDINGS, { "tui.input.submit": null });
      let threw = null;
      try { m.matches("\\r", "tui.input.submit"); } catch (e) { threw = e.constructor.name; }
      return { keys: m.getKeys("tui.input.submit"), resolved: m.getResolvedBindings()["tui.input.submit"], threw };`,
  },
  {
    name: "manager/prototype-named-override",
    body:
      `const m = new T.KeybindingsManager(T.TUI_KEYBINDINGS, { toString: "ctrl+s", "tui.input.submit": "ctrl+s" });
      return m.getConflicts();`,
  },
  {
    name: "global",
    body: `const first = T.getKeybindings();
      const same = first === T.getKeybindings();
      const defaults = first.getResolvedBindings();
      const custom = new T.KeybindingsManager(T.TUI_KEYBINDINGS, { "tui.select.up": "ctrl+p" });
      T.setKeybindings(custom);
      const swapped = T.getKeybindings() === custom;
      const up = T.getKeybindings().matches("\\x10", "tui.select.up");
      T.setKeybindings(first);
      return { same, swapped, up, restored: T.getKeybindings() === first, submit: defaults["tui.input.submit"] };`,
  },
  ...PAGE_INDEX_INPUTS.map((data) => ({
    name: `select-page-index/${JSON.stringify(data)}`,
    body: `const m = new T.KeybindingsManager(T.TUI_KEYBINDINGS);
      const custom = new T.KeybindingsManager(T.TUI_KEYBINDINGS, { "tui.select.pageUp": ["pageUp", "ctrl+pageUp"] });
      return ${js(PAGE_INDEX_STATES)}.map(([sel, count, size]) => [
        T.getSelectPageIndex(m, ${js(data)}, sel, count, size) ?? null,
        T.getSelectPageIndex(custom, ${js(data)}, sel, count, size) ?? null,
      ]);`,
  })),
];

/** Deliberate: a user entry named like an Object.prototype member is no keybinding (docs/differences.md). */
const DELIBERATE = ["manager/prototype-named-override"];

Deno.test(`keybindings: agree with pi-tui 1.6.0 (${CASES.length} cases)`, async () => {
  await compareWithPiTui("keybindings", CASES, DELIBERATE);
});
