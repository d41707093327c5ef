/**
 * Captures the reference pi's end-to-end behaviour for the e2e tests: runs
 * the reference CLI under its Node (located by scripts/reference/locate.ts) on the shared
 * scenarios against the fake provider and writes the normalised results to tests/fixtures/e2e/.
 * The tests run the reference live when it is installed (and check these files against that run);
 * without it they compare with these files.
 *
 * Usage: deno run -A tests/e2e/capture_reference.ts [scenarios|errors|interop]
 *
 * @module
 */
import { requireReferenceCli } from "../support/spawn_pi.ts";
import { ERROR_CASES, type ErrorOutcome, runErrorCase, runSigintCase } from "./error_cases.ts";
import { runChain } from "./interop.ts";
import {
  APIS,
  fixturePath,
  jsonOutcome,
  printOutcome,
  runScenario,
  type ScenarioFixture,
} from "./scenario.ts";

async function captureScenarios(): Promise<void> {
  for (const api of APIS) {
    const print = await runScenario(api, ["-p"], { reference: true });
    const json = await runScenario(api, ["--mode", "json"], { reference: true });
    const out: ScenarioFixture = { print: printOutcome(print), json: jsonOutcome(json) };
    await Deno.writeTextFile(fixturePath(`scenario_${api}.json`), `${JSON.stringify(out, null, 1)}\n`);
    console.log(`captured scenario_${api}.json`);
  }
}

async function captureErrors(): Promise<void> {
  const out: Record<string, Record<string, ErrorOutcome>> = {};
  for (const api of APIS) {
    out[api] = {};
    for (const c of ERROR_CASES) out[api][c.name] = await runErrorCase(api, c, { reference: true });
  }
  await Deno.writeTextFile(fixturePath("errors.json"), `${JSON.stringify(out, null, 1)}\n`);
  const sigint = {
    text: await runSigintCase("text", { reference: true }),
    json: await runSigintCase("json", { reference: true }),
  };
  await Deno.writeTextFile(fixturePath("sigint.json"), `${JSON.stringify(sigint, null, 1)}\n`);
  console.log("captured errors.json, sigint.json");
}

/**
 * A session the reference wrote (one step), for ours to continue without the reference; and the
 * outcome of the reference continuing a session we wrote (the stored verdict of that direction).
 */
async function captureInterop(): Promise<void> {
  const written = await runChain(["ref"]);
  if (written.steps[0].code !== 0) throw new Error(`reference run failed: ${written.steps[0].stderr}`);
  await Deno.writeTextFile(fixturePath("interop/ref_session.jsonl"), written.sessionText);
  const { sessionText: _text, ...verdict } = await runChain(["ours", "ref"]);
  await Deno.writeTextFile(
    fixturePath("interop/ours_then_ref.json"),
    `${JSON.stringify(verdict, null, 1)}\n`,
  );
  console.log("captured interop/ref_session.jsonl, interop/ours_then_ref.json");
}

if (import.meta.main) {
  requireReferenceCli();
  const only = Deno.args[0];
  if (!only || only === "scenarios") await captureScenarios();
  if (!only || only === "errors") await captureErrors();
  if (!only || only === "interop") await captureInterop();
}
