import { assert_ as assert, assertEquals } from "../support/assert.ts";
import { join } from "node:path";
import { type CaseResult, loadToolFixture, materialize, runCase } from "./fixture_support.ts";
import { createFindTool } from "../../src/tools/find.ts";

interface Case {
  id: string;
  cwd: string;
  args: Record<string, unknown>;
  anyOrderSubset?: boolean;
  expected: CaseResult;
}
const fixture = loadToolFixture<Case>("find");

function run(fdPath: string | null | undefined, c: Case, root: string): Promise<CaseResult> {
  return runCase(createFindTool(join(root, c.cwd), { fdPath }), c.args, root);
}

/** fd < 9 lacks --no-require-git; the fixture trees are git work trees, so dropping it is equivalent. */
async function fdShim(dir: string): Promise<string | null> {
  const real = ["fd", "fdfind"].find((name) => {
    try {
      return new Deno.Command(name, { args: ["--version"], stdout: "null", stderr: "null" }).outputSync()
        .success;
    } catch {
      return false;
    }
  });
  if (!real) return null;
  const path = join(dir, "fd-shim");
  await Deno.writeTextFile(
    path,
    `#!/bin/bash\nargs=()\nfor a in "$@"; do [ "$a" = "--no-require-git" ] || args+=("$a"); done\nexec ${real} "\${args[@]}"\n`,
  );
  await Deno.chmod(path, 0o755);
  return path;
}

for (const backend of ["fd", "walker", "auto"] as const) {
  Deno.test(`FIND-01 fixture matrix (${backend}) matches reference 0.73.1`, async () => {
    const root = await materialize(fixture.tree, "pi-find-test-");
    const shimDir = await Deno.makeTempDir();
    try {
      const fdPath = backend === "fd" ? await fdShim(shimDir) : backend === "walker" ? null : undefined;
      assert(backend !== "fd" || fdPath, "fd or fdfind must be installed for the fd leg");
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
      await Deno.remove(shimDir, { recursive: true });
    }
  });
}

Deno.test("FIND-01 schema, description and prompt snippet equal the reference", () => {
  const tool = createFindTool("/tmp");
  assertEquals(JSON.stringify(tool.parameters), JSON.stringify(fixture.meta.parameters));
  assertEquals(tool.description, fixture.meta.description);
  assertEquals(tool.promptSnippet, fixture.meta.promptSnippet);
  assertEquals([tool.name, tool.label], ["find", "find"]);
});

Deno.test("FIND-01 custom glob operations relativize results and use the short limit notice", async () => {
  const tool = createFindTool("/base", {
    operations: {
      exists: () => true,
      glob: (_pattern, cwd, options) => {
        assertEquals(options, { ignore: ["**/node_modules/**", "**/.git/**"], limit: 2 });
        return [`${cwd}/a.ts`, "/base/b/c.ts"];
      },
    },
  });
  const r = await tool.execute("t", { pattern: "*.ts", path: "sub", limit: 2 });
  assertEquals((r.content[0] as { text: string }).text, "a.ts\n../b/c.ts\n\n[2 results limit reached]");
  assertEquals(r.details, { resultLimitReached: 2 });
});

Deno.test("FIND-01 walker applies .gitignore outside git work trees (fd --no-require-git)", async () => {
  const root = await materialize(fixture.tree, "pi-find-test-");
  try {
    const r = await createFindTool(join(root, "plain"), { fdPath: null }).execute("t", { pattern: "*.ts" });
    assertEquals(r.content, [{ type: "text", text: "keep.ts" }]);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
