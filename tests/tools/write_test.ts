import { deepStrictEqual as assertEquals, rejects } from "node:assert/strict";
import { Buffer } from "node:buffer";
import { cp } from "node:fs/promises";
import { join } from "node:path";
import { createWriteTool, type WriteToolInput } from "../../src/tools/write.ts";

// Expectations were captured from the reference pi 1.6.0 write tool on the same input files by
// scripts/capture/tools_reference.mjs (see tests/fixtures/tools/write/README.md).
const fixtureDir = new URL("../fixtures/tools/write/", import.meta.url).pathname;
interface Case {
  name: string;
  args: WriteToolInput;
  content?: { type: string; text: string }[];
  details?: unknown;
  error?: string;
  filesAfter: Record<string, string | null>;
}
const expected = JSON.parse(await Deno.readTextFile(join(fixtureDir, "expected.json"))) as {
  tool: {
    name: string;
    label: string;
    description: string;
    parameters: unknown;
    promptSnippet: string;
    promptGuidelines: string[];
  };
  cases: Case[];
};

Deno.test("WRITE-01 tool metadata and JSON schema match the reference", () => {
  const tool = createWriteTool("/tmp");
  assertEquals(
    { name: tool.name, label: tool.label, description: tool.description, parameters: tool.parameters },
    {
      name: expected.tool.name,
      label: expected.tool.label,
      description: expected.tool.description,
      parameters: expected.tool.parameters,
    },
  );
  assertEquals(JSON.stringify(tool.parameters), JSON.stringify(expected.tool.parameters));
  assertEquals(tool.promptSnippet, expected.tool.promptSnippet);
  assertEquals(tool.promptGuidelines, expected.tool.promptGuidelines);
  const declared = expected.tool as unknown as { outputSchema: unknown; constrainedSampling: unknown };
  assertEquals(JSON.stringify(tool.outputSchema ?? null), JSON.stringify(declared.outputSchema));
  assertEquals(tool.constrainedSampling ?? null, declared.constrainedSampling);
});

for (const c of expected.cases) {
  Deno.test(`${c.name} (reference fixture)`, async () => {
    const dir = await Deno.makeTempDir({ prefix: "pi-write-" });
    try {
      await cp(join(fixtureDir, "files"), dir, { recursive: true });
      const tool = createWriteTool(dir);
      if (c.error !== undefined) {
        await rejects(tool.execute("call-1", c.args), (e: Error) => {
          assertEquals(e.message.split(dir).join("<DIR>"), c.error);
          return true;
        });
      } else {
        const result = await tool.execute("call-1", c.args);
        assertEquals(result.content, c.content);
        assertEquals(result.details ?? null, c.details);
      }
      for (const [rel, base64] of Object.entries(c.filesAfter)) {
        const actual = await Deno.readFile(join(dir, rel)).then(
          (b) => Buffer.from(b).toString("base64"),
          () => null,
        );
        if (base64 === null || c.error !== undefined) {
          // The target is missing or was not a writable file: whatever is there must be untouched.
          const stat = await Deno.stat(join(dir, rel)).catch(() => null);
          assertEquals(stat === null || stat.isDirectory, true);
        } else {
          assertEquals(actual, base64, `bytes of ${rel}`);
        }
      }
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  });
}

Deno.test("EDIT-06 parallel writes to one file finish in call order", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const tool = createWriteTool(dir);
    await Promise.all(
      ["1", "2", "3"].map((n) => tool.execute(n, { path: "f.txt", content: n.repeat(100_000) })),
    );
    assertEquals(await Deno.readTextFile(join(dir, "f.txt")), "3".repeat(100_000));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("WRITE-01 custom operations and abort", async () => {
  const calls: string[] = [];
  const tool = createWriteTool("/virtual", {
    operations: {
      mkdir: (d) => {
        calls.push(`mkdir ${d}`);
        return Promise.resolve();
      },
      writeFile: (p, content) => {
        calls.push(`write ${p} ${content}`);
        return Promise.resolve();
      },
    },
  });
  const result = await tool.execute("c", { path: "a/b.txt", content: "hi" });
  assertEquals(result.content, [{ type: "text", text: "Successfully wrote to a/b.txt" }]);
  assertEquals(calls, ["mkdir /virtual/a", "write /virtual/a/b.txt hi"]);
  const controller = new AbortController();
  controller.abort();
  await rejects(tool.execute("c", { path: "x", content: "" }, controller.signal), {
    message: "Operation aborted",
  });
  assertEquals(calls.length, 2);
});
