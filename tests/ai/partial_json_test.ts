/**
 * Our streaming-JSON parser against the npm package `partial-json` (0.1.7), which the reference
 * agent uses and which stays a dependency only as this test's oracle: every result, and every
 * error (kind and message), must be the same.
 */
import { parse as oracleParse } from "partial-json";
import { parsePartialJson, PartialJsonError } from "../../src/ai/partial_json.ts";
import { parseJsonWithRepair, parseStreamingJson, repairJson } from "../../src/ai/json_parse.ts";
import { assert, assertEquals } from "../support/assert.ts";

/**
 * A comparable text for any parse result. Unlike deep equality it tells NaN, -0 and Infinity
 * apart and compares prototypes (a `__proto__` key sets one) by content, not identity.
 */
function canon(value: unknown): string {
  if (typeof value === "number") {
    if (Number.isNaN(value)) return "NaN";
    return Object.is(value, -0) ? "-0" : String(value);
  }
  if (typeof value === "string") return JSON.stringify(value);
  if (value === null || typeof value !== "object") return String(value);
  if (Array.isArray(value)) return `[${value.map(canon).join(",")}]`;
  const record = value as Record<string, unknown>;
  const members = Object.keys(record).map((key) => `${JSON.stringify(key)}:${canon(record[key])}`);
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype) members.push(`<proto>:${canon(proto)}`);
  return `{${members.join(",")}}`;
}

type ErrorKind = "partial" | "malformed" | string;

/** Outcome of one parse: the canonical value, or the error's kind and message. */
function outcome(
  parse: (text: string) => unknown,
  text: string,
  kindOf: (error: Error) => ErrorKind,
): string {
  try {
    return `ok ${canon(parse(text))}`;
  } catch (caught) {
    const error = caught as Error;
    return `throws ${kindOf(error)}: ${error.message}`;
  }
}

function oracleKind(error: Error): ErrorKind {
  const name = error.constructor.name;
  if (name === "PartialJSON") return "partial";
  if (name === "MalformedJSON") return "malformed";
  return name;
}

function ourKind(error: Error): ErrorKind {
  if (error instanceof PartialJsonError) return error.incomplete ? "partial" : "malformed";
  return error.constructor.name;
}

/** The streaming wrapper as it was built on `partial-json`, to check ours end to end. */
function oracleStreaming(text: string | undefined): unknown {
  if (!text || text.trim() === "") return {};
  try {
    return parseJsonWithRepair(text);
  } catch {
    for (const candidate of [text, repairJson(text)]) {
      try {
        return oracleParse(candidate) ?? {};
      } catch {
        // next candidate
      }
    }
    return {};
  }
}

/** Compares both parsers (and both wrappers) on one text; returns how many checks ran. */
function compare(text: string): number {
  const expected = outcome(oracleParse, text, oracleKind);
  const actual = outcome(parsePartialJson, text, ourKind);
  if (actual !== expected) assertEquals({ text, actual }, { text, actual: expected });
  const expectedWrapped = canon(oracleStreaming(text));
  const actualWrapped = canon(parseStreamingJson(text));
  if (actualWrapped !== expectedWrapped) {
    assertEquals({ text, wrapped: actualWrapped }, { text, wrapped: expectedWrapped });
  }
  return 2;
}

/** Compares on every prefix of `text`, the text itself included. */
function compareEveryPrefix(text: string): number {
  let checks = 0;
  for (let end = 1; end <= text.length; end++) checks += compare(text.slice(0, end));
  return checks;
}

const REALISTIC_DOCUMENTS: string[] = [
  '{"path":"src/main.ts"}',
  '{"path":"src/a.ts","offset":10,"limit":200}',
  '{"command":"ls -la && echo \\"done\\"","timeout":30}',
  '{"path":"x.ts","edits":[{"oldText":"a\\nb","newText":"c\\td"},{"oldText":"","newText":"z"}]}',
  '{"text":"héllo wörld 😀 日本語"}',
  '{"text":"caf\\u00e9 \\ud83d\\ude00 \\u65e5"}',
  '{"emoji":"\\ud83d\\ude00\\ud83c\\udf89","mixed":"a\\u0041\\u00e9😀"}',
  '{"n":-12.5e+3,"m":0.001,"k":1E-7,"z":0,"neg":-0,"big":12345678901234567890}',
  '{"x":1.0,"y":1e5,"z":-1E+2,"w":-0.5e-10}',
  '{"exp":2e-308,"max":1.7976931348623157e308}',
  '{"flag":true,"other":false,"none":null}',
  '{"ids":[true,false,null,true,null]}',
  '{"a":{},"b":[],"c":[{}],"d":[[]],"e":[[],{}],"f":{"g":{}}}',
  '{"pattern":"\\\\s+\\\\d{3}","glob":"**/*.ts"}',
  '{"content":"line1\\nline2\\n\\ttabbed \\"quoted\\" back\\\\\\\\slash \\/"}',
  '{"s":"\\/ \\b \\f \\n \\r \\t"}',
  '{"backslash_end":"C:\\\\dir\\\\"}',
  '{"quotes":"\\"\\"\\"","mix":"a\\\\\\"b"}',
  '{"html":"<div class=\\"x\\">&amp;</div>"}',
  '{"a":{"b":{"c":{"d":[1,{"e":"f"}],"g":[[1,2],[3,[4,[5]]]]}}}}',
  '{"path":"/tmp/x.md","content":"# Title\\n\\n- item 1\\n- item 2\\n"}',
  '{"todos":[{"id":"1","content":"Do x","status":"pending"},{"id":"2","content":"Do y","status":"done"}]}',
  '{"pattern":"TODO|FIXME","path":".","ignoreCase":true,"context":2,"limit":100}',
  '{"key with spaces":"v","":"empty key","ünïcödé":"k"}',
  '{"a" : 1 , "b" : [ 1 , 2 ] , "c" : { "d" : null } }',
  '{\n\t"a":\t"b",\n\t"c": [\n\t\t1,\n\t\t-2.5e3\n\t]\n}',
  '{\r\n  "path": "a b.txt",\r\n  "lines": [ 1, 2, 3 ]\r\n}',
  '  {"leading":"whitespace"}  \n',
  '[{"a":1},{"b":[true,false,null]},"s",-1.5,[]]',
  '"just a string with \\"escapes\\" and \\u00e9"',
  "-123.456e-7",
  "true",
  "null",
  "[1, 2.5, -3, 4e10, 0.0, -0]",
  JSON.stringify(
    { query: "SELECT * FROM t WHERE a = 'x'", params: [1, "two", null], dryRun: false },
    null,
    2,
  ),
  JSON.stringify({ cmd: 'grep -rn "foo\\\\bar" .', env: { PATH: "/usr/bin:/bin" }, ctl: "\u0001\u001f" }),
];

Deno.test("TOOL-ARGS partial JSON equals partial-json on every prefix of realistic tool arguments", () => {
  let checks = 0;
  for (const document of REALISTIC_DOCUMENTS) checks += compareEveryPrefix(document);
  assert(checks > 3000, `only ${checks} checks`);
});

Deno.test("TOOL-ARGS partial JSON completes truncated strings, numbers, literals and containers", () => {
  assertEquals(parsePartialJson('{"a": [1, "x'), { a: [1, "x"] });
  assertEquals(parsePartialJson('{"s": "caf\\u00'), { s: "caf" });
  assertEquals(parsePartialJson('{"s": "a\\'), { s: "a" });
  assertEquals(parsePartialJson('{"b": tru'), { b: true });
  assertEquals(parsePartialJson('{"b": fals'), { b: false });
  assertEquals(parsePartialJson('{"b": nu'), { b: null });
  assertEquals(parsePartialJson('{"n": 12.5e'), { n: 12.5 });
  assertEquals(parsePartialJson('{"n": -'), {});
  assertEquals(parsePartialJson('{"a": 1, "b":'), { a: 1 });
  assertEquals(parsePartialJson("[1, 2,"), [1, 2]);
  assertEquals(parsePartialJson('{"done": 1} trailing'), { done: 1 });
});

/** Deterministic pseudo-random numbers (mulberry32) so a failure can be replayed. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const STRING_PIECES = [
  "a",
  "Z",
  " ",
  "é",
  "日",
  "😀",
  '"',
  "\\",
  "/",
  "\n",
  "\t",
  "\u0001",
  "e",
  "-",
  "1",
  "{",
  "]",
];
const NUMBERS = [0, -0, 1, -1, 42, -7, 3.14, -0.001, 1e21, 1.5e-7, -2.5e300, 123456789, 0.1, 5e-324];

/** A random JSON text: random values, whitespace and escaping styles, as models vary them. */
function randomDocument(random: () => number): string {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)];
  const blank = (): string => (random() < 0.7 ? "" : pick([" ", "  ", "\n", "\t", "\r\n", " \n  "]));
  const string = (): string => {
    let text = "";
    const length = Math.floor(random() * 8);
    for (let i = 0; i < length; i++) text += pick(STRING_PIECES);
    const escapeAll = random() < 0.3;
    const quoted = JSON.stringify(text);
    if (!escapeAll) return quoted;
    // Non-ASCII as \uXXXX escapes (surrogate pairs for emoji), the other common spelling.
    return quoted.replace(
      /[^\x20-\x7e]/g,
      (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`,
    );
  };
  const value = (depth: number): string => {
    const roll = random();
    if (depth < 4 && roll < 0.2) {
      const items = Array.from(
        { length: Math.floor(random() * 4) },
        () => blank() + value(depth + 1) + blank(),
      );
      return `[${items.join(",")}${items.length === 0 ? blank() : ""}]`;
    }
    if (depth < 4 && roll < 0.45) {
      const members = Array.from(
        { length: Math.floor(random() * 4) },
        () => `${blank()}${string()}${blank()}:${blank()}${value(depth + 1)}${blank()}`,
      );
      return `{${members.join(",")}${members.length === 0 ? blank() : ""}}`;
    }
    if (roll < 0.65) return string();
    if (roll < 0.85) {
      const number = JSON.stringify(pick(NUMBERS));
      return random() < 0.2 ? number.replace("e", "E") : number;
    }
    return pick(["true", "false", "null"]);
  };
  return blank() + value(random() < 0.8 ? 3 : 0) + blank();
}

Deno.test("TOOL-ARGS partial JSON equals partial-json on seeded random JSON cut at every position", () => {
  const random = seededRandom(20240601);
  let checks = 0;
  for (let i = 0; i < 800; i++) checks += compareEveryPrefix(randomDocument(random));
  assert(checks > 20000, `only ${checks} checks`);
});

const MALFORMED_INPUTS = [
  "}}}",
  "]",
  ",",
  ":",
  "-",
  "--1",
  "+1",
  "01",
  "1.",
  ".5",
  "1e",
  "1e+",
  "[1.",
  "[1e",
  "[-",
  "[-I",
  "[-Inf",
  "NaN",
  "Na",
  "N",
  "Infinity",
  "Inf",
  "-Infinity",
  "[Infinity, -Infinity, NaN]",
  "nullx",
  "truex",
  "[nul, tr, f]",
  "{'a': 1}",
  "{a: 1}",
  '{"a" 1}',
  '{"a":1 "b":2}',
  '{"a":1,,"b":2}',
  '{"a":}',
  '{"a":,}',
  '{"a"',
  '{"a":1]',
  "[1 2]",
  "[1,,2]",
  "[,]",
  "[ ]",
  "{ }",
  "[}",
  '["a" "b"]',
  '"\\x"',
  '"\\u12G4"',
  '["\\u12',
  '{"s":"\\q',
  '{"s":"raw\nnewline"}',
  '{"s":"raw\ttab',
  '{"s":"\u0001"}',
  '"unterminated \\\\',
  '"unterminated \\\\\\',
  '\u00a0{"a":1}\u00a0',
  "\ufeff[1]",
  '{"__proto__": {"polluted": true}, "own": 1}',
  '{"__proto__": 5}',
  '{"a":1}{"b":2}',
  "[1]]",
  "1 2",
  "undefined",
  '{"e": [ ]}',
  '{"a": -',
  '{"a": -1e',
  "[1e5,}",
];

Deno.test("TOOL-ARGS partial JSON equals partial-json on malformed input, results and errors alike", () => {
  let checks = 0;
  for (const input of MALFORMED_INPUTS) checks += compareEveryPrefix(input);
  assert(checks > 500, `only ${checks} checks`);
});

Deno.test("TOOL-ARGS partial JSON equals partial-json on seeded random character soup and mutations", () => {
  const random = seededRandom(7);
  const alphabet = [...'{}[]":, \n\t\\ae1E0-+.nultrfsNIx9é', "\u00a0", "\r"];
  let checks = 0;
  for (let i = 0; i < 20000; i++) {
    let text = "";
    const length = 1 + Math.floor(random() * 30);
    for (let j = 0; j < length; j++) text += alphabet[Math.floor(random() * alphabet.length)];
    checks += compare(text);
  }
  // Valid documents with one character inserted, dropped or replaced, cut at every position.
  for (let i = 0; i < 150; i++) {
    const document = REALISTIC_DOCUMENTS[i % REALISTIC_DOCUMENTS.length];
    const at = Math.floor(random() * document.length);
    const char = alphabet[Math.floor(random() * alphabet.length)];
    const edits = [
      document.slice(0, at) + char + document.slice(at),
      document.slice(0, at) + document.slice(at + 1),
      document.slice(0, at) + char + document.slice(at + 1),
    ];
    for (const edited of edits) checks += compareEveryPrefix(edited);
  }
  assert(checks > 50000, `only ${checks} checks`);
});

Deno.test("TOOL-ARGS partial JSON throws like partial-json on blank and non-string input", () => {
  for (const input of [" ", "\n\t", "\u00a0"]) {
    assertEquals(outcome(parsePartialJson, input, ourKind), outcome(oracleParse, input, oracleKind));
    assert(outcome(parsePartialJson, input, ourKind).startsWith("throws Error: "));
  }
  const notText = 42 as unknown as string;
  assertEquals(outcome(parsePartialJson, notText, ourKind), "throws TypeError: expecting str, got number");
  assertEquals(outcome(oracleParse, notText, oracleKind), "throws TypeError: expecting str, got number");
});
