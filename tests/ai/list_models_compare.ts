/**
 * Runs `pi <args>` (a `--list-models` call) with our CLI and with pi 1.6.0's, each in a fresh
 * agent dir holding the given models.json (default: no providers) and auth.json, with the given environment;
 * returns both results with the temp root and the package folders normalised.
 *
 * @module
 */
import { join } from "node:path";
import { createAgentEnv } from "../support/agent_env.ts";
import { requireReferenceCli, spawnPi } from "../support/spawn_pi.ts";
import { makeNormalizer, packageDirs } from "../e2e/scenario.ts";

/** What one side printed. */
export interface ListModelsRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Our run and the reference's, in that order. */
export async function listModelsBoth(
  args: string[],
  env: Record<string, string>,
  auth?: Record<string, unknown>,
  models: Record<string, unknown> = { providers: {} },
): Promise<[ListModelsRun, ListModelsRun]> {
  requireReferenceCli();
  const one = async (reference: boolean): Promise<ListModelsRun> => {
    const agent = await createAgentEnv("http://127.0.0.1:9");
    try {
      await Deno.writeTextFile(join(agent.agentDir, "models.json"), JSON.stringify(models));
      if (auth) await Deno.writeTextFile(join(agent.agentDir, "auth.json"), JSON.stringify(auth));
      const result = await spawnPi(args, {
        env: { ...agent.env, PI_OFFLINE: "1", ...env },
        cwd: agent.cwd,
        reference,
      });
      const normalize = makeNormalizer(agent.root, packageDirs());
      return normalize({ code: result.code, stdout: result.stdout, stderr: result.stderr }) as ListModelsRun;
    } finally {
      await agent.cleanup();
    }
  };
  return await Promise.all([one(false), one(true)]);
}
