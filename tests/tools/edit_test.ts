import { deepStrictEqual as assertEquals, rejects } from "node:assert/strict";
import { Buffer } from "node:buffer";
import { cp } from "node:fs/promises";
import { join } from "node:path";
import { createEditTool, prepareEditArguments } from "../../src/tools/edit.ts";
import { computeEditsDiff, generateDiffString, loadDiff } from "../../src/tools/edit_diff.ts";

// Expectations were captured from the reference pi 1.6.0 edit tool on the same input files by
// scripts/capture/tools_reference.mjs (see tests/fixtures/tools/edit/README.md). Each case runs in a
// fresh copy of the input files; resulting files must be byte-identical to the reference's.
const fixtureDir = new URL("../fixtures/tools/edit/", import.meta.url).pathname;
interface Outcome {
  content?: unknown[];
  details?: unknown;
  error?: string;
}
interface Case extends Outcome {
  name: string;
  args?: Record<string, unknown>;
  parallel?: Record<string, unknown>[];
  results?: Outcome[];
  filesAfter: Record<string, string | null>;
}
const expected = JSON.parse(await Deno.readTextFile(join(fixtureDir, "expected.json"))) as {
  tool: { name: string; label: string; description: string; parameters: unknown };
  cases: Case[];
};

async function run(dir: string, args: Record<string, unknown>): Promise<Outcome> {
  const tool = createEditTool(dir);
  const prepared = tool.prepareArguments!(structuredClone(args));
  try {
    const result = await tool.execute("call-1", prepared);
    return JSON.parse(JSON.stringify({ content: result.content, details: result.details ?? null }));
  } catch (error) {
    return { error: (error as Error).message.split(dir).join("<DIR>") };
  }
}

Deno.test("EDIT-01 tool metadata and JSON schema match the reference", () => {
  const tool = createEditTool("/tmp");
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
  const meta = expected.tool as unknown as { promptSnippet: string; promptGuidelines: string[] };
  assertEquals(tool.promptSnippet, meta.promptSnippet);
  assertEquals(tool.promptGuidelines, meta.promptGuidelines);
  const declared = expected.tool as unknown as { outputSchema: unknown; constrainedSampling: unknown };
  assertEquals(JSON.stringify(tool.outputSchema ?? null), JSON.stringify(declared.outputSchema));
  assertEquals(tool.constrainedSampling ?? null, declared.constrainedSampling);
});

Deno.test("EDIT-01 a single edit object becomes a one-element edits array", () => {
  const single = { oldText: "a", newText: "b" };
  assertEquals(prepareEditArguments({ path: "f", edits: { ...single } }), { path: "f", edits: [single] });
  assertEquals(prepareEditArguments({ path: "f", edits: JSON.stringify(single) }), {
    path: "f",
    edits: [single],
  });
});

for (const c of expected.cases) {
  Deno.test(`${c.name} (reference fixture)`, async () => {
    const dir = await Deno.makeTempDir({ prefix: "pi-edit-" });
    try {
      await cp(join(fixtureDir, "files"), dir, { recursive: true });
      if (c.parallel) {
        assertEquals(await Promise.all(c.parallel.map((args) => run(dir, args))), c.results);
      } else {
        const outcome = await run(dir, c.args!);
        const want: Outcome = c.error !== undefined
          ? { error: c.error }
          : { content: c.content, details: c.details };
        assertEquals(outcome, want);
      }
      for (const [rel, base64] of Object.entries(c.filesAfter)) {
        const actual = await Deno.readFile(join(dir, rel)).then(
          (b) => Buffer.from(b).toString("base64"),
          () => null,
        );
        assertEquals(actual, base64, `bytes of ${rel}`);
      }
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  });
}

Deno.test("EDIT-01 prepareArguments folds legacy fields and parses string edits", () => {
  const tool = createEditTool("/tmp");
  assertEquals(tool.prepareArguments!({ path: "a", oldText: "x", newText: "y" }), {
    path: "a",
    edits: [{ oldText: "x", newText: "y" }],
  });
  assertEquals(
    tool.prepareArguments!({
      path: "a",
      edits: [{ oldText: "1", newText: "2" }],
      oldText: "x",
      newText: "y",
    }),
    { path: "a", edits: [{ oldText: "1", newText: "2" }, { oldText: "x", newText: "y" }] },
  );
  assertEquals(tool.prepareArguments!({ path: "a", edits: '[{"oldText":"1","newText":"2"}]' }), {
    path: "a",
    edits: [{ oldText: "1", newText: "2" }],
  });
  assertEquals(tool.prepareArguments!({ path: "a", edits: "not json" }), { path: "a", edits: "not json" });
});

Deno.test("EDIT-05 diff preview matches what the edit reports, without writing", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await cp(join(fixtureDir, "files"), dir, { recursive: true });
    const edits = [{ oldText: "line 3\n", newText: "line three\n" }];
    const before = await Deno.readTextFile(join(dir, "long.txt"));
    const preview = await computeEditsDiff("long.txt", edits, dir);
    assertEquals(await Deno.readTextFile(join(dir, "long.txt")), before);
    const result = await createEditTool(dir).execute("c", { path: "long.txt", edits });
    assertEquals(preview, { diff: result.details.diff, firstChangedLine: result.details.firstChangedLine });
    assertEquals(await computeEditsDiff("gone.txt", edits, dir), {
      error: "Could not edit file: gone.txt. Error code: ENOENT.",
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("EDIT-05 generateDiffString numbering and padding", async () => {
  await loadDiff();
  assertEquals(generateDiffString("a\nb\nc\n", "a\nB\nc\n"), {
    diff: " 1 a\n-2 b\n+2 B\n 3 c",
    firstChangedLine: 2,
  });
  const old = Array.from({ length: 12 }, (_, i) => `l${i + 1}`).join("\n");
  // Values printed by the reference's generateDiffString on the same inputs.
  assertEquals(generateDiffString(old, old.replace("l12", "L12")), {
    diff: "    ...\n  8 l8\n  9 l9\n 10 l10\n 11 l11\n-12 l12\n+12 L12",
    firstChangedLine: 12,
  });
});

Deno.test("EDIT-02 aborted signal rejects and leaves the file alone", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(join(dir, "f.txt"), "abc");
    const controller = new AbortController();
    controller.abort();
    await rejects(
      createEditTool(dir).execute(
        "c",
        { path: "f.txt", edits: [{ oldText: "a", newText: "z" }] },
        controller.signal,
      ),
      { message: "Operation aborted" },
    );
    assertEquals(await Deno.readTextFile(join(dir, "f.txt")), "abc");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
