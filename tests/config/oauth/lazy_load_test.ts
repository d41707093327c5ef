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
