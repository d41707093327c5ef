/**
 * AUTH-04 SDK login as in pi 1.6.0: `ModelRuntime.login(provider, "oauth" | "api_key", interaction)`
 * drives the flow through the interaction's prompts and events, stores the credential in auth.json
 * and makes it the provider's auth.
 */
import { join } from "node:path";
import { assertEquals, assertRejects } from "../../support/assert.ts";
import { startFakeOAuthServer } from "../../support/fake_oauth_server.ts";
import { ModelRuntime } from "../../../src/config/model_runtime.ts";
import { createAnthropicOAuth } from "../../../src/config/oauth/anthropic.ts";
import { registerOAuthProvider, resetOAuthProviders } from "../../../src/config/oauth_registry.ts";
import type { AuthEvent, AuthInteraction, AuthPrompt } from "../../../src/config/oauth/auth_interaction.ts";

Deno.test("AUTH-04 SDK ModelRuntime.login: OAuth through the interaction, stored and used; api_key via a secret prompt", async () => {
  const server = startFakeOAuthServer();
  const dir = await Deno.makeTempDir({ prefix: "pi-runtime-login-" });
  try {
    const authPath = join(dir, "auth.json");
    const runtime = await ModelRuntime.create({
      authPath,
      modelsPath: null,
      builtinProviders: ["anthropic"],
    });
    // The test's flow (pointed at the fake server) wins over the built-in one.
    registerOAuthProvider(createAnthropicOAuth({ origin: server.url }));
    const events: AuthEvent[] = [];
    const prompts: string[] = [];
    const interaction: AuthInteraction = {
      notify: (event) => {
        events.push(event);
        if (event.type === "auth_url") void server.authorize(event.url);
      },
      prompt: (prompt: AuthPrompt) => {
        prompts.push(`${prompt.type}: ${prompt.message}`);
        if (prompt.type === "select") return Promise.resolve(prompt.options[0].id);
        return new Promise((_, reject) =>
          prompt.signal?.addEventListener("abort", () => reject(new Error("closed")))
        );
      },
    };
    const credential = await runtime.login("anthropic", "oauth", interaction);
    const [access, refresh] = server.issuedTokens();
    assertEquals(credential.type, "oauth");
    assertEquals(JSON.parse(await Deno.readTextFile(authPath)).anthropic, credential);
    assertEquals([(credential as { access: string }).access, (credential as { refresh: string }).refresh], [
      access,
      refresh,
    ]);
    assertEquals(prompts, [
      "select: Select Anthropic login method:",
      "manual_code: Complete login in your browser, or paste the authorization code / redirect URL here:",
    ]);
    assertEquals(events.map((e) => e.type), ["auth_url", "progress"]);
    assertEquals(await runtime.listCredentials(), [{ providerId: "anthropic", type: "oauth" }]);
    assertEquals((await runtime.getAuth("anthropic"))?.auth.apiKey, access);

    const key = await runtime.login("openai", "api_key", {
      notify: () => {},
      prompt: (prompt) => Promise.resolve(prompt.type === "secret" ? "sk-typed" : "wrong"),
    });
    assertEquals(key, { type: "api_key", key: "sk-typed" });
    assertEquals(JSON.parse(await Deno.readTextFile(authPath)).openai, { type: "api_key", key: "sk-typed" });
    await assertRejects(
      () => runtime.login("groq", "oauth", interaction),
      'Provider "groq" has no account login',
    );
  } finally {
    resetOAuthProviders();
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});
