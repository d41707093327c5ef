/**
 * PKG: the usage texts and option errors of `pi install`, `remove`, `uninstall`, `list` and
 * `update` are 1.6.0's, word for word (stdout, stderr, exit code), run in the same empty folders.
 */
import { assertEquals } from "../support/assert.ts";
import { createAgentEnv } from "../support/agent_env.ts";
import { requireReferenceCli, spawnPi } from "../support/spawn_pi.ts";

const CASES: string[][] = [
  ["install", "--help"],
  ["remove", "-h"],
  ["uninstall", "--help"],
  ["list", "--help"],
  ["update", "--help"],
  ["install"],
  ["remove"],
  ["install", "a", "b"],
  ["install", "--self", "x"],
  ["list", "--bogus"],
  ["update", "--extension", "a", "--extension", "b"],
  ["update", "x", "--extensions"],
  ["update", "--all", "x"],
  ["update", "--extension", "a", "--all"],
  ["update", "--models", "x"],
  ["list"],
];

Deno.test("PKG-08 package command usage, help and option errors are 1.6.0's word for word", async () => {
  requireReferenceCli();
  const env = await createAgentEnv("http://127.0.0.1:9");
  try {
    for (const args of CASES) {
      const [ours, ref] = [
        await spawnPi(args, { env: env.env, cwd: env.cwd }),
        await spawnPi(args, { env: env.env, cwd: env.cwd, reference: true }),
      ];
      assertEquals(
        { code: ours.code, stdout: ours.stdout, stderr: ours.stderr },
        { code: ref.code, stdout: ref.stdout, stderr: ref.stderr },
        args.join(" "),
      );
    }
  } finally {
    await env.cleanup();
  }
});
