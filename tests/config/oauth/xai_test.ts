/**
 * xAI login (AUTH-04): the RFC 8628 device flow on auth.x.ai with form requests, end to end against the fake OAuth server: pending and slow_down polls, denial, an expired
 * code, expiry (with and without slow_down), an untrusted verification page, abort and refresh — each
 * request, event, credential and error equal to pi-ai 1.6.0's flow in the same scenario
 * (tests/fixtures/oauth/xai.json, captured by scripts/capture/oauth_flows.ts).
 */
import { assert, assertEquals } from "../../support/assert.ts";
import { DEVICE_TOKENS, XAI_SCENARIOS } from "../../fixtures/oauth/scenarios.ts";
import { runFlow, testAgainstFixture } from "../../fixtures/oauth/flow_harness.ts";
import { startFakeOAuthServer } from "../../support/fake_oauth_server.ts";

testAgainstFixture("AUTH-04 xai", "xai", XAI_SCENARIOS);

Deno.test("AUTH-04 xai login: the device code is shown, the tokens are stored and never shown", async () => {
  const server = startFakeOAuthServer();
  try {
    const scenario = XAI_SCENARIOS.find((s) => s.name === "login")!;
    scenario.setup(server);
    const before = Date.now();
    const run = await runFlow("ours", scenario.input, server, scenario.drive(server));
    assertEquals(run.error, undefined);
    assertEquals(run.credentials?.access, DEVICE_TOKENS.access);
    assertEquals(run.credentials?.refresh, DEVICE_TOKENS.refresh);
    // One hour, less the five-minute skew.
    const expires = run.credentials?.expires as number;
    assert(expires >= before + 55 * 60_000 && expires <= Date.now() + 55 * 60_000);
    const visible = JSON.stringify(run.events.filter((e) => e.event !== "result")) + run.stderr;
    for (const token of Object.values(DEVICE_TOKENS)) assert(!visible.includes(token), visible);
    assertEquals(run.events.filter((e) => e.event === "device_code").length, 1);
  } finally {
    await server.close();
  }
});
