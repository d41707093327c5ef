/**
 * PKG `pi config` (pi 1.6.0 docs/packages.md "Enable and disable resources"): the resource selector
 * in tmux beside pi 1.6.0 at the same size. The same keys toggle an auto-discovered skill, a prompt
 * found by typing, a local package's prompt, the built-in `mcp` extension, then switch to project
 * mode (Tab) and cycle an inherited prompt; Escape closes. Screens (normalised) and the two
 * settings.json files afterwards must be equal (the four built-in extensions, `llama.cpp` included).
 * The list also holds a theme of the agent dir and a prompt folder named in settings.
 * Also: Escape right away writes nothing, and without a terminal the selector is drawn once and
 * `pi config` exits 0 with the settings untouched, as 1.6.0 does.
 */
import { join } from "node:path";
import { assertEquals, assertStringIncludes } from "../support/assert.ts";
import { type InteractiveScenario, startInteractiveScenario } from "../support/interactive_scenario.ts";
import { assertSameScreens, collectScreens, type ScriptStep } from "../support/interactive_script.ts";
import { spawnPi } from "../support/spawn_pi.ts";
import { requireReference } from "../../scripts/reference/locate.ts";

const TIMEOUTS = { start: 90_000, step: 30_000 };
const SIZE = { width: 100, height: 40 };

/** Resources in the agent dir, a local package, and an empty trusted project. */
async function seed(s: InteractiveScenario): Promise<void> {
  const { agentDir, root } = s.agent;
  const files: Record<string, string> = {
    [join(agentDir, "extensions", "hello.ts")]: "export default function () {}\n",
    [join(agentDir, "skills", "my-skill", "SKILL.md")]:
      "---\nname: my-skill\ndescription: A skill.\n---\nBody\n",
    [join(agentDir, "prompts", "fix.md")]: "Fix it\n",
    [join(agentDir, "prompts", "review.md")]: "Review it\n",
    [join(root, "toolkit", "package.json")]: JSON.stringify({ name: "toolkit", version: "1.0.0" }),
    [join(root, "toolkit", "prompts", "pkg-prompt.md")]: "From the package\n",
    [join(agentDir, "themes", "ocean.json")]: JSON.stringify({ name: "ocean", colors: {} }),
    [join(root, "extra", "listed.md")]: "Listed in settings\n",
  };
  for (const [path, text] of Object.entries(files)) {
    await Deno.mkdir(join(path, ".."), { recursive: true });
    await Deno.writeTextFile(path, text);
  }
  const settingsPath = join(agentDir, "settings.json");
  const settings = JSON.parse(await Deno.readTextFile(settingsPath));
  settings.packages = [join(root, "toolkit")];
  settings.prompts = [join(root, "extra")];
  await Deno.writeTextFile(settingsPath, JSON.stringify(settings, null, 2));
}

const open = (t: string) => t.includes("Global Resources") && t.includes("my-skill");

const STEPS: ScriptStep[] = [
  { name: "opened", act: (s) => s.pane.command(`clear; ${s.piCommand(["config"])}`), ready: open },
  { name: "down", act: (s) => s.pane.keys("Down", "Down"), ready: (t) => t.includes(">     [x] my-skill") },
  { name: "skill off", act: (s) => s.pane.keys("Space"), ready: (t) => t.includes("[ ] my-skill") },
  { name: "filter", act: (s) => s.pane.type("review"), ready: (t) => !t.includes("my-skill") },
  { name: "prompt off", act: (s) => s.pane.keys("Enter"), ready: (t) => t.includes("[ ] review.md") },
  {
    name: "package prompt",
    act: async (s) => {
      for (let i = 0; i < 6; i++) await s.pane.keys("BSpace");
      await s.pane.type("pkg-prompt");
    },
    ready: (t) => t.includes("pkg-prompt.md") && !t.includes("review.md"),
  },
  {
    name: "package prompt off",
    act: (s) => s.pane.keys("Space"),
    ready: (t) => t.includes("[ ] pkg-prompt.md"),
  },
  {
    name: "mcp",
    act: async (s) => {
      for (let i = 0; i < 10; i++) await s.pane.keys("BSpace");
      await s.pane.type("mcp");
    },
    ready: (t) => t.includes("Built-in") && !t.includes("pkg-prompt"),
  },
  { name: "mcp off", act: (s) => s.pane.keys("Space"), ready: (t) => t.includes("[ ] mcp") },
  {
    name: "project mode",
    act: async (s) => {
      for (let i = 0; i < 3; i++) await s.pane.keys("BSpace");
      await s.pane.type("fix");
      await s.pane.keys("Tab");
    },
    ready: (t) => t.includes("Project Local Resources") && t.includes("fix.md"),
  },
  { name: "project unload", act: (s) => s.pane.keys("Space"), ready: (t) => t.includes("project unload") },
  { name: "project load", act: (s) => s.pane.keys("Space"), ready: (t) => t.includes("project load") },
  {
    name: "closed",
    act: (s) => s.pane.keys("Escape"),
    // The selector stays in the scrollback; the shell's prompt follows it.
    ready: (t) => /─\n+\$ ?$/.test(t),
  },
];

async function readSettings(s: InteractiveScenario): Promise<{ global: string; project: string }> {
  const read = async (path: string) => {
    try {
      return (await Deno.readTextFile(path)).replaceAll(s.agent.root, "<root>");
    } catch {
      return "<missing>";
    }
  };
  return {
    global: await read(join(s.agent.agentDir, "settings.json")),
    project: await read(join(s.agent.cwd, ".pi", "settings.json")),
  };
}

async function runScript(reference: boolean) {
  const s = await startInteractiveScenario([], { reference, ...SIZE });
  try {
    await seed(s);
    const screens = await collectScreens(s, STEPS, TIMEOUTS);
    return { screens, settings: await readSettings(s) };
  } finally {
    await s.close();
  }
}

Deno.test("PKG-CONFIG pi config toggles resources and writes settings.json as pi 1.6.0 does (global and project mode)", async () => {
  requireReference();
  const ours = await runScript(false);
  const reference = await runScript(true);
  assertSameScreens(STEPS, ours.screens, reference.screens);
  assertEquals(ours.settings, reference.settings);
  for (const row of ["    Themes", "      [x] ocean.json", "  User settings", "      [x] listed.md"]) {
    assertStringIncludes(ours.screens[0], `\n${row}\n`);
  }
  const global = JSON.parse(ours.settings.global);
  assertEquals(global.skills, ["-skills/my-skill/SKILL.md"]);
  assertEquals(global.prompts, ["<root>/extra", "-prompts/review.md"]);
  assertEquals(global.extensions, ["-builtin:mcp"]);
  assertEquals(global.packages, [{ source: "<root>/toolkit", prompts: ["-prompts/pkg-prompt.md"] }]);
  assertEquals(JSON.parse(ours.settings.project).prompts, [
    "<root>/agent/prompts/fix.md",
    "+<root>/agent/prompts/fix.md",
  ]);
});

/** Scenario two: the toolkit package with two prompts, and a project with its own prompt. */
async function seedProject(s: InteractiveScenario): Promise<void> {
  await seed(s);
  const { root, cwd } = s.agent;
  await Deno.writeTextFile(join(root, "toolkit", "prompts", "other.md"), "Other\n");
  await Deno.mkdir(join(cwd, ".pi", "prompts"), { recursive: true });
  await Deno.writeTextFile(join(cwd, ".pi", "prompts", "local.md"), "Local\n");
  // Enough rows that PageDown stops in the middle, away from the built-ins (one fewer here).
  for (const name of ["a1", "a2", "a3", "a4", "a5", "a6"]) {
    await Deno.writeTextFile(join(s.agent.agentDir, "prompts", `${name}.md`), `${name}\n`);
  }
}

/** The scroll position's total counts the built-ins too, so it is one less here than in 1.6.0. */
function maskTotal(screen: string): string {
  return screen.replace(/\((\d+)\/\d+\)/g, "($1/<total>)");
}

const PROJECT_STEPS: ScriptStep[] = [
  {
    name: "opened in project mode",
    act: (s) => s.pane.command(`clear; ${s.piCommand(["config", "-l", "-a"])}`),
    ready: (t) => t.includes("Project Local Resources") && t.includes("other.md"),
  },
  { name: "package unload", act: (s) => s.pane.keys("Space"), ready: (t) => t.includes("[-] other.md") },
  { name: "package load", act: (s) => s.pane.keys("Space"), ready: (t) => t.includes("[+] other.md") },
  {
    name: "package inherit",
    act: (s) => s.pane.keys("Space"),
    ready: (t) => t.includes("[x] other.md  inherited"),
  },
  {
    name: "package unload again",
    act: (s) => s.pane.keys("Space"),
    ready: (t) => t.includes("[-] other.md"),
  },
  { name: "filter local", act: (s) => s.pane.type("local"), ready: (t) => !t.includes("other.md") },
  { name: "project unload", act: (s) => s.pane.keys("Space"), ready: (t) => t.includes("[-] local.md") },
  { name: "global mode", act: (s) => s.pane.keys("Tab"), ready: (t) => t.includes("Global Resources") },
  {
    name: "cleared filter",
    act: async (s) => {
      for (let i = 0; i < 5; i++) await s.pane.keys("BSpace");
    },
    ready: (t) => t.includes("other.md") && /\(1\/\d+\)/.test(t),
  },
  {
    name: "page down",
    act: (s) => s.pane.keys("PageDown"),
    ready: (t) => !t.includes("other.md") && !/\(1\//.test(t),
  },
  { name: "closed", act: (s) => s.pane.keys("C-c"), ready: (t) => /─\n+\$ ?$/.test(t) },
];

async function runProjectScript(reference: boolean) {
  const s = await startInteractiveScenario([], { reference, width: 100, height: 18 });
  try {
    await seedProject(s);
    const screens = (await collectScreens(s, PROJECT_STEPS, TIMEOUTS)).map(maskTotal);
    return { screens, settings: await readSettings(s) };
  } finally {
    await s.close();
  }
}

Deno.test("PKG-CONFIG pi config -l: project overrides of a package and a project resource, scrolling, as pi 1.6.0", async () => {
  requireReference();
  const ours = await runProjectScript(false);
  const reference = await runProjectScript(true);
  assertSameScreens(PROJECT_STEPS, ours.screens, reference.screens);
  assertEquals(ours.settings, reference.settings);
  const project = JSON.parse(ours.settings.project);
  assertEquals(project.prompts, ["-prompts/local.md"]);
  assertEquals(project.packages, [{
    source: "../../toolkit",
    autoload: false,
    prompts: ["-prompts/other.md"],
  }]);
});

Deno.test("PKG-CONFIG pi config closed with Escape at once writes nothing", async () => {
  const s = await startInteractiveScenario([], SIZE);
  try {
    await seed(s);
    const before = await readSettings(s);
    await s.pane.command(`clear; ${s.piCommand(["config"])}`);
    await s.pane.waitFor(open, TIMEOUTS.start, "the selector");
    await s.pane.keys("Escape");
    await s.pane.waitFor((t) => /\$ ?$/.test(t), TIMEOUTS.step, "the shell after exit");
    assertEquals(await readSettings(s), before);
  } finally {
    await s.close();
  }
});

Deno.test("PKG-CONFIG pi config without a terminal draws the selector once and exits 0, writing nothing (as 1.6.0)", async () => {
  const s = await startInteractiveScenario([], SIZE);
  try {
    await seed(s);
    const before = await readSettings(s);
    const result = await spawnPi(["config"], { env: s.agent.env, cwd: s.agent.cwd, timeoutMs: 60_000 });
    assertEquals({ code: result.code, timedOut: result.timedOut }, { code: 0, timedOut: false });
    assertStringIncludes(result.stdout, "Global Resources");
    assertStringIncludes(result.stdout, "my-skill");
    assertEquals(await readSettings(s), before);
  } finally {
    await s.close();
  }
});

Deno.test("PKG-CONFIG pi config tries to install a missing configured package first; one that cannot be installed is a warning, as pi 1.6.0", async () => {
  requireReference();
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "pi-config-missing-" }));
  try {
    const run = async (name: string, reference: boolean) => {
      const home = join(root, name, "home");
      const agentDir = join(root, name, "agent");
      const cwd = join(root, name, "project");
      for (const dir of [home, agentDir, cwd]) await Deno.mkdir(dir, { recursive: true });
      const settings = '{\n  "packages": ["npm:pi-missing-fixture"]\n}\n';
      await Deno.writeTextFile(join(agentDir, "settings.json"), settings);
      const env = {
        HOME: home,
        PI_CODING_AGENT_DIR: agentDir,
        NO_COLOR: "1",
        PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
        // A registry nothing listens on, asked once: the install fails at once.
        npm_config_registry: "http://127.0.0.1:9",
        npm_config_fetch_retries: "0",
      };
      const result = await spawnPi(["config"], { env, cwd, reference, timeoutMs: 120_000 });
      const own = result.stderr.split("\n").filter((line) => !line.startsWith("npm error")).join("\n");
      assertEquals(await Deno.readTextFile(join(agentDir, "settings.json")), settings);
      return { code: result.code, stderr: own.replaceAll(root, "<root>").replaceAll(`/${name}/`, "/<box>/") };
    };
    const ours = await run("ours", false);
    assertEquals(ours, await run("ref", true));
    assertEquals(ours, {
      code: 0,
      stderr: 'Warning: Extension package "npm:pi-missing-fixture": failed to install (npm install ' +
        "pi-missing-fixture --prefix <root>/<box>/agent/npm --legacy-peer-deps --no-audit --no-fund failed " +
        'with code 1). Run "pi remove npm:pi-missing-fixture" to remove it from settings.json.\n',
    });
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
