/**
 * The release workflow's first check on a tag (issue 18): the tag must be `v<version>` of
 * deno.json, which is also what `pi --version` prints (src/version.ts), so a binary published as
 * v1.6.1 says 1.6.1 and `pi update` compares the right numbers.
 *
 * Usage: deno run --allow-read scripts/release/check_tag.ts <tag>   (exit 0, or 1 with the reason)
 *
 * @module
 */
import { VERSION } from "../../src/version.ts";
import { REPO_ROOT } from "./pi_task.ts";

/** Why `tag` does not fit the versions, or undefined when it does. */
export function tagMismatch(tag: string, configVersion: unknown, cliVersion: string): string | undefined {
  if (typeof configVersion !== "string") return "deno.json has no version";
  if (configVersion !== cliVersion) {
    return `deno.json says ${configVersion} but src/version.ts (pi --version) says ${cliVersion}`;
  }
  if (tag !== `v${configVersion}`) return `tag ${tag} is not v${configVersion}, the version of deno.json`;
  return undefined;
}

async function main(args: string[]): Promise<number> {
  if (args.length !== 1) {
    console.error("usage: check_tag.ts <tag>");
    return 2;
  }
  const config = JSON.parse(await Deno.readTextFile(new URL("deno.json", REPO_ROOT)));
  const problem = tagMismatch(args[0], config.version, VERSION);
  if (problem) {
    console.error(`check_tag: ${problem}`);
    return 1;
  }
  console.log(`check_tag: ${args[0]} is the version of deno.json and pi --version`);
  return 0;
}

if (import.meta.main) Deno.exit(await main(Deno.args));
