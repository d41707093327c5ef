import { join } from "node:path";
import { assertEquals } from "../support/assert.ts";
import { walk } from "../../src/tools/walker.ts";
import { findWithWalker } from "../../src/tools/walker_glob.ts";

async function tree(files: Record<string, string>): Promise<string> {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "pi-walker-test-" }));
  for (const [rel, content] of Object.entries(files)) {
    await Deno.mkdir(join(root, rel, ".."), { recursive: true });
    await Deno.writeTextFile(join(root, rel), content);
  }
  return root;
}

Deno.test("GREP-01 walker: nested .gitignore, negation, .ignore, git-only gitignore", async () => {
  const root = await tree({
    ".git/HEAD": "x",
    ".gitignore": "*.log\nbuild/\n",
    "keep.log": "",
    "a/.gitignore": "!keep.log\n",
    "a/keep.log": "",
    "a/drop.log": "",
    "build/out.js": "",
    ".ignore": "src/x.ts\n",
    "src/y.ts": "",
    "src/x.ts": "",
  });
  try {
    const rels = [...walk(root, { gitignoreRequiresGit: true })].map((e) => e.rel);
    // a/.gitignore re-includes only its own keep.log; .ignore drops src/x.ts; build/ is pruned.
    assertEquals(rels.filter((r) => !r.startsWith(".git/")), [
      ".git",
      ".gitignore",
      ".ignore",
      "a",
      "a/.gitignore",
      "a/keep.log",
      "src",
      "src/y.ts",
    ]);
    await Deno.remove(join(root, ".git"), { recursive: true });
    const noGit = [...walk(root, { gitignoreRequiresGit: true })].map((e) => e.rel);
    assertEquals(noGit.includes("keep.log") && noGit.includes("a/drop.log"), true);
    const hiddenOff = [...walk(root, { gitignoreRequiresGit: false, hidden: false })].map((e) => e.rel);
    assertEquals(hiddenOff.some((r) => r.startsWith(".")), false);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("FIND-01 walker glob: symlinks listed not followed, folders get a slash, limit respected", async () => {
  const root = await tree({ "dir/f.md": "", "g.md": "" });
  try {
    await Deno.symlink(join(root, "dir"), join(root, "link"));
    const all = findWithWalker({ pattern: "*", searchPath: root, limit: 100 }).map((p) =>
      p.slice(root.length + 1)
    );
    assertEquals(all, ["dir/", "dir/f.md", "g.md", "link"]);
    assertEquals(findWithWalker({ pattern: "*.md", searchPath: root, limit: 1 }).length, 1);
    const deep = findWithWalker({ pattern: "dir/*.md", searchPath: root, limit: 10 });
    assertEquals(deep.map((p) => p.slice(root.length + 1)), ["dir/f.md"]);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
