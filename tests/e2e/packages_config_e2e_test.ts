/**
 * PKG-10 `pi config [-l] [--approve|--no-approve]`: its help, usage errors and project-trust
 * check match pi 1.6.0 (stdout, stderr, exit code, files left behind); without a terminal the
 * selector is drawn once and the command exits 0, changing nothing, as in 1.6.0 (the selector
 * itself: config_selector_e2e_test.ts).
 */
import { join } from "node:path";
import { assert, assertEquals } from "../support/assert.ts";
import { requireReferenceCli, spawnPi } from "../support/spawn_pi.ts";

interface Box {
  root: string;
  agentDir: string;
  cwd: string;
  env: Record<string, string>;
}

const PROJECT_SETTINGS = '{\n  "skills": ["-skills/x"]\n}\n';
const GLOBAL_SETTINGS = '{\n  "prompts": ["!draft.md"]\n}\n';

/** A HOME, an agent dir with settings, and a project whose `.pi/settings.json` needs trust. */
async function makeBox(base: string, name: string): Promise<Box> {
  const root = join(base, name);
  const home = join(root, "home");
  const agentDir = join(root, "agent");
  const cwd = join(root, "project");
  for (const dir of [home, agentDir, join(cwd, ".pi")]) await Deno.mkdir(dir, { recursive: true });
  await Deno.writeTextFile(join(agentDir, "settings.json"), GLOBAL_SETTINGS);
  await Deno.writeTextFile(join(cwd, ".pi", "settings.json"), PROJECT_SETTINGS);
  const env = {
    PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
    HOME: home,
    PI_CODING_AGENT_DIR: agentDir,
    PI_SKIP_VERSION_CHECK: "1",
    PI_OFFLINE: "1",
    NO_COLOR: "1",
  };
  return { root, agentDir, cwd, env };
}

/** Every file under `dir` with its text, paths relative to `dir`. */
async function files(dir: string, prefix = ""): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for await (const entry of Deno.readDir(join(dir, prefix))) {
    const rel = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory) Object.assign(out, await files(dir, rel));
    else out[rel] = await Deno.readTextFile(join(dir, rel));
  }
  return out;
}

const CASES: string[][] = [
  ["config", "--help"],
  ["config", "-h", "extra", "--bogus"],
  ["config", "-l", "--help"],
  ["config", "--bogus"],
  ["config", "-l", "-x"],
  ["config", "extra"],
  ["config", "-a", "extra"],
  ["config", "-l"],
  ["config", "-l", "-na"],
  ["config", "--local", "--no-approve"],
];

Deno.test("PKG-10 pi config help, option errors and the untrusted-project stop match pi 1.6.0 (output, exit code, files)", async () => {
  requireReferenceCli();
  const base = await Deno.realPath(await Deno.makeTempDir({ prefix: "pi-config-" }));
  try {
    const ours = await makeBox(base, "ours");
    const ref = await makeBox(base, "ref");
    for (const args of CASES) {
      const [a, b] = await Promise.all([
        spawnPi(args, { env: ours.env, cwd: ours.cwd }),
        spawnPi(args, { env: ref.env, cwd: ref.cwd, reference: true }),
      ]);
      const label = `pi ${args.join(" ")}`;
      assertEquals(
        { code: a.code, stdout: a.stdout, stderr: a.stderr },
        { code: b.code, stdout: b.stdout, stderr: b.stderr },
        label,
      );
      assertEquals(await files(ours.root), await files(ref.root), `files after ${label}`);
    }
    // The comparison saw real texts, not two empty runs.
    const help = await spawnPi(["config", "--help"], { env: ours.env, cwd: ours.cwd });
    assertEquals(help.stdout.split("\n").slice(0, 2), [
      "Usage:",
      "  pi config [-l] [--approve|--no-approve]",
    ]);
    const untrusted = await spawnPi(["config", "-l"], { env: ours.env, cwd: ours.cwd });
    assertEquals(untrusted.code, 1);
    assertEquals(
      untrusted.stderr,
      "Project is not trusted. Use --approve to modify local resource config.\n",
    );
  } finally {
    await Deno.remove(base, { recursive: true });
  }
});

Deno.test("PKG-10 pi config without a terminal draws the selector once and exits 0, files untouched, as pi 1.6.0", async () => {
  requireReferenceCli();
  const base = await Deno.realPath(await Deno.makeTempDir({ prefix: "pi-config-" }));
  try {
    const ours = await makeBox(base, "ours");
    const ref = await makeBox(base, "ref");
    // `sameStderr: false` where 1.6.0 prints stack traces after its warnings (ours names the file instead).
    const both = async (args: string[], heading: string, sameStderr = true) => {
      const [a, b] = [
        await spawnPi(args, { env: ours.env, cwd: ours.cwd }),
        await spawnPi(args, { env: ref.env, cwd: ref.cwd, reference: true }),
      ];
      const label = `pi ${args.join(" ")}`;
      assertEquals(a.code, b.code, label);
      if (sameStderr) assertEquals(a.stderr, b.stderr, label);
      assertEquals(a.code, 0, label);
      assert(a.stdout.includes(heading) && b.stdout.includes(heading), `${label}: ${heading}`);
      assertEquals(await files(ours.root), await files(ref.root), `files after ${label}`);
      return a;
    };
    await both(["config"], "Global Resources");
    await both(["config", "-l", "-a"], "Project Local Resources");
    await both(["config", "--approve"], "Global Resources");
    // A broken settings file is named in a warning, and kept as it was.
    const broken = '{"skills": [';
    for (const box of [ours, ref]) await Deno.writeTextFile(join(box.agentDir, "settings.json"), broken);
    const run = await both(["config"], "Global Resources", false);
    const first = run.stderr.split("\n")[0];
    assert(first.startsWith("Warning (config command, global settings): "), run.stderr);
    assertEquals(await Deno.readTextFile(join(ours.agentDir, "settings.json")), broken);
  } finally {
    await Deno.remove(base, { recursive: true });
  }
});
