/**
 * `pi --version` end to end: the real process, stdin not a terminal.
 */
import { assertEquals } from "../support/assert.ts";
import { VERSION } from "../../src/version.ts";
import { REFERENCE_VERSION } from "../../scripts/reference/locate.ts";

const MAIN = new URL("../../main.ts", import.meta.url).pathname;

async function runPi(args: string[]) {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-all", "--no-prompt", MAIN, ...args],
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  return {
    code: out.code,
    stdout: new TextDecoder().decode(out.stdout),
    stderr: new TextDecoder().decode(out.stderr),
  };
}

Deno.test("CLI-03 --version prints the version (then the form, issue 18) on stdout even when stdin is not a TTY", async () => {
  const res = await runPi(["--version"]);
  assertEquals(res, { code: 0, stdout: `${VERSION} (deno source)\n`, stderr: "" });
});

Deno.test("CLI-03 -v is the short form of --version", async () => {
  const res = await runPi(["-v"]);
  assertEquals(res.code, 0);
  assertEquals(res.stdout, `${VERSION} (deno source)\n`);
});

Deno.test("CLI-03 the version is the reference release whose behaviour we match (1.6.0), as deno.json says", () => {
  assertEquals(VERSION, REFERENCE_VERSION);
  const config = JSON.parse(Deno.readTextFileSync(new URL("../../deno.json", import.meta.url)));
  assertEquals(config.version, VERSION);
});
