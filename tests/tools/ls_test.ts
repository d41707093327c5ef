import { assert_ as assert, assertEquals } from "../support/assert.ts";
import { join } from "node:path";
import { type CaseResult, loadToolFixture, materialize, runCase } from "./fixture_support.ts";
import { createLsTool } from "../../src/tools/ls.ts";

interface Case {
  id: string;
  cwd: string;
  args: Record<string, unknown>;
  expected: CaseResult;
}
const fixture = loadToolFixture<Case>("ls");

Deno.test("LS-01 fixture matrix matches reference 1.6.0", async () => {
  const root = await materialize(fixture.tree, "pi-ls-test-");
  try {
    for (const c of fixture.cases) {
      const actual = await runCase(createLsTool(join(root, c.cwd)), c.args, root);
      assertEquals(actual, c.expected, c.id);
    }
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("LS-01 schema, description and prompt snippet equal the reference", () => {
  const tool = createLsTool("/tmp");
  assertEquals(JSON.stringify(tool.parameters), JSON.stringify(fixture.meta.parameters));
  assertEquals(tool.description, fixture.meta.description);
  assertEquals(tool.promptSnippet, fixture.meta.promptSnippet);
  const declared = fixture.meta as unknown as { outputSchema: unknown; constrainedSampling: unknown };
  assertEquals([declared.outputSchema, declared.constrainedSampling], [null, null]);
});

Deno.test("LS-01 byte limit notice and dangling symlinks skipped", async () => {
  const dir = await Deno.makeTempDir();
  try {
    for (let i = 0; i < 300; i++) {
      await Deno.writeTextFile(join(dir, `${"n".repeat(200)}${String(i).padStart(3, "0")}`), "");
    }
    await Deno.symlink(join(dir, "missing-target"), join(dir, "aaa-dangling"));
    const r = await createLsTool(dir).execute("t", { limit: 1000 });
    const text = (r.content[0] as { text: string }).text;
    assert(!text.includes("aaa-dangling"));
    assert(text.endsWith("\n\n[50.0KB limit reached]"), text.slice(-80));
    assertEquals((r.details as { truncation: { truncated: boolean } }).truncation.truncated, true);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
