/**
 * Generated look-alike input (a seeded generator, so every run and capture sees the same strings):
 * sequences built from the pieces of CSI, SS3, kitty and modifyOtherKeys forms in random order,
 * decoded with parseKey, matchesKey and decodeKittyPrintable in both protocol modes, and fed to a
 * StdinBuffer in random chunks. Hand-written tables cover what terminals send; this covers what
 * they might send broken, where a reimplementation's regexes and branches could drift from pi-tui.
 */
import { compareWithPiTui, js, type TuiCase } from "../support/tui_oracle.ts";

/** mulberry32: a small seeded PRNG. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const PIECES = [
  "\x1b",
  "\x1b[",
  "\x1bO",
  "\x1b]",
  "\x1bP",
  "[",
  "1",
  "2",
  "3",
  "5",
  "9",
  "27",
  "97",
  "65",
  "13",
  "127",
  "57414",
  "57399",
  "1089",
  ";",
  ":",
  "::",
  "u",
  "~",
  "A",
  "D",
  "H",
  "P",
  "S",
  "R",
  "M",
  "m",
  "<",
  "a",
  "Z",
  "$",
  "^",
  "\r",
  "\x7f",
  "\x03",
  " ",
  "é",
  "\x07",
  "\\",
  "200~",
  "201~",
];

function randomSequence(next: () => number): string {
  const parts = 1 + Math.floor(next() * 7);
  let s = next() < 0.7 ? "\x1b[" : "";
  for (let i = 0; i < parts; i++) s += PIECES[Math.floor(next() * PIECES.length)];
  return s;
}

const KEY_IDS = [
  "a",
  "ctrl+a",
  "shift+a",
  "alt+a",
  "ctrl+shift+a",
  "escape",
  "enter",
  "shift+enter",
  "alt+enter",
  "ctrl+enter",
  "backspace",
  "alt+backspace",
  "up",
  "ctrl+up",
  "shift+up",
  "home",
  "ctrl+home",
  "f1",
  "shift+f1",
  "f3",
  "delete",
  "pageUp",
  "tab",
  "shift+tab",
  "space",
  "ctrl+space",
  "0",
  "/",
  "+",
  "ctrl+c",
];

function decodeCase(seed: number): TuiCase {
  const next = rng(seed);
  const seqs = Array.from({ length: 60 }, () => randomSequence(next));
  return {
    name: `decode/${seed}`,
    body: `const out = [];
      for (const seq of ${js(seqs)}) {
        const row = [];
        for (const kitty of [false, true]) {
          T.setKittyProtocolActive(kitty);
          const ids = ${js(KEY_IDS)}.filter((id) => T.matchesKey(seq, id));
          row.push(T.parseKey(seq) ?? null, ids.join(" "));
        }
        T.setKittyProtocolActive(false);
        row.push(T.decodeKittyPrintable(seq) ?? null, T.isKeyRelease(seq), T.isKeyRepeat(seq));
        out.push(row);
      }
      return out;`,
  };
}

function bufferCase(seed: number): TuiCase {
  const next = rng(seed);
  let text = "";
  for (let i = 0; i < 25; i++) {
    text += next() < 0.5 ? randomSequence(next) : PIECES[Math.floor(next() * PIECES.length)];
  }
  const chunks: string[] = [];
  for (let pos = 0; pos < text.length;) {
    const len = 1 + Math.floor(next() * 12);
    chunks.push(text.slice(pos, pos + len));
    pos += len;
  }
  return {
    name: `buffer/${seed}`,
    body: `const b = new T.StdinBuffer({ timeout: 5, escapeTimeout: 3 });
      const ev = [];
      b.on("data", (d) => ev.push(d));
      b.on("paste", (p) => ev.push(["paste", p]));
      for (const c of ${js(chunks)}) b.process(c);
      ev.push(["tail", b.getBuffer()]);
      // A timeout flush can re-process a tail that sets a timer of its own; each such level is
      // settled by one more wait (its timer is due before the next wait's), so wait level by level.
      for (let i = 0; i < 10 && b.getBuffer() !== ""; i++) await new Promise((r) => setTimeout(r, 20));
      ev.push(["after", b.getBuffer()]);
      b.destroy();
      return ev;`,
  };
}

const DECODE = Array.from({ length: 24 }, (_, i) => decodeCase(1000 + i));
const BUFFER = Array.from({ length: 60 }, (_, i) => bufferCase(5000 + i));

Deno.test(`keys fuzz: ${DECODE.length * 60} generated sequences decode as in pi-tui 1.6.0`, async () => {
  await compareWithPiTui("keys_fuzz_decode", DECODE);
});

Deno.test(`keys fuzz: ${BUFFER.length} generated chunk streams split as in pi-tui 1.6.0`, async () => {
  await compareWithPiTui("stdin_buffer_fuzz", BUFFER);
});
