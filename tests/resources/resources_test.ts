/**
 * Resources and the system prompt against expectations captured from the reference pi 1.6.0
 * (scripts/capture/resources_reference.mjs on tests/fixtures/resources/tree.json).
 * IDs: RES-01…07, SYS-01…07.
 */
import { assertEquals } from "../support/assert.ts";
import { dirname, join } from "node:path";
import { expandSkillCommand, formatSkillsForPrompt, loadSkills } from "../../src/resources/skills.ts";
import {
  expandPromptTemplate,
  loadPromptTemplates,
  parseCommandArgs,
  substituteArgs,
} from "../../src/resources/prompt_templates.ts";
import { loadProjectContextFiles } from "../../src/resources/context_files.ts";
import { buildSystemPrompt, buildSystemPromptSections } from "../../src/resources/system_prompt.ts";
import { DefaultResourceLoader, type ResourceSettingsSource } from "../../src/resources/resource_loader.ts";
import type { Skill } from "../../src/resources/skills.ts";
import { loadResourceDeps } from "../../src/resources/resource_deps.ts";

const FIXTURES = new URL("../fixtures/resources/", import.meta.url).pathname;
const tree: Record<string, string> = JSON.parse(Deno.readTextFileSync(join(FIXTURES, "tree.json")));
// deno-lint-ignore no-explicit-any
const expected: any = JSON.parse(Deno.readTextFileSync(join(FIXTURES, "expected.json")));

async function withTree(fn: (root: string) => Promise<void> | void): Promise<void> {
  await loadResourceDeps();
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "pi-res-" }));
  try {
    for (const [rel, content] of Object.entries(tree)) {
      await Deno.mkdir(dirname(join(root, rel)), { recursive: true });
      await Deno.writeTextFile(join(root, rel), content);
    }
    // The user's home for the loaders (`homeDir`): never the process's HOME, which is left alone.
    await Deno.mkdir(join(root, "home"), { recursive: true });
    await fn(root);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}

function norm(value: unknown, root: string): unknown {
  return JSON.parse(JSON.stringify(value ?? null).split(root).join("<ROOT>"));
}

const skillView = (s: Skill) => ({
  name: s.name,
  description: s.description,
  filePath: s.filePath,
  baseDir: s.baseDir,
  disableModelInvocation: s.disableModelInvocation,
  sourceInfo: s.sourceInfo,
});

/** Settings read the way the CLI reads them (JSON files in the agent dir and the project). */
function fileSettings(agentDir: string, cwd: string): ResourceSettingsSource {
  const read = (path: string) => {
    try {
      return JSON.parse(Deno.readTextFileSync(path));
    } catch {
      return {};
    }
  };
  return {
    getGlobalSettings: () => read(join(agentDir, "settings.json")),
    getProjectSettings: () => read(join(cwd, ".pi", "settings.json")),
  };
}

Deno.test("RES-02 RES-03 skills from the default folders: validation warnings, no description = not loaded", () =>
  withTree((root) => {
    const result = loadSkills({
      cwd: join(root, "project/sub/work"),
      agentDir: join(root, "agent"),
      skillPaths: [],
      includeDefaults: true,
    });
    assertEquals(
      norm({ skills: result.skills.map(skillView), diagnostics: result.diagnostics }, root),
      expected.skillsDefaults,
    );
    assertEquals(norm(formatSkillsForPrompt(result.skills), root), expected.skillsPromptBlock);
    assertEquals(norm(formatSkillsForPrompt(result.skills, "bash"), root), expected.skillsPromptBlockBash);
    assertEquals(
      norm(formatSkillsForPrompt(result.skills, "indirect"), root),
      expected.skillsPromptBlockIndirect,
    );
  }));

Deno.test("RES-02 explicit skill paths: folders, missing paths and non-Markdown files", () =>
  withTree((root) => {
    const result = loadSkills({
      cwd: join(root, "project/sub/work"),
      agentDir: join(root, "agent"),
      skillPaths: [join(root, "extra/skills"), join(root, "missing"), join(root, "extra/SYSTEM.md")],
      includeDefaults: false,
    });
    assertEquals(
      norm({ skills: result.skills.map(skillView), diagnostics: result.diagnostics }, root),
      expected.skillsExplicit,
    );
  }));

Deno.test("RES-05 RES-07 prompt templates: names, descriptions, argument hints, CRLF frontmatter", () =>
  withTree((root) => {
    const loaded = loadPromptTemplates({
      cwd: join(root, "project/sub/work"),
      agentDir: join(root, "agent"),
      promptPaths: [],
      includeDefaults: true,
    });
    const templates = loaded.templates.sort((a, b) => a.filePath.localeCompare(b.filePath));
    assertEquals(norm(templates, root), expected.prompts);
    // A template with broken frontmatter is skipped and named in a warning.
    assertEquals(norm(loaded.diagnostics, root), expected.promptDiagnostics);
  }));

Deno.test("RES-06 template expansion, argument parsing and substitution", () =>
  withTree((root) => {
    const templates = loadPromptTemplates({
      cwd: join(root, "project"),
      agentDir: join(root, "agent"),
      promptPaths: [],
      includeDefaults: true,
    }).templates;
    for (const { input, output } of expected.expansions) {
      assertEquals(expandPromptTemplate(input, templates), output, input);
    }
    for (const { input, output } of expected.parseArgs) {
      assertEquals(parseCommandArgs(input), output, input);
    }
    for (const { content, args, output } of expected.substitutions) {
      assertEquals(substituteArgs(content, args), output);
    }
  }));

Deno.test("RES-01 context files: global first, root-most folder to cwd, AGENTS.override.md > AGENTS.md > CLAUDE.md, BOM dropped, folders skipped", () =>
  withTree((root) => {
    const files = loadProjectContextFiles({
      cwd: join(root, "project/sub/work"),
      agentDir: join(root, "agent"),
    });
    assertEquals(norm(files, root), expected.contextFiles);
    // In a worktree nested in its main repository the main repository's file is shadowed.
    const worktree = loadProjectContextFiles({
      cwd: join(root, "wt/main/trees/feat/src"),
      agentDir: join(root, "agent"),
    });
    assertEquals(norm(worktree, root), expected.contextFilesWorktree);
  }));

Deno.test("SYS-01…07 system prompt sections and text for every tool/append/context/skills/custom combination", () =>
  withTree((root) => {
    const cwd = join(root, "project/sub/work");
    const skills =
      loadSkills({ cwd, agentDir: join(root, "agent"), skillPaths: [], includeDefaults: true }).skills;
    const contextFiles = loadProjectContextFiles({ cwd, agentDir: join(root, "agent") });
    const documentation = { readme: "<PKG>/README.md", docs: "<PKG>/docs", examples: "<PKG>/examples" };
    const cases = Object.entries<
      { options: Record<string, unknown>; sections: Record<string, string>; prompt: string }
    >(expected.systemPrompts);
    assertEquals(cases.length, 17);
    for (const [name, { options, sections, prompt }] of cases) {
      const input = {
        customPrompt: options.customPrompt as string | undefined,
        selectedTools: options.selectedTools as string[] | undefined,
        hiddenTools: options.hiddenTools as string[] | undefined,
        toolSnippets: expected.toolSnippets,
        toolGuidelines: expected.toolGuidelines,
        promptGuidelines: options.promptGuidelines as string[] | undefined,
        appendSystemPrompt: options.appendSystemPrompt as string | undefined,
        sections: options.sections as Record<string, string> | undefined,
        cwd,
        contextFiles: options.withContext ? contextFiles : [],
        skills: options.withSkills ? skills : [],
        documentation,
      };
      // Key order matters: it is the order the sections are persisted and rendered in.
      assertEquals(
        JSON.stringify(norm(buildSystemPromptSections(input), root)),
        JSON.stringify(sections),
        name,
      );
      assertEquals(norm(buildSystemPrompt(input), root), prompt, name);
    }
    assertEquals(
      buildSystemPrompt({ forceSystemPrompt: "FORCED", cwd, skills, documentation }),
      expected.forcedPrompt,
    );
    let error = "";
    try {
      buildSystemPromptSections({ cwd, sections: { "Bad Name": "x" }, documentation });
    } catch (e) {
      error = (e as Error).message;
    }
    assertEquals(error, expected.badSectionError);
  }));

Deno.test("RES-02 RES-03 RES-10 SYS-04 resource loader: .agents skills to the git root, settings patterns, collisions, SYSTEM.md", () =>
  withTree(async (root) => {
    const agentDir = join(root, "agent");
    const view = (l: DefaultResourceLoader) => ({
      skills: l.getSkills().skills.map(skillView),
      skillDiagnostics: l.getSkills().diagnostics,
      prompts: l.getPrompts().prompts.map((p) => ({
        name: p.name,
        filePath: p.filePath,
        description: p.description,
      })),
      agentsFiles: l.getAgentsFiles().agentsFiles.map((f) => f.path),
      systemPrompt: l.getSystemPrompt() ?? null,
      appendSystemPrompt: l.getAppendSystemPrompt(),
    });
    const cwd = join(root, "project/sub/work");
    const loader = new DefaultResourceLoader({
      cwd,
      agentDir,
      homeDir: join(root, "home"),
      settings: fileSettings(agentDir, cwd),
      additionalSkillPaths: [join(root, "extra/skills")],
      systemPrompt: join(root, "extra/SYSTEM.md"),
      appendSystemPrompt: ["inline append text"],
    });
    await loader.reload();
    assertEquals(norm(view(loader), root), expected.loader);

    const projectCwd = join(root, "project");
    const projectLoader = new DefaultResourceLoader({
      cwd: projectCwd,
      agentDir,
      homeDir: join(root, "home"),
      settings: fileSettings(agentDir, projectCwd),
    });
    await projectLoader.reload();
    assertEquals(norm(view(projectLoader), root), expected.projectLoader);

    const bare = new DefaultResourceLoader({
      cwd: projectCwd,
      agentDir,
      homeDir: join(root, "home"),
      settings: fileSettings(agentDir, projectCwd),
      noSkills: true,
      noPromptTemplates: true,
      noContextFiles: true,
      additionalSkillPaths: [join(root, "extra/skills/epsilon/SKILL.md")],
    });
    await bare.reload();
    assertEquals(norm(view(bare), root), expected.bareLoader);
  }));

Deno.test("RES-04 /skill:name expands to the skill block with args; unknown skills pass through", () =>
  withTree((root) => {
    const skills = loadSkills({
      cwd: join(root, "project"),
      agentDir: join(root, "agent"),
      skillPaths: [],
      includeDefaults: true,
    }).skills;
    const alphaDir = join(root, "agent/skills/alpha");
    assertEquals(
      expandSkillCommand("/skill:alpha do the thing ", skills),
      `<skill name="alpha" location="${alphaDir}/SKILL.md">\nReferences are relative to ${alphaDir}.\n\n# Alpha\n\nUse ./scripts/run.sh\n</skill>\n\ndo the thing`,
    );
    assertEquals(
      expandSkillCommand("/skill:hidden", skills),
      `<skill name="hidden" location="${root}/agent/skills/hidden/SKILL.md">\nReferences are relative to ${root}/agent/skills/hidden.\n\nHidden body\n</skill>`,
    );
    assertEquals(expandSkillCommand("/skill:nope x", skills), "/skill:nope x");
    assertEquals(expandSkillCommand("plain", skills), "plain");
  }));
