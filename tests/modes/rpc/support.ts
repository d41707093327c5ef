/**
 * Shared set-up of the RPC end-to-end tests: a fake provider server, an isolated pi environment
 * pointing at it, and an RpcClient driving the real `pi --mode rpc` (main.ts) in a child process —
 * or `tests/support/rpc_host.ts` for the extension-UI tests, which need its `ask_user` tool.
 *
 * @module
 */
import { join } from "node:path";
import {
  type AgentEnv,
  createAgentEnv,
  FAKE_MODEL_ID,
  FAKE_PROVIDERS,
  type FakeApi,
} from "../../support/agent_env.ts";
import { type FakeProvider, type ScriptedTurn, startFakeProvider } from "../../support/fake_provider/mod.ts";
import { RpcClient, type RpcEvent } from "../../../src/modes/rpc/rpc_client.ts";

/** Path of the test host script (adds the `ask_user` tool behind `--ui-harness`). */
export const RPC_HOST = new URL("../../support/rpc_host.ts", import.meta.url).pathname;

/** The CLI entry point. */
export const PI_MAIN = new URL("../../../main.ts", import.meta.url).pathname;

/** A running RPC process with its fake server and environment. */
export interface RpcFixture {
  server: FakeProvider;
  env: AgentEnv;
  client: RpcClient;
  /** Every event (non-response line) received so far. */
  events: RpcEvent[];
  close(): Promise<void>;
}

/** Options of {@link startRpc}. */
export interface StartRpcOptions {
  api?: FakeApi;
  settings?: Record<string, unknown>;
  reasoning?: boolean;
  args?: string[];
}

/** The environment variables of a child: the test env plus this process's Deno cache. */
export function childEnv(env: AgentEnv): Record<string, string> {
  const denoDir = Deno.env.get("DENO_DIR") ?? join(Deno.env.get("HOME") ?? "/root", ".cache", "deno");
  return { ...env.env, DENO_DIR: denoDir };
}

/** Starts the fake server, the environment and the RPC host process. */
export async function startRpc(
  turns: ScriptedTurn[] = [],
  options: StartRpcOptions = {},
): Promise<RpcFixture> {
  const server = await startFakeProvider(turns);
  const env = await createAgentEnv(server.url, { settings: options.settings, reasoning: options.reasoning });
  const client = new RpcClient({
    cliPath: options.args?.includes("--ui-harness") ? RPC_HOST : PI_MAIN,
    cwd: env.cwd,
    env: childEnv(env),
    provider: FAKE_PROVIDERS[options.api ?? "anthropic-messages"],
    model: FAKE_MODEL_ID,
    args: options.args,
  });
  await client.start();
  const events: RpcEvent[] = [];
  client.onEvent((e) => void events.push(e));
  return {
    server,
    env,
    client,
    events,
    async close() {
      await client.stop();
      await server.close();
      await env.cleanup();
    },
  };
}

/** A scripted text answer. */
export function textTurn(text: string, extra: Partial<ScriptedTurn> = {}): ScriptedTurn {
  return { content: [{ type: "text", text }], usage: { input: 100, output: 20 }, ...extra };
}

/** Reads global settings.json of the environment. */
export async function readSettings(env: AgentEnv): Promise<Record<string, unknown>> {
  return JSON.parse(await Deno.readTextFile(join(env.agentDir, "settings.json")));
}

/** Events of the given types, in order. */
export function ofType(events: RpcEvent[], ...types: string[]): Record<string, unknown>[] {
  return events.filter((e) => types.includes(e.type)) as Record<string, unknown>[];
}
