/**
 * The --help text against the reference's (captured by tests/fixtures/cli/capture_reference.mjs and
 * capture_units.mjs; printed on stdout).
 */
import { assertEquals } from "../support/assert.ts";
import type { HelpExtensionFlag } from "../../src/cli/help.ts";
import { denoDir, machineEnv } from "../support/agent_env.ts";
import { withOurHelpAdditions } from "./help_additions.ts";

const FIXTURES = new URL("../fixtures/cli/", import.meta.url);

const HELP_TS = new URL("../../src/cli/help.ts", import.meta.url).href;

/**
 * `helpText(flags)` computed in a child process whose FORCE_COLOR is `forceColor`: the colour
 * choice reads the environment, and a test must not change the environment of this process,
 * which other test modules share (so the result depends neither on the terminal nor on them).
 */
async function helpTextWith(forceColor: "0" | "1", flags?: HelpExtensionFlag[]): Promise<string> {
  const code = `const { helpText } = await import(${JSON.stringify(HELP_TS)});
const flags = JSON.parse(Deno.env.get("HELP_FLAGS") ?? "null") ?? undefined;
await new Response(helpText(flags)).body.pipeTo(Deno.stdout.writable);`;
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["eval", "--no-config", code],
    env: {
      ...machineEnv(),
      DENO_DIR: denoDir(),
      FORCE_COLOR: forceColor,
      HELP_FLAGS: JSON.stringify(flags ?? null),
    },
    clearEnv: true,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  assertEquals(out.code, 0, new TextDecoder().decode(out.stderr));
  return new TextDecoder().decode(out.stdout);
}

Deno.test("CLI-10 --help text is the reference's, word for word, plus the --json-deltas line", async () => {
  const ref = JSON.parse(Deno.readTextFileSync(new URL("reference/help.json", FIXTURES)));
  assertEquals(await helpTextWith("0"), withOurHelpAdditions(ref.stdout));
});

Deno.test("CLI-10 --help marks every command and option this build lacks as not available yet", async () => {
  const lines = (await helpTextWith("0")).split("\n").filter((l) => l.endsWith(" (not available yet)"));
  // `pi config` opens its selector now: nothing is marked.
  assertEquals(lines, []);
});

Deno.test("CLI-10 extension flags get their own section, padded to 30 columns", async () => {
  const units = JSON.parse(Deno.readTextFileSync(new URL("units_reference.json", FIXTURES)));
  const text = await helpTextWith("0", [
    { name: "plan", type: "boolean", description: "Start in plan mode", extensionPath: "/x/plan.ts" },
    { name: "target-dir", type: "string", extensionPath: "/x/ext.ts" },
    {
      name: "a-very-long-extension-flag-name",
      type: "string",
      description: "Long",
      extensionPath: "/x/l.ts",
    },
  ]);
  assertEquals(text, withOurHelpAdditions(units.helpWithExtensionFlags));
});

Deno.test("CLI-10 section titles are bold only when colour is forced", async () => {
  const text = await helpTextWith("1");
  assertEquals(text.startsWith("\x1b[1mpi\x1b[22m - AI coding assistant"), true);
  assertEquals(text.includes("\x1b[1mOptions:\x1b[22m\n"), true);
});
