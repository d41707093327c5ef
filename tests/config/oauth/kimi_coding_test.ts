/**
 * Kimi Code login (AUTH-04): the RFC 8628 device flow on auth.kimi.com (reached through 1.6.0's own KIMI_CODE_OAUTH_HOST), end to end against the fake OAuth server: pending and slow_down polls, denial, an expired
 * code, expiry (with and without slow_down), an untrusted verification page, abort and refresh — each
 * request, event, credential and error equal to pi-ai 1.6.0's flow in the same scenario
 * (tests/fixtures/oauth/kimi_coding.json, captured by scripts/capture/oauth_flows.ts).
 */
import { assert, assertEquals } from "../../support/assert.ts";
import { DEVICE_TOKENS, KIMI_SCENARIOS } from "../../fixtures/oauth/scenarios.ts";
import { runFlow, testAgainstFixture } from "../../fixtures/oauth/flow_harness.ts";
import { startFakeOAuthServer } from "../../support/fake_oauth_server.ts";

testAgainstFixture("AUTH-04 kimi-coding", "kimi_coding", KIMI_SCENARIOS);

Deno.test("AUTH-04 kimi-coding login: the device code is shown, the tokens are stored and never shown", async () => {
  const server = startFakeOAuthServer();
  try {
    const scenario = KIMI_SCENARIOS.find((s) => s.name === "login")!;
    scenario.setup(server);
    const before = Date.now();
    const run = await runFlow("ours", scenario.input, server, scenario.drive(server));
    assertEquals(run.error, undefined);
    assertEquals(run.credentials?.access, DEVICE_TOKENS.access);
    assertEquals(run.credentials?.refresh, DEVICE_TOKENS.refresh);
    const expires = run.credentials?.expires as number;
    assert(expires >= before + 3600_000 && expires <= Date.now() + 3600_000);
    const visible = JSON.stringify(run.events.filter((e) => e.event !== "result")) + run.stderr;
    for (const token of Object.values(DEVICE_TOKENS)) assert(!visible.includes(token), visible);
    assertEquals(run.events.filter((e) => e.event === "device_code").length, 1);
  } finally {
    await server.close();
  }
});

Deno.test("AUTH-04 kimi-coding: a token reply missing fields names them without quoting the token (1.6.0 quotes it)", async () => {
  const server = startFakeOAuthServer();
  try {
    server.route("POST", "/api/oauth/device_authorization", () =>
      Response.json({
        device_code: "d",
        user_code: "U",
        verification_uri: "https://example.com/device",
        verification_uri_complete: "https://example.com/device?u=U",
        interval: 1,
        expires_in: 60,
      }));
    server.route("POST", "/api/oauth/token", () => Response.json({ access_token: "kimi-secret-access" }));
    const run = await runFlow("ours", { provider: "kimi-coding", action: "login" }, server);
    assertEquals(run.error, "Kimi Code token poll response missing fields: refresh_token, expires_in");
  } finally {
    await server.close();
  }
});
