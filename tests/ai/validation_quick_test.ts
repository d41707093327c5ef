/**
 * TOOL-02 the quick argument check (src/ai/validation_quick.ts) that lets a tool call skip loading
 * TypeBox: on the built-in tools' schemas it answers only when the full validator would return the
 * same arguments unchanged, and otherwise leaves the call to it (so coercions and error texts stay
 * the full validator's). Checked on pi 1.6.0's captured validation cases, on typical calls of every
 * built-in tool, and on many generated argument objects.
 */
import { assert, assertEquals } from "../support/assert.ts";
import { quickValidatedArguments } from "../../src/ai/validation_quick.ts";
import { validateToolArguments } from "../../src/ai/validation.ts";
import type { ToolCall } from "../../src/ai/types.ts";
import { createAllTools, type ToolName } from "../../src/tools/index.ts";

const tools = createAllTools("/tmp");

function call(name: string, args: unknown): ToolCall {
  return { type: "toolCall", id: "1", name, arguments: args as Record<string, unknown> };
}

/** The full validator's answer: the arguments it returns, or its error text. */
function full(name: ToolName, args: unknown): { value?: unknown; error?: string } {
  try {
    return { value: validateToolArguments(tools[name], call(name, args)) };
  } catch (error) {
    return { error: (error as Error).message };
  }
}

/** The quick check agrees with the full validator whenever it answers; returns whether it answered. */
function agrees(name: ToolName, args: unknown): boolean {
  const before = JSON.stringify(args);
  const quick = quickValidatedArguments(tools[name].parameters, args);
  assertEquals(JSON.stringify(args), before, "the quick check does not change the arguments");
  if (quick === undefined) return false;
  assertEquals({ value: quick }, full(name, args), `${name} ${before}`);
  assert(quick !== args, "a copy, as the full validator returns");
  return true;
}

Deno.test("TOOL-02 quick check: pi 1.6.0's validation cases (coercions, nulls, errors) go to the full validator", () => {
  const fixture: { cases: { name: ToolName; args: unknown }[] } = JSON.parse(
    Deno.readTextFileSync(new URL("../fixtures/tools/validation/expected.json", import.meta.url)),
  );
  for (const c of fixture.cases) {
    assertEquals(agrees(c.name, c.args), false, `${c.name} ${JSON.stringify(c.args)}`);
  }
});

Deno.test("TOOL-02 quick check answers typical calls of every built-in tool as the full validator does", () => {
  const typical: [ToolName, unknown][] = [
    ["read", { path: "a.txt" }],
    ["read", { path: "src/x.ts", offset: 10, limit: 50 }],
    ["read", { limit: 5, path: "ünï/🙂.md" }],
    ["write", { path: "note.txt", content: "alpha\nbeta\n" }],
    ["write", { content: "", path: "/abs/empty" }],
    ["edit", { path: "a.ts", edits: [{ oldText: "x", newText: "y" }] }],
    ["edit", { path: "a.ts", edits: [{ oldText: "1", newText: "2" }, { newText: "", oldText: "3" }] }],
    ["edit", { path: "a.ts", edits: [] }],
    ["bash", { command: "ls -la" }],
    ["bash", { command: "sleep 1", timeout: 30 }],
    ["bash", { command: "x", timeout: 0.5 }],
    ["grep", { pattern: "TODO" }],
    ["grep", {
      pattern: "a",
      path: "src",
      glob: "*.ts",
      ignoreCase: true,
      literal: false,
      context: 2,
      limit: 10,
    }],
    ["find", { pattern: "*.ts" }],
    ["find", { pattern: "**/*.md", path: "docs", limit: 3 }],
    ["ls", {}],
    ["ls", { path: ".", limit: 20 }],
  ];
  for (const [name, args] of typical) assert(agrees(name, args), `answered: ${name} ${JSON.stringify(args)}`);
});

Deno.test("TOOL-02 quick check leaves every doubtful call to the full validator", () => {
  const doubtful: [ToolName, unknown][] = [
    ["read", { path: "a", offset: null }],
    ["read", { path: "a", limit: "10" }],
    ["read", { path: "a", extra: 1 }],
    ["read", { path: "a", offset: Number.NaN }],
    ["read", { path: "a", offset: Infinity }],
    ["read", {}],
    ["read", ["a"]],
    ["read", "a"],
    ["read", null],
    ["read", { path: "a", toString: "x" }],
    ["write", { path: "a", content: 5 }],
    ["edit", { path: "a", edits: { oldText: "x", newText: "y" } }],
    ["edit", { path: "a", edits: [{ oldText: "x" }] }],
    ["edit", { path: "a", edits: [{ oldText: "x", newText: "y", more: 1 }] }],
    ["edit", { path: "a", edits: [null] }],
    ["edit", { path: "a", edits: "[]" }],
    ["bash", { command: ["ls"] }],
    ["bash", { command: "ls", timeout: "5" }],
    ["grep", { pattern: "x", ignoreCase: "true" }],
    ["grep", { pattern: "x", ignoreCase: 1 }],
    ["ls", { path: false }],
  ];
  for (const [name, args] of doubtful) {
    assertEquals(agrees(name, args), false, `left alone: ${name} ${JSON.stringify(args)}`);
  }
  // Schemas beyond the simple kind (keywords, TypeBox symbols) always go to the full validator.
  assertEquals(quickValidatedArguments(undefined as never, {}), undefined);
  assertEquals(quickValidatedArguments({ properties: {} }, {}), undefined);
  const withEnum = { type: "object", properties: { mode: { type: "string", enum: ["a"] } } };
  assertEquals(quickValidatedArguments(withEnum, { mode: "a" }), undefined);
  const closed = { type: "object", properties: { a: { type: "string" } }, additionalProperties: false };
  assertEquals(quickValidatedArguments(closed, { a: "x" }), undefined);
  const marked = Object.assign({ type: "object", properties: {} }, {
    [Symbol.for("TypeBox.Kind")]: "Object",
  });
  assertEquals(quickValidatedArguments(marked, {}), undefined);
});

Deno.test("TOOL-02 quick check agrees with the full validator on generated arguments", () => {
  // A small deterministic generator (no clock, no Math.random): values of every JSON kind.
  let seed = 12345;
  const next = (n: number) => { // mulberry32
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) % n;
  };
  const values = (depth: number): unknown => {
    switch (next(depth > 1 ? 9 : 11)) {
      case 0:
        return null;
      case 1:
        return next(2) === 0;
      case 2:
        return next(100);
      case 3:
        return next(100) / 7;
      case 4:
        return String(next(100));
      case 5:
        return ["true", "false", "", "x y", "null"][next(5)];
      case 6:
        return -next(3);
      case 7:
        return "text";
      case 8:
        return next(2) ? "a.txt" : "";
      case 9:
        return Array.from({ length: next(3) }, () => values(depth + 1));
      default: {
        const out: Record<string, unknown> = {};
        for (const key of ["oldText", "newText", "x"].slice(0, next(4))) out[key] = values(depth + 1);
        return out;
      }
    }
  };
  let answered = 0;
  const names = Object.keys(tools) as ToolName[];
  for (let i = 0; i < 3000; i++) {
    const name = names[next(names.length)];
    const properties = Object.keys((tools[name].parameters as { properties: object }).properties);
    const args: Record<string, unknown> = {};
    for (const key of properties) {
      if (next(3) === 0) continue;
      // Mostly the right kind of value, so that many calls pass.
      const schema = (tools[name].parameters as { properties: Record<string, { type?: string }> })
        .properties[key];
      const kind = schema?.type;
      if (next(4) !== 0 && kind === "string") args[key] = ["a", "", "b c"][next(3)];
      else if (next(4) !== 0 && (kind === "number" || kind === "integer")) args[key] = next(50);
      else if (next(4) !== 0 && kind === "boolean") args[key] = next(2) === 1;
      else if (next(4) !== 0 && kind === "array") {
        args[key] = Array.from({ length: next(3) }, () => ({ oldText: "o", newText: "n" }));
      } else args[key] = values(0);
    }
    if (next(8) === 0) args.extra = values(0);
    if (agrees(name, args)) answered++;
  }
  // Enough of them were answered quickly for the comparison to mean something.
  assert(answered > 300, `answered ${answered}`);
});
