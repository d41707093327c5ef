/**
 * The real `pi` process against pi 1.6.0's captured behaviour: for every case in
 * tests/fixtures/cli/cases.json (captured by capture_reference.mjs), stdout, stderr and the exit
 * code must equal the reference's. Our `--help` adds "(not available yet)" marks (help_additions.ts).
 */
import { assertEquals } from "../support/assert.ts";
import { type CliRun, loadCases, referenceRun, runCase } from "../cli/reference_cases.ts";
import { withOurHelpAdditions } from "../cli/help_additions.ts";
import { AUTH_LOGIN_MARK } from "../../src/cli/auth_command.ts";

/** The `login` line of `pi auth --help`, which we mark as only saving API keys. */
const AUTH_LOGIN_LINE =
  "  login <provider>        Sign in with an account in the browser, or save an API key, then exit\n";

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
  double_dash_file: "CLI-18",
  session_unknown: "CLI-20",
  fork_unknown: "CLI-21",
  api_key_no_model: "CLI-14",
  model_unknown: "CLI-15",
  provider_unknown: "CLI-15",
  provider_without_model: "CLI-15",
  thinking_invalid: "CLI-08",
  thinking_max_list: "CLI-08",
  model_and_thinking_warning: "CLI-08",
  no_model_print: "CLI-24",
  session_missing_cwd: "CLI-23",
  session_other_project_declined: "CLI-20",
};

/**
 * Where we deliberately print something else (docs/differences.md): a broken models.json is named
 * (file and problem) among the start-up warnings, before "No models available", instead of only
 * by `--list-models` after it.
 */
const IMPROVED: Record<string, (ref: CliRun) => CliRun> = {
  list_models_broken_json: (ref) => {
    const problem =
      "Failed to parse models.json: Unexpected end of JSON input\n\nFile: <TMP>/home/agent/models.json\n";
    const listingWarning = `Warning: errors loading models.json:\n${problem}`;
    if (!ref.stderr.endsWith(listingWarning)) throw new Error("the reference's models.json warning changed");
    return { ...ref, stderr: `Warning: ${problem}${ref.stderr.slice(0, -listingWarning.length)}` };
  },
};

for (const c of loadCases()) {
  const id = ID[c.name] ??
    (c.name.startsWith("auth_") ? "CLI-1.6-AUTH" : c.name.startsWith("session_id") ? "CLI-20" : "CLI-17");
  Deno.test(`${id} e2e ${c.name}: pi ${c.args.join(" ")} behaves like pi 1.6.0`, async () => {
    const ours = await runCase(c);
    const ref = IMPROVED[c.name]?.(referenceRun(c.name)) ?? referenceRun(c.name);
    const isHelp = c.args.includes("--help") || c.args.includes("-h");
    const expected = !isHelp ? ref : c.args[0] === "auth"
      ? {
        ...ref,
        stdout: ref.stdout.replace(AUTH_LOGIN_LINE, AUTH_LOGIN_LINE.replace("\n", `${AUTH_LOGIN_MARK}\n`)),
      }
      : { ...ref, stdout: withOurHelpAdditions(ref.stdout) };
    assertEquals(ours, expected);
  });
}
