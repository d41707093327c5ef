/**
 * The installed `pi` command under a sandbox profile (issue 15, a profile within 1.2× of `full`):
 * `deno run -A scripts/install.ts --root <tmp>` writes the launcher, and the tests run it by name
 * against the fake provider. The first confined start runs pi twice (the unconfined pi re-runs
 * itself under the profile's flags and records them); a later start with the same inputs is one
 * Deno process started with those flags. Seen from outside: the deno the launcher became has a
 * deno child, or none (read from /proc while the fake model is still answering).
 *
 * A tampered plan never widens what the profile grants, and changed settings make a new plan.
 *
 * @module
 */
import { assert, assertEquals, assertStringIncludes } from "../support/assert.ts";
import { join } from "node:path";
import { type AgentEnv, createAgentEnv } from "../support/agent_env.ts";
import { type FakeProvider, startFakeProvider } from "../support/fake_provider/mod.ts";
import type { ScriptedBlock } from "../support/fake_provider/mod.ts";

const ROOT = new URL("../../", import.meta.url).pathname.replace(/\/$/, "");
const decoder = new TextDecoder();

/** One installed launcher for the whole file (the install fills node_modules, which takes a while). */
let installed: Promise<string> | undefined;
function installLauncher(): Promise<string> {
  installed ??= (async () => {
    const root = await Deno.makeTempDir({ prefix: "pi-launcher-" });
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["run", "--allow-all", `${ROOT}/scripts/install.ts`, "--root", root],
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).output();
    assertEquals(out.code, 0, decoder.decode(out.stderr));
    const bin = join(root, "bin");
    // `deno` by name, as the user's PATH has it.
    await Deno.symlink(Deno.execPath(), join(bin, "deno"));
    return bin;
  })();
  return installed;
}

interface LauncherRun {
  code: number;
  stdout: string;
  stderr: string;
  /**
   * Deno processes the launched one had as children while it ran (the launcher's own short-lived
   * subshells and checksum programs, before it becomes deno, do not count).
   */
  children: string[];
  /** tool_execution_end results by tool call id (`--mode json`). */
  results: Map<string, { text: string; isError: boolean }>;
}

interface Scenario {
  server: FakeProvider;
  env: AgentEnv;
  outside: string;
  /**
   * Runs `pi <args> --mode json go` through the launcher; the model calls `calls`, then answers
   * (nothing is queued for a run that `stopsEarly`).
   */
  run(args: string[], calls: ScriptedBlock[], stopsEarly?: boolean): Promise<LauncherRun>;
  plans(): Promise<string[]>;
}

async function scenario(
  settings: Record<string, unknown> | undefined,
  body: (s: Scenario) => Promise<void>,
): Promise<void> {
  const bin = await installLauncher();
  const server = await startFakeProvider();
  const env = await createAgentEnv(server.url, { settings });
  try {
    const outside = join(env.root, "outside");
    const tmp = join(env.root, "tmp");
    await Deno.mkdir(outside);
    await Deno.mkdir(tmp);
    const userEnv = { ...env.env, TMPDIR: tmp, PATH: `${bin}:${env.env.PATH}` };
    const plansDir = join(env.agentDir, "sandbox-plans");
    const s: Scenario = {
      server,
      env,
      outside,
      run: (args, calls, stopsEarly = false) => {
        // The answer trickles in over about a second, so the processes can be looked at meanwhile.
        if (!stopsEarly) {
          server.push(
            ...(calls.length ? [{ content: calls }] : []),
            { content: [{ type: "text", text: "done and done" }], chunkDelayMs: 150, deltaSize: 2 },
          );
        }
        return runLauncher([
          "--provider",
          "fake-anthropic",
          "--model",
          "test-model",
          ...args,
          "--mode",
          "json",
          "go",
        ], {
          cwd: env.cwd,
          env: userEnv,
        });
      },
      plans: async () => {
        const names: string[] = [];
        try {
          for await (const entry of Deno.readDir(plansDir)) names.push(entry.name);
        } catch (error) {
          if (!(error instanceof Deno.errors.NotFound)) throw error;
        }
        return names.sort();
      },
    };
    await body(s);
  } finally {
    await server.close();
    await env.cleanup();
  }
}

/** Runs `pi` by name and watches the children of the process it became. */
async function runLauncher(args: string[], options: { cwd: string; env: Record<string, string> }) {
  const child = new Deno.Command("pi", {
    args,
    cwd: options.cwd,
    env: options.env,
    clearEnv: true,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const children = new Set<string>();
  let done = false;
  const output = child.output().finally(() => done = true);
  while (!done) {
    for (const pid of childPids(child.pid)) {
      try {
        const comm = Deno.readTextFileSync(`/proc/${pid}/comm`).trim();
        if (comm === "deno") children.add(comm);
      } catch { /* gone already */ }
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const out = await output;
  const stdout = decoder.decode(out.stdout);
  const results = new Map<string, { text: string; isError: boolean }>();
  for (const line of stdout.split("\n")) {
    if (!line.startsWith("{")) continue;
    const record = JSON.parse(line);
    if (record.type === "tool_execution_end") {
      results.set(record.toolCallId, { text: record.result.content[0]?.text ?? "", isError: record.isError });
    }
  }
  return { code: out.code, stdout, stderr: decoder.decode(out.stderr), children: [...children], results };
}

/** The pids of `pid`'s children (all its threads'). */
function childPids(pid: number): string[] {
  const out: string[] = [];
  try {
    for (const task of Deno.readDirSync(`/proc/${pid}/task`)) {
      const text = Deno.readTextFileSync(`/proc/${pid}/task/${task.name}/children`).trim();
      if (text) out.push(...text.split(/\s+/));
    }
  } catch { /* ended */ }
  return out;
}

function writeCall(id: string, path: string): ScriptedBlock {
  return { type: "toolCall", id, name: "write", arguments: { path, content: "x\n" } };
}

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.lstat(path);
    return true;
  } catch {
    return false;
  }
}

Deno.test("sandbox launcher: the second --sandbox read-only start is one Deno process under the recorded flags (issue 15)", async () => {
  await scenario(undefined, async (s) => {
    const first = await s.run(["--sandbox", "read-only"], [writeCall("w1", "new.txt")]);
    assertEquals(first.code, 0, first.stderr);
    assertEquals(first.children, ["deno"], "the first start re-runs pi confined");
    const [plan, ...others] = await s.plans();
    assertEquals(others, []);
    const flags = (await Deno.readTextFile(join(s.env.agentDir, "sandbox-plans", plan))).split("\n");
    assertEquals(flags.slice(0, 3), ["--no-prompt", "--allow-env", "--allow-sys"]);
    assertEquals(flags.slice(-2), [`--deny-write=${s.env.agentDir}/sandbox-plans`, ""]);

    const second = await s.run(["--sandbox", "read-only"], [
      writeCall("w2", "new.txt"),
      writeCall("w3", `${s.outside}/evil.txt`),
    ]);
    assertEquals(second.code, 0, second.stderr);
    assertEquals(second.children, [], "one process: no confined child");
    assertStringIncludes(second.stdout, '"done and done"');
    // Confined all the same: the runtime refuses, the model sees it.
    assertEquals(second.results.get("w2"), {
      text: `permission denied: write ${s.env.cwd}/new.txt (sandbox profile "read-only" writes no files)`,
      isError: true,
    });
    assertEquals(second.results.get("w3")?.isError, true);
    assert(!await exists(join(s.env.cwd, "new.txt")));
    assert(!await exists(join(s.outside, "evil.txt")));
    assertEquals(await s.plans(), [plan]);
  });
});

Deno.test("sandbox launcher: a tampered plan never widens the profile; the next start drops it (issue 15)", async () => {
  await scenario(undefined, async (s) => {
    const args = ["--sandbox", "project"];
    assertEquals((await s.run(args, [])).code, 0);
    const [name] = await s.plans();
    const file = join(s.env.agentDir, "sandbox-plans", name);
    const good = await Deno.readTextFile(file);

    // Wider flags of a kind the launcher passes on: pi sees they are not its plan and stops first.
    await Deno.writeTextFile(file, good.replace(/^--allow-write=.*$/m, "--allow-write=/"));
    const evil = join(s.outside, "evil.txt");
    const widened = await s.run(args, [], true);
    assertEquals(widened.code, 1);
    assertEquals(widened.stdout, "");
    assertEquals(
      widened.stderr,
      `Error: the sandbox plan the pi launcher started this run with (${file}) is not the current one ` +
        "(settings, folders or the file changed); nothing ran. Run the command again: the launcher " +
        "drops the plan (or delete the file).\n",
    );
    assert(!await exists(evil), "nothing was written");
    assertEquals(s.server.requests.length, 1, "no request: only the first run's");

    // The next start drops it and runs the normal way: the write outside is the tool error.
    const again = await s.run(args, [writeCall("w2", evil)]);
    assertEquals(again.code, 0, again.stderr);
    assertEquals(again.children, ["deno"]);
    assertEquals(again.results.get("w2"), {
      text: `permission denied: write ${evil} outside the project (sandbox profile "project")`,
      isError: true,
    });
    assertEquals(await Deno.readTextFile(file), good, "recorded afresh");

    // Flags the launcher does not pass on at all (--allow-all): it drops the plan by itself.
    await Deno.writeTextFile(file, `--allow-all\n${good}`);
    const all = await s.run(args, [writeCall("w3", evil)]);
    assertEquals(all.code, 0, all.stderr);
    assertEquals(all.children, ["deno"]);
    assertEquals(all.results.get("w3")?.isError, true);
    assert(!await exists(evil));
    assertEquals(await Deno.readTextFile(file), good);
  });
});

Deno.test("sandbox launcher: a confined run cannot write the plans, even where it may write the agent dir (issue 15)", async () => {
  await scenario(undefined, async (s) => {
    const settings = { sandbox: { profile: "project", allowWrite: [s.env.agentDir] } };
    await Deno.writeTextFile(join(s.env.agentDir, "settings.json"), JSON.stringify(settings));
    assertEquals((await s.run([], [])).code, 0, "creates the plans folder");
    assertEquals((await s.run([], [])).code, 0, "records the plan");
    const [name] = await s.plans();
    const file = join(s.env.agentDir, "sandbox-plans", name);
    const run = await s.run([], [writeCall("w1", file), writeCall("w2", join(s.env.agentDir, "notes.txt"))]);
    assertEquals(run.children, []);
    assertEquals(run.results.get("w1")?.isError, true, run.results.get("w1")?.text);
    assertStringIncludes(run.results.get("w1")!.text, "permission denied: write");
    assertEquals(run.results.get("w2"), {
      text: `Successfully wrote to ${join(s.env.agentDir, "notes.txt")}`,
      isError: false,
    });
    assertEquals(await s.plans(), [name]);
    assert(!(await Deno.readTextFile(file)).includes("x\n"), "the plan is unchanged");
  });
});

Deno.test("sandbox launcher: changed settings make a new plan; the old one is not used (issue 15)", async () => {
  await scenario({ sandbox: "read-only" }, async (s) => {
    const write = () => [writeCall("w", "new.txt")];
    // The first start creates the plans folder, the second records, the third is one process.
    const runs = [await s.run([], write()), await s.run([], write()), await s.run([], write())];
    assertEquals(runs.map((r) => r.children), [["deno"], ["deno"], []]);
    for (const r of runs) assertEquals(r.results.get("w")?.isError, true, r.stderr);
    assert(!await exists(join(s.env.cwd, "new.txt")));
    const [readOnlyPlan] = await s.plans();

    await Deno.writeTextFile(join(s.env.agentDir, "settings.json"), JSON.stringify({ sandbox: "project" }));
    const changed = await s.run([], write());
    assertEquals(changed.children, ["deno"], "a new plan: the normal way");
    assertEquals(changed.results.get("w"), {
      text: `Successfully wrote to new.txt`,
      isError: false,
    });
    const plans = await s.plans();
    assertEquals(plans.length, 2);
    assert(plans.includes(readOnlyPlan));
    await Deno.remove(join(s.env.cwd, "new.txt"));
    const next = await s.run([], write());
    assertEquals(next.children, [], "one process under the new plan");
    assertEquals(next.results.get("w")?.isError, false);

    // Without the setting, pi runs as `full` (no plan is recorded for these inputs).
    await Deno.writeTextFile(join(s.env.agentDir, "settings.json"), "{}");
    await Deno.remove(join(s.env.cwd, "new.txt"));
    const full = await s.run([], [
      ...write(),
      {
        type: "toolCall",
        id: "env",
        name: "bash",
        arguments: {
          command: 'echo "[${PI_SANDBOX_LAUNCHER-}${PI_SANDBOX_PLAN_FILE-}${PI_SANDBOX_FLAGS-}]"',
        },
      },
    ]);
    assertEquals(full.results.get("w")?.isError, false);
    // The launcher's variables stop at pi: nothing pi starts sees them.
    assertEquals(full.results.get("env"), { text: "[]\n", isError: false });
  });
});
