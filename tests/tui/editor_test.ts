/**
 * Editor behaviour that differs from pi-tui 1.6.0 on purpose: a grapheme wider than the whole wrap
 * width (CJK or emoji at width 1) gets a line of its own, where pi-tui recursed until the stack
 * overflowed (docs/differences.md).
 */
import { assertEquals } from "../support/assert.ts";
import { wordWrapLine } from "../../src/tui/components/editor.ts";
import { Editor } from "../../src/tui/mod.ts";
import type { TUI } from "../../src/tui/tui.ts";

Deno.test("wordWrapLine puts a grapheme wider than the width on a line of its own", () => {
  assertEquals(wordWrapLine("你好a", 1), [
    { text: "你", startIndex: 0, endIndex: 1 },
    { text: "好", startIndex: 1, endIndex: 2 },
    { text: "a", startIndex: 2, endIndex: 3 },
  ]);
  assertEquals(wordWrapLine("a👍🏽b", 1).map((c) => c.text), ["a", "👍🏽", "b"]);
});

Deno.test("an Editor one column wide shows CJK text a character a line", () => {
  const tui = { terminal: { rows: 40, columns: 1 }, requestRender() {} } as unknown as TUI;
  const editor = new Editor(tui, { borderColor: (s) => s, selectList: undefined as never });
  editor.setText("你好");
  assertEquals(editor.render(1), ["─", "你", "好\x1b_pi:fc\x07 \x1b_pi:/fc\x07", "─"]);
  editor.handleInput("\x1b[D");
  assertEquals(editor.getCursor(), { line: 0, col: 1 });
  assertEquals(editor.render(1), ["─", "你", "\x1b_pi:fc\x07好\x1b_pi:/fc\x07", "─"]);
});
