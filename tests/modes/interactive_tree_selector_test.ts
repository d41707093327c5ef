/**
 * The /tree navigator without a terminal, beside pi 1.6.0's TreeSelectorComponent: the trees of
 * tests/fixtures/interactive/tree_cases.json (every entry kind, nested forks in a small window,
 * several roots, nothing matching, forks deep enough to scroll sideways) are drawn after each key
 * of their scripts (filters, cycling, search, folds, segment jumps, paging, copy, select, cancel)
 * and compared line by line, with what each key reported, to what the reference drew
 * (tree_selector.expected.json, made by capture_tree.mjs). Also: the navigator loads only when
 * /tree is first used.
 */
import { assert, assertEquals } from "../support/assert.ts";
import { moduleGraph, staticClosure } from "../support/module_graph.ts";
import type { SessionEntry, SessionTreeNode } from "../../src/session/entries.ts";
import { stripTerminalSequences } from "../../src/tui/mod.ts";
import { loadTheme } from "../../src/modes/interactive/theme.ts";
import { TreeSelector } from "../../src/modes/interactive/tree_selector.ts";

const FIXTURES = new URL("../fixtures/interactive/", import.meta.url);

interface TreeCase {
  name: string;
  width: number;
  rows: number;
  leafId: string | null;
  selectId?: string;
  filter?: "default" | "no-tools" | "user-only" | "labeled-only" | "all";
  labels?: Record<string, string>;
  entries: SessionEntry[];
  keys: string[];
}

interface Frame {
  key: string | null;
  lines: string[];
  events: string[];
}

const cases = JSON.parse(await Deno.readTextFile(new URL("tree_cases.json", FIXTURES))) as {
  home: string;
  cases: TreeCase[];
};
const expected = JSON.parse(
  await Deno.readTextFile(new URL("tree_selector.expected.json", FIXTURES)),
) as Record<
  string,
  Frame[]
>;

/** The entries as getTree() nodes: children oldest first, labels resolved. */
function buildTree(entries: SessionEntry[], labels: Record<string, string> = {}): SessionTreeNode[] {
  const nodes = new Map(
    entries.map((e) => [e.id, { entry: e, children: [], label: labels[e.id] } as SessionTreeNode]),
  );
  const roots: SessionTreeNode[] = [];
  for (const e of entries) {
    const node = nodes.get(e.id)!;
    if (e.parentId && nodes.has(e.parentId)) nodes.get(e.parentId)!.children.push(node);
    else roots.push(node);
  }
  return roots;
}

const strip = (line: string) => stripTerminalSequences(line).trimEnd();

function draw(c: TreeCase): Frame[] {
  const events: string[] = [];
  const selector = new TreeSelector(loadTheme("dark"), buildTree(c.entries, c.labels), c.leafId, {
    terminalRows: c.rows,
    filter: c.filter,
    selectId: c.selectId,
    home: cases.home,
    onSelect: (id) => events.push(`select ${id}`),
    onCancel: () => events.push("cancel"),
    onLabelChange: (id, label) => events.push(`label ${id} ${label ?? "(none)"}`),
    onCopy: (text) => events.push(`copy ${JSON.stringify(text ?? null)}`),
  });
  const frames: Frame[] = [{ key: null, lines: selector.render(c.width).map(strip), events: [] }];
  for (const key of c.keys) {
    const before = events.length;
    selector.handleInput(key);
    frames.push({ key, lines: selector.render(c.width).map(strip), events: events.slice(before) });
  }
  return frames;
}

for (const c of cases.cases) {
  Deno.test(`INT-TREE: the navigator draws "${c.name}" and answers its keys as pi 1.6.0 does`, () => {
    const reference = expected[c.name];
    assert(reference, `no capture of "${c.name}": run capture_tree.mjs`);
    const ours = draw(c);
    assertEquals(ours.length, reference.length);
    for (let i = 0; i < ours.length; i++) {
      assertEquals(ours[i], reference[i], `after key ${i} (${JSON.stringify(c.keys[i - 1] ?? null)})`);
    }
  });
}

Deno.test("INT-LAZY: the /tree navigator and its flow load when /tree is first used, not with the interactive mode", async () => {
  const graph = await moduleGraph();
  const root = new URL("../../src/modes/interactive/interactive_mode.ts", import.meta.url).href;
  const closure = staticClosure(graph, root);
  for (const file of ["tree_command.ts", "tree_selector.ts", "tree_list.ts"]) {
    const url = new URL(`../../src/modes/interactive/${file}`, import.meta.url).href;
    assert(graph.has(url), `${file} is imported (dynamically) somewhere`);
    assert(!closure.has(url), `no static import chain from the interactive mode reaches ${file}`);
  }
});
