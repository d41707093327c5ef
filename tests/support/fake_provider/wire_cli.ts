/**
 * Runs the real `pi` (ours, or pi 1.6.0's CLI with `reference`) in JSON mode on the shared
 * write/read/edit scenario against a fresh fake provider, with a given models.json and extra
 * environment, and hands back the comparable JSON records and the requests (through `view`),
 * normalised (temp paths, dates, ids, times) so two runs compare equal.
 *
 * @module
 */
import { join } from "node:path";
import { createAgentEnv } from "../agent_env.ts";
import { spawnPi } from "../spawn_pi.ts";
import { comparableJsonLine, makeNormalizer, packageDirs, PROMPT } from "../../e2e/scenario.ts";
import type { RecordedRequest, ScriptedTurn } from "./script.ts";
import { startFakeProvider } from "./server.ts";

/** What one CLI run produced, normalised. */
export interface CliRun {
  code: number;
  stderr: string;
  stdout: string;
  jsonLines: unknown[];
  requests: unknown[];
}

/** One CLI run: `models(url)` is written as models.json; `args` go before the prompt. */
export async function runWireCli(options: {
  reference: boolean;
  turns: ScriptedTurn[];
  models: (serverUrl: string) => unknown;
  args: string[];
  /** Extra environment, or a function of the server's URL giving it. */
  env: Record<string, string> | ((serverUrl: string) => Record<string, string>);
  view: (request: RecordedRequest) => unknown;
  /** Written as the agent dir's settings.json when given. */
  settings?: Record<string, unknown>;
  /** Written as the agent dir's auth.json when given. */
  auth?: Record<string, unknown>;
}): Promise<CliRun> {
  const server = await startFakeProvider(options.turns);
  const env = await createAgentEnv(server.url, { settings: options.settings });
  try {
    await Deno.writeTextFile(
      join(env.agentDir, "models.json"),
      JSON.stringify(options.models(server.url), null, 2),
    );
    if (options.auth) await Deno.writeTextFile(join(env.agentDir, "auth.json"), JSON.stringify(options.auth));
    const result = await spawnPi(["--mode", "json", ...options.args, PROMPT], {
      env: {
        ...env.env,
        PI_OFFLINE: "1",
        ...(typeof options.env === "function" ? options.env(server.url) : options.env),
      },
      cwd: env.cwd,
      reference: options.reference,
    });
    const normalize = makeNormalizer(env.root, packageDirs());
    const jsonLines = result.stdout.split("\n").filter((l) => l.startsWith("{")).map((l) =>
      comparableJsonLine(normalize(JSON.parse(l)))
    );
    // The fake server numbers its responses process-wide; the order of runs must not matter.
    const requests = server.requests.map((r) => normalize(options.view(r)));
    return { code: result.code, stderr: result.stderr, stdout: result.stdout, jsonLines, requests };
  } finally {
    await server.close();
    await env.cleanup();
  }
}
