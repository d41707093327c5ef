import { assertEquals, assertThrows } from "../support/assert.ts";
import {
  loadJsoncEditor,
  parseJsonc,
  rewriteJsonc,
  stripJsonComments,
  stripJsoncSyntax,
} from "../../src/config/jsonc.ts";

Deno.test("PROV-04 stripJsonComments removes // comments and trailing commas but not inside strings", () => {
  const input = '{\n  // c\n  "url": "http://x//y", // tail\n  "a": [1, 2,],\n}';
  assertEquals(JSON.parse(stripJsonComments(input)), { url: "http://x//y", a: [1, 2] });
});

Deno.test("SET-01 parseJsonc: strict JSON first, JSONC accepted, broken text throws JSON.parse's error", () => {
  assertEquals(parseJsonc('{"a":1}'), { value: { a: 1 }, isJsonc: false });
  assertEquals(parseJsonc('{/* x */ "a": 1,}'), { value: { a: 1 }, isJsonc: true });
  let strictMessage = "";
  try {
    JSON.parse('{"a": }');
  } catch (error) {
    strictMessage = (error as Error).message;
  }
  assertThrows(() => parseJsonc('{"a": }'), strictMessage);
});

Deno.test("SET-01 stripJsoncSyntax keeps strings (with escapes) and removes comments and trailing commas", () => {
  const input = '{"s": "a // b /* c */ \\" ,]", /* block\n */ "t": [1, /* x */ 2 , // y\n ], }';
  assertEquals(JSON.parse(stripJsoncSyntax(input)), { s: 'a // b /* c */ " ,]', t: [1, 2] });
});

Deno.test("SET-03 rewriteJsonc edits only changed keys and keeps comments", async () => {
  await loadJsoncEditor();
  const text = '{\n  // keep me\n  "a": 1,\n  "n": { "x": 1, /* inner */ "y": 2 },\n  "gone": true\n}';
  const out = rewriteJsonc(text, { a: 1, n: { x: 1, y: 2 }, gone: true }, {
    a: 1,
    n: { x: 1, y: 3 },
    b: "new",
  });
  assertEquals(parseJsonc(out).value, { a: 1, n: { x: 1, y: 3 }, b: "new" });
  assertEquals(out.includes("// keep me"), true);
  assertEquals(out.includes("/* inner */"), true);
});
