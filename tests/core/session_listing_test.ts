/**
 * Deleting a session from the picker removes its resume index with it, and a failed delete
 * leaves both files and says why.
 */
import { assert, assertEquals } from "../support/assert.ts";
import { deleteSessionFile } from "../../src/core/session_listing.ts";
import { sessionIndexPath } from "../../src/session/session_index.ts";

function exists(path: string): boolean {
  try {
    Deno.statSync(path);
    return true;
  } catch {
    return false;
  }
}

Deno.test("deleteSessionFile removes the session file and its .idx sidecar", async () => {
  const dir = Deno.makeTempDirSync({ prefix: "pi-session-delete-" });
  try {
    const file = `${dir}/2026-01-01T00-00-00-000Z_abc.jsonl`;
    Deno.writeTextFileSync(file, '{"type":"session","version":3,"id":"abc","timestamp":"t","cwd":"/p"}\n');
    Deno.writeTextFileSync(sessionIndexPath(file), "index");
    assertEquals(await deleteSessionFile(file), { ok: true });
    assert(!exists(file), "the session file is gone");
    assert(!exists(sessionIndexPath(file)), "the index is gone");
    // A session without an index deletes as before.
    Deno.writeTextFileSync(file, "{}\n");
    assertEquals(await deleteSessionFile(file), { ok: true });
    assert(!exists(file));
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("deleteSessionFile of a missing file reports the error and touches no index", async () => {
  const dir = Deno.makeTempDirSync({ prefix: "pi-session-delete-" });
  try {
    const file = `${dir}/missing.jsonl`;
    Deno.writeTextFileSync(sessionIndexPath(file), "index");
    const result = await deleteSessionFile(file);
    assertEquals(result.ok, false);
    assert(!result.ok && result.error.length > 0);
    assert(exists(sessionIndexPath(file)), "the index of a session that was not deleted stays");
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});
