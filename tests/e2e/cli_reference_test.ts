/**
 * The real `pi` process against the reference's captured behaviour: for every case in
 * tests/fixtures/cli/cases.json (captured by capture_reference.mjs), stdout, stderr and the exit
 * code must equal the reference's. The one intended difference (G1): with stdin not a terminal the
 * reference prints --help / --list-models output on stderr; we print it on stdout, warnings stay
 * on stderr — so there the reference's stderr must equal our stderr followed by our stdout.
 */
import { assertEquals } from "../support/assert.ts";
import { loadCases, referenceRun, runCase } from "../cli/reference_cases.ts";
import { withOurHelpAdditions } from "../cli/help_additions.ts";

const ID: Record<string, string> = {
  help: "CLI-10",
  help_short: "CLI-10",
  unknown_long_help: "CLI-07",
  unknown_short: "CLI-06",
  unknown_long: "CLI-07",
  unknown_long_plural: "CLI-07",
  fork_conflict: "CLI-13",
  fork_conflict_one: "CLI-13",
  rpc_file: "CLI-12",
  missing_file: "CLI-18",
  missing_file_no_model: "CLI-18",
  session_unknown: "CLI-20",
  fork_unknown: "CLI-21",
  api_key_no_model: "CLI-14",
  model_unknown: "CLI-15",
  provider_unknown: "CLI-15",
  thinking_invalid: "CLI-08",
  model_and_thinking_warning: "CLI-08",
  no_model_print: "CLI-24",
  session_missing_cwd: "CLI-23",
  session_other_project_declined: "CLI-20",
};

for (const c of loadCases()) {
  const printsToStdout = c.args.includes("--help") || c.args.includes("-h") ||
    c.args.includes("--list-models");
  const id = ID[c.name] ?? "CLI-17";
  Deno.test(`${id} e2e ${c.name}: pi ${c.args.join(" ")} behaves like the reference`, async () => {
    const ours = await runCase(c);
    const ref = referenceRun(c.name);
    if (!printsToStdout) {
      assertEquals(ours, ref);
      return;
    }
    // G1: the listing/help moves to stdout; only warnings stay on stderr, before it.
    assertEquals(ref.stdout, "");
    assertEquals(ours.code, ref.code);
    assertEquals(ours.stdout.length > 0, true);
    const isHelp = c.args.includes("--help") || c.args.includes("-h");
    // Our help has one more option line than the reference's (--json-deltas).
    assertEquals(ours.stderr + ours.stdout, isHelp ? withOurHelpAdditions(ref.stderr) : ref.stderr);
    for (const line of ours.stderr.split("\n").filter((l) => /^\S/.test(l))) {
      assertEquals(/^(Warning: |Failed to parse|File: )/.test(line), true, line);
    }
  });
}
