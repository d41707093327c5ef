/**
 * Runs `pi` with extensions — ours or the reference 1.6.0 — against a fresh fake provider and an
 * isolated agent dir, and returns what a user or client observes in a comparable form: the JSON
 * records (normalised: temp paths, ids, timestamps, durations), stderr lines, session lines, the
 * requests the model received, and for RPC the records a client saw. Extensions come from
 * tests/fixtures/extensions/ (1.6.0's examples and a few of our own).
 *
 * @module
 */
import { join } from "node:path";
import { type AgentEnv, createAgentEnv, denoDir, machineEnv } from "../support/agent_env.ts";
import { type ScriptedTurn, startFakeProvider } from "../support/fake_provider/mod.ts";
import { MAIN_TS, requireReferenceCli, spawnPi } from "../support/spawn_pi.ts";
import { requireReference } from "../../scripts/reference/locate.ts";
import { comparableJsonLine, makeNormalizer, packageDirs } from "./scenario.ts";

/** Timings a run's speed decides (the bash tool's `wall_time_seconds`), zeroed. */
function scrubTimes(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(scrubTimes);
  if (value && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [k, k === "wall_time_seconds" ? 0 : scrubTimes(v)]),
    );
  }
  return value;
}

/** A fixture extension's absolute path. */
export function fixture(name: string): string {
  return new URL(`../fixtures/extensions/${name}`, import.meta.url).pathname;
}

/** The model flags every case uses. */
export const MODEL = ["--provider", "fake-openai", "--model", "test-model"];

/** What one run showed. */
export interface ExtensionRun {
  code: number;
  /** Normalised, comparable JSON-mode records (empty in other modes). */
  json: unknown[];
  stdout: string;
  /** Normalised stderr, one entry per non-empty line. */
  stderr: string[];
  /** Normalised session file lines (the header dropped). */
  session: unknown[];
  /** The user/tool texts of each request the model received. */
  requests: string[][];
  /** Each request's path and the model its body names (`/v1/messages test-model`). */
  wire: string[];
  /** The system prompt of each request (system/developer messages, joined). */
  systemPrompts: string[];
  /** Files the case asked for, read after the run (undefined when missing). */
  files: Record<string, string | undefined>;
  /** What the case's `inspect` returned. */
  inspected?: string;
}

/** One case. */
export interface ExtensionCase {
  args: string[];
  turns: ScriptedTurn[];
  /** Files to create in the project folder first (path → text). */
  projectFiles?: Record<string, string>;
  /** Files to create in the agent dir first (path → text). */
  agentFiles?: Record<string, string>;
  /** Project- or agent-dir-relative files to read afterwards (`agent:` prefix for the agent dir). */
  readFiles?: string[];
  env?: Record<string, string>;
  settings?: Record<string, unknown>;
  /** Runs in the project folder before pi starts. */
  setup?: (cwd: string) => Promise<unknown>;
  /** Runs in the project folder after pi ended; its result is the run's `inspected`. */
  inspect?: (cwd: string) => Promise<string>;
  stdin?: string;
  timeoutMs?: number;
}

/** The texts of the user, custom and tool-result messages of a request, in order. */
export function requestTexts(body: unknown): string[] {
  const messages = (body as { messages?: { role: string; content: unknown }[] }).messages ?? [];
  return messages.filter((m) => m.role !== "system" && m.role !== "assistant").map((m) =>
    `${m.role}: ${
      typeof m.content === "string"
        ? m.content
        : (m.content as { type: string; text?: string }[]).map((c) => c.text ?? `[${c.type}]`).join("|")
    }`
  );
}

/** The system prompt an OpenAI chat-completions request carries. */
function systemText(body: unknown): string {
  const messages = (body as { messages?: { role: string; content: unknown }[] }).messages ?? [];
  return messages.filter((m) => m.role === "system" || m.role === "developer").map((m) =>
    typeof m.content === "string" ? m.content : JSON.stringify(m.content)
  ).join("\n");
}

/** Runs a case with our CLI, or with the reference when `reference` is set. */
export async function runExtensionCase(c: ExtensionCase, reference = false): Promise<ExtensionRun> {
  const server = await startFakeProvider(structuredClone(c.turns));
  const env = await createAgentEnv(server.url, { settings: c.settings });
  env.env.PI_OFFLINE = "1";
  try {
    for (const [dir, files] of [[env.cwd, c.projectFiles], [env.agentDir, c.agentFiles]] as const) {
      for (const [path, text] of Object.entries(files ?? {})) {
        await Deno.mkdir(join(dir, path, ".."), { recursive: true });
        await Deno.writeTextFile(join(dir, path), text);
      }
    }
    await c.setup?.(env.cwd);
    const result = await spawnPi(c.args, {
      env: { ...env.env, ...c.env },
      cwd: env.cwd,
      reference,
      stdin: c.stdin,
      timeoutMs: c.timeoutMs,
    });
    const inspected = await c.inspect?.(env.cwd);
    const normalizeIds = makeNormalizer(env.root, packageDirs());
    const normalize = (value: unknown) => scrubTimes(normalizeIds(value));
    const sessionFiles = await env.sessionFiles();
    const session = sessionFiles.length === 1
      ? (await Deno.readTextFile(sessionFiles[0])).split("\n").filter((l) => l).slice(1)
        .map((l) => normalize(JSON.parse(l)))
      : [];
    const json = c.args.includes("json")
      ? result.stdout.split("\n").filter((l) => l).map((l) => comparableJsonLine(normalize(JSON.parse(l))))
      : [];
    const files: Record<string, string | undefined> = {};
    for (const name of c.readFiles ?? []) {
      const path = name.startsWith("agent:") ? join(env.agentDir, name.slice(6)) : join(env.cwd, name);
      try {
        files[name] = normalize(await Deno.readTextFile(path)) as string;
      } catch {
        files[name] = undefined;
      }
    }
    return {
      code: result.code,
      json,
      stdout: normalize(result.stdout) as string,
      stderr: (normalize(result.stderr) as string).split("\n").filter((l) => l.trim()),
      session,
      requests: server.requests.map((r) => requestTexts(r.body).map((t) => normalize(t) as string)),
      wire: server.requests.map((r) => `${r.path} ${(r.body as { model?: string } | undefined)?.model}`),
      systemPrompts: server.requests.map((r) => normalize(systemText(r.body)) as string),
      files,
      inspected,
    };
  } finally {
    await server.close();
    await env.cleanup();
  }
}

/** A `pi --mode rpc` process driven line by line. */
export interface RpcSession {
  send(record: unknown): Promise<void>;
  /**
   * Waits (up to 60 s: a first start on a loaded machine, with a fresh module cache, took over 20 s) for a
   * record matching `match`, returning it; earlier records stay readable via `records`.
   */
  waitFor(
    match: (record: Record<string, unknown>) => boolean,
    what: string,
  ): Promise<Record<string, unknown>>;
  /** Every record so far. */
  records: Record<string, unknown>[];
  /** The exit status, once the process ends (also without `close`). */
  exited: Promise<Deno.CommandStatus>;
  /** Closes stdin and waits for the exit; stderr lines. */
  close(): Promise<{ code: number; stderr: string }>;
  root: string;
  agentDir: string;
  cwd: string;
  requests(): string[][];
}

/**
 * Starts `pi --mode rpc args…` (ours, or the reference) against a fake provider with `turns`;
 * `prepare` sets up the environment first (e.g. `pi install` of a package).
 */
export async function startRpc(
  args: string[],
  turns: ScriptedTurn[],
  reference = false,
  prepare?: (env: AgentEnv) => Promise<void>,
): Promise<RpcSession> {
  const server = await startFakeProvider(structuredClone(turns));
  const env = await createAgentEnv(server.url);
  await prepare?.(env);
  const childEnv: Record<string, string> = { ...machineEnv(), ...env.env, PI_OFFLINE: "1" };
  const [cmd, ...prefix] = reference
    ? [requireReference().node, requireReferenceCli()]
    : [Deno.execPath(), "run", "--allow-all", "--no-prompt", MAIN_TS];
  if (!reference) childEnv.DENO_DIR = denoDir();
  const child = new Deno.Command(cmd, {
    args: [...prefix, "--mode", "rpc", ...args],
    cwd: env.cwd,
    env: childEnv,
    clearEnv: true,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const writer = child.stdin.getWriter();
  const records: Record<string, unknown>[] = [];
  let wake = () => {};
  const stderrText = new Response(child.stderr).text();
  const reading = (async () => {
    let buffer = "";
    for await (const chunk of child.stdout.pipeThrough(new TextDecoderStream())) {
      buffer += chunk;
      let nl;
      while ((nl = buffer.indexOf("\n")) !== -1) {
        const line = buffer.slice(0, nl);
        buffer = buffer.slice(nl + 1);
        if (line.trim()) records.push(JSON.parse(line));
        wake();
      }
    }
  })();
  const killer = setTimeout(() => child.kill("SIGKILL"), 120_000);
  return {
    records,
    exited: child.status,
    root: env.root,
    agentDir: env.agentDir,
    cwd: env.cwd,
    requests: () => server.requests.map((r) => requestTexts(r.body)),
    async send(record) {
      await writer.write(new TextEncoder().encode(JSON.stringify(record) + "\n"));
    },
    async waitFor(match, what) {
      const deadline = Date.now() + 60_000;
      let seen = 0;
      while (Date.now() < deadline) {
        for (; seen < records.length; seen++) if (match(records[seen])) return records[seen];
        await new Promise<void>((resolve) => {
          wake = resolve;
          setTimeout(resolve, 200);
        });
      }
      throw new Error(
        `timed out waiting for ${what} from ${reference ? "pi 1.6.0" : "ours"}; records:\n${
          records.map((r) => JSON.stringify(r)).join("\n")
        }`,
      );
    },
    async close() {
      await writer.close().catch(() => {});
      const status = await child.status;
      clearTimeout(killer);
      await reading;
      const stderr = await stderrText;
      await server.close();
      await env.cleanup();
      return { code: status.code, stderr };
    },
  };
}

/** RPC records without what differs run to run (ids, timestamps), for comparing with 1.6.0. */
export function comparableRpc(records: readonly Record<string, unknown>[], root: string): unknown[] {
  const normalize = makeNormalizer(root, packageDirs());
  return records.map((r) => {
    const n = comparableJsonLine(normalize(r)) as Record<string, unknown>;
    if (n.type === "extension_ui_request") return { ...n, id: "$UI" };
    return n;
  });
}
