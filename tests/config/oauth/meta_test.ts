/**
 * Meta login (AUTH-04): the RFC 8628 device flow on auth.meta.com and the Model API key minted with the identity token, end to end against the fake OAuth server: pending and slow_down polls, denial, an expired
 * code, expiry (with and without slow_down), an untrusted verification page, abort and refresh — each
 * request, event, credential and error equal to pi-ai 1.6.0's flow in the same scenario
 * (tests/fixtures/oauth/meta.json, captured by scripts/capture/oauth_flows.ts).
 */
import { assert, assertEquals } from "../../support/assert.ts";
import { DEVICE_TOKENS, META_API_KEY, META_SCENARIOS } from "../../fixtures/oauth/scenarios.ts";
import { runFlow, testAgainstFixture } from "../../fixtures/oauth/flow_harness.ts";
import { startFakeOAuthServer } from "../../support/fake_oauth_server.ts";

testAgainstFixture("AUTH-04 meta", "meta", META_SCENARIOS);

Deno.test("AUTH-04 meta login: the device code is shown, the tokens are stored and never shown", async () => {
  const server = startFakeOAuthServer();
  try {
    const scenario = META_SCENARIOS.find((s) => s.name === "login")!;
    scenario.setup(server);
    const before = Date.now();
    const run = await runFlow("ours", scenario.input, server, scenario.drive(server));
    assertEquals(run.error, undefined);
    // The identity token is kept as `refresh`, the minted key (a day long) is the access token.
    assertEquals(run.credentials?.access, META_API_KEY);
    assertEquals(run.credentials?.refresh, DEVICE_TOKENS.access);
    const expires = run.credentials?.expires as number;
    assert(expires >= before + 24 * 3600_000 && expires <= Date.now() + 24 * 3600_000);
    const visible = JSON.stringify(run.events.filter((e) => e.event !== "result")) + run.stderr;
    for (const token of [...Object.values(DEVICE_TOKENS), META_API_KEY]) {
      assert(!visible.includes(token), visible);
    }
    assertEquals(run.events.filter((e) => e.event === "device_code").length, 1);
  } finally {
    await server.close();
  }
});
