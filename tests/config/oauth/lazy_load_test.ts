/**
 * Start-up stays as it was with the OAuth logins in (issue 17): no static import chain from main.ts
 * reaches a login flow or its building blocks (callback server, PKCE, device polling); only
 * builtin_oauth.ts's table is on the start-up path, and each flow loads when a login or an OAuth
 * credential needs it.
 */
import { assert, assertEquals } from "../../support/assert.ts";
import { moduleGraph, staticClosure } from "../../support/module_graph.ts";

const REPO = new URL("../../../", import.meta.url);
const href = (path: string) => new URL(path, REPO).href;

const LAZY = [
  "src/config/oauth/anthropic.ts",
  "src/config/oauth/openai_codex.ts",
  "src/config/oauth/callback_server.ts",
  "src/config/oauth/pkce.ts",
  "src/config/oauth/device_code.ts",
  "src/config/oauth/auth_interaction.ts",
  "src/cli/auth_login.ts",
];

Deno.test("AUTH-04 OAuth login modules stay off the start-up path", async () => {
  const graph = await moduleGraph();
  for (const module of LAZY) assert(graph.has(href(module)), `${module} is not in main.ts's graph`);
  const eager = staticClosure(graph, href("main.ts"));
  assertEquals(LAZY.filter((module) => eager.has(href(module))), []);
  // The table of built-in flows loads none of them.
  const table = staticClosure(graph, href("src/config/oauth/builtin_oauth.ts"));
  assertEquals(LAZY.filter((module) => table.has(href(module))), []);
});

Deno.test("AUTH-04 built-in flows load on demand and register; runtime registrations win", async () => {
  const { BUILTIN_OAUTH_FLOWS, builtinOAuthProviderIds, loadModelModifyingOAuthFlows, loadOAuthProvider } =
    await import("../../../src/config/oauth/builtin_oauth.ts");
  const { getOAuthProvider, registerOAuthProvider, resetOAuthProviders } = await import(
    "../../../src/config/oauth_registry.ts"
  );
  for (const id of ["anthropic", "openai-codex"]) assert(builtinOAuthProviderIds().includes(id), id);
  // Anthropic and OpenAI Codex change no models: nothing is loaded for them ahead of a request.
  assertEquals(BUILTIN_OAUTH_FLOWS.anthropic.modifiesModels, undefined);
  await loadModelModifyingOAuthFlows(["anthropic", "openai-codex"]);
  assertEquals(getOAuthProvider("anthropic"), undefined);
  const loaded = await loadOAuthProvider("anthropic");
  assertEquals([loaded?.id, loaded?.name], ["anthropic", "Anthropic (Claude Pro/Max)"]);
  assertEquals(getOAuthProvider("anthropic"), loaded);
  const custom = { ...loaded!, name: "Custom" };
  registerOAuthProvider(custom);
  assertEquals((await loadOAuthProvider("anthropic"))?.name, "Custom");
  // A model refresh drops runtime registrations; the loaded built-in comes back.
  resetOAuthProviders();
  assertEquals(getOAuthProvider("anthropic"), loaded);
  assertEquals(await loadOAuthProvider("no-such-provider"), undefined);
});
