/**
 * Shared plumbing of the reference-captured tool fixture matrices (find, grep, ls): loading an
 * `expected.json`, building its file tree in a temp folder, and running one case into the
 * `{text, details}` / `{error}` shape the captures use, with the temp root written as `$ROOT`.
 *
 * @module
 */
import { dirname, join } from "node:path";
import type { AgentTool } from "../../src/agent/types.ts";

/** What a captured case expects. */
export interface CaseResult {
  text?: string;
  details?: unknown;
  error?: string;
}

/** A captured fixture file: the tree, the tool's metadata, and cases of shape `C`. */
export interface ToolFixture<C> {
  tree: Record<string, string | null>;
  meta: { parameters: unknown; description: string; promptSnippet: string };
  cases: C[];
}

/** Loads `tests/fixtures/tools/<tool>/expected.json`. */
export function loadToolFixture<C>(tool: string): ToolFixture<C> {
  return JSON.parse(
    Deno.readTextFileSync(new URL(`../fixtures/tools/${tool}/expected.json`, import.meta.url)),
  );
}

/** Writes the tree (null = empty folder) under a new temp folder; returns its real path. */
export async function materialize(tree: Record<string, string | null>, prefix: string): Promise<string> {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix }));
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

/** Replaces the temp root with `$ROOT`, as the captures do. */
export function normalize(value: unknown, root: string): unknown {
  return JSON.parse(JSON.stringify(value ?? null).split(root).join("$ROOT"));
}

/** Runs one call and returns what the captures compare: the text and details, or the error. */
export async function runCase(
  // deno-lint-ignore no-explicit-any
  tool: AgentTool<any, any>,
  args: Record<string, unknown>,
  root: string,
): Promise<CaseResult> {
  try {
    const r = await tool.execute("t", args as never);
    const text = r.content.map((p) => (p.type === "text" ? p.text : "")).join("");
    return normalize({ text, details: r.details ?? null }, root) as CaseResult;
  } catch (e) {
    return normalize({ error: (e as Error).message }, root) as CaseResult;
  }
}
