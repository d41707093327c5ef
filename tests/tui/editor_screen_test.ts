/**
 * The Editor inside a TuiMainScreen, against pi-tui 1.6.0: chat lines above a focused Editor, keys
 * sent through the terminal's input callback, and every byte the TUI writes recorded after each key
 * (differential updates, the hardware cursor placed at the Editor's CURSOR_MARKER for IME windows,
 * the fake cursor dropped, the popup growing and shrinking the frame). Also a subclass that
 * redraws its border the way pi's CustomEditor does.
 */
import { compareWithPiTui, js, type TuiCase } from "../support/tui_oracle.ts";
import { keys, PREAMBLE, SELECT_THEME } from "./editor_driver.ts";

function screenCase(
  name: string,
  opts: { columns: number; rows: number; chat: number; steps: string[][]; setup?: string },
): TuiCase {
  return {
    name,
    body: `${PREAMBLE}
      const writes = [];
      const term = {
        columns: ${opts.columns}, rows: ${opts.rows}, kittyProtocolActive: false,
        start(onInput) { this.onInput = onInput; }, stop() {}, drainInput: async () => {},
        write(d) { writes.push(d); }, moveBy(n) { writes.push('<move ' + n + '>'); },
        hideCursor() { writes.push('<hide>'); }, showCursor() { writes.push('<show>'); },
        clearLine() { writes.push('<clearLine>'); }, clearFromCursor() { writes.push('<clearFrom>'); },
        clearScreen() { writes.push('<clearScreen>'); }, setTitle() {}, setProgress() {}, setProgramStatus() {},
      };
      const tui = new T.TuiMainScreen(term);
      for (let i = 0; i < ${opts.chat}; i++) tui.addChild(new T.Text('message ' + i + ' 中文 🚀', 1, 0));
      const theme = { borderColor: (s) => '\\x1b[2m' + s + '\\x1b[22m', selectList: ${SELECT_THEME} };
      class BorderEditor extends T.Editor {
        renderTopBorder(width, hidden) { return hidden > 0 ? super.renderTopBorder(width, hidden) : '── status ' + '─'.repeat(Math.max(0, width - 10)); }
      }
      const ed = new BorderEditor(tui, theme, { paddingX: 1 });
      tui.addChild(ed);
      tui.setFocus(ed);
      ${opts.setup ?? ""}
      tui.start();
      const settle = () => new Promise((r) => setTimeout(r, 40));
      await settle();
      const frames = [writes.splice(0).join('')];
      for (const step of ${js(opts.steps)}) {
        for (const k of step) term.onInput(k);
        await settle();
        frames.push(writes.splice(0).join(''));
      }
      tui.stop();
      frames.push(writes.splice(0).join(''));
      return { frames, text: ed.getText(), cursor: ed.getCursor() };
    `,
  };
}

function cases(): TuiCase[] {
  const out: TuiCase[] = [];
  const scripts: Record<string, string[]> = {
    typing: ["hello", " world", "<left><left>", "<ctrl+a>", "<end>"],
    cjk: ["你好", "世界", "<left>", "<bs>"],
    wrap: ["the quick brown fox jumps over the lazy dog ".repeat(2), "<up>", "<ctrl+w>"],
    newlines: ["a<ctrl+j>b<ctrl+j>c<ctrl+j>d<ctrl+j>e<ctrl+j>f<ctrl+j>g", "<up><up><up>", "<bs>", "<enter>"],
  };
  for (const [label, steps] of Object.entries(scripts)) {
    for (const [columns, rows, chat] of [[30, 12, 3], [60, 20, 40]]) {
      out.push(
        screenCase(`screen/${label}/${columns}x${rows}/chat${chat}`, {
          columns,
          rows,
          chat,
          steps: steps.map(keys),
        }),
      );
    }
  }
  return out;
}

Deno.test("an Editor in a TuiMainScreen writes what pi-tui 1.6.0 writes", async () => {
  await compareWithPiTui("editor_screen", cases());
});
