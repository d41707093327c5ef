/**
 * The simple components inside a real TUI on a terminal emulator (TuiMainScreen over
 * VirtualTerminal, @xterm/headless): keys typed at the terminal reach the focused SelectList or
 * SettingsList, and the screen shows what they render after each key; a Loader's own timer redraws
 * the screen.
 */
import { assert, assertEquals } from "../support/assert.ts";
import { VirtualTerminal } from "../support/virtual_terminal.ts";
import {
  Box,
  Loader,
  type SelectItem,
  SelectList,
  type SelectListTheme,
  SettingsList,
  Spacer,
  Text,
  TuiMainScreen,
} from "../../src/tui/mod.ts";

const PLAIN_THEME: SelectListTheme = {
  selectedPrefix: (s) => s,
  selectedText: (s) => s,
  description: (s) => s,
  scrollInfo: (s) => s,
  noMatch: (s) => s,
};

const ITEMS: SelectItem[] = ["alpha", "beta", "gamma", "delta", "epsilon", "zeta"].map((v) => ({
  value: v,
  label: v,
  description: `the ${v} item`,
}));

function mount(columns: number, rows: number) {
  const terminal = new VirtualTerminal(columns, rows);
  const tui = new TuiMainScreen(terminal, false);
  return { terminal, tui };
}

/** The screen's rows, trailing blanks cut, up to the last non-blank one. */
async function screen(terminal: VirtualTerminal): Promise<string[]> {
  const rows = (await terminal.viewport()).map((row) => row.trimEnd());
  while (rows.length > 0 && rows[rows.length - 1] === "") rows.pop();
  return rows;
}

Deno.test("a focused SelectList in a TUI follows the keys typed at the terminal", async () => {
  const { terminal, tui } = mount(50, 8);
  const list = new SelectList(ITEMS, 3, PLAIN_THEME);
  const events: string[] = [];
  list.onSelect = (item) => events.push(`select ${item.value}`);
  list.onCancel = () => events.push("cancel");
  const box = new Box(1, 0);
  box.addChild(new Text("Pick one:", 0, 0));
  box.addChild(list);
  tui.addChild(box);
  tui.setFocus(list);
  tui.start();
  try {
    tui.renderNow();
    assertEquals(await screen(terminal), [
      " Pick one:",
      // 48 columns inside the box: the description gets what the 32-column label column and a
      // 2-column margin leave.
      " → alpha                           the alpha it",
      "   beta                            the beta ite",
      "   gamma                           the gamma it",
      "   (1/6)",
    ]);
    terminal.sendInput("\x1b[B");
    terminal.sendInput("\x1b[B");
    terminal.sendInput("\x1b[B");
    tui.renderNow();
    assertEquals((await screen(terminal)).slice(1), [
      "   gamma                           the gamma it",
      " → delta                           the delta it",
      "   epsilon                         the epsilon",
      "   (4/6)",
    ]);
    terminal.sendInput("\r");
    terminal.sendInput("\x1b[A");
    terminal.sendInput("\x1b");
    tui.renderNow();
    assertEquals(events, ["select delta", "cancel"]);
    assertEquals((await screen(terminal))[2], " → gamma                           the gamma it");
  } finally {
    tui.stop();
  }
});

Deno.test("a SettingsList in a TUI cycles a value and takes one from a SelectList submenu", async () => {
  const { terminal, tui } = mount(40, 12);
  const changes: string[] = [];
  const settings = new SettingsList(
    [
      { id: "theme", label: "Theme", currentValue: "dark", values: ["dark", "light"] },
      {
        id: "model",
        label: "Model",
        currentValue: "beta",
        submenu: (current, done) => {
          const sub = new SelectList(ITEMS.slice(0, 3), 5, PLAIN_THEME);
          sub.setSelectedIndex(ITEMS.findIndex((i) => i.value === current));
          sub.onSelect = (item) => done(item.value);
          sub.onCancel = () => done();
          return sub;
        },
      },
    ],
    5,
    { label: (s) => s, value: (s) => s, description: (s) => s, cursor: "> ", hint: (s) => s },
    (id, value) => changes.push(`${id}=${value}`),
    () => changes.push("cancel"),
  );
  tui.addChild(settings);
  tui.addChild(new Spacer(1));
  tui.setFocus(settings);
  tui.start();
  try {
    tui.renderNow();
    assertEquals(await screen(terminal), [
      "> Theme  dark",
      "  Model  beta",
      "",
      "  Enter/Space to change · Esc to cancel",
    ]);
    terminal.sendInput(" ");
    terminal.sendInput("\x1b[B");
    terminal.sendInput("\r");
    tui.renderNow();
    // The submenu replaces the list; its selection starts at the current value.
    assertEquals((await screen(terminal)).slice(0, 3), ["  alpha", "→ beta", "  gamma"]);
    terminal.sendInput("\x1b[B");
    terminal.sendInput("\r");
    tui.renderNow();
    assertEquals(await screen(terminal), [
      "  Theme  light",
      "> Model  gamma",
      "",
      "  Enter/Space to change · Esc to cancel",
    ]);
    assertEquals(changes, ["theme=light", "model=gamma"]);
  } finally {
    tui.stop();
  }
});

Deno.test("a Loader redraws the screen from its own timer", async () => {
  const { terminal, tui } = mount(30, 5);
  const loader = new Loader(tui, (s) => s, (s) => s, "Thinking", { frames: ["-", "+"], intervalMs: 10 });
  tui.addChild(loader);
  tui.start();
  try {
    tui.renderNow();
    const first = await screen(terminal);
    assertEquals(first, ["", " - Thinking"]);
    // No renderNow() here: the loader's timer asks the TUI for the next frame.
    const deadline = Date.now() + 5_000;
    let now = first;
    while (now[1] === first[1]) {
      assert(Date.now() < deadline, "the loader never redrew the screen");
      await new Promise((resolve) => setTimeout(resolve, 10));
      now = await screen(terminal);
    }
    assertEquals(now, ["", " + Thinking"]);
  } finally {
    loader.stop();
    tui.stop();
  }
});
