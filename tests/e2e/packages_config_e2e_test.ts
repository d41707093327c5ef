/**
 * PKG-10 `pi config [-l] [--approve|--no-approve]`: its help, usage errors and project-trust
 * check match pi 1.6.0 (stdout, stderr, exit code, files left behind); the resource selector
 * itself (a TUI in 1.6.0) is a clear "not available yet" error that changes nothing.
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

Deno.test("PKG-10 pi config without its TUI says the selector is not available yet, exit 1, settings untouched", async () => {
  const base = await Deno.realPath(await Deno.makeTempDir({ prefix: "pi-config-" }));
  try {
    const box = await makeBox(base, "ours");
    const before = await files(box.root);
    for (const args of [["config"], ["config", "-l", "-a"], ["config", "--approve"]]) {
      const run = await spawnPi(args, { env: box.env, cwd: box.cwd });
      const label = `pi ${args.join(" ")}`;
      assertEquals(run.code, 1, label);
      assertEquals(run.stdout, "", label);
      assertEquals(
        run.stderr,
        'Error: the "pi config" resource selector is not available yet in this build (no TUI yet; ' +
          "edit the extensions/skills/prompts/themes entries of settings.json, see docs/packages.md)\n",
        label,
      );
      assertEquals(await files(box.root), before, `files after ${label}`);
    }
    // A broken settings file is named in a warning before the stop, and kept as it was.
    const broken = '{"skills": [';
    await Deno.writeTextFile(join(box.agentDir, "settings.json"), broken);
    const run = await spawnPi(["config"], { env: box.env, cwd: box.cwd });
    assertEquals(run.code, 1);
    const first = run.stderr.split("\n")[0];
    assert(first.startsWith("Warning (config command, global settings): "), run.stderr);
    assert(first.includes(join(box.agentDir, "settings.json")), run.stderr);
    assertEquals(await Deno.readTextFile(join(box.agentDir, "settings.json")), broken);
  } finally {
    await Deno.remove(base, { recursive: true });
  }
});
