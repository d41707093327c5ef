import { parseJsonWithRepair, parseStreamingJson, repairJson } from "../../src/ai/json_parse.ts";
import { assertEquals, assertThrows } from "../support/assert.ts";

Deno.test("TOOL-ARGS parseStreamingJson returns {} for empty or hopeless input", () => {
  assertEquals(parseStreamingJson(""), {});
  assertEquals(parseStreamingJson("   "), {});
  assertEquals(parseStreamingJson(undefined), {});
  assertEquals(parseStreamingJson("}}}"), {});
});

Deno.test("TOOL-ARGS parseStreamingJson completes partial objects while streaming", () => {
  assertEquals(parseStreamingJson('{"path": "src/ma'), { path: "src/ma" });
  assertEquals(parseStreamingJson('{"path": "a.ts", "limit": 1'), { path: "a.ts", limit: 1 });
  assertEquals(parseStreamingJson('{"items": [1, 2'), { items: [1, 2] });
  assertEquals(parseStreamingJson('{"path"'), {});
});

Deno.test("TOOL-ARGS parseStreamingJson parses complete JSON exactly", () => {
  assertEquals(parseStreamingJson('{"a":{"b":[true,null,"x"]}}'), { a: { b: [true, null, "x"] } });
});

Deno.test("TOOL-ARGS repairJson escapes raw control characters and stray backslashes", () => {
  assertEquals(repairJson('{"s":"a\nb\tc\u0001"}'), '{"s":"a\\nb\\tc\\u0001"}');
  assertEquals(repairJson('{"p":"C:\\dir\\x"}'), '{"p":"C:\\\\dir\\\\x"}');
  assertEquals(repairJson('{"u":"\\u00e9 \\n"}'), '{"u":"\\u00e9 \\n"}');
  // Outside strings nothing changes.
  assertEquals(repairJson('{\n"a": 1}'), '{\n"a": 1}');
});

Deno.test("TOOL-ARGS parseJsonWithRepair recovers model-mangled JSON and rethrows the rest", () => {
  assertEquals(parseJsonWithRepair('{"cmd":"echo \\d\nls"}'), { cmd: "echo \\d\nls" });
  assertThrows(() => parseJsonWithRepair("{nope"));
  // Same as the reference: the partial parser stops at the invalid escape.
  assertEquals(parseStreamingJson('{"cmd":"grep \\s+ file\n'), { cmd: "grep " });
});
