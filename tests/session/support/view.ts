/**
 * Our SessionManager's view of a file, in the exact shape the capture script records for the
 * reference, plus id normalisation for files whose ids are generated on load (v1 migration).
 *
 * @module
 */
import { basename, join } from "node:path";
import { SessionManager } from "../../../src/session/session_manager.ts";
import type { SessionTreeNode } from "../../../src/session/entries.ts";

/** Tree without entries: ids, labels, shape. */
interface TreeShape {
  id: string;
  label?: string;
  labelTimestamp?: string;
  children: TreeShape[];
}

function treeShape(nodes: SessionTreeNode[]): TreeShape[] {
  return nodes.map((n) => ({
    id: n.entry.id,
    label: n.label,
    labelTimestamp: n.labelTimestamp,
    children: treeShape(n.children),
  }));
}

/** Loads a copy of `file` (migration rewrites files) and returns our view as plain JSON. */
export async function ourView(file: string): Promise<unknown> {
  const dir = await Deno.makeTempDir({ prefix: "pi-our-view-" });
  try {
    const copy = join(dir, basename(file));
    await Deno.copyFile(file, copy);
    const sm = SessionManager.open(copy);
    const entries = sm.getEntries();
    const labels = Object.fromEntries(
      entries.map((e) => [e.id, sm.getLabel(e.id)]).filter(([, l]) => l),
    );
    return JSON.parse(JSON.stringify({
      header: sm.getHeader(),
      entries,
      leafId: sm.getLeafId(),
      context: sm.buildSessionContext(),
      projection: sm.buildSessionProjection().entries.map((p) => [p.sourceEntry.id, p.messages.length]),
      entryCount: sm.getEntryCount(),
      sessionName: sm.getSessionName(),
      tree: treeShape(sm.getTree()),
      labels,
    }));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/** Replaces every entry id by its position, so views with generated ids compare equal. */
export function normalizeIds(view: unknown): unknown {
  const v = view as { entries: { id: string }[] };
  let text = JSON.stringify(view);
  v.entries.forEach((e, i) => {
    text = text.split(`"${e.id}"`).join(`"#${i}"`);
  });
  return JSON.parse(text);
}

/** Directory of the stored session fixtures. */
export const FIXTURES = new URL("../../fixtures/sessions/", import.meta.url).pathname;
