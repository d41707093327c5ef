/**
 * Conformance of the terminal colour replies with pi-tui 1.6.0: the colour-scheme report
 * (`CSI ? 997 ; 1|2 n`) and the OSC 10/11/4 colour replies in every format terminals send
 * (`rgb:` with 1-4 hex digits per channel, `rgba:`, `#rrggbb`, `#rrrrggggbbbb`, BEL or ST).
 */
import { assertEquals } from "../support/assert.ts";
import { compareWithPiTui, js, type TuiCase } from "../support/tui_oracle.ts";
import { loadInternal } from "./colors_internal_modules.ts";
import { parseOscColorResponse, parseTerminalColorSchemeReport } from "../../src/tui/terminal_colors.ts";

const SCHEME_REPORTS: string[] = [
  "\x1b[?997;1n",
  "\x1b[?997;2n",
  "\x1b[?997;1n\x1b[?997;2n",
  "\x1b[?997;2n\x1b[?997;1n",
  "\x1b[?997;3n",
  "\x1b[?997;1",
  "x\x1b[?997;1n",
  "\x1b[?997;2nx",
  "",
  "\x1b[?996;1n",
];

const OSC_REPLIES: string[] = [
  "\x1b]11;rgb:1e1e/1e1e/2e2e\x1b\\",
  "\x1b]10;rgb:ffff/ffff/ffff\x07",
  "\x1b]11;rgb:0/8/f\x07",
  "\x1b]11;rgb:00/80/ff\x07",
  "\x1b]11;rgb:000/800/fff\x07",
  "\x1b]11;rgba:1234/5678/9abc/ffff\x07",
  "\x1b]11;RGB:AbCd/0000/FFFF\x07",
  "\x1b]11;#1e1e2e\x07",
  "\x1b]11;#1e1e1e1e2e2e\x07",
  "\x1b]11;#12345\x07",
  "\x1b]11;  rgb:10/20/30  \x07",
  "\x1b]11;rgb:10/20\x07",
  "\x1b]11;rgb:10/zz/30\x07",
  "\x1b]11;rgb://\x07",
  "\x1b]11;?\x07",
  "\x1b]4;0;rgb:0000/0000/0000\x1b\\",
  "\x1b]4;15;rgb:ffff/ffff/ffff\x07",
  "\x1b]4;255;#ff0000\x07",
  "\x1b]4;1000;#ff0000\x07",
  "\x1b]12;rgb:1/2/3\x07",
  "\x1b]11;rgb:1/2/3",
  "\x1b]11;rgb:1/2/3\x1b\\extra",
  "\x1B]11;rgb:aa/bb/cc\x1B\\",
];

function cases(): TuiCase[] {
  const out: TuiCase[] = SCHEME_REPORTS.map((report, i) => ({
    name: `scheme/${i}`,
    body: `return T.parseTerminalColorSchemeReport(${js(report)}) ?? null;`,
  }));
  const load = loadInternal("C", "terminal-colors.js", "terminal_colors.ts");
  OSC_REPLIES.forEach((reply, i) => {
    out.push({ name: `osc/${i}`, body: `${load}return C.parseOscColorResponse(${js(reply)}) ?? null;` });
  });
  return out;
}

Deno.test("colour-scheme reports and OSC colour replies parse as in pi-tui 1.6.0", async () => {
  await compareWithPiTui("terminal_colors", cases());
});

Deno.test("OSC channels of any width scale to 0-255", () => {
  assertEquals(parseOscColorResponse("\x1b]11;rgb:f/80/fff\x07"), {
    target: "background",
    rgb: { r: 255, g: 128, b: 255 },
  });
  assertEquals(parseOscColorResponse("\x1b]4;7;rgb:8000/8000/8000\x07")?.target, 7);
  assertEquals(parseTerminalColorSchemeReport("\x1b[?997;2n"), "light");
});
