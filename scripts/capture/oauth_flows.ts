/**
 * Captures what pi-ai 1.6.0's OAuth login flows do in each scenario of
 * tests/fixtures/oauth/scenarios.ts (requests the fake OAuth server received, the events the flow
 * reported, the credentials or the error), normalised, into tests/fixtures/oauth/<provider>.json.
 * The tests run our flows through the same scenarios and compare with these files, so machines
 * without the reference still check the requests.
 *
 * Usage: deno run -A scripts/capture/oauth_flows.ts [fixture-name …]   (default: all)
 *
 * @module
 */

import { captureScenario } from "../../tests/fixtures/oauth/flow_harness.ts";
import { SCENARIOS } from "../../tests/fixtures/oauth/scenarios.ts";

if (import.meta.main) {
  const names = Deno.args.length > 0 ? Deno.args : Object.keys(SCENARIOS);
  for (const name of names) {
    const scenarios = SCENARIOS[name];
    if (!scenarios) throw new Error(`no scenarios named ${name}`);
    const captured: Record<string, unknown> = {};
    for (const scenario of scenarios) {
      captured[scenario.name] = await captureScenario("reference", scenario);
      console.error(`${name}/${scenario.name}: captured`);
    }
    const path = new URL(`../../tests/fixtures/oauth/${name}.json`, import.meta.url).pathname;
    await Deno.writeTextFile(path, `${JSON.stringify(captured, null, 2)}\n`);
  }
}
