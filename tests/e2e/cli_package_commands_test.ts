/**
 * `pi config`, whose resource selector this build does not have yet (its help and option errors are
 * compared with 1.6.0 in packages_config_e2e_test.ts), is a clear error, never a prompt. ID: CLI-09.
 */
import { assertEquals } from "../support/assert.ts";
import { createAgentEnv } from "../support/agent_env.ts";
import { startFakeProvider } from "../support/fake_provider/mod.ts";
import { spawnPi as runPi } from "../support/spawn_pi.ts";

Deno.test("CLI-09 pi config is a clear error in this build, never a prompt to the model", async () => {
  const server = await startFakeProvider([]);
  const env = await createAgentEnv(server.url);
  try {
    const bare = await runPi(["config"], { env: env.env, cwd: env.cwd });
    assertEquals(bare.code, 1);
    assertEquals(bare.stdout, "");
    assertEquals(
      bare.stderr,
      'Error: the "pi config" resource selector is not available yet in this build (no TUI yet; ' +
        "edit the extensions/skills/prompts/themes entries of settings.json, see docs/packages.md)\n",
    );
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
