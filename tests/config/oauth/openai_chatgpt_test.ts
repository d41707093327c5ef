/**
 * Sign in with ChatGPT for the `openai` provider (AUTH-04): the PKCE browser flow end to end against
 * the fake OAuth server — the loopback redirect on 127.0.0.1:1455, the pasted redirect URL, a wrong
 * state or address, a denied sign-in, a grant without the direct-token scope, a rejected code, abort,
 * refresh with the issued client id — each request, event, credential and error equal to pi-ai
 * 1.6.0's flow in the same scenario (tests/fixtures/oauth/openai_chatgpt.json).
 */
import { assert, assertEquals } from "../../support/assert.ts";
import { CHATGPT_SCENARIOS } from "../../fixtures/oauth/scenarios.ts";
import { runFlow, testAgainstFixture } from "../../fixtures/oauth/flow_harness.ts";
import { startFakeOAuthServer } from "../../support/fake_oauth_server.ts";
import { openaiChatGPTOAuth } from "../../../src/config/oauth/openai_chatgpt.ts";

testAgainstFixture("AUTH-04 openai (ChatGPT)", "openai_chatgpt", CHATGPT_SCENARIOS);

Deno.test("AUTH-04 openai (ChatGPT) login: stored credentials, no token in any event or error", async () => {
  const server = startFakeOAuthServer();
  try {
    const scenario = CHATGPT_SCENARIOS.find((s) => s.name === "login-callback")!;
    scenario.setup(server);
    const before = Date.now();
    const run = await runFlow("ours", scenario.input, server, scenario.drive(server));
    const { expires, ...rest } = run.credentials ?? {};
    assertEquals(rest, {
      access: "fake-chatgpt-access",
      refresh: "fake-chatgpt-refresh",
      clientId: "app_fakeIssuedClient",
      scopes: [
        "openid",
        "profile",
        "email",
        "offline_access",
        "resource.invoke",
        "chatgpt.tokens.use.direct",
      ],
    });
    // One hour, less the three-minute margin.
    assert(
      typeof expires === "number" && expires >= before + 57 * 60_000 && expires <= Date.now() + 57 * 60_000,
    );
    const visible = JSON.stringify(run.events.filter((e) => e.event !== "result")) + run.stderr;
    assert(!visible.includes("fake-chatgpt-"), visible);
    // The device id goes to OpenAI as a lower-case urn.
    assertEquals(server.requests[0].query.ext_agent_host_id, "urn:uuid:0f8fad5b-d9cb-469f-a165-70867728950e");
  } finally {
    await server.close();
  }
});

Deno.test("AUTH-04 openai (ChatGPT): provider id, name, and the key is the access token", () => {
  assertEquals([openaiChatGPTOAuth.id, openaiChatGPTOAuth.name], ["openai", "OpenAI (ChatGPT subscription)"]);
  assertEquals(openaiChatGPTOAuth.getApiKey({ access: "a", refresh: "r", expires: 0 }), "a");
});
