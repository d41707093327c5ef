/**
 * Render and behaviour conformance of `src/tui` against the real `@earendil-works/pi-tui` 1.6.0.
 *
 * A case is the body of an async function that gets the module namespace as `T` and returns a
 * JSON value (lines, cursor, text…). `compareWithPiTui(suite, cases)` runs every case under Node
 * against the reference's pi-tui and in a Deno subprocess against `src/tui/mod.ts`, both with the
 * same clean environment, and asserts equal results case by case.
 *
 * When the reference is not installed, the stored capture `tests/fixtures/tui/<suite>.json` stands
 * in for it (one loud line says so). When the reference is live the capture must equal it;
 * `PI_TUI_CAPTURE=1` rewrites stale or missing captures.
 *
 * @module
 */
import { findReference } from "../../scripts/reference/locate.ts";
import { useReferenceFixtures } from "./spawn_pi.ts";

/** One conformance case: a name unique in its suite and a JS function body using `T`. */
export interface TuiCase {
  name: string;
  body: string;
}

/** What a case gave: its value, or the message of what it threw. */
export type TuiCaseResult = { value: unknown } | { error: string };

const RUNNER = new URL("./tui_case_runner.mjs", import.meta.url);
const OUR_MODULE = new URL("../../src/tui/mod.ts", import.meta.url);
const FIXTURES = new URL("../fixtures/tui/", import.meta.url);

/** The environment both sides run in: no colour or terminal hints from the machine. */
export const TUI_CASE_ENV: Record<string, string> = {
  PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
  HOME: "/nonexistent-home",
  TERM: "xterm-256color",
  LANG: "C.UTF-8",
  TZ: "UTC",
};

async function runCases(
  cmd: string,
  args: string[],
  cases: TuiCase[],
): Promise<Record<string, TuiCaseResult>> {
  const env: Record<string, string> = { ...TUI_CASE_ENV };
  const denoDir = Deno.env.get("DENO_DIR");
  if (denoDir) env.DENO_DIR = denoDir;
  const child = new Deno.Command(cmd, {
    args,
    env,
    clearEnv: true,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(JSON.stringify(cases)));
  await writer.close();
  const out = await child.output();
  const stdout = new TextDecoder().decode(out.stdout);
  if (!out.success) {
    throw new Error(
      `${cmd} ${args.join(" ")} failed (${out.code}):\n${new TextDecoder().decode(out.stderr)}`,
    );
  }
  return JSON.parse(stdout);
}

/** Runs the cases against our `src/tui/mod.ts` in a fresh Deno process. */
export function runOurs(cases: TuiCase[]): Promise<Record<string, TuiCaseResult>> {
  return runCases(
    Deno.execPath(),
    ["run", "--allow-all", "--no-prompt", RUNNER.pathname, OUR_MODULE.href],
    cases,
  );
}

/** Runs the cases against the reference's pi-tui under Node; undefined when it is not installed. */
export function runReference(cases: TuiCase[]): Promise<Record<string, TuiCaseResult>> | undefined {
  const ref = findReference();
  if (!ref) return undefined;
  const index = `${ref.nodeModules}/@earendil-works/pi-tui/dist/index.js`;
  return runCases(ref.node, [RUNNER.pathname, new URL(`file://${index}`).href], cases);
}

function fixturePath(suite: string): string {
  return new URL(`${suite}.json`, FIXTURES).pathname;
}

function readFixture(suite: string): Record<string, TuiCaseResult> | undefined {
  try {
    return JSON.parse(Deno.readTextFileSync(fixturePath(suite)));
  } catch {
    return undefined;
  }
}

/** The reference's results for a suite: live when installed, else the stored capture. */
export async function referenceResults(
  suite: string,
  cases: TuiCase[],
): Promise<Record<string, TuiCaseResult>> {
  if (useReferenceFixtures()) {
    const stored = readFixture(suite);
    if (!stored) {
      throw new Error(`no stored capture tests/fixtures/tui/${suite}.json and no reference installed`);
    }
    return stored;
  }
  const live = (await runReference(cases))!;
  const stored = readFixture(suite);
  const liveText = JSON.stringify(live, null, 1) + "\n";
  if (Deno.env.get("PI_TUI_CAPTURE") === "1") {
    if (!stored || JSON.stringify(stored, null, 1) + "\n" !== liveText) {
      Deno.writeTextFileSync(fixturePath(suite), liveText);
    }
  } else if (!stored || JSON.stringify(stored, null, 1) + "\n" !== liveText) {
    const differing = stored
      ? Object.keys({ ...stored, ...live }).filter((k) =>
        JSON.stringify(stored[k]) !== JSON.stringify(live[k])
      )
      : [];
    throw new Error(
      `tests/fixtures/tui/${suite}.json is missing or stale against the live reference: rerun with PI_TUI_CAPTURE=1` +
        (differing.length ? ` (cases that differ: ${differing.slice(0, 8).join(", ")})` : ""),
    );
  }
  return live;
}

/** A difference between ours and the reference for one case, as a readable report. */
export interface TuiMismatch {
  name: string;
  ours: TuiCaseResult | undefined;
  reference: TuiCaseResult;
}

/**
 * Runs the suite on both sides and returns the cases that differ, skipping none. `deliberate` names
 * cases whose difference is a listed fix (docs/differences.md); they must differ, or the entry is stale.
 */
export async function diffWithPiTui(
  suite: string,
  cases: TuiCase[],
): Promise<TuiMismatch[]> {
  const names = new Set<string>();
  for (const c of cases) {
    if (names.has(c.name)) throw new Error(`duplicate case name in ${suite}: ${c.name}`);
    names.add(c.name);
  }
  const [ours, reference] = await Promise.all([runOurs(cases), referenceResults(suite, cases)]);
  const mismatches: TuiMismatch[] = [];
  for (const c of cases) {
    const ref = reference[c.name];
    if (!ref) throw new Error(`the capture of ${suite} has no case ${c.name}: rerun with PI_TUI_CAPTURE=1`);
    if (JSON.stringify(ours[c.name]) !== JSON.stringify(ref)) {
      mismatches.push({ name: c.name, ours: ours[c.name], reference: ref });
    }
  }
  return mismatches;
}

/** Asserts every case of the suite gives the same result in ours and in pi-tui 1.6.0. */
export async function compareWithPiTui(
  suite: string,
  cases: TuiCase[],
  deliberate: readonly string[] = [],
): Promise<void> {
  const mismatches = await diffWithPiTui(suite, cases);
  const unexpected = mismatches.filter((m) => !deliberate.includes(m.name));
  const staleDeliberate = deliberate.filter((name) => !mismatches.some((m) => m.name === name));
  const report: string[] = [];
  for (const m of unexpected.slice(0, 12)) {
    report.push(
      `case ${m.name}:\n  ours:      ${JSON.stringify(m.ours)}\n  reference: ${JSON.stringify(m.reference)}`,
    );
  }
  if (unexpected.length > 12) report.push(`… and ${unexpected.length - 12} more`);
  for (const name of staleDeliberate) report.push(`case ${name} is listed as deliberate but now matches`);
  if (report.length > 0) {
    throw new Error(
      `${suite}: ${unexpected.length} of ${cases.length} cases differ from pi-tui 1.6.0\n${
        report.join("\n")
      }`,
    );
  }
}

/** JS source for a string literal, for building case bodies from data. */
export function js(value: unknown): string {
  return JSON.stringify(value);
}
