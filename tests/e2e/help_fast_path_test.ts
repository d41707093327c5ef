/**
 * `pi --help` has a fast path (src/cli/help_fast_path.ts) that prints the static text without
 * building the runtime when nothing could add extension flags or start-up diagnostics. These tests
 * pin its output (stdout, stderr, exit code) equal to the full path's in setups with and without
 * extensions, broken files and missing credentials. `pi --help --help` always takes the full path
 * (the fast path only answers a lone `--help`/`-h`); the full path leaves models-store.json in
 * the agent folder and the fast path writes nothing, which shows which path ran.
 *
 * @module
 */
import { join } from "node:path";
import { assert, assertEquals } from "../support/assert.ts";
import { createAgentEnv } from "../support/agent_env.ts";
import { spawnPi } from "../support/spawn_pi.ts";
import { fixture } from "./extensions_harness.ts";

/** A fresh isolated environment; the server URL is never contacted by `--help`. */
async function env(setup?: (dirs: { agentDir: string; cwd: string; home: string }) => Promise<void>) {
  const e = await createAgentEnv("http://127.0.0.1:9");
  await setup?.(e);
  return e;
}

interface Outcome {
  code: number;
  stdout: string;
  stderr: string;
}

function exists(path: string): boolean {
  try {
    Deno.statSync(path);
    return true;
  } catch {
    return false;
  }
}

/** Runs `--help` (fast path candidate) and `--help --help` (full path); returns both and which ran. */
async function bothPaths(
  e: Awaited<ReturnType<typeof env>>,
  extraEnv: Record<string, string> = {},
  flag = "--help",
): Promise<{ fast: Outcome; full: Outcome; tookFastPath: boolean }> {
  const childEnv = { ...e.env, NO_COLOR: "1", ...extraEnv };
  const store = join(e.agentDir, "models-store.json");
  await Deno.remove(store).catch(() => {});
  const a = await spawnPi([flag], { env: childEnv, cwd: e.cwd });
  const tookFastPath = !exists(store);
  const b = await spawnPi(["--help", "--help"], { env: childEnv, cwd: e.cwd });
  const pick = (r: typeof a): Outcome => ({ code: r.code, stdout: r.stdout, stderr: r.stderr });
  return { fast: pick(a), full: pick(b), tookFastPath };
}

Deno.test("CLI-10 --help fast path: models.json with keys (the benchmark's setup) prints exactly the full path's text", async () => {
  const e = await env();
  try {
    const { fast, full, tookFastPath } = await bothPaths(e);
    assert(tookFastPath, "the fast path should have answered");
    assertEquals(fast, full);
    assertEquals(fast.code, 0);
    assertEquals(fast.stderr, "");
    assert(fast.stdout.startsWith("pi - AI coding assistant"), fast.stdout.slice(0, 80));
    assert(!fast.stdout.includes("Extension CLI Flags:"));
  } finally {
    await e.cleanup();
  }
});

Deno.test("CLI-10 --help fast path: -h, a key in the environment and inert settings give the full path's text", async () => {
  const e = await env(async ({ agentDir }) => {
    await Deno.remove(join(agentDir, "models.json"));
    await Deno.writeTextFile(
      join(agentDir, "settings.json"),
      JSON.stringify({
        defaultProvider: "anthropic",
        defaultModel: "nope",
        theme: "dark",
        quietStartup: true,
      }),
    );
    await Deno.writeTextFile(join(agentDir, "AGENTS.md"), "Be brief.\n");
  });
  try {
    const { fast, full, tookFastPath } = await bothPaths(e, { ANTHROPIC_API_KEY: "sk-test" }, "-h");
    assert(tookFastPath, "the fast path should have answered");
    assertEquals(fast, full);
    assertEquals(fast.stderr, "");
  } finally {
    await e.cleanup();
  }
});

Deno.test("CLI-10 --help fast path: a stored key in auth.json (no models.json) gives the full path's text", async () => {
  const e = await env(async ({ agentDir }) => {
    await Deno.remove(join(agentDir, "models.json"));
    await Deno.writeTextFile(
      join(agentDir, "auth.json"),
      JSON.stringify({ anthropic: { type: "api_key", key: "k" } }),
    );
  });
  try {
    const { fast, full, tookFastPath } = await bothPaths(e);
    assert(tookFastPath, "the fast path should have answered");
    assertEquals(fast, full);
    assertEquals(fast.stderr, "");
  } finally {
    await e.cleanup();
  }
});

Deno.test("CLI-10 --help fast path: colour on a FORCE_COLOR run is the full path's", async () => {
  const e = await env();
  try {
    const { fast, full, tookFastPath } = await bothPaths(e, { FORCE_COLOR: "1", NO_COLOR: "" });
    assert(tookFastPath);
    assertEquals(fast, full);
  } finally {
    await e.cleanup();
  }
});

/** Setups the fast path must hand to the full path; each changes stdout or stderr there. */
const FULL_PATH_CASES: {
  name: string;
  setup: (dirs: { agentDir: string; cwd: string; home: string }) => Promise<void>;
  extraEnv?: Record<string, string>;
  expect: (out: Outcome) => void;
}[] = [
  {
    name: "no credentials at all (the No models available warning)",
    setup: ({ agentDir }) => Deno.remove(join(agentDir, "models.json")),
    expect: (out) => assert(out.stderr.includes("No models available"), out.stderr),
  },
  {
    name: "an extension folder whose extension registers flags",
    setup: async ({ agentDir }) => {
      await Deno.mkdir(join(agentDir, "extensions"));
      await Deno.copyFile(fixture("ours/flags.ts"), join(agentDir, "extensions", "flags.ts"));
    },
    expect: (out) => assert(out.stdout.includes("Extension CLI Flags:\n  --shout"), out.stdout),
  },
  {
    name: "settings.json listing an extension",
    setup: ({ agentDir }) =>
      Deno.writeTextFile(
        join(agentDir, "settings.json"),
        JSON.stringify({ extensions: [fixture("ours/flags.ts")] }),
      ),
    expect: (out) => assert(out.stdout.includes("--persona <value>"), out.stdout),
  },
  {
    name: "a trusted project's extension folder",
    setup: async ({ cwd, agentDir }) => {
      await Deno.mkdir(join(cwd, ".pi", "extensions"), { recursive: true });
      await Deno.copyFile(fixture("ours/flags.ts"), join(cwd, ".pi", "extensions", "flags.ts"));
      await Deno.writeTextFile(join(agentDir, "trust.json"), JSON.stringify({ [cwd]: true }));
    },
    expect: (out) => assert(out.stdout.includes("--shout"), out.stdout),
  },
  {
    name: "a broken settings.json",
    setup: ({ agentDir }) => Deno.writeTextFile(join(agentDir, "settings.json"), "{ nope"),
    expect: (out) => assert(out.stderr.includes("settings"), out.stderr),
  },
  {
    name: "a broken auth.json",
    setup: ({ agentDir }) => Deno.writeTextFile(join(agentDir, "auth.json"), '{"anthropic": {"type": "x"}}'),
    expect: (out) => assert(out.stderr.includes("auth.json"), out.stderr),
  },
  {
    name: "a broken models.json",
    setup: ({ agentDir }) =>
      Deno.writeTextFile(join(agentDir, "models.json"), '{"providers": {"p": {"models": 3}}}'),
    expect: (out) => assert(out.stderr.includes("models.json"), out.stderr),
  },
  {
    name: "a broken trust.json",
    setup: ({ agentDir }) => Deno.writeTextFile(join(agentDir, "trust.json"), "[1]"),
    expect: (out) => assertEquals([out.code, out.stdout], [1, ""], out.stderr),
  },
];

for (const c of FULL_PATH_CASES) {
  Deno.test(`CLI-10 --help fast path declines on ${c.name}; the output is the full path's`, async () => {
    const e = await env(c.setup);
    try {
      const { fast, full, tookFastPath } = await bothPaths(e, c.extraEnv);
      assertEquals(fast, full);
      // A run the full path stops early (broken trust.json) writes no store either; its exit code tells.
      if (fast.code === 0) assertEquals(tookFastPath, false, "the fast path must not answer here");
      c.expect(fast);
    } finally {
      await e.cleanup();
    }
  });
}
