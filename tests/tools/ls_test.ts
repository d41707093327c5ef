import { assert_ as assert, assertEquals } from "../support/assert.ts";
import { dirname, join } from "node:path";
import { createLsTool } from "../../src/tools/ls.ts";

interface Case {
  id: string;
  cwd: string;
  args: Record<string, unknown>;
  expected: { text?: string; details?: unknown; error?: string };
}
interface Fixture {
  tree: Record<string, string | null>;
  meta: { parameters: unknown; description: string; promptSnippet: string };
  cases: Case[];
}

const fixture: Fixture = JSON.parse(
  Deno.readTextFileSync(new URL("../fixtures/tools/ls/expected.json", import.meta.url)),
);

async function materialize(tree: Record<string, string | null>): Promise<string> {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "pi-ls-test-" }));
  for (const [rel, content] of Object.entries(tree)) {
    const p = join(root, rel);
    if (content === null) {
      await Deno.mkdir(p, { recursive: true });
      continue;
    }
    await Deno.mkdir(dirname(p), { recursive: true });
    await Deno.writeTextFile(p, content);
  }
  return root;
}

function normalize(value: unknown, root: string): unknown {
  return JSON.parse(JSON.stringify(value ?? null).split(root).join("$ROOT"));
}

Deno.test("LS-01 fixture matrix matches reference 0.73.1", async () => {
  const root = await materialize(fixture.tree);
  try {
    for (const c of fixture.cases) {
      const tool = createLsTool(join(root, c.cwd));
      let actual: unknown;
      try {
        const r = await tool.execute("t", c.args as never);
        const text = r.content.map((p) => (p.type === "text" ? p.text : "")).join("");
        actual = normalize({ text, details: r.details ?? null }, root);
      } catch (e) {
        actual = normalize({ error: (e as Error).message }, root);
      }
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
