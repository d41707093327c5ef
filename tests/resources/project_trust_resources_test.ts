/**
 * TRUST-04 project trust in the resource loader (pi 1.6.0, security.md): without trust, the project's
 * own skills, prompt templates, SYSTEM.md, APPEND_SYSTEM.md, `.agents/skills` (cwd and ancestors) and
 * the resources its settings name are skipped, while the user's resources and the project's AGENTS.md
 * still load. Trust granted later (`setProjectTrusted` + `reload()`, as `/trust` does) brings them in.
 * The end-to-end comparison with 1.6.0 is tests/e2e/project_trust_e2e_test.ts.
 */
import { assertEquals } from "../support/assert.ts";
import { dirname, join } from "../../src/util/path.ts";
import { SettingsManager } from "../../src/config/settings_manager.ts";
import { DefaultResourceLoader } from "../../src/resources/resource_loader.ts";

/** The files of the test tree, relative to its root. */
const TREE: Record<string, string> = {
  "agent/SYSTEM.md": "USER SYSTEM\n",
  "agent/APPEND_SYSTEM.md": "USER APPEND\n",
  "agent/skills/u/SKILL.md": "---\nname: u\ndescription: User skill\n---\nbody\n",
  "agent/prompts/up.md": "User prompt\n",
  "repo/.git/HEAD": "ref: refs/heads/main\n",
  "repo/.agents/skills/w/SKILL.md": "---\nname: w\ndescription: Ancestor agents skill\n---\nbody\n",
  "repo/project/AGENTS.md": "Project rules.\n",
  "repo/project/.pi/settings.json": JSON.stringify({ skills: ["../extra"], prompts: ["../more"] }),
  "repo/project/.pi/skills/x/SKILL.md": "---\nname: x\ndescription: Project skill\n---\nbody\n",
  "repo/project/.pi/prompts/p.md": "Project prompt\n",
  "repo/project/.pi/SYSTEM.md": "PROJECT SYSTEM\n",
  "repo/project/.pi/APPEND_SYSTEM.md": "PROJECT APPEND\n",
  "repo/project/.agents/skills/y/SKILL.md": "---\nname: y\ndescription: Project agents skill\n---\nbody\n",
  "repo/project/extra/z/SKILL.md": "---\nname: z\ndescription: Settings skill\n---\nbody\n",
  "repo/project/more/q.md": "Settings prompt\n",
};

async function withTree(fn: (root: string) => Promise<void>): Promise<void> {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "pi-trust-res-" }));
  try {
    for (const [rel, text] of Object.entries(TREE)) {
      await Deno.mkdir(dirname(join(root, rel)), { recursive: true });
      await Deno.writeTextFile(join(root, rel), text);
    }
    await fn(root);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}

/** What the loader found, paths relative to the tree (anything outside it, e.g. ~/.agents, left out). */
function view(loader: DefaultResourceLoader, root: string) {
  const rel = (path: string) => path.startsWith(`${root}/`) ? path.slice(root.length + 1) : undefined;
  const inTree = (paths: string[]) => paths.map(rel).filter((p): p is string => p !== undefined);
  return {
    skills: inTree(loader.getSkills().skills.map((s) => s.filePath)),
    prompts: inTree(loader.getPrompts().prompts.map((p) => p.filePath)),
    agentsFiles: inTree(loader.getAgentsFiles().agentsFiles.map((f) => f.path)),
    systemPrompt: loader.getSystemPrompt(),
    appendSystemPrompt: loader.getAppendSystemPrompt(),
  };
}

const UNTRUSTED = {
  skills: ["agent/skills/u/SKILL.md"],
  prompts: ["agent/prompts/up.md"],
  agentsFiles: ["repo/project/AGENTS.md"],
  systemPrompt: "USER SYSTEM\n",
  appendSystemPrompt: ["USER APPEND\n"],
};

const TRUSTED = {
  skills: [
    "repo/project/extra/z/SKILL.md",
    "repo/project/.pi/skills/x/SKILL.md",
    "repo/project/.agents/skills/y/SKILL.md",
    "repo/.agents/skills/w/SKILL.md",
    "agent/skills/u/SKILL.md",
  ],
  prompts: ["repo/project/more/q.md", "repo/project/.pi/prompts/p.md", "agent/prompts/up.md"],
  agentsFiles: ["repo/project/AGENTS.md"],
  systemPrompt: "PROJECT SYSTEM\n",
  appendSystemPrompt: ["PROJECT APPEND\n"],
};

Deno.test("TRUST-04 an untrusted project loads none of its protected resources; AGENTS.md still loads", () =>
  withTree(async (root) => {
    const cwd = join(root, "repo/project");
    const agentDir = join(root, "agent");
    const settings = SettingsManager.create(cwd, agentDir, { projectTrusted: false });
    const loader = new DefaultResourceLoader({ cwd, agentDir, settings });
    await loader.reload();
    assertEquals(view(loader, root), UNTRUSTED);

    // Trust granted in the running process: the next reload brings the project's resources in.
    settings.setProjectTrusted(true);
    await loader.reload();
    assertEquals(view(loader, root), TRUSTED);

    // And taken away again.
    settings.setProjectTrusted(false);
    await loader.reload();
    assertEquals(view(loader, root), UNTRUSTED);
  }));

Deno.test("TRUST-04 a trusted project (and a loader without settings) loads the project's resources", () =>
  withTree(async (root) => {
    const cwd = join(root, "repo/project");
    const agentDir = join(root, "agent");
    const settings = SettingsManager.create(cwd, agentDir, { projectTrusted: true });
    const loader = new DefaultResourceLoader({ cwd, agentDir, settings });
    await loader.reload();
    assertEquals(view(loader, root), TRUSTED);

    // No settings source at all (SDK use): trusted, as 1.6.0's default SettingsManager is; no settings entries.
    const bare = new DefaultResourceLoader({ cwd, agentDir });
    await bare.reload();
    assertEquals(view(bare, root), {
      ...TRUSTED,
      skills: TRUSTED.skills.filter((s) => !s.includes("/extra/")),
      prompts: TRUSTED.prompts.filter((p) => !p.includes("/more/")),
    });
  }));

Deno.test("TRUST-04 --system-prompt and --append-system-prompt apply whatever the trust", () =>
  withTree(async (root) => {
    const cwd = join(root, "repo/project");
    const agentDir = join(root, "agent");
    const settings = SettingsManager.create(cwd, agentDir, { projectTrusted: false });
    const loader = new DefaultResourceLoader({
      cwd,
      agentDir,
      settings,
      systemPrompt: "FLAG SYSTEM",
      appendSystemPrompt: ["FLAG APPEND"],
    });
    await loader.reload();
    assertEquals([loader.getSystemPrompt(), loader.getAppendSystemPrompt()], ["FLAG SYSTEM", [
      "FLAG APPEND",
    ]]);
  }));
