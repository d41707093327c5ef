/**
 * `pi config` opens its resource selector (compared with 1.6.0 in config_selector_e2e_test.ts; its
 * help and option errors in packages_config_e2e_test.ts), never a prompt to the model. ID: CLI-09.
 */
import { assertEquals } from "../support/assert.ts";
import { createAgentEnv } from "../support/agent_env.ts";
import { startFakeProvider } from "../support/fake_provider/mod.ts";
import { spawnPi as runPi } from "../support/spawn_pi.ts";

Deno.test("CLI-09 pi config draws its selector (no terminal: once, exit 0), never a prompt to the model", async () => {
  const server = await startFakeProvider([]);
  const env = await createAgentEnv(server.url);
  try {
    const bare = await runPi(["config"], { env: env.env, cwd: env.cwd });
    assertEquals({ code: bare.code, stderr: bare.stderr }, { code: 0, stderr: "" });
    assertEquals(bare.stdout.includes("Global Resources"), true, bare.stdout);
    const extra = await runPi(["config", "npm:some-package"], { env: env.env, cwd: env.cwd });
    assertEquals(extra.code, 1);
    assertEquals(extra.stdout, "");
    assertEquals(
      extra.stderr,
      "Unexpected argument npm:some-package.\nUsage: pi config [-l] [--approve|--no-approve]\n",
    );
    assertEquals(server.requests.length, 0);
  } finally {
    await server.close();
    await env.cleanup();
  }
});
