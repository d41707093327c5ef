/**
 * The --help text against the reference's (captured by tests/fixtures/cli/capture_reference.mjs and
 * capture_units.mjs; the reference prints it on stderr when stdin is not a terminal, we print the same text).
 */
import { assertEquals } from "../support/assert.ts";
import { helpText } from "../../src/cli/help.ts";
import { withOurHelpAdditions } from "./help_additions.ts";

const FIXTURES = new URL("../fixtures/cli/", import.meta.url);

/** Runs `fn` with FORCE_COLOR set to `value` (so the result does not depend on the terminal). */
function withForceColor<T>(value: string, fn: () => T): T {
  const saved = Deno.env.get("FORCE_COLOR");
  Deno.env.set("FORCE_COLOR", value);
  try {
    return fn();
  } finally {
    if (saved === undefined) Deno.env.delete("FORCE_COLOR");
    else Deno.env.set("FORCE_COLOR", saved);
  }
}

Deno.test("CLI-10 --help text is the reference's, word for word, plus the --json-deltas line", () => {
  const ref = JSON.parse(Deno.readTextFileSync(new URL("reference/help.json", FIXTURES)));
  assertEquals(withForceColor("0", () => helpText()), withOurHelpAdditions(ref.stderr));
});

Deno.test("CLI-10 extension flags get their own section, padded to 30 columns", () => {
  const units = JSON.parse(Deno.readTextFileSync(new URL("units_reference.json", FIXTURES)));
  const text = withForceColor("0", () =>
    helpText([
      { name: "plan", type: "boolean", description: "Start in plan mode", extensionPath: "/x/plan.ts" },
      { name: "target-dir", type: "string", extensionPath: "/x/ext.ts" },
      {
        name: "a-very-long-extension-flag-name",
        type: "string",
        description: "Long",
        extensionPath: "/x/l.ts",
      },
    ]));
  assertEquals(text, withOurHelpAdditions(units.helpWithExtensionFlags));
});

Deno.test("CLI-10 section titles are bold only when colour is forced", () => {
  const text = withForceColor("1", () => helpText());
  assertEquals(text.startsWith("\x1b[1mpi\x1b[22m - AI coding assistant"), true);
  assertEquals(text.includes("\x1b[1mOptions:\x1b[22m\n"), true);
});
