/**
 * Key decoding that the conformance suites cannot reach through pi-tui's index: decodePrintableKey
 * (not exported there), the Windows Terminal reading of a bare BS (depends on the environment the
 * oracle clears), and the deliberate fixes listed in docs/differences.md.
 */
import { assertEquals } from "../support/assert.ts";
import {
  decodePrintableKey,
  isKittyProtocolActive,
  matchesKey,
  parseKey,
  setKittyProtocolActive,
} from "../../src/tui/keys.ts";

Deno.test("decodePrintableKey: kitty CSI u first, then modifyOtherKeys with Shift only", () => {
  const cases: Array<[string, string | undefined]> = [
    ["\x1b[97u", "a"],
    ["\x1b[97:65;2u", "A"],
    ["\x1b[57399u", "0"],
    ["\x1b[97;5u", undefined],
    ["\x1b[27;1;97~", "a"],
    ["\x1b[27;2;65~", "A"],
    ["\x1b[27;66;65~", "A"],
    ["\x1b[27;5;97~", undefined],
    ["\x1b[27;3;97~", undefined],
    ["\x1b[27;1;13~", undefined],
    ["\x1b[27;1;128512~", "😀"],
    ["\x1b[27;1;1114112~", undefined],
    ["a", undefined],
    ["\x1b[A", undefined],
  ];
  for (const [seq, want] of cases) assertEquals(decodePrintableKey(seq), want, JSON.stringify(seq));
});

function withEnv(vars: Record<string, string | undefined>, body: () => void): void {
  const saved = Object.fromEntries(Object.keys(vars).map((k) => [k, Deno.env.get(k)]));
  const apply = (values: Record<string, string | undefined>) => {
    for (const [k, v] of Object.entries(values)) v === undefined ? Deno.env.delete(k) : Deno.env.set(k, v);
  };
  apply(vars);
  try {
    body();
  } finally {
    apply(saved);
  }
}

Deno.test("a bare BS is Ctrl+Backspace in Windows Terminal, plain Backspace elsewhere and over SSH", () => {
  const none = {
    WT_SESSION: undefined,
    SSH_CONNECTION: undefined,
    SSH_CLIENT: undefined,
    SSH_TTY: undefined,
  };
  withEnv(none, () => {
    assertEquals(parseKey("\b"), "backspace");
    assertEquals([matchesKey("\b", "backspace"), matchesKey("\b", "ctrl+backspace")], [true, false]);
  });
  withEnv({ ...none, WT_SESSION: "f00" }, () => {
    assertEquals(parseKey("\b"), "ctrl+backspace");
    assertEquals([matchesKey("\b", "backspace"), matchesKey("\b", "ctrl+backspace")], [false, true]);
    assertEquals(matchesKey("\x7f", "backspace"), true);
  });
  for (const ssh of ["SSH_CONNECTION", "SSH_CLIENT", "SSH_TTY"]) {
    withEnv({ ...none, WT_SESSION: "f00", [ssh]: "1" }, () => assertEquals(parseKey("\b"), "backspace", ssh));
  }
});

Deno.test("deliberate: CSI 1 ~ and CSI 4 ~ parse as the Home and End they match", () => {
  assertEquals([parseKey("\x1b[1~"), parseKey("\x1b[4~")], ["home", "end"]);
  assertEquals([matchesKey("\x1b[1~", "home"), matchesKey("\x1b[4~", "end")], [true, true]);
});

Deno.test("deliberate: codepoints past U+FFFF are not read as the BMP symbol they truncate to", () => {
  assertEquals(parseKey("\x1b[65583u"), undefined);
  assertEquals(matchesKey("\x1b[65583u", "/"), false);
  assertEquals(parseKey("\x1b[47u"), "/");
});

Deno.test("deliberate: names of Object.prototype members are not key sequences", () => {
  for (const name of ["toString", "constructor", "__proto__", "hasOwnProperty"]) {
    assertEquals(parseKey(name), undefined, name);
  }
});

Deno.test("the kitty protocol flag changes what ESC CR and LF mean", () => {
  const before = isKittyProtocolActive();
  try {
    setKittyProtocolActive(false);
    assertEquals([parseKey("\x1b\r"), parseKey("\n")], ["alt+enter", "enter"]);
    setKittyProtocolActive(true);
    assertEquals([parseKey("\x1b\r"), parseKey("\n")], ["shift+enter", "shift+enter"]);
    assertEquals(matchesKey("\n", "shift+enter"), true);
  } finally {
    setKittyProtocolActive(before);
  }
});
