/**
 * Conformance of matchesKey with pi-tui 1.6.0: every base key (letters, digits, symbols, named
 * keys) under a dozen modifier spellings, each tried against a pool of legacy sequences and of the
 * kitty CSI u / CSI ~ / CSI 1;mods and modifyOtherKeys forms of that key, with the kitty protocol
 * off and on. A case records which pool sequences match.
 */
import { compareWithPiTui, js, type TuiCase } from "../support/tui_oracle.ts";

const ESC = "\x1b";
const LETTERS = "abcdefghijklmnopqrstuvwxyz".split("");
const DIGITS = "0123456789".split("");
const SYMBOLS = "`-=[]\\;',./!@#$%^&*()_+|~{}:<>?".split("");
const NAMED = [
  "escape",
  "esc",
  "enter",
  "return",
  "tab",
  "space",
  "backspace",
  "delete",
  "insert",
  "clear",
  "home",
  "end",
  "pageUp",
  "pageDown",
  "up",
  "down",
  "left",
  "right",
  ..."123456789".split("").map((n) => `f${n}`),
  "f10",
  "f11",
  "f12",
];
const PREFIXES = [
  "",
  "ctrl+",
  "shift+",
  "alt+",
  "super+",
  "ctrl+shift+",
  "shift+ctrl+",
  "ctrl+alt+",
  "shift+alt+",
  "ctrl+super+",
  "ctrl+shift+alt+",
  "ctrl+shift+alt+super+",
];

/** Legacy bytes every key is tried against. */
const COMMON = [
  ..."ABCDEFHZ".split("").map((c) => `${ESC}[${c}`),
  ..."ABCDEFHMPQRSabcde".split("").map((c) => `${ESC}O${c}`),
  ..."abcde".split("").map((c) => `${ESC}[${c}`),
  ...[2, 3, 5, 6, 7, 8].flatMap((n) => [`${ESC}[${n}$`, `${ESC}[${n}^`]),
  ...[1, 2, 3, 4, 5, 6, 7, 8, 11, 12, 13, 14, 15, 17, 18, 19, 20, 21, 23, 24].map((n) => `${ESC}[${n}~`),
  ..."ABCDE".split("").map((c) => `${ESC}[[${c}`),
  `${ESC}[[5~`,
  `${ESC}[[6~`,
  ...Array.from({ length: 32 }, (_, i) => String.fromCharCode(i)),
  "\x7f",
  ...Array.from({ length: 32 }, (_, i) => ESC + String.fromCharCode(i)),
  `${ESC}\x7f`,
  `${ESC} `,
  ...["b", "f", "n", "p", "B", "F"].map((c) => ESC + c),
  " ",
  `${ESC}[1;3D`,
  `${ESC}[1;5D`,
  `${ESC}[1;3C`,
  `${ESC}[1;5C`,
];

function csiU(codepoint: number, mod?: number, event?: number, alt = ""): string {
  const mods = mod === undefined ? (event === undefined ? "" : ";1") : `;${mod}`;
  return `${ESC}[${codepoint}${alt}${mods}${event === undefined ? "" : `:${event}`}u`;
}

const KITTY_MODS = [undefined, 2, 3, 5, 6, 7, 9, 13, 65, 66, 69, 16];

/** The forms of a letter, digit or symbol key a terminal may send. */
function textForms(key: string): string[] {
  const cp = key.charCodeAt(0);
  const upper = key.toUpperCase();
  const control = String.fromCharCode(cp & 0x1f);
  const out = [key, upper, ESC + key, ESC + upper, control, ESC + control];
  for (const mod of KITTY_MODS) out.push(csiU(cp, mod));
  out.push(csiU(cp, 5, 3), csiU(cp, 1, 2), csiU(cp, 2, 1));
  if (upper !== key) out.push(csiU(upper.charCodeAt(0), 2), csiU(upper.charCodeAt(0), 6));
  out.push(csiU(1089, 5, undefined, `::${cp}`), csiU(1089, 1, undefined, `::${cp}`));
  out.push(csiU(233, 3, undefined, `::${cp}`), csiU(0x1f600, 5, undefined, `::${cp}`));
  out.push(csiU(107, 5, undefined, `::${cp}`), csiU(47, 5, undefined, `::${cp}`));
  for (const mod of [1, 2, 3, 5, 6, 9]) out.push(`${ESC}[27;${mod};${cp}~`);
  out.push(`${ESC}[27;2;${upper.charCodeAt(0)}~`);
  return out;
}

/** Shifted symbols with the unshifted key kitty reports them on (US layout). */
const SHIFT_PAIRS: Record<string, string> = {
  "!": "1",
  "@": "2",
  "#": "3",
  "$": "4",
  "%": "5",
  "^": "6",
  "&": "7",
  "*": "8",
  "(": "9",
  ")": "0",
  "_": "-",
  "+": "=",
  "{": "[",
  "}": "]",
  "|": "\\",
  ":": ";",
  "<": ",",
  ">": ".",
  "?": "/",
  "~": "`",
};

function symbolForms(key: string): string[] {
  const out = textForms(key);
  const base = SHIFT_PAIRS[key];
  if (base) {
    const b = base.charCodeAt(0);
    const s = key.charCodeAt(0);
    for (const mod of [2, 3, 6, 10, 66]) out.push(csiU(b, mod, undefined, `:${s}`));
    out.push(csiU(b, 2, 3, `:${s}`), csiU(b, 1, undefined, `:${s}`));
  }
  for (const [shifted, unshifted] of Object.entries(SHIFT_PAIRS)) {
    if (unshifted === key) out.push(csiU(key.charCodeAt(0), 2, undefined, `:${shifted.charCodeAt(0)}`));
  }
  return out;
}

const NAMED_FORMS: Record<string, string[]> = {};
{
  const specials: Record<string, number[]> = {
    escape: [27],
    enter: [13, 57414],
    tab: [9],
    space: [32],
    backspace: [127, 8],
  };
  for (const [name, cps] of Object.entries(specials)) {
    const forms: string[] = [];
    for (const cp of cps) {
      for (const mod of KITTY_MODS) forms.push(csiU(cp, mod));
      forms.push(csiU(cp, 1, 3), csiU(cp, 2, 2));
      for (const mod of [1, 2, 3, 5, 6, 9]) forms.push(`${ESC}[27;${mod};${cp}~`);
    }
    NAMED_FORMS[name] = forms;
  }
  NAMED_FORMS.esc = NAMED_FORMS.escape;
  NAMED_FORMS.return = NAMED_FORMS.enter;
  const tilde: Record<string, number[]> = {
    insert: [2],
    delete: [3],
    pageUp: [5],
    pageDown: [6],
    home: [1, 7],
    end: [4, 8],
    f1: [11],
    f2: [12],
    f3: [13],
    f4: [14],
    f5: [15],
    f6: [17],
    f7: [18],
    f8: [19],
    f9: [20],
    f10: [21],
    f11: [23],
    f12: [24],
  };
  const letter: Record<string, string> = {
    up: "A",
    down: "B",
    right: "C",
    left: "D",
    home: "H",
    end: "F",
    f1: "P",
    f2: "Q",
    f3: "R",
    f4: "S",
    clear: "E",
  };
  const keypad: Record<string, number> = {
    left: 57417,
    right: 57418,
    up: 57419,
    down: 57420,
    pageUp: 57421,
    pageDown: 57422,
    home: 57423,
    end: 57424,
    insert: 57425,
    delete: 57426,
  };
  for (const name of NAMED.slice(6)) {
    const forms: string[] = [];
    for (const mod of [undefined, 2, 3, 5, 6, 9, 65]) {
      for (const event of [undefined, 3]) {
        const tail = `${mod === undefined ? "" : `;${mod}`}${event === undefined ? "" : `:${event}`}`;
        for (const n of tilde[name] ?? []) forms.push(`${ESC}[${n}${tail}~`);
        if (letter[name] && mod !== undefined) forms.push(`${ESC}[1${tail}${letter[name]}`);
        if (keypad[name]) forms.push(csiU(keypad[name], mod, event));
      }
    }
    NAMED_FORMS[name] = forms;
  }
}

/** One case: which pool sequences match `<prefix><key>` for every prefix, kitty off then on. */
function keyCase(key: string, forms: string[]): TuiCase {
  const pool = [...new Set([...COMMON, ...forms])];
  return {
    name: `key/${key}`,
    body: `const pool = ${js(pool)};
      const out = {};
      for (const prefix of ${js(PREFIXES)}) {
        const row = [];
        for (const kitty of [false, true]) {
          T.setKittyProtocolActive(kitty);
          row.push(pool.filter((seq) => T.matchesKey(seq, prefix + ${js(key)})));
        }
        T.setKittyProtocolActive(false);
        out[prefix || "-"] = JSON.stringify(row[0]) === JSON.stringify(row[1]) ? row[0] : row;
      }
      return out;`,
  };
}

/** Odd spellings of key ids: case, order, duplicates, empty parts, unknown names. */
const ODD_IDS = [
  "Ctrl+A",
  "CTRL+SHIFT+P",
  "shift+CTRL+p",
  "alt+ctrl+x",
  "super+ctrl+alt+shift+k",
  "ctrl+ctrl+a",
  "ctrl+",
  "+",
  "ctrl++",
  "shift++",
  "ctrl+shift",
  "PageUp",
  "PAGEDOWN",
  "F5",
  "Escape",
  "hyper+a",
  "meta+a",
  "ctrl+é",
  "é",
  "",
  "a+b",
  "ctrl+a+b",
  "f13",
  "capslock",
  "ctrl+kpEnter",
];
const ODD_POOL = [
  "a",
  "A",
  "x",
  "\x01",
  "\x18",
  "\x1b\x18",
  "+",
  "=",
  "\x1b+",
  "é",
  "\x1b[5~",
  "\x1b[6~",
  "\x1b[15~",
  "\x1b",
  csiU(97, 5),
  csiU(112, 6),
  csiU(107, 16),
  csiU(43, 5),
  csiU(61, 6, undefined, ":43"),
  csiU(61, 2, undefined, ":43"),
  csiU(233, 5),
  csiU(57376),
  csiU(120, 7),
  csiU(120, 17),
  csiU(57414, 5),
];

const CASES: TuiCase[] = [
  ...LETTERS.map((k) => keyCase(k, textForms(k))),
  ...DIGITS.map((k) => keyCase(k, symbolForms(k))),
  ...SYMBOLS.map((k) => keyCase(k, symbolForms(k))),
  ...NAMED.map((k) => keyCase(k, NAMED_FORMS[k])),
  ...ODD_IDS.map((id) => ({
    name: `id/${id || "(empty)"}`,
    body: `const out = [];
      for (const kitty of [false, true]) {
        T.setKittyProtocolActive(kitty);
        out.push(${js(ODD_POOL)}.filter((seq) => T.matchesKey(seq, ${js(id)})));
      }
      T.setKittyProtocolActive(false);
      return out;`,
  })),
  {
    name: "key-helper/ids-match",
    body: `const k = T.Key;
      const ids = [k.ctrl("c"), k.shift("tab"), k.alt("enter"), k.super("k"), k.ctrlShift("p"), k.ctrlAlt("x"),
        k.shiftAlt("up"), k.ctrlSuper("k"), k.ctrlShiftAlt("z"), k.ctrlShiftSuper("s"), k.escape, k.pageUp, k.plus];
      const seqs = ["\\x03", "\\x1b[Z", "\\x1b\\r", "\\x1b[107;9u", "\\x1b[112;6u", "\\x1b\\x18", "\\x1b[1;4A",
        "\\x1b[107;13u", "\\x1b[122;8u", "\\x1b[115;14u", "\\x1b", "\\x1b[5~", "+"];
      return ids.map((id) => [id, seqs.filter((s) => T.matchesKey(s, id))]);`,
  },
];

const SUITES: Record<string, (c: TuiCase) => boolean> = {
  keys_match_letters: (c) => /^key\/[a-z]$/.test(c.name),
  keys_match_symbols: (c) => /^key\/.$/.test(c.name) && !/^key\/[a-z]$/.test(c.name),
  keys_match_named: (c) => /^key\/..+$/.test(c.name),
  keys_match_ids: (c) => !c.name.startsWith("key/"),
};

for (const [suite, wanted] of Object.entries(SUITES)) {
  const cases = CASES.filter(wanted);
  Deno.test(`keys: ${suite} agrees with pi-tui 1.6.0 (${cases.length} cases)`, async () => {
    await compareWithPiTui(suite, cases);
  });
}

Deno.test("keys: every matchesKey case belongs to exactly one suite", () => {
  for (const c of CASES) {
    const owners = Object.values(SUITES).filter((wanted) => wanted(c)).length;
    if (owners !== 1) throw new Error(`${c.name} is in ${owners} suites`);
  }
});
