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

import { startFakeOAuthServer } from "../../tests/support/fake_oauth_server.ts";
import {
  normaliseCredentials,
  normaliseEvents,
  normaliseRequests,
  runFlow,
} from "../../tests/fixtures/oauth/flow_harness.ts";
import { type OAuthScenario, SCENARIOS } from "../../tests/fixtures/oauth/scenarios.ts";

/** What one scenario produced, normalised: the shape of each entry of a fixture file. */
export async function captureScenario(side: "ours" | "reference", scenario: OAuthScenario) {
  const server = startFakeOAuthServer();
  try {
    scenario.setup(server);
    const run = await runFlow(side, scenario.input, server, scenario.drive(server));
    return {
      requests: normaliseRequests(server.requests),
      events: normaliseEvents(run.events.filter((e) => e.event !== "result" && e.event !== "error")),
      credentials: run.credentials ? normaliseCredentials(run.credentials) : undefined,
      error: run.error,
    };
  } finally {
    await server.close();
  }
}

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
