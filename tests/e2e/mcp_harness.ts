/**
 * Runs `pi -p` (ours or pi 1.6.0) with an `mcp.json` against the fake provider and returns what a
 * user and the provider see, normalised so both runs compare: the requests (tool list, system
 * prompt), the session file, stdout/stderr, `mcp.log`.
 *
 * @module
 */
import { createAgentEnv, FAKE_MODEL_ID } from "../support/agent_env.ts";
import { type ScriptedTurn, startFakeProvider } from "../support/fake_provider/mod.ts";
import { type PiResult, spawnPi } from "../support/spawn_pi.ts";
import { makeNormalizer, packageDirs } from "./scenario.ts";

/** The fixture MCP server's script. */
export const TEST_SERVER = new URL("../fixtures/mcp/test_server.ts", import.meta.url).pathname;

/** An `mcpServers` entry that runs the fixture server over stdio under this Deno. */
export function stdioServer(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    command: Deno.execPath(),
    args: ["run", "-A", "--no-config", "--quiet", TEST_SERVER],
    ...extra,
  };
}

/** Starts the fixture server over HTTP; resolves with its URL and a stop function. */
export async function startHttpServer(
  env: Record<string, string> = {},
): Promise<{ url: string; stop(): Promise<void> }> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--no-config", "--quiet", TEST_SERVER, "--http"],
    env: { ...env, DENO_DIR: Deno.env.get("DENO_DIR") ?? "", PATH: Deno.env.get("PATH") ?? "" },
    clearEnv: false,
    stdout: "piped",
    stderr: "inherit",
    stdin: "null",
  }).spawn();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  const deadline = Date.now() + 30_000;
  while (!/listening (\S+)\n/.test(buffer)) {
    if (Date.now() > deadline) throw new Error("the HTTP MCP fixture did not start within 30 s");
    const { value, done } = await reader.read();
    if (done) throw new Error(`the HTTP MCP fixture ended early: ${buffer}`);
    buffer += value;
  }
  const url = /listening (\S+)\n/.exec(buffer)![1];
  return {
    url,
    async stop() {
      child.kill("SIGTERM");
      await reader.cancel().catch(() => {});
      await child.status;
    },
  };
}

/** What one MCP run gave. */
export interface McpRun {
  result: PiResult;
  requests: { path: string; body: Record<string, unknown> }[];
  sessionLines: Record<string, unknown>[];
  /** stdout lines parsed as JSON (JSON mode), normalised. */
  jsonLines: unknown[];
  /** `mcp.log` in the agent dir, with times replaced; undefined when not written. */
  log?: string;
  stderr: string;
}

/** Options of {@link runMcp}. */
export interface RunMcpOptions {
  /** The agent dir's `mcp.json` (an object is serialised; a string is written as is). */
  globalConfig?: Record<string, unknown> | string;
  /** The project's `.pi/mcp.json`. */
  projectConfig?: Record<string, unknown> | string;
  turns: ScriptedTurn[];
  reference?: boolean;
  args?: string[];
  prompt?: string;
  env?: Record<string, string>;
  timeoutMs?: number;
  /** Runs in the project folder before pi starts. */
  prepare?: (cwd: string) => Promise<void>;
}

/** Runs `pi -p` once with fresh provider, folders and configs. */
export async function runMcp(options: RunMcpOptions): Promise<McpRun> {
  const server = await startFakeProvider(options.turns);
  const agent = await createAgentEnv(server.url);
  agent.env.PI_OFFLINE = "1";
  Object.assign(agent.env, options.env ?? {});
  const write = async (path: string, config: Record<string, unknown> | string) =>
    await Deno.writeTextFile(path, typeof config === "string" ? config : JSON.stringify(config, null, 2));
  try {
    if (options.globalConfig !== undefined) await write(`${agent.agentDir}/mcp.json`, options.globalConfig);
    await options.prepare?.(agent.cwd);
    if (options.projectConfig !== undefined) {
      await Deno.mkdir(`${agent.cwd}/.pi`, { recursive: true });
      await write(`${agent.cwd}/.pi/mcp.json`, options.projectConfig);
    }
    const result = await spawnPi(
      [
        ...(options.args ?? []),
        "--model",
        `fake-anthropic/${FAKE_MODEL_ID}`,
        ...(options.args?.includes("--mode") ? [] : ["-p"]),
        options.prompt ?? "Use the MCP tool.",
      ],
      {
        env: agent.env,
        cwd: agent.cwd,
        reference: options.reference,
        timeoutMs: options.timeoutMs ?? 90_000,
      },
    );
    const base = makeNormalizer(agent.root, packageDirs());
    // Saved outputs (truncated MCP text) go to new temp files.
    const normalize = (value: unknown) =>
      JSON.parse(JSON.stringify(base(value)).replace(/[^"\s]*\/pi-mcp-[0-9a-f]{16}(\.\w+)/g, "$$OUTPUT$1"));
    const files = await agent.sessionFiles();
    const sessionLines = files.length === 1
      ? (await Deno.readTextFile(files[0])).split("\n").filter((l) => l).map((l) =>
        normalize(JSON.parse(l)) as Record<string, unknown>
      )
      : [];
    let log: string | undefined;
    try {
      log = (await Deno.readTextFile(`${agent.agentDir}/mcp.log`)).replace(
        /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z/gm,
        "$TIME",
      );
    } catch { /* not written */ }
    return {
      result,
      requests: server.requests.map((r) => ({
        path: r.path,
        body: normalize(r.body) as Record<string, unknown>,
      })),
      sessionLines,
      jsonLines: options.args?.includes("json")
        ? parseJsonLines(result.stdout).map((line) => normalize(line))
        : [],
      log,
      stderr: String(normalize(result.stderr)),
    };
  } finally {
    await server.close();
    await agent.cleanup();
  }
}

function parseJsonLines(stdout: string): unknown[] {
  return stdout.split("\n").filter((line) => line).map((line) => JSON.parse(line));
}
