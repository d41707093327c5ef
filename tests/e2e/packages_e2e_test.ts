/**
 * PKG: `pi install`, `pi remove`/`uninstall` and `pi list` with the real npm and git, against
 * local fixtures only (an npm registry on 127.0.0.1 serving `npm pack`ed packages, bare git repos
 * reached through a `url.insteadOf` rule in the test's HOME). The same command sequence runs
 * against pi 1.6.0 and ours in two identical environments; what each prints, its exit code, the
 * settings files and the install folders must be the same.
 */
import { join } from "node:path";
import { assert, assertEquals } from "../support/assert.ts";
import { requireReferenceCli, spawnPi } from "../support/spawn_pi.ts";
import {
  createFixtureGitRepo,
  type FixtureRegistry,
  gitConfigFor,
  startFixtureRegistry,
} from "./packages_fixture.ts";

interface Sandbox {
  root: string;
  home: string;
  agentDir: string;
  cwd: string;
  env: Record<string, string>;
}

async function makeSandbox(registry: FixtureRegistry, base: string, name: string): Promise<Sandbox> {
  const root = join(base, name);
  const home = join(root, "home");
  const agentDir = join(root, "agent");
  const cwd = join(root, "project");
  for (const dir of [home, agentDir, cwd, join(root, "localpkg", "prompts")]) {
    await Deno.mkdir(dir, { recursive: true });
  }
  await Deno.writeTextFile(join(root, "localpkg", "prompts", "hi.md"), "---\ndescription: hi\n---\nHi\n");
  await Deno.writeTextFile(join(home, ".gitconfig"), gitConfigFor(root));
  const repo = await createFixtureGitRepo(root, "alice", "tools");
  await repo.commit(
    { "skills/hello/SKILL.md": "---\nname: hello\ndescription: Says hello\n---\nHi\n" },
    "v1",
  );
  await repo.commit({ "prompts/p.md": "---\ndescription: p\n---\nP\n" }, "v2");
  const env = {
    PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
    HOME: home,
    PI_CODING_AGENT_DIR: agentDir,
    NPM_CONFIG_REGISTRY: registry.url,
    NPM_CONFIG_UPDATE_NOTIFIER: "false",
    PI_SKIP_VERSION_CHECK: "1",
    NO_COLOR: "1",
  };
  return { root, home, agentDir, cwd, env };
}

/** What one command showed, with temp paths and npm's timings and log names masked. */
interface Observed {
  code: number;
  stdout: string;
  /** pi's own stderr lines (npm's and git's chatter differs by timing and is not pi's). */
  stderr: string[];
}

function normalise(text: string, root: string): string {
  return text.replaceAll(root, "<root>").replace(/ in \d+(?:\.\d+)?m?s\b/g, " in <t>");
}

async function runIn(box: Sandbox, args: string[], reference: boolean): Promise<Observed> {
  const run = await spawnPi(args, { env: box.env, cwd: box.cwd, reference, timeoutMs: 120_000 });
  const piLines =
    /^(Error|Warning|No matching|Project is not|Unknown option|Unexpected argument|Missing|Usage|Use ")/;
  return {
    code: run.code,
    stdout: normalise(run.stdout, box.root),
    stderr: normalise(run.stderr, box.root).split("\n").filter((line) => piLines.test(line)),
  };
}

async function readOrNull(path: string): Promise<string | null> {
  try {
    return await Deno.readTextFile(path);
  } catch {
    return null;
  }
}

async function listing(dir: string): Promise<string[]> {
  const out: string[] = [];
  try {
    for await (const entry of Deno.readDir(dir)) out.push(entry.name);
  } catch {
    return ["<missing>"];
  }
  return out.sort();
}

/** Files and folders a user can see after a step. */
async function disk(box: Sandbox): Promise<Record<string, unknown>> {
  return {
    settings: await readOrNull(join(box.agentDir, "settings.json")),
    projectSettings: await readOrNull(join(box.cwd, ".pi", "settings.json")),
    agent: await listing(box.agentDir),
    git: await listing(join(box.agentDir, "git")),
    gitHosts: await listing(join(box.agentDir, "git", "example.test", "alice")),
    npmModules: (await listing(join(box.agentDir, "npm", "node_modules"))).filter((name) => name !== ".bin"),
    npmPackageJson: await readOrNull(join(box.agentDir, "npm", "package.json")),
    gitignore: await readOrNull(join(box.agentDir, "npm", ".gitignore")),
  };
}

const STEPS: string[][] = [
  ["list"],
  ["install", "npm:pi-fixture@1.0.0"],
  ["install", "git:example.test/alice/tools@v1"],
  ["install", "../localpkg"],
  ["list"],
  ["install", "npm:pi-fixture@1.1.0"],
  ["install", "git:example.test/alice/tools@v2"],
  ["install", "npm:does-not-exist"],
  ["install", "git:example.test/alice/other@v1"],
  ["install", "./missing-folder"],
  ["install"],
  ["install", "-x", "npm:a"],
  ["list", "extra"],
  ["list", "-l"],
  ["remove", "npm:nothing"],
  ["remove", "npm:pi-fixture"],
  ["uninstall", "git:example.test/alice/tools"],
  ["list"],
  ["remove", "../localpkg"],
  ["install", "-l", "../localpkg"],
  ["list"],
  ["install", "-l", "npm:pi-fixture@1.0.0", "-na"],
  ["remove", "-l", "../localpkg", "-a"],
];

Deno.test("PKG-01 install, remove and list of npm, git and local packages match pi 1.6.0 (output, exit codes, settings, folders)", async () => {
  requireReferenceCli();
  const base = await Deno.realPath(await Deno.makeTempDir({ prefix: "pi-pkg-" }));
  const registry = startFixtureRegistry(base);
  try {
    await registry.publish("pi-fixture", "1.0.0", {
      "skills/hi/SKILL.md": "---\nname: hi\ndescription: hi\n---\nx\n",
    });
    await registry.publish("pi-fixture", "1.1.0", {
      "skills/hi/SKILL.md": "---\nname: hi\ndescription: hi 2\n---\nx\n",
    });
    const ours = await makeSandbox(registry, base, "ours");
    const ref = await makeSandbox(registry, base, "ref");
    for (const step of STEPS) {
      const [a, b] = [await runIn(ours, step, false), await runIn(ref, step, true)];
      assertEquals(a, b, `pi ${step.join(" ")}`);
      const [da, db] = [await disk(ours), await disk(ref)];
      assertEquals(da, db, `files after pi ${step.join(" ")}`);
    }
    // The sequence really did something: the last state has the local package gone from the project.
    assertEquals(await readOrNull(join(ours.cwd, ".pi", "settings.json")), '{\n  "packages": []\n}');
  } finally {
    await registry.close();
    await Deno.remove(base, { recursive: true });
  }
});

Deno.test("PKG-02 a broken settings.json stops install and remove with an error naming the file; nothing is installed or lost", async () => {
  const base = await Deno.realPath(await Deno.makeTempDir({ prefix: "pi-pkg-" }));
  const registry = startFixtureRegistry(base);
  try {
    await registry.publish("pi-fixture", "1.0.0", { "prompts/a.md": "A\n" });
    const box = await makeSandbox(registry, base, "ours");
    const broken = '{"packages": ["npm:kept"],';
    const settingsPath = join(box.agentDir, "settings.json");
    await Deno.writeTextFile(settingsPath, broken);
    for (const args of [["install", "npm:pi-fixture@1.0.0"], ["remove", "npm:kept"]]) {
      const run = await spawnPi(args, { env: box.env, cwd: box.cwd });
      assertEquals(run.code, 1, args.join(" "));
      assertEquals(run.stdout, "");
      const lines = run.stderr.trimEnd().split("\n");
      assert(lines[0].startsWith("Warning (package command, global settings): "), run.stderr);
      assertEquals(
        lines[1].startsWith(`Error: ${settingsPath} could not be read (`) &&
          lines[1].endsWith("); fix it first, nothing was changed"),
        true,
        run.stderr,
      );
      assertEquals(await Deno.readTextFile(settingsPath), broken);
      assertEquals(await listing(join(box.agentDir, "npm")), ["<missing>"]);
    }
    // list still works and says what it could not read.
    const list = await spawnPi(["list"], { env: box.env, cwd: box.cwd });
    assertEquals(list.code, 0);
    assertEquals(list.stdout, "No packages installed.\n");
  } finally {
    await registry.close();
    await Deno.remove(base, { recursive: true });
  }
});
