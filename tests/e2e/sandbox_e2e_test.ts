/**
 * `--sandbox <profile>` end to end (issue 15): the real CLI against the fake provider, whose model
 * asks to read, write and edit inside and outside the project, to run bash, and (through bash) to
 * reach a host that is no provider. Each allowed call succeeds, each other one is a tool error
 * with a "permission denied: …" text, nothing outside the allowed places changes on disk, the
 * session file records the same results and the run ends normally (exit 0). `full` is today's pi.
 *
 * bash under `project` runs through bubblewrap: the test finds it on PATH or in .cache/tools (where
 * `bash .ci/run` unpacks Debian's package) and fails, saying so, when there is none.
 *
 * @module
 */
import { assert, assertEquals, assertStringIncludes } from "../support/assert.ts";
import { createAgentEnv } from "../support/agent_env.ts";
import { startFakeProvider } from "../support/fake_provider/mod.ts";
import type { ScriptedBlock } from "../support/fake_provider/mod.ts";
import { spawnPi } from "../support/spawn_pi.ts";

const REPO = new URL("../../", import.meta.url).pathname;

/** A folder holding `bwrap`, for the PATH of runs that may use it. */
function bwrapDir(): string {
  const path = Deno.env.get("PATH") ?? "";
  for (const dir of [...path.split(":"), `${REPO}.cache/tools/root/usr/bin`]) {
    try {
      if (dir && Deno.statSync(`${dir}/bwrap`).isFile) return dir;
    } catch { /* not here */ }
  }
  throw new Error(
    "bubblewrap (bwrap) is needed by this test: apt-get install bubblewrap, or run bash .ci/run",
  );
}

interface ToolOutcome {
  text: string;
  isError: boolean;
}

interface SandboxRun {
  code: number;
  stderr: string;
  /** tool_execution_end results by tool call id. */
  results: Map<string, ToolOutcome>;
  /** toolResult messages of the session file, by tool call id. */
  sessionResults: Map<string, ToolOutcome>;
  /** The final text answer was printed: the session went on after the tool errors. */
  finished: boolean;
  project: string;
  outside: string;
}

/** Runs one prompt whose model calls `calls(project, outside)`, then answers "done". */
async function runSandboxed(
  profileArgs: string[],
  calls: (project: string, outside: string, port: number) => ScriptedBlock[],
  options: {
    path?: string;
    settings?: Record<string, unknown>;
    extension?: string;
    onServer?: (url: string) => void;
  } = {},
): Promise<SandboxRun> {
  const stranger = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const strangerPort = (stranger.addr as Deno.NetAddr).port;
  const server = await startFakeProvider();
  options.onServer?.(server.url);
  const env = await createAgentEnv(server.url, { settings: options.settings });
  try {
    const outside = `${env.root}/outside`;
    const tmp = `${env.root}/tmp`;
    await Deno.mkdir(outside);
    await Deno.mkdir(tmp);
    await Deno.writeTextFile(`${outside}/secret.txt`, "outside secret\n");
    await Deno.writeTextFile(`${env.cwd}/readme.txt`, "hello project\n");
    await Deno.writeTextFile(`${env.cwd}/edit.txt`, "hello edit\n");
    server.push({ content: calls(env.cwd, outside, strangerPort) }, {
      content: [{ type: "text", text: "done" }],
    });
    const childEnv = { ...env.env, TMPDIR: tmp, ...(options.path ? { PATH: options.path } : {}) };
    const extensionArgs: string[] = [];
    if (options.extension) {
      await Deno.writeTextFile(`${env.cwd}/fetch_tool.ts`, options.extension);
      extensionArgs.push("-e", "./fetch_tool.ts");
    }
    const result = await spawnPi(
      [
        "--provider",
        "fake-anthropic",
        "--model",
        "test-model",
        "--mode",
        "json",
        ...extensionArgs,
        ...profileArgs,
        "go",
      ],
      { env: childEnv, cwd: env.cwd, timeoutMs: 90_000 },
    );
    assert(!result.timedOut, "pi timed out");
    const results = new Map<string, ToolOutcome>();
    let finished = false;
    for (const line of result.stdout.split("\n")) {
      if (!line.trim()) continue;
      const record = JSON.parse(line);
      if (record.type === "tool_execution_end") {
        results.set(record.toolCallId, {
          text: record.result.content[0]?.text ?? "",
          isError: record.isError,
        });
      }
      if (record.type === "agent_end") finished = true;
    }
    const sessionResults = new Map<string, ToolOutcome>();
    const files = await env.sessionFiles();
    assertEquals(files.length, 1, `one session file, got ${files.length}; stderr: ${result.stderr}`);
    for (const line of (await Deno.readTextFile(files[0])).split("\n")) {
      if (!line.trim()) continue;
      const entry = JSON.parse(line);
      if (entry.type === "message" && entry.message.role === "toolResult") {
        sessionResults.set(entry.message.toolCallId, {
          text: entry.message.content[0]?.text ?? "",
          isError: entry.message.isError,
        });
      }
    }
    // What the checks below need from disk, read before the folders go.
    const snapshot = await diskSnapshot(env.cwd, outside);
    return {
      code: result.code,
      stderr: result.stderr,
      results,
      sessionResults,
      finished,
      project: env.cwd,
      outside,
      ...snapshot,
    } as SandboxRun & DiskSnapshot;
  } finally {
    stranger.close();
    await server.close();
    await env.cleanup();
  }
}

interface DiskSnapshot {
  outsideFiles: string[];
  projectFiles: string[];
  readme: string;
  edited: string;
}

async function diskSnapshot(project: string, outside: string): Promise<DiskSnapshot> {
  const list = async (dir: string) => {
    const names: string[] = [];
    for await (const entry of Deno.readDir(dir)) names.push(entry.name);
    return names.sort();
  };
  return {
    outsideFiles: await list(outside),
    projectFiles: await list(project),
    readme: await Deno.readTextFile(`${project}/readme.txt`),
    edited: await Deno.readTextFile(`${project}/edit.txt`),
  };
}

/** The model's calls: read/write/edit inside and outside the project. */
function fileCalls(project: string, outside: string): ScriptedBlock[] {
  return [
    { type: "toolCall", id: "read_in", name: "read", arguments: { path: "readme.txt" } },
    { type: "toolCall", id: "read_out", name: "read", arguments: { path: `${outside}/secret.txt` } },
    { type: "toolCall", id: "write_in", name: "write", arguments: { path: "new.txt", content: "new\n" } },
    {
      type: "toolCall",
      id: "write_out",
      name: "write",
      arguments: { path: `${outside}/evil.txt`, content: "x" },
    },
    {
      type: "toolCall",
      id: "edit_in",
      name: "edit",
      arguments: { path: `${project}/edit.txt`, edits: [{ oldText: "hello", newText: "bye" }] },
    },
  ];
}

function assertSameInSession(run: SandboxRun): void {
  for (const [id, outcome] of run.results) {
    assertEquals(run.sessionResults.get(id), outcome, `session entry ${id}`);
  }
  assertEquals(run.code, 0, run.stderr);
  assert(run.finished, "the session went on to its final answer");
}

/** Reading inside the project works; outside it is refused, naming the file and the profile. */
function assertReads(run: SandboxRun, profile: string): void {
  assertEquals(run.results.get("read_in"), { text: "hello project\n", isError: false });
  assertEquals(run.results.get("read_out"), {
    text:
      `permission denied: read ${run.outside}/secret.txt outside the project (sandbox profile "${profile}")`,
    isError: true,
  });
}

Deno.test("sandbox read-only: reads the project, writes nothing, runs no bash (issue 15)", async () => {
  const tools = ["--tools", "read,bash,edit,write,grep,find,ls"];
  const run = await runSandboxed(["--sandbox", "read-only", ...tools], (project, outside) => [
    ...fileCalls(project, outside),
    { type: "toolCall", id: "bash", name: "bash", arguments: { command: "echo hi > bash.txt" } },
    // Searching works through pi's own permissions (the built-in walker, not rg or fd).
    { type: "toolCall", id: "grep", name: "grep", arguments: { pattern: "hello project" } },
    { type: "toolCall", id: "find", name: "find", arguments: { pattern: "*.txt" } },
    { type: "toolCall", id: "ls", name: "ls", arguments: {} },
    { type: "toolCall", id: "ls_out", name: "ls", arguments: { path: outside } },
  ]) as SandboxRun & DiskSnapshot;
  assertSameInSession(run);
  // pi's own stores are read without their write locks (no "Cannot read auth.json: Requires write access").
  assertEquals(run.stderr.includes("auth.json"), false, run.stderr);
  const r = run.results;
  assertReads(run, "read-only");
  const noWrites = '(sandbox profile "read-only" writes no files)';
  assertEquals(r.get("write_in"), {
    text: `permission denied: write ${run.project}/new.txt ${noWrites}`,
    isError: true,
  });
  assertEquals(r.get("write_out"), {
    text: `permission denied: write ${run.outside}/evil.txt ${noWrites}`,
    isError: true,
  });
  assertEquals(r.get("edit_in"), {
    text: `permission denied: write ${run.project}/edit.txt ${noWrites}`,
    isError: true,
  });
  assertEquals(r.get("bash"), {
    text:
      'permission denied: run commands (sandbox profile "read-only" runs no subprocesses; use read, grep, find and ls)',
    isError: true,
  });
  assertEquals(r.get("grep"), { text: "readme.txt:1: hello project", isError: false });
  assertEquals(r.get("find"), { text: "edit.txt\nreadme.txt", isError: false });
  assertEquals(r.get("ls"), { text: "edit.txt\nreadme.txt", isError: false });
  assertEquals(r.get("ls_out"), {
    text: `permission denied: read ${run.outside} outside the project (sandbox profile "read-only")`,
    isError: true,
  });
  assertEquals(run.outsideFiles, ["secret.txt"]);
  assertEquals(run.projectFiles, ["edit.txt", "readme.txt"]);
  assertEquals(run.edited, "hello edit\n");
});

Deno.test("sandbox project: writes the project only; bash runs in bubblewrap without network (issue 15)", async () => {
  const path = `${bwrapDir()}:${Deno.env.get("PATH") ?? "/usr/bin:/bin"}`;
  const run = await runSandboxed(["--sandbox", "project"], (project, outside, port) => [
    ...fileCalls(project, outside),
    {
      type: "toolCall",
      id: "bash",
      name: "bash",
      arguments: {
        command: `echo from-bash > bash.txt; echo x > ${outside}/bash-evil.txt; cat ${outside}/secret.txt; ` +
          `(exec 3<>/dev/tcp/127.0.0.1/${port}) 2>/dev/null && echo net-open || echo net-closed`,
      },
    },
  ], { path }) as SandboxRun & DiskSnapshot;
  assertSameInSession(run);
  const r = run.results;
  assertReads(run, "project");
  assertEquals(r.get("write_in"), { text: "Successfully wrote to new.txt", isError: false });
  assertEquals(r.get("write_out"), {
    text: `permission denied: write ${run.outside}/evil.txt outside the project (sandbox profile "project")`,
    isError: true,
  });
  assertEquals(r.get("edit_in")!.isError, false);
  const bash = r.get("bash")!;
  // The outside folder does not exist inside the sandbox: neither written nor read.
  assertStringIncludes(bash.text, "net-closed");
  assert(!bash.text.includes("outside secret"), bash.text);
  assertEquals(run.outsideFiles, ["secret.txt"]);
  assertEquals(run.projectFiles, ["bash.txt", "edit.txt", "new.txt", "readme.txt"]);
  assertEquals(run.edited, "bye edit\n");
  assertEquals(run.readme, "hello project\n");
});

Deno.test("sandbox project without bubblewrap: bash is refused, never run unconfined (issue 15)", async () => {
  const run = await runSandboxed(["--sandbox", "project"], () => [
    { type: "toolCall", id: "bash", name: "bash", arguments: { command: "echo hi > bash.txt" } },
  ], { path: "/nonexistent-bin" }) as SandboxRun & DiskSnapshot;
  assertSameInSession(run);
  const bash = run.results.get("bash")!;
  assertEquals(bash.isError, true);
  assertStringIncludes(
    bash.text,
    'permission denied: run commands (sandbox profile "project" runs commands only',
  );
  assertStringIncludes(bash.text, "bubblewrap (bwrap), which was not found on PATH");
  assertEquals(run.projectFiles, ["edit.txt", "readme.txt"]);
});

Deno.test("sandbox from settings.json, and full as today (issue 15)", async () => {
  const settings = { sandbox: "read-only" };
  const confined = await runSandboxed([], (project, outside) => fileCalls(project, outside), { settings }) as
    & SandboxRun
    & DiskSnapshot;
  assertSameInSession(confined);
  assertEquals(confined.results.get("write_in")!.isError, true);
  assertEquals(confined.projectFiles, ["edit.txt", "readme.txt"]);

  // --sandbox full beats the setting: every call works, outside the project too.
  const full = await runSandboxed(["--sandbox", "full"], (project, outside) => [
    ...fileCalls(project, outside),
    { type: "toolCall", id: "bash", name: "bash", arguments: { command: "echo hi > bash.txt && echo ran" } },
  ], { settings }) as SandboxRun & DiskSnapshot;
  assertSameInSession(full);
  for (const [id, outcome] of full.results) assertEquals(outcome.isError, false, `${id}: ${outcome.text}`);
  assertEquals(full.outsideFiles, ["evil.txt", "secret.txt"]);
  assertEquals(full.projectFiles, ["bash.txt", "edit.txt", "new.txt", "readme.txt"]);
});

Deno.test("sandbox: a bad profile is an error naming the valid ones (issue 15)", async () => {
  const server = await startFakeProvider();
  const env = await createAgentEnv(server.url, { settings: { sandbox: "tight" } });
  try {
    const flag = await spawnPi(["--sandbox", "strict", "-p", "hi"], { env: env.env, cwd: env.cwd });
    assertEquals(flag.code, 1);
    assertStringIncludes(
      flag.stderr,
      'Invalid sandbox profile "strict". Valid values: read-only, project, full',
    );
    const setting = await spawnPi(["-p", "hi"], { env: env.env, cwd: env.cwd });
    assertEquals(setting.code, 1);
    assertStringIncludes(
      setting.stderr,
      `${env.agentDir}/settings.json: "sandbox" profile must be one of read-only, project, full (got "tight")`,
    );
    assertEquals(server.requests.length, 0);
  } finally {
    await server.close();
    await env.cleanup();
  }
});

/** An extension tool `fetch_url` that fetches a URL in pi's own process. */
const FETCH_TOOL = `
export default function (pi) {
  pi.registerTool({
    name: "fetch_url",
    label: "fetch_url",
    description: "Fetch a URL",
    parameters: { type: "object", properties: { url: { type: "string" } }, required: ["url"] },
    async execute(_id, params) {
      const response = await fetch(params.url);
      await response.body?.cancel();
      return { content: [{ type: "text", text: "status " + response.status }], details: undefined };
    },
  });
}
`;

Deno.test("sandbox read-only: pi's own network reaches the provider host only (issue 15)", async () => {
  let providerUrl = "";
  const run = await runSandboxed(["--sandbox", "read-only"], (_project, _outside, port) => [
    { type: "toolCall", id: "stranger", name: "fetch_url", arguments: { url: `http://127.0.0.1:${port}/` } },
    {
      type: "toolCall",
      id: "provider",
      name: "fetch_url",
      arguments: { url: `${providerUrl}/nothing-here` },
    },
  ], {
    extension: FETCH_TOOL,
    onServer: (url) => providerUrl = url,
  }) as SandboxRun & DiskSnapshot;
  assertSameInSession(run);
  const port = new URL(providerUrl).port;
  assert(port);
  const stranger = run.results.get("stranger")!;
  assertEquals(stranger.isError, true);
  assertStringIncludes(
    stranger.text,
    "permission denied: network access to 127.0.0.1:",
  );
  assertStringIncludes(
    stranger.text,
    'not a provider host or in sandbox.allowNet (sandbox profile "read-only")',
  );
  // The fake provider answers 404 to an unknown path: the request went out.
  assertEquals(run.results.get("provider"), { text: "status 404", isError: false });
});

Deno.test("sandbox project: a folder that holds the agent dir cannot be the writable project (issue 15)", async () => {
  const server = await startFakeProvider();
  const env = await createAgentEnv(server.url);
  try {
    // The test's root folder holds agent/ (the agent dir) and project/.
    const home = await spawnPi(["--sandbox", "project", "-p", "hi"], { env: env.env, cwd: env.root });
    assertEquals(home.code, 1);
    assertStringIncludes(
      home.stderr,
      `Error: --sandbox project cannot confine pi in ${env.root}: the folder holds pi's agent dir (${env.agentDir})`,
    );
    assertEquals(server.requests.length, 0);
  } finally {
    await server.close();
    await env.cleanup();
  }
});
