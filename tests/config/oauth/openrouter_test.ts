/**
 * OpenRouter login (AUTH-04): the PKCE flow that trades the code for a permanent API key, end to end
 * against the fake OAuth server — the loopback redirect on a random free port and path, a pasted
 * redirect URL or bare code, an empty paste, a refused exchange, a reply without a key, abort, and the
 * no-op refresh — each request, event, credential and error equal to pi-ai 1.6.0's flow in the same
 * scenario (tests/fixtures/oauth/openrouter.json).
 */
import { assert, assertEquals } from "../../support/assert.ts";
import { OPENROUTER_KEY, OPENROUTER_SCENARIOS } from "../../fixtures/oauth/scenarios.ts";
import { runFlow, testAgainstFixture } from "../../fixtures/oauth/flow_harness.ts";
import { startFakeOAuthServer } from "../../support/fake_oauth_server.ts";
import { openRouterOAuth, parseOpenRouterAuthorizationInput } from "../../../src/config/oauth/openrouter.ts";

testAgainstFixture("AUTH-04 openrouter", "openrouter", OPENROUTER_SCENARIOS);

Deno.test("AUTH-04 openrouter login: the key is stored as a never-expiring access token, never shown", async () => {
  const server = startFakeOAuthServer();
  try {
    const scenario = OPENROUTER_SCENARIOS.find((s) => s.name === "login-callback")!;
    scenario.setup(server);
    const run = await runFlow("ours", scenario.input, server, scenario.drive(server));
    assertEquals(run.credentials, { access: OPENROUTER_KEY, refresh: "", expires: Number.MAX_SAFE_INTEGER });
    const visible = JSON.stringify(run.events.filter((e) => e.event !== "result")) + run.stderr;
    assert(!visible.includes(OPENROUTER_KEY), visible);
    // The verifier only ever goes to the key exchange, and matches the challenge sent to the browser.
    const [authorize, exchange] = server.requests;
    const digest = await crypto.subtle.digest(
      "SHA-256",
      new TextEncoder().encode(exchange.params.code_verifier),
    );
    const challenge = btoa(String.fromCharCode(...new Uint8Array(digest))).replace(/\+/g, "-").replace(
      /\//g,
      "_",
    )
      .replace(/=+$/, "");
    assertEquals(authorize.query.code_challenge, challenge);
  } finally {
    await server.close();
  }
});

Deno.test("AUTH-04 openrouter: what a pasted answer may look like", () => {
  assertEquals(parseOpenRouterAuthorizationInput("http://127.0.0.1:5/oauth/callback/x?code=abc"), "abc");
  assertEquals(parseOpenRouterAuthorizationInput("code=abc&x=1"), "abc");
  assertEquals(parseOpenRouterAuthorizationInput(" abc "), "abc");
  assertEquals(parseOpenRouterAuthorizationInput("  "), undefined);
  assertEquals(openRouterOAuth.getApiKey({ access: "k", refresh: "", expires: 0 }), "k");
});
