/**
 * The package commands this build does not have yet (config; install, remove, uninstall, list and update
 * are tested in packages_*_e2e_test.ts) are a clear error, never a prompt. ID: CLI-09.
 */
import { assertEquals } from "../support/assert.ts";
import { createAgentEnv } from "../support/agent_env.ts";
import { startFakeProvider } from "../support/fake_provider/mod.ts";
import { spawnPi as runPi } from "../support/spawn_pi.ts";

Deno.test("CLI-09 pi config is a clear error in this build, never a prompt to the model", async () => {
  const server = await startFakeProvider([]);
  const env = await createAgentEnv(server.url);
  try {
    for (const command of ["config"]) {
      const run = await runPi([command, "npm:some-package"], { env: env.env, cwd: env.cwd });
      assertEquals(run.code, 1, command);
      assertEquals(run.stdout, "");
      assertEquals(
        run.stderr,
        `Error: "pi ${command}" is not available yet in this build (no package manager yet)\n`,
      );
    }
    assertEquals(server.requests.length, 0);
  } finally {
    await server.close();
    await env.cleanup();
  }
});
