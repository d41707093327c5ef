/**
 * Conformance of the Editor's pastes and history with pi-tui 1.6.0: bracketed pastes (split over
 * chunks, CRLF, tabs, controls, CSI-u controls, paths after words), large pastes stored behind
 * `[paste #n …]` markers (atomic for moves, deletes and wrapping, renumbered when one goes,
 * expanded by getExpandedText and on submit), mouse clicks, and history browsing at the edges.
 */
import { compareWithPiTui, type TuiCase } from "../support/tui_oracle.ts";
import { editorCase, keys, paste } from "./editor_driver.ts";

const FIFTEEN_LINES = Array.from({ length: 15 }, (_, i) => `pasted line ${i + 1}`).join("\n");
const LONG_CHARS = "0123456789".repeat(120);
const TWELVE = Array.from({ length: 12 }, (_, i) => `l${i}`).join("\n");

function pasteCases(): TuiCase[] {
  const out: TuiCase[] = [];
  const scenarios: Record<string, string[][]> = {
    small: [[paste("hello pasted")], keys("<left>x"), keys("<ctrl+->")],
    multiline: [keys("ab<left>"), [paste("one\ntwo\nthree")], keys("<ctrl+->")],
    "crlf-tabs": [[paste("a\r\nb\rc\td")], keys("<ctrl+->")],
    controls: [[paste("x\x07y\x1bz\x00w")]],
    "csi-u-controls": [[paste("a\x1b[106;5ub\x1b[74;5uc\x1b[49;5ud")]],
    "path-after-word": [keys("see"), [paste("/usr/bin/env")], keys(" and"), [paste("~/x")], keys(" ("), [
      paste("./y"),
    ]],
    "split-chunks": [["\x1b[200~first "], ["part\nsecond"], ["\x1b[201~after"], keys("!")],
    "empty-paste": [["\x1b[200~\x1b[201~"], keys("a")],
    "trailing-keys": [[paste("abc") + "\x7f\x1b[D"]],
    "large-lines": [keys("before "), [paste(FIFTEEN_LINES)], keys(" after"), keys("<ctrl+a><alt+f><alt+f>")],
    "large-chars": [[paste(LONG_CHARS)], keys("<left>"), keys("<left>"), keys("<right>")],
    "two-large-backspace": [
      [paste(FIFTEEN_LINES)],
      keys(" mid "),
      [paste(TWELVE)],
      keys(" "),
      [paste(LONG_CHARS)],
      keys("<ctrl+a><alt+f><right><right><right><right>"),
      keys("<bs>"),
      keys("<bs><bs>"),
    ],
    "marker-undo": [[paste(FIFTEEN_LINES)], keys("<bs>"), keys("<ctrl+->"), keys("<ctrl+->")],
    "marker-words": [
      keys("x "),
      [paste(TWELVE)],
      keys(" y"),
      keys("<alt+b>"),
      keys("<alt+b>"),
      keys("<alt+b>"),
      keys("<alt+f><alt+f>"),
      keys("<ctrl+w>"),
    ],
    "marker-delete-forward": [[paste(TWELVE)], keys("<home>"), keys("<del>")],
    "fake-marker-typed": [keys("[paste #1 +12 lines]"), keys("<left><left>"), keys("<bs>")],
    "paste-undo": [[paste(TWELVE)], keys("<ctrl+->")],
    "marker-submit": [keys("a "), [paste(FIFTEEN_LINES)], keys(" b"), keys("<enter>")],
  };
  for (const [label, steps] of Object.entries(scenarios)) {
    for (const width of [1, 14, 80]) {
      out.push(editorCase(`paste/${label}/w${width}`, { width, steps }));
    }
  }
  out.push(editorCase("paste/marker-vertical/w9", {
    width: 9,
    steps: [
      keys("abc def "),
      [paste(FIFTEEN_LINES)],
      keys(" ghi jkl mno"),
      ...["<up>", "<up>", "<up>", "<up>", "<down>", "<down>", "<down>", "<down>", "<down>"].map((k) =>
        keys(k)
      ),
    ],
  }));
  out.push(editorCase("paste/marker-vertical/w24", {
    width: 24,
    steps: [
      keys("abcdefghij "),
      [paste(FIFTEEN_LINES)],
      keys("<ctrl+j>0123456789abcdefghijklmnop"),
      ...["<up>", "<up>", "<down>", "<down>", "<up>"].map((k) => keys(k)),
    ],
  }));
  out.push(editorCase("paste/setText-clears/w20", {
    width: 20,
    setup: `ed.handleInput(${JSON.stringify(paste(TWELVE))}); ed.setText('[paste #1 +12 lines]');`,
    steps: [keys("<bs>")],
  }));
  return out;
}

function historyCases(): TuiCase[] {
  const out: TuiCase[] = [];
  const submitted =
    "ed.addToHistory('first'); ed.addToHistory('second\\nwith two lines'); ed.addToHistory('  third  ');" +
    "ed.addToHistory('third'); ed.addToHistory('   ');";
  const scenarios: Record<string, string[]> = {
    "browse-up-down": ["<up>", "<up>", "<up>", "<up>", "<down>", "<down>", "<down>", "<down>"],
    "draft-restored": ["draft", "<home>", "<up>", "<up>", "<down>", "<down>"],
    "not-at-col0": ["draft", "<up>", "<up>", "<down>"],
    "type-exits": ["<up>", "<up>", "x", "<up>", "<down>"],
    "undo-after-browse": ["abc<home>", "<up>", "<up>", "<ctrl+->", "<ctrl+->"],
    "multiline-entry": ["<up>", "<up>", "<down>", "<down>", "<down>", "<up>"],
    "down-at-bottom": ["one<ctrl+j>two<left>", "<down>", "<up>", "<up>", "<up>"],
    "submit-adds": ["new entry<enter>", "<up>", "<enter>", "<up>", "<up>"],
  };
  for (const [label, steps] of Object.entries(scenarios)) {
    for (const width of [10, 80]) {
      out.push(editorCase(`history/${label}/w${width}`, { width, setup: submitted, steps: steps.map(keys) }));
    }
  }
  out.push(
    editorCase("history/empty/w20", { width: 20, steps: [keys("<up>"), keys("<down>"), keys("a<up>")] }),
  );
  out.push(editorCase("history/limit/w20", {
    width: 20,
    setup: "for (let i = 0; i < 105; i++) ed.addToHistory('entry ' + i);",
    steps: Array.from({ length: 102 }, () => keys("<up>")).reduce<string[][]>((acc, k, i) => {
      if (i % 34 === 0) acc.push([]);
      acc[acc.length - 1].push(...k);
      return acc;
    }, []),
  }));
  return out;
}

function mouseCases(): TuiCase[] {
  const out: TuiCase[] = [];
  const text = "hello wonderful world\nsecond 你好世界 line\n\nlast";
  for (const [width, paddingX] of [[12, 0], [20, 2], [80, 0]]) {
    const clicks = [[0, 1], [5, 1], [11, 1], [3, 2], [40, 2], [0, 3], [9, 4], [2, 5], [3, 0], [1, 9]];
    const body = clicks.map(([x, y]) =>
      `r = ed.handleMouse({ type: 'click', button: 'left', x: ${x}, y: ${y}, screenX: ${x}, screenY: ${y}, ` +
      `width: ${width}, height: 10, shift: false, alt: false, ctrl: false }); ` +
      `log.push(JSON.stringify(r) + '@' + JSON.stringify(ed.getCursor()));`
    ).join(" ");
    out.push(editorCase(`mouse/clicks/w${width}p${paddingX}`, {
      width,
      options: `{ paddingX: ${paddingX} }`,
      setup: `ed.setText(${JSON.stringify(text)}); ed.render(${width}); let r; ${body}` +
        ` log.push(String(ed.handleMouse({ type: 'press', button: 'left', x: 1, y: 1, screenX: 1, screenY: 1, width: ${width}, height: 10, shift: false, alt: false, ctrl: false })));`,
      steps: [keys("x")],
    }));
  }
  return out;
}

Deno.test("Editor pastes and paste markers behave as in pi-tui 1.6.0", async () => {
  await compareWithPiTui("editor_paste", pasteCases());
});

Deno.test("Editor history and mouse clicks behave as in pi-tui 1.6.0", async () => {
  await compareWithPiTui("editor_history", [...historyCases(), ...mouseCases()]);
});
