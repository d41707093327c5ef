/**
 * Conformance of StdinBuffer with pi-tui 1.6.0: chunks fed in steps (synchronously, or with waits
 * longer than the buffer's short timeouts so the timer has fired, in deadline order, before the next
 * step), recording every `data` and `paste` event, flush() results and the buffered tail. Inputs
 * are split at every position, so partial escapes, mouse reports, terminal replies and paste
 * markers are cut everywhere. Then the Node EventEmitter methods StdinBuffer offers.
 */
import { compareWithPiTui, js, type TuiCase } from "../support/tui_oracle.ts";
import { assertEquals } from "../support/assert.ts";
import { StdinBuffer } from "../../src/tui/stdin_buffer.ts";

/** A step: a chunk to process, or an action. */
type Step = string | { wait: number } | { flush: true } | { clear: true } | { buffer: true };

/** Runs the steps on a fresh buffer and returns the events (timeouts short, so waits stay short). */
function feed(name: string, steps: Step[], options = "{ timeout: 5, escapeTimeout: 3 }"): TuiCase {
  return {
    name,
    body: `const b = new T.StdinBuffer(${options});
      const ev = [];
      b.on("data", (d) => ev.push(["d", d]));
      b.on("paste", (p) => ev.push(["p", p]));
      for (const s of ${js(steps)}) {
        if (typeof s === "string") b.process(s);
        else if (s.wait) { await new Promise((r) => setTimeout(r, s.wait)); ev.push(["waited"]); }
        else if (s.flush) ev.push(["flush", b.flush()]);
        else if (s.clear) b.clear();
        else if (s.buffer) ev.push(["buffer", b.getBuffer()]);
      }
      ev.push(["tail", b.getBuffer()]);
      b.destroy();
      return ev;`,
  };
}

function label(s: string): string {
  return [...s].map((ch) => {
    const c = ch.codePointAt(0)!;
    return c < 0x20 || c === 0x7f ? `\\x${c.toString(16).padStart(2, "0")}` : ch;
  }).join("");
}

const WAIT = { wait: 40 } as const;

/** Inputs processed whole, then once more after the buffer had time to flush. */
const WHOLE = [
  "",
  "abc",
  "a\x1b[Ab",
  "\x1b[A\x1b[B\x1b[C\x1b[D",
  "\r\n\t\x7f\x08\x00\x03",
  "中文 text",
  "e\u0301",
  "\x1b",
  "\x1b[",
  "\x1b[1;5",
  "\x1bO",
  "\x1bOP\x1bOQ",
  "\x1ba\x1bb",
  "\x1b\x7f",
  "\x1b\x1b",
  "\x1b\x1bx",
  "\x1b\x1b[27;1:3u",
  "\x1b\x1b]",
  "\x1b\x1bO",
  "\x1b\x1bP",
  "\x1b\x1b_",
  "\x1b[97ua",
  "\x1b[97ub",
  "\x1b[97u\x1b[97u",
  "\x1b[97;5ua",
  "\x1b[97;1ua",
  "\x1b[97:65ua",
  "\x1b[65uA",
  "\x1b[13u\r",
  "\x1b[32u ",
  "\x1b[1089::99;5u",
  "\x1b[<35;20;5m",
  "\x1b[<0;1;1M\x1b[<0;1;1m",
  "\x1b[<a",
  "\x1b[<1;2;3;4M",
  "\x1b[<1;2M",
  "\x1b[M !!",
  "\x1b[M !",
  "\x1b[200~hello\x1b[201~",
  "\x1b[200~\x1b[201~",
  "x\x1b[200~y\x1b[201~z",
  "\x1b[A\x1b[200~y\x1b[201~\x1b[B",
  "\x1b[200~a\x1b[Ab\r\nc\x1b[201~",
  "\x1b[200~a\x1b[200~b\x1b[201~",
  "\x1b[200~never ends",
  "\x1b[1\x1b[200~p\x1b[201~",
  "\x1b[97u\x1b[200~a\x1b[201~a",
  "\x1b]11;rgb:0000/0000/0000\x07",
  "\x1b]11;rgb:0000/0000/0000\x1b\\",
  "\x1b]10;rgb:ffff/ffff/ffff\x07x",
  "\x1b]4;1;rgb:cd/00/00\x07",
  "\x1b]7501;?1\x07",
  "\x1bP>|xterm(390)\x1b\\",
  "\x1b_Gi=31,p=1;OK\x1b\\",
  "\x1b_Gi=31;EINVAL:bad\x1b\\k",
  "\x1b]11;rgb:00\x18x",
  "\x1b]11;rgb:00\x1ax",
  "\x1b]11;rgb:00\x1b[A",
  "\x1b]11;rgb:00\x1b",
  "\x1b]11;rgb:00\x1b\\",
  "\x1b]11",
  "\x1b]x",
  "\x1b]abc\r",
  "\x1b]0;title\x07",
  "\x1bP",
  "\x1bPq",
  "\x1b_",
  "\x1b_x\x1b\\",
  "\x1b[?1u",
  "\x1b[?62;4c",
  "\x1b[12;40R",
  "\x1b[I\x1b[O",
];

/** Strings cut at every position into two chunks fed back to back. */
const SPLIT = [
  "ab\x1b[A\x1b[200~p\x1b[Aq\x1b[201~\x1b[1;5Cz",
  "\x1b]11;rgb:ffff/0000/0000\x1b\\k\x1b[<0;10;5M",
  "\x1b[97u\x1b[27;5;99~\x1bOP\x1b[M !!x",
  "\x1bP>|kitty(0.40)\x1b\\\x1b_Gi=1;OK\x1b\\\x1b\x1b[27u",
];

/** Astral characters are delivered whole (pi-tui splits them into UTF-16 halves). */
const ASTRAL = ["😀x", "\x1b😀", "a👍🏽b", "\x1b[128512u😀"];

const CASES: TuiCase[] = [
  ...WHOLE.map((s) => feed(`whole/${label(s) || "(empty)"}`, [s, { buffer: true }, WAIT])),
  ...SPLIT.flatMap((s, n) =>
    Array.from(
      { length: s.length - 1 },
      (_, i) => feed(`split${n}/${i + 1}`, [s.slice(0, i + 1), s.slice(i + 1)]),
    )
  ),
  ...ASTRAL.map((s) => feed(`astral/${label(s)}`, [s, WAIT])),
  feed("chunks/esc-then-csi", ["\x1b", "[", "A"]),
  feed("chunks/esc-wait-csi", ["\x1b", WAIT, "[A"]),
  feed("chunks/csi-wait", ["\x1b[1;", WAIT, "5A"]),
  feed("chunks/mouse-in-three", ["\x1b", "[<35", ";20;5m"]),
  feed("chunks/reply-waits-for-terminator", ["\x1b]11;rgb:00", WAIT, "00/0000/0000\x07", "k"]),
  feed("chunks/reply-header-split", ["\x1b]1", WAIT, "1;rgb:0/0/0\x07"]),
  feed("chunks/non-reply-osc-times-out", ["\x1b]ab", WAIT, "c"]),
  feed("chunks/paste-in-pieces", ["\x1b[200~he", "llo", " wor", "ld\x1b[20", "1~after"]),
  feed("chunks/paste-start-split", ["\x1b[20", "0~x\x1b[201~"]),
  feed("chunks/paste-end-split-then-keys", ["\x1b[200~x\x1b", "[201~\x1b[A", "b"]),
  feed("chunks/paste-end-straddles-four-chunks", ["\x1b[200~ab\x1b[", "2", "0", "1~c"]),
  feed("chunks/paste-end-byte-by-byte", ["\x1b[200~", ..."ab\x1b[201~cd\x1b[A".split("")]),
  feed("chunks/paste-start-byte-by-byte", [..."\x1b[200~ab\x1b[201~".split("")]),
  feed("chunks/empty-chunk-mid-sequence", ["\x1b[", "", "A"]),
  feed("chunks/empty-chunk-in-paste", ["\x1b[200~a", "", "\x1b[201~"]),
  feed("chunks/kitty-then-raw", ["\x1b[97u", "a", "a"]),
  feed("chunks/kitty-then-other", ["\x1b[98u", "a"]),
  feed("api/flush", ["\x1b[1;", { flush: true }, { buffer: true }, { flush: true }]),
  feed("api/flush-escape", ["\x1b", { flush: true }, WAIT]),
  feed("api/clear", ["\x1b[1;", { clear: true }, WAIT, "5A"]),
  feed("api/clear-paste", ["\x1b[200~abc", { clear: true }, "\x1b[A", "\x1b[201~"]),
  feed("options/default-escape", ["\x1b", WAIT, { buffer: true }], "{}"),
  feed(
    "options/long-timeout-escape-short",
    ["\x1b[1", "\x1b", WAIT, { buffer: true }],
    "{ timeout: 400, escapeTimeout: 3 }",
  ),
  feed("options/long-timeout", ["\x1b[1", WAIT, { buffer: true }], "{ timeout: 400, escapeTimeout: 3 }"),
  feed("options/lone-esc-short", ["\x1b", WAIT, { buffer: true }], "{ timeout: 400, escapeTimeout: 3 }"),
  {
    name: "emitter/methods",
    body: `const b = new T.StdinBuffer();
      const log = [];
      const a = (d) => log.push("a:" + d);
      const c = (d) => log.push("c:" + d);
      const once = (d) => log.push("once:" + d);
      b.on("data", a);
      b.prependListener("data", c);
      b.once("data", once);
      const counts = [b.listenerCount("data"), b.listenerCount("paste"), b.listenerCount("data", once)];
      const names = b.eventNames();
      const same = b.listeners("data").map((l) => l === a ? "a" : l === c ? "c" : l === once ? "once" : "?");
      const raw = b.rawListeners("data").map((l) => l === once ? "once" : typeof l.listener);
      const emitted = [b.emit("data", "x"), b.emit("paste", "y")];
      b.process("q");
      b.off("data", c);
      b.process("r");
      b.removeAllListeners("data");
      b.process("s");
      const chain = b.on("paste", a) === b && b.off("paste", a) === b;
      return { log, counts, names, same, raw, emitted, chain, max: b.getMaxListeners(),
        setMax: b.setMaxListeners(3) === b && b.getMaxListeners(), after: b.eventNames() };`,
  },
  {
    name: "emitter/once-removed-by-off",
    body: `const b = new T.StdinBuffer();
      const log = [];
      const f = (d) => log.push(d);
      b.once("data", f);
      b.off("data", f);
      b.process("a");
      b.on("data", f); b.on("data", f);
      b.off("data", f);
      b.process("b");
      return { log, count: b.listenerCount("data") };`,
  },
  {
    name: "emitter/newListener-removeListener",
    body: `const b = new T.StdinBuffer();
      const log = [];
      b.on("newListener", (e) => log.push("new:" + String(e)));
      b.on("removeListener", (e) => log.push("rm:" + String(e)));
      const f = () => {};
      b.on("data", f);
      b.once("paste", f);
      b.off("data", f);
      b.emit("paste", "x");
      return log;`,
  },
  {
    name: "emitter/listener-added-during-emit",
    body: `const b = new T.StdinBuffer();
      const log = [];
      b.on("data", (d) => { log.push("first:" + d); b.on("data", (e) => log.push("late:" + e)); });
      b.process("ab");
      return log;`,
  },
  {
    name: "emitter/error-without-listener",
    body: `const b = new T.StdinBuffer();
      try { b.emit("error", new Error("boom")); return "no throw"; } catch (e) { return e.message; }`,
  },
];

/** Deliberate: whole code points, not UTF-16 halves (docs/differences.md). */
const DELIBERATE = ASTRAL.map((s) => `astral/${label(s)}`);

Deno.test("stdin buffer: splitting, timeouts, pastes and the emitter agree with pi-tui 1.6.0", async () => {
  const splits = CASES.filter((c) => c.name.startsWith("split"));
  await compareWithPiTui("stdin_buffer_split", splits);
  await compareWithPiTui("stdin_buffer", CASES.filter((c) => !splits.includes(c)), DELIBERATE);
});

Deno.test("stdin buffer: bytes are decoded as UTF-8, and a lone high byte is Meta+key", () => {
  const b = new StdinBuffer({ timeout: 5 });
  const seen: string[] = [];
  b.on("data", (d) => seen.push(d));
  b.process(new TextEncoder().encode("é\x1b[A"));
  b.process(new Uint8Array([0xe1]));
  b.process(new Uint8Array([0xef, 0xbb, 0xbf, 0x61]));
  b.destroy();
  assertEquals(seen, ["é", "\x1b[A", "\x1ba", "\ufeff", "a"]);
});

Deno.test("stdin buffer: a 2 MiB paste in 2,048 chunks is one event", () => {
  const b = new StdinBuffer();
  const pastes: string[] = [];
  b.on("paste", (p) => pastes.push(p));
  const chunk = "x".repeat(1024);
  b.process("\x1b[200~");
  for (let i = 0; i < 2048; i++) b.process(chunk);
  b.process("\x1b[201~");
  b.destroy();
  assertEquals(pastes.length, 1);
  assertEquals(pastes[0].length, 2048 * 1024);
});
