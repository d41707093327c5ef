/**
 * parseArgs against results captured from the reference's parseArgs (tests/fixtures/cli/units_reference.json,
 * made by tests/fixtures/cli/capture_units.mjs from parse_args_cases.json).
 */
import { assertEquals } from "../support/assert.ts";
import { isValidThinkingLevel, parseArgs } from "../../src/cli/args.ts";

interface ParsedCase {
  argv: string[];
  result: Record<string, unknown> & { unknownFlags: [string, string | boolean][] };
}

const units = JSON.parse(
  Deno.readTextFileSync(new URL("../fixtures/cli/units_reference.json", import.meta.url)),
) as { parsed: ParsedCase[] };

for (const { argv, result } of units.parsed) {
  Deno.test(`CLI-02..08 parseArgs ${JSON.stringify(argv)} equals the reference`, () => {
    const ours = parseArgs(argv);
    assertEquals({ ...ours, unknownFlags: [...ours.unknownFlags.entries()] }, result);
  });
}

Deno.test("CLI-04 -p takes a following '---' front-matter text as the message", () => {
  assertEquals(parseArgs(["-p", "---\nx: 1\n---"]).messages, ["---\nx: 1\n---"]);
  assertEquals(parseArgs(["-p", "--verbose"]).messages, []);
});

Deno.test("CLI-06 unknown short options are errors, one diagnostic each", () => {
  assertEquals(parseArgs(["-x", "-yz"]).diagnostics, [
    { type: "error", message: "Unknown option: -x" },
    { type: "error", message: "Unknown option: -yz" },
  ]);
});

Deno.test("CLI-08 an invalid --thinking level is a warning and leaves thinking unset; max is valid", () => {
  const parsed = parseArgs(["--thinking", "extreme"]);
  assertEquals(parsed.thinking, undefined);
  assertEquals(parsed.diagnostics, [{
    type: "warning",
    message: 'Invalid thinking level "extreme". Valid values: off, minimal, low, medium, high, xhigh, max',
  }]);
  assertEquals(isValidThinkingLevel("xhigh"), true);
  assertEquals(isValidThinkingLevel("max"), true);
  assertEquals(parseArgs(["--thinking", "max"]).thinking, "max");
});

Deno.test("CLI-05 -- ends the options: dashes and @files after it are messages and files", () => {
  const parsed = parseArgs(["-p", "--", "-x", "@a.txt", "--help"]);
  assertEquals([parsed.messages, parsed.fileArgs, parsed.help, parsed.diagnostics], [
    ["-x", "--help"],
    ["a.txt"],
    undefined,
    [],
  ]);
});

Deno.test("CLI-02 parseArgs ignores object-prototype names", () => {
  const parsed = parseArgs(["__proto__", "toString", "--hasOwnProperty"]);
  assertEquals(parsed.messages, ["__proto__", "toString"]);
  assertEquals([...parsed.unknownFlags.entries()], [["hasOwnProperty", true]]);
});
