/**
 * AUTH-04: `pi auth login` hands the flows the installation's device id (settings `deviceId`, created
 * and saved on first use, as pi 1.6.0's getOrCreateDeviceId); "Sign in with ChatGPT" sends it as its
 * agent host id. The login is then cancelled by closing stdin: nothing is stored.
 */
import { join } from "node:path";
import { assertEquals, assertMatch } from "../support/assert.ts";
import { startFakeOAuthServer } from "../support/fake_oauth_server.ts";
import { createLoginEnv, startLogin } from "../config/oauth/cli_login_harness.ts";

async function hostIdOfOneLogin(env: Awaited<ReturnType<typeof createLoginEnv>>): Promise<string> {
  const login = startLogin(["auth", "login", "openai"], env);
  const [, url] = await login.waitFor(/Open this URL to sign in:\n {2}(\S+)\n/);
  await login.closeStdin();
  const result = await login.done();
  assertEquals([result.code, result.stderr], [1, "Login cancelled.\n"]);
  return new URL(url).searchParams.get("ext_agent_host_id") ?? "";
}

Deno.test("AUTH-04 e2e pi auth login creates the device id once, saves it in settings.json and reuses it", async () => {
  const server = startFakeOAuthServer();
  const env = await createLoginEnv({ PI_OPENAI_OAUTH_URL: server.url });
  try {
    const first = await hostIdOfOneLogin(env);
    const settings = JSON.parse(await Deno.readTextFile(join(env.agentDir, "settings.json")));
    assertMatch(settings.deviceId, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    assertEquals(first, `urn:uuid:${settings.deviceId}`);
    assertEquals(await hostIdOfOneLogin(env), first);
    assertEquals(JSON.parse(await Deno.readTextFile(join(env.agentDir, "auth.json"))), {});
  } finally {
    await server.close();
    await env.cleanup();
  }
});
