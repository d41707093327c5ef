/**
 * Conformance of key decoding with pi-tui 1.6.0: parseKey (kitty protocol off and on),
 * decodeKittyPrintable, isKeyRelease and isKeyRepeat over a generated table of
 * legacy sequences (xterm, rxvt, SS3, linux console, CSI ~), control bytes, ESC-prefixed Alt keys,
 * kitty CSI u for letters/digits/symbols/specials × modifiers × event types, alternate and base
 * layout keys, modifyOtherKeys, printable text, UTF-8 and paste markers.
 */
import { compareWithPiTui, js, type TuiCase } from "../support/tui_oracle.ts";

/** A readable, unique case name for a byte sequence. */
function label(seq: string): string {
  return seq.length === 0 ? "(empty)" : [...seq].map((ch) => {
    const c = ch.codePointAt(0)!;
    return c < 0x20 || c === 0x7f ? `\\x${c.toString(16).padStart(2, "0")}` : ch;
  }).join("");
}

/** Everything a sequence decodes to: [parseKey legacy, parseKey kitty, kitty printable, release, repeat]. */
const DECODE = `
  const out = [];
  for (const kitty of [false, true]) {
    T.setKittyProtocolActive(kitty);
    out.push(T.parseKey(seq) ?? null);
  }
  T.setKittyProtocolActive(false);
  out.push(T.decodeKittyPrintable(seq) ?? null, T.isKeyRelease(seq), T.isKeyRepeat(seq));
  return out;`;

function decodeCase(name: string, seq: string): TuiCase {
  return { name, body: `const seq = ${js(seq)};${DECODE}` };
}

/** Several sequences in one case (by event type), to keep the table large but the case count sane. */
function decodeGroup(name: string, seqs: string[]): TuiCase {
  return {
    name,
    body: `return ${js(seqs)}.map((seq) => (() => {${DECODE}})());`,
  };
}

const ESC = "\x1b";

const LEGACY = [
  // xterm normal and application cursor keys, Home/End, keypad Enter, Shift+Tab
  ..."ABCDEFHZ".split("").map((c) => `${ESC}[${c}`),
  ..."ABCDEFHMPQRS".split("").map((c) => `${ESC}O${c}`),
  // rxvt Shift (lower-case final, $) and Ctrl (SS3 lower-case, ^)
  ..."abcde".split("").map((c) => `${ESC}[${c}`),
  ..."abcde".split("").map((c) => `${ESC}O${c}`),
  ...[2, 3, 5, 6, 7, 8].flatMap((n) => [`${ESC}[${n}$`, `${ESC}[${n}^`]),
  // CSI n ~ (vt220, rxvt Home/End 7/8, linux console 1/4), including unmapped numbers
  ...[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 29, 200, 201]
    .map((n) => `${ESC}[${n}~`),
  // linux console F1-F5 and PageUp/PageDown
  ..."ABCDE".split("").map((c) => `${ESC}[[${c}`),
  `${ESC}[[5~`,
  `${ESC}[[6~`,
  // cursor position report look-alike, which F3 must not be confused with
  `${ESC}[1;5R`,
  `${ESC}[R`,
];

const CONTROL_BYTES = Array.from({ length: 32 }, (_, i) => String.fromCharCode(i)).concat("\x7f");
const PRINTABLE = [" ", "a", "z", "A", "Z", "0", "9", "`", "-", "=", "[", "]", "\\", ";", "'", ",", ".", "/"]
  .concat("!@#$%^&*()_+|~{}:<>?".split(""));
const ESC_PREFIXED = [
  ...CONTROL_BYTES.map((c) => ESC + c),
  ...["a", "b", "f", "n", "p", "z", "B", "F", "P", "0", "9", " ", "/", "-", ".", "[", "]", "O", "é"].map((
    c,
  ) => ESC + c),
];
const TEXT = [
  "",
  "ab",
  "hello",
  "é",
  "ß",
  "中",
  "😀",
  "👍🏽",
  "e\u0301",
  "\x1b[200~",
  "\x1b[201~",
  "\x1b[200~pasted\x1b[201~",
  "\x1b[200~90:62:3F:A5\x1b[201~",
  "90:62:3F:A5",
  "x:2u",
  "\x1b[<35;20;5m",
  "\x1b[M !!",
  "\x1b]11;rgb:0000/0000/0000\x07",
  "\x1b[?1u",
  "\x1b[I",
  "\x1b[O",
  "\x1b[",
  "\x1bO",
];

const KITTY_CODEPOINTS: Record<string, number> = {
  a: 97,
  z: 122,
  A: 65,
  zero: 48,
  nine: 57,
  slash: 47,
  equals: 61,
  plus: 43,
  lbracket: 91,
  backtick: 96,
  tilde: 126,
  esc: 27,
  tab: 9,
  enter: 13,
  space: 32,
  backspace: 127,
  kpEnter: 57414,
  kp0: 57399,
  kpPlus: 57413,
  kpLeft: 57417,
  kpDelete: 57426,
  f13: 57376,
  leftShift: 57441,
  cyrillicEs: 1089,
  eAcute: 233,
  grin: 0x1f600,
  linearB: 0x1002f,
  nul: 0,
  unitSep: 31,
};
/** Wire modifier values: none, shift, alt, ctrl, ctrl+shift, ctrl+alt, super, all four, caps, num, hyper. */
const KITTY_MODS = [undefined, 1, 2, 3, 4, 5, 6, 7, 9, 13, 16, 65, 66, 129, 133, 17, 0];
const EVENTS = [undefined, 1, 2, 3];

function csiU(codepoint: number, mod: number | undefined, event: number | undefined, alt = ""): string {
  const mods = mod === undefined ? (event === undefined ? "" : ";1") : `;${mod}`;
  return `${ESC}[${codepoint}${alt}${mods}${event === undefined ? "" : `:${event}`}u`;
}

function kittyCases(): TuiCase[] {
  const cases: TuiCase[] = [];
  for (const [name, cp] of Object.entries(KITTY_CODEPOINTS)) {
    for (const mod of KITTY_MODS) {
      cases.push(decodeGroup(`csi-u/${name}/mod${mod ?? "-"}`, EVENTS.map((e) => csiU(cp, mod, e))));
    }
  }
  return cases;
}

/** Flag 4 alternate keys: shifted key and base layout key, including empty shifted slots. */
const ALTERNATES = [
  csiU(97, 2, undefined, ":65"),
  csiU(97, 6, undefined, ":65"),
  csiU(61, 2, undefined, ":43"),
  csiU(61, 6, undefined, ":43"),
  csiU(61, 3, undefined, ":43"),
  csiU(49, 2, undefined, ":33"),
  csiU(47, 2, undefined, ":63"),
  csiU(59, 2, undefined, ":58"),
  csiU(91, 2, undefined, ":123"),
  csiU(57399, 2, undefined, ":57413"),
  csiU(1089, 5, undefined, "::99"),
  csiU(1089, 1, undefined, "::99"),
  csiU(1089, 2, undefined, ":1057:99"),
  csiU(1089, 6, undefined, ":1057:99"),
  csiU(1074, 5, 3, "::100"),
  csiU(107, 5, undefined, "::118"),
  csiU(47, 5, undefined, "::91"),
  csiU(233, 5, undefined, "::50"),
  csiU(233, 1, undefined, "::50"),
  csiU(1089, 5, undefined, "::57399"),
  csiU(0x1f600, 1, undefined, "::97"),
  csiU(97, 1, undefined, ":"),
  csiU(97, 2, undefined, ":"),
  `${ESC}[97:65:97u`,
  `${ESC}[97::97u`,
  `${ESC}[97:65;2:3u`,
];

/** CSI ~ and CSI 1;mods letter keys with modifiers and event types. */
function csiFunctionalSeqs(mod: number | undefined): string[] {
  const out: string[] = [];
  for (const event of EVENTS) {
    const tail = `${mod === undefined ? "" : `;${mod}`}${event === undefined ? "" : `:${event}`}`;
    for (const n of [2, 3, 5, 6, 7, 8, 11, 12, 13, 14, 15, 17, 18, 19, 20, 21, 23, 24, 1, 4]) {
      // Bare CSI 1 ~ and CSI 4 ~ (the Linux console's Home/End) are seq/ cases.
      if (tail === "" && (n === 1 || n === 4)) continue;
      out.push(`${ESC}[${n}${tail}~`);
    }
    if (mod !== undefined) {
      for (const final of "ABCDHFPQSRE") out.push(`${ESC}[1${tail}${final}`);
    }
  }
  return out;
}

const MODIFY_OTHER_KEYS: string[] = [];
for (const code of [13, 9, 27, 32, 127, 8, 97, 65, 122, 49, 33, 43, 61, 47, 63, 95, 45, 233, 0]) {
  for (const mod of [1, 2, 3, 5, 6, 7, 9, 65]) MODIFY_OTHER_KEYS.push(`${ESC}[27;${mod};${code}~`);
}

const CASES: TuiCase[] = [
  ...[...new Set([...LEGACY, ...CONTROL_BYTES, ...PRINTABLE, ...ESC_PREFIXED, ...TEXT])].map((seq) =>
    decodeCase(`seq/${label(seq)}`, seq)
  ),
  ...kittyCases(),
  ...ALTERNATES.map((seq) => decodeCase(`alt/${label(seq)}`, seq)),
  ...[undefined, 1, 2, 3, 5, 6, 9, 65].map((mod) =>
    decodeGroup(`csi-func/mod${mod ?? "-"}`, csiFunctionalSeqs(mod))
  ),
  ...[13, 9, 27, 32, 127, 8, 97, 65, 122, 49, 33, 43, 61, 47, 63, 95, 45, 233, 0].map((code) =>
    decodeGroup(`modify-other-keys/${code}`, MODIFY_OTHER_KEYS.filter((s) => s.endsWith(`;${code}~`)))
  ),
  {
    name: "kitty-state/toggle",
    body: `const seen = [T.isKittyProtocolActive()];
      T.setKittyProtocolActive(true); seen.push(T.isKittyProtocolActive());
      T.setKittyProtocolActive(false); seen.push(T.isKittyProtocolActive());
      return seen;`,
  },
  {
    name: "key-helper/all",
    body: `const out = {};
      for (const [name, value] of Object.entries(T.Key)) {
        out[name] = typeof value === "function" ? value("x") : value;
      }
      return out;`,
  },
  // pi-tui looks data up in a plain object, so names of Object.prototype members "parse" to functions.
  {
    name: "prototype-names",
    body: `return ["toString", "constructor", "__proto__"].map((s) => typeof T.parseKey(s));`,
  },
];

/**
 * Deliberate: the Linux console's Home (CSI 1 ~) and End (CSI 4 ~) parse as home/end (pi-tui
 * matches them but parses them to undefined); codepoints above U+FFFF are not truncated to a BMP
 * symbol (pi-tui reads U+1002F as "/"); Object.prototype names are not key sequences.
 */
const DELIBERATE: string[] = [
  "seq/\\x1b[1~",
  "seq/\\x1b[4~",
  "csi-u/linearB/mod-",
  "csi-u/linearB/mod1",
  "csi-u/linearB/mod2",
  "csi-u/linearB/mod3",
  "csi-u/linearB/mod4",
  "csi-u/linearB/mod5",
  "csi-u/linearB/mod6",
  "csi-u/linearB/mod7",
  "csi-u/linearB/mod9",
  "csi-u/linearB/mod13",
  "csi-u/linearB/mod65",
  "csi-u/linearB/mod66",
  "csi-u/linearB/mod129",
  "csi-u/linearB/mod133",
  "csi-u/linearB/mod16",
  "prototype-names",
];

/** Suites stay small: a reference run's output is cut at 128 KiB when piped (tui_case_runner.mjs exits early). */
const SUITES: Record<string, (c: TuiCase) => boolean> = {
  keys_parse_legacy: (c) => !c.name.startsWith("csi-"),
  keys_parse_csi_func: (c) => c.name.startsWith("csi-func/"),
  keys_parse_kitty_text: (c) => c.name.startsWith("csi-u/") && TEXT_CODEPOINT_NAMES.has(c.name.split("/")[1]),
  keys_parse_kitty_other: (c) =>
    c.name.startsWith("csi-u/") && !TEXT_CODEPOINT_NAMES.has(c.name.split("/")[1]),
};
const TEXT_CODEPOINT_NAMES = new Set(Object.keys(KITTY_CODEPOINTS).slice(0, 11));

for (const [suite, wanted] of Object.entries(SUITES)) {
  const cases = CASES.filter(wanted);
  Deno.test(`keys: ${suite} agrees with pi-tui 1.6.0 (${cases.length} cases)`, async () => {
    const names = new Set(cases.map((c) => c.name));
    await compareWithPiTui(suite, cases, DELIBERATE.filter((name) => names.has(name)));
  });
}

Deno.test("keys: every generated case belongs to exactly one suite", () => {
  for (const c of CASES) {
    const owners = Object.values(SUITES).filter((wanted) => wanted(c)).length;
    if (owners !== 1) throw new Error(`${c.name} is in ${owners} suites`);
  }
});
