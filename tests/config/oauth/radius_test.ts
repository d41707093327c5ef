/**
 * Radius gateway login (AUTH-04): the choice between browser and device-code sign-in, the browser
 * flow (discovered authorization page, PKCE, loopback redirect on 127.0.0.1:1456, code exchanged at
 * the gateway) and the device flow end to end against the fake OAuth server, with denial, gateway
 * errors, a failed discovery, abort and refresh — each request, event, credential and error equal to
 * pi-ai 1.6.0's flow in the same scenario (tests/fixtures/oauth/radius.json).
 */
import { assert, assertEquals } from "../../support/assert.ts";
import { DEVICE_TOKENS, RADIUS_SCENARIOS } from "../../fixtures/oauth/scenarios.ts";
import { runFlow, testAgainstFixture } from "../../fixtures/oauth/flow_harness.ts";
import { startFakeOAuthServer } from "../../support/fake_oauth_server.ts";
import { createRadiusOAuth, normalizeRadiusGatewayUrl } from "../../../src/config/oauth/radius.ts";

testAgainstFixture("AUTH-04 radius", "radius", RADIUS_SCENARIOS);

Deno.test("AUTH-04 radius browser login: credentials with the granted scope, no token shown", async () => {
  const server = startFakeOAuthServer();
  try {
    const scenario = RADIUS_SCENARIOS.find((s) => s.name === "browser")!;
    scenario.setup(server);
    const run = await runFlow("ours", scenario.input, server, scenario.drive(server));
    assertEquals(run.credentials?.access, DEVICE_TOKENS.access);
    assertEquals(run.credentials?.refresh, DEVICE_TOKENS.refresh);
    assertEquals(run.credentials?.scope, "gateway offline_access");
    const visible = JSON.stringify(run.events.filter((e) => e.event !== "result")) + run.stderr;
    for (const token of Object.values(DEVICE_TOKENS)) assert(!visible.includes(token), visible);
  } finally {
    await server.close();
  }
});

Deno.test("AUTH-04 radius: gateway addresses, provider id and name from the options", async () => {
  assertEquals(normalizeRadiusGatewayUrl("radius.example.com/"), "https://radius.example.com");
  assertEquals(normalizeRadiusGatewayUrl("http://127.0.0.1:9/"), "http://127.0.0.1:9");
  const provider = createRadiusOAuth({ name: "Team Radius", gateway: "radius.example.com" });
  assertEquals([provider.id, provider.name], ["radius", "Team Radius"]);
  assertEquals(createRadiusOAuth({ id: "radius-eu", name: "EU", gateway: "x" }).id, "radius-eu");
  // Cancelling the method choice cancels the login.
  const error = await provider.login({
    onAuth: () => {},
    onPrompt: () => Promise.resolve(""),
    onSelect: () => Promise.resolve(undefined),
  }).then(() => "", (e: Error) => e.message);
  assertEquals(error, "Login cancelled");
});
