import { assert_ as assert, assertEquals } from "../support/assert.ts";
import { join } from "node:path";
import { type CaseResult, loadToolFixture, materialize, runCase } from "./fixture_support.ts";
import { createFindTool, relativizeFindResultPath } from "../../src/tools/find.ts";

interface Case {
  id: string;
  cwd: string;
  args: Record<string, unknown>;
  anyOrderSubset?: boolean;
  expected: CaseResult;
}
const fixture = loadToolFixture<Case>("find");

/** An empty managed-binaries folder, so a user's ~/.pi/agent/bin never decides the backend. */
const EMPTY_BIN_DIR = Deno.makeTempDirSync({ prefix: "pi-find-bin-" });

function run(fdPath: string | null | undefined, c: Case, root: string): Promise<CaseResult> {
  return runCase(createFindTool(join(root, c.cwd), { fdPath, binDir: EMPTY_BIN_DIR }), c.args, root);
}

/** fd (or Debian's fdfind) on PATH; a missing one fails the fd leg loudly. */
function systemFd(): string {
  for (const name of ["fd", "fdfind"]) {
    for (const dir of (Deno.env.get("PATH") ?? "").split(":")) {
      if (!dir) continue;
      try {
        if (Deno.statSync(join(dir, name)).isFile) return join(dir, name);
      } catch { /* not here */ }
    }
  }
  throw new Error("fd (or fdfind) must be installed on PATH for the find tests (apt-get install fd-find)");
}

for (const backend of ["fd", "walker", "auto"] as const) {
  Deno.test(`FIND-01 fixture matrix (${backend}) matches reference 1.6.0`, async () => {
    const root = await materialize(fixture.tree, "pi-find-test-");
    try {
      // The fixture's cases run inside a git work tree, where fd needs no --no-require-git.
      const fdPath = backend === "fd" ? systemFd() : backend === "walker" ? null : undefined;
      for (const c of fixture.cases) {
        const actual = await run(fdPath, c, root);
        if (c.anyOrderSubset) {
          // Which N results fd returns first is undefined; shape, count and notice are not.
          const [list, notice] = (actual.text ?? "").split("\n\n");
          const [expectedList, expectedNotice] = (c.expected.text ?? "").split("\n\n");
          assertEquals(list.split("\n").length, expectedList.split("\n").length, c.id);
          assert(list.split("\n").every((l) => l.endsWith(".md")), c.id);
          assertEquals(notice, expectedNotice, c.id);
          assertEquals(actual.details, c.expected.details, c.id);
          continue;
        }
        assertEquals(actual, c.expected, `${c.id} [${backend}]`);
      }
    } finally {
      await Deno.remove(root, { recursive: true });
    }
  });
}

Deno.test("FIND-01 schema, description and prompt snippet equal the reference", () => {
  const tool = createFindTool("/tmp");
  assertEquals(JSON.stringify(tool.parameters), JSON.stringify(fixture.meta.parameters));
  assertEquals(tool.description, fixture.meta.description);
  assertEquals(tool.promptSnippet, fixture.meta.promptSnippet);
  const declared = fixture.meta as unknown as { outputSchema: unknown; constrainedSampling: unknown };
  assertEquals([declared.outputSchema, declared.constrainedSampling], [null, null]);
  assertEquals(
    tool.promptGuidelines ?? [],
    (fixture.meta as { promptGuidelines?: string[] }).promptGuidelines ?? [],
  );
  assertEquals([tool.name, tool.label], ["find", "find"]);
});

Deno.test("FIND-01 custom glob operations relativize results and use the short limit notice", async () => {
  const tool = createFindTool("/base", {
    operations: {
      exists: () => true,
      glob: (_pattern, cwd, options) => {
        assertEquals(options, { ignore: ["**/node_modules/**", "**/.git/**"], limit: 3 });
        return [`${cwd}/a.ts`, "/base/b/c.ts", "/base/d.ts"];
      },
    },
  });
  const r = await tool.execute("t", { pattern: "*.ts", path: "sub", limit: 2 });
  assertEquals((r.content[0] as { text: string }).text, "a.ts\n../b/c.ts\n\n[2 results limit reached]");
  assertEquals(r.details, { resultLimitReached: 2 });
});

Deno.test("FIND-01 .gitignore applies outside git work trees too (fd --no-require-git), every backend", async () => {
  const root = await materialize(fixture.tree, "pi-find-test-");
  try {
    for (const fdPath of [null, systemFd(), undefined]) {
      const tool = createFindTool(join(root, "plain"), { fdPath, binDir: EMPTY_BIN_DIR });
      const r = await tool.execute("t", { pattern: "*.ts" });
      assertEquals(r.content, [{ type: "text", text: "keep.ts" }], String(fdPath));
    }
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("FIND-01 results relative to the search folder, the file system root included", () => {
  assertEquals(relativizeFindResultPath("/a.ts", "/"), "a.ts");
  assertEquals(relativizeFindResultPath("/x/sub/", "/x"), "sub/");
  assertEquals(relativizeFindResultPath("/x/y/z.ts", "/x"), "y/z.ts");
  // A custom glob may return relative paths: they are already relative to the search folder.
  assertEquals(relativizeFindResultPath("rel/a.ts", "/x"), "rel/a.ts");
});
