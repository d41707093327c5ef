/**
 * TOOL-02 tool-argument validation as pi 1.6.0 (pi-schema) does it on the built-in tools: the
 * same coercions (strings for numbers, a single value for an array, null for an omitted optional
 * property) and the same error text, captured by scripts/capture/tools_b_reference.mjs.
 */
import { assertEquals } from "../support/assert.ts";
import { validateToolArguments } from "../../src/ai/validation.ts";
import { createAllTools, type ToolName } from "../../src/tools/index.ts";

interface Case {
  name: ToolName;
  args: unknown;
  value?: unknown;
  error?: string;
}
const fixture: { cases: Case[] } = JSON.parse(
  Deno.readTextFileSync(new URL("../fixtures/tools/validation/expected.json", import.meta.url)),
);

Deno.test("TOOL-02 validation coercions and error texts match reference 1.6.0", () => {
  const tools = createAllTools("/tmp");
  for (const c of fixture.cases) {
    const call = {
      type: "toolCall" as const,
      id: "1",
      name: c.name,
      arguments: c.args as Record<string, unknown>,
    };
    let actual: { value?: unknown; error?: string };
    try {
      actual = { value: validateToolArguments(tools[c.name], call) };
    } catch (e) {
      actual = { error: (e as Error).message };
    }
    const expected = c.error !== undefined ? { error: c.error } : { value: c.value };
    assertEquals(actual, expected, `${c.name} ${JSON.stringify(c.args)}`);
  }
});

Deno.test("TOOL-02 validation names unknown fields, enums and nested paths", () => {
  const tool = {
    name: "t",
    description: "",
    parameters: {
      type: "object",
      required: ["mode"],
      properties: {
        mode: { type: "string", enum: ["a", "b"] },
        items: {
          type: "array",
          items: { type: "object", properties: { n: { type: "number", minimum: 1 } } },
        },
      },
      additionalProperties: false,
    },
  };
  let message = "";
  try {
    validateToolArguments(tool, {
      type: "toolCall",
      id: "1",
      name: "t",
      arguments: { mode: "c", items: [{ n: 0 }], extra: true },
    });
  } catch (e) {
    message = (e as Error).message;
  }
  assertEquals(
    message.split("\n\n")[0],
    'Validation failed for tool "t":\n  - mode: expected one of ["a","b"]\n  - items.0.n: expected >= 1\n  - extra: unknown field',
  );
});
