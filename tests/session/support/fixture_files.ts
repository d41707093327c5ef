/**
 * The fixture session files (tests/fixtures/sessions/, folders included), for tests that read
 * every kind of session the project keeps.
 */
import { join } from "node:path";

/** The folder of the fixture sessions. */
export const SESSION_FIXTURES = new URL("../../fixtures/sessions/", import.meta.url).pathname;

/** Every `.jsonl` file under `dir`, sorted. */
export async function fixtureFiles(dir = SESSION_FIXTURES): Promise<string[]> {
  const out: string[] = [];
  for await (const e of Deno.readDir(dir)) {
    const path = join(dir, e.name);
    if (e.isDirectory) out.push(...await fixtureFiles(path));
    else if (e.name.endsWith(".jsonl")) out.push(path);
  }
  return out.sort();
}
