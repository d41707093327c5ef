/**
 * The parts of /settings, /scoped-models and /changelog that need no terminal: the changelog's
 * sections (1.6.0's `parseChangelog` rules), where the changelog is read from, and that the three
 * commands load only when first used.
 */
import { join } from "node:path";
import { assert, assertEquals } from "../support/assert.ts";
import { moduleGraph, staticClosure } from "../support/module_graph.ts";
import {
  changelogMarkdown,
  parseChangelog,
  readChangelog,
} from "../../src/modes/interactive/changelog_command.ts";

const CHANGELOG = [
  "# Changelog",
  "",
  "## [Unreleased]",
  "",
  "- not released",
  "",
  "## [0.2.0] - 2026-11-30",
  "",
  "### Added",
  "",
  "- /settings",
  "",
  "## 0.1.1",
  "- a fix",
  "## Notes",
  "ignored",
  "",
].join("\n");

Deno.test("INT-CHANGELOG: version sections are parsed as 1.6.0 does (## [x.y.z] or ## x.y.z; other ## headings end a section)", () => {
  assertEquals(parseChangelog(CHANGELOG), [
    { version: "0.2.0", content: "## [0.2.0] - 2026-11-30\n\n### Added\n\n- /settings" },
    { version: "0.1.1", content: "## 0.1.1\n- a fix" },
  ]);
  assertEquals(parseChangelog("# Changelog\n\nNothing yet.\n"), []);
});

Deno.test("INT-CHANGELOG: the block shows the entries oldest first (the newest above the editor), or 1.6.0's words for none", () => {
  assertEquals(
    changelogMarkdown(CHANGELOG),
    "## 0.1.1\n- a fix\n\n## [0.2.0] - 2026-11-30\n\n### Added\n\n- /settings",
  );
  assertEquals(changelogMarkdown(undefined), "No changelog entries found.");
  assertEquals(changelogMarkdown("# Changelog\n"), "No changelog entries found.");
});

Deno.test("INT-CHANGELOG: CHANGELOG.md is read from the documentation root, else from the docs bundle", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const { DOCUMENTATION_FILES } = await import("../../src/resources/documentation_bundle.ts");
    assertEquals(await readChangelog(dir), DOCUMENTATION_FILES["CHANGELOG.md"]);
    await Deno.writeTextFile(join(dir, "CHANGELOG.md"), CHANGELOG);
    assertEquals(await readChangelog(dir), CHANGELOG);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("INT-LAZY: /settings, /scoped-models and /changelog load when first used, not with the interactive mode", async () => {
  const graph = await moduleGraph();
  const root = new URL("../../src/modes/interactive/interactive_mode.ts", import.meta.url).href;
  const closure = staticClosure(graph, root);
  for (const file of ["settings_command.ts", "scoped_models_command.ts", "changelog_command.ts"]) {
    const url = new URL(`../../src/modes/interactive/${file}`, import.meta.url).href;
    assert(graph.has(url), `${file} is imported (dynamically) by the command runner`);
    assert(!closure.has(url), `no static import chain from the interactive mode reaches ${file}`);
  }
});
