/**
 * Runs a capture script of tests/fixtures under the installed reference's Node with `--check` and
 * returns what it printed as JSON, so a stored capture can be compared with the live 1.6.0.
 * Undefined (after one loud line naming `what`) when the reference is not installed.
 *
 * @module
 */
import { join } from "node:path";
import { findReference } from "../../scripts/reference/locate.ts";
import { assertEquals } from "./assert.ts";

/** The JSON `script --check` prints under the reference, or undefined without one. */
export async function referenceCheckOutput(script: string, what: string): Promise<unknown> {
  const ref = findReference();
  if (!ref) {
    console.error(`!!! reference pi is not installed: ${what} is not compared with it`);
    return undefined;
  }
  const out = await new Deno.Command(ref.node, {
    args: [script, "--check"],
    env: { PI_REFERENCE_DIR: join(ref.nodeModules, "..") },
    stdout: "piped",
    stderr: "piped",
  }).output();
  assertEquals(out.code, 0, new TextDecoder().decode(out.stderr));
  return JSON.parse(new TextDecoder().decode(out.stdout));
}
