/**
 * Conformance of Input with pi-tui 1.6.0, driven by the same raw keys on both sides: typing,
 * horizontal scrolling at widths 1 to 200 with CJK and emoji, word moves, kills and yanks, undo,
 * bracketed paste, prompt and placeholder, focus, submit and escape, and mouse presses.
 */
import { compareWithPiTui, type TuiCase } from "../support/tui_oracle.ts";
import { inputCase, keys, paste } from "./editor_driver.ts";

const TEXTS: Record<string, string> = {
  ascii: "The quick brown fox jumps over the lazy dog",
  cjk: "你好世界，这是一个测试。日本語のテキスト",
  emoji: "ok 👍🏽 family 👨‍👩‍👧 flags 🇯🇵 done",
  combining: "cafe\u0301 nai\u0308ve",
  long: "x".repeat(150) + " end",
};

function cases(): TuiCase[] {
  const out: TuiCase[] = [];
  for (const [label, text] of Object.entries(TEXTS)) {
    for (const width of [1, 3, 10, 20, 80, 200]) {
      out.push(inputCase(`type/${label}/w${width}`, {
        width,
        steps: [
          keys(text),
          keys("<home>"),
          keys("<right><right><right>"),
          keys("<alt+f><alt+f>"),
          keys("<ctrl+e>"),
        ],
      }));
    }
  }
  const sequences: Record<string, string[]> = {
    "kill-yank": [
      "one two three",
      "<ctrl+w>",
      "<ctrl+w>",
      "<ctrl+y>",
      "<ctrl+a><ctrl+k>",
      "<ctrl+y>",
      "<alt+y>",
    ],
    "kill-accumulate": ["aaa bbb ccc", "<ctrl+w><ctrl+w>", "<ctrl+y>", "<home><alt+d><alt+d>", "<ctrl+y>"],
    "ctrl-u": ["hello world", "<alt+b>", "<ctrl+u>", "<end><ctrl+y>", "<ctrl+u><ctrl+u>"],
    "yank-pop": [
      "a b c",
      "<ctrl+w>",
      "<bs>",
      "<ctrl+w>",
      "<bs><ctrl+w>",
      "<ctrl+y>",
      "<alt+y>",
      "<alt+y>",
      "<alt+y>",
    ],
    "undo": ["hello world", "<ctrl+->", "<ctrl+->", "abc<bs>", "<ctrl+->", "<ctrl+->", "<ctrl+->"],
    "delete": ["abcdef", "<home><del><ctrl+d>", "<end><del><bs>", "<alt+bs>", "<alt+del>"],
    "emoji-delete": ["a👨‍👩‍👧b", "<left><bs>", "<bs>", "<del>"],
    "words": [
      "foo.bar baz-qux  end",
      "<alt+b>",
      "<alt+b>",
      "<ctrl+left>",
      "<alt+right>",
      "<alt+f>",
      "<alt+f>",
    ],
    "submit-escape": ["value", "<enter>", "<ctrl+j>", "<esc>", "<ctrl+c>"],
    "controls-rejected": ["a\x07b", "<tab>", "\x1b[1;2P", "c"],
    "kitty": ["<kitty-a><kitty-A>", "<shift+space>"],
    "ctrl-b-f": ["abc", "<ctrl+b><ctrl+b>", "<ctrl+f>", "x"],
  };
  for (const [label, steps] of Object.entries(sequences)) {
    for (const width of [12, 40]) {
      out.push(inputCase(`keys/${label}/w${width}`, { width, steps: steps.map(keys) }));
    }
  }
  const pastes: Record<string, string[][]> = {
    basic: [keys("ab<left>"), [paste("XY")], keys("<ctrl+->")],
    newlines: [[paste("line one\r\nline two\nthree\rfour\tfive")]],
    split: [["\x1b[200~abc"], ["def\x1b[201~gh"], keys("i")],
    empty: [["\x1b[200~\x1b[201~"], keys("a")],
    long: [[paste("y".repeat(100))], keys("<home>"), keys("<end>")],
  };
  for (const [label, steps] of Object.entries(pastes)) {
    for (const width of [12, 40]) out.push(inputCase(`paste/${label}/w${width}`, { width, steps }));
  }
  const options: Record<string, string> = {
    prompt: "{ prompt: '$ ' }",
    "wide-prompt": "{ prompt: '你好> ' }",
    "empty-prompt": "{ prompt: '' }",
    placeholder: "{ placeholder: 'Type here…' }",
    "styled-placeholder":
      "{ placeholder: '搜索 files', placeholderStyle: (s) => '\\x1b[2m' + s + '\\x1b[22m' }",
    "emoji-placeholder": "{ placeholder: '👍🏽 ok' }",
  };
  for (const [label, opts] of Object.entries(options)) {
    for (const width of [1, 2, 4, 9, 30]) {
      for (const focused of [true, false]) {
        out.push(inputCase(`options/${label}/w${width}${focused ? "" : "/unfocused"}`, {
          width,
          focused,
          options: opts,
          steps: [keys("ab"), keys("<bs><bs>"), keys("wxyz0123456789")],
        }));
      }
    }
  }
  out.push(inputCase("setValue/cursor-clamp/w20", {
    width: 20,
    setup: "input.setValue('hello world'); input.handleInput('\\x05'); input.setValue('hi');",
    steps: [keys("!"), keys("<home>")],
  }));
  for (const width of [10, 30]) {
    const presses = [[0, 0], [2, 0], [5, 0], [9, 0], [29, 0], [3, 1]].map(([x, y]) =>
      `log.push(JSON.stringify(input.handleMouse({ type: 'press', button: 'left', x: ${x}, y: ${y}, screenX: ${x}, ` +
      `screenY: ${y}, width: ${width}, height: 1, shift: false, alt: false, ctrl: false })) + '|' + input.render(${width})[0]);`
    ).join(" ");
    out.push(inputCase(`mouse/press/w${width}`, {
      width,
      setup:
        `input.setValue('abcdefghijklmnopqrstuvwxyz 你好'); input.handleInput('\\x05'); input.render(${width}); ${presses}` +
        ` log.push(String(input.handleMouse({ type: 'click', button: 'left', x: 1, y: 0, screenX: 1, screenY: 0, width: ${width}, height: 1, shift: false, alt: false, ctrl: false })));`,
      steps: [keys("!")],
    }));
  }
  return out;
}

Deno.test("Input behaves as in pi-tui 1.6.0", async () => {
  await compareWithPiTui("input", cases());
});
