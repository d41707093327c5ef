/**
 * The system prompt of pi 1.6.0: named sections (`preamble`, `tools`, `rules`, `docs`,
 * `addendum`, `project_context`, `skills`, `cwd`, then custom ones), each but the preamble wrapped
 * in an XML tag of its name. The sections are what a session persists (a `system` message, see
 * src/session/system_message.ts); the prompt text is the sections joined by blank lines. No date
 * line: the prompt stays the same from day to day, so it can be cached and diffed (SYS-01…07).
 *
 * @module
 */
import { getSystemMessageText } from "../session/system_message.ts";
import type { ContextFile } from "./context_files.ts";
import { formatSkillsForPrompt, type Skill, type SkillFileReadTool } from "./skills.ts";

/** Where the prompt points the model for pi's own documentation. */
export interface DocumentationPaths {
  /** Path of pi's README. */
  readme: string;
  /** Path of pi's docs folder. */
  docs: string;
  /** Path of pi's examples folder. */
  examples: string;
}

/** Inputs of {@link buildSystemPromptSections}. */
export interface BuildSystemPromptOptions {
  /** Replaces the default preamble, tools, rules and docs (SYSTEM.md or `--system-prompt`). */
  customPrompt?: string;
  /** An opaque prompt that replaces everything (an extension's `systemPrompt`); no sections. */
  forceSystemPrompt?: string;
  /** Active tool names, in order; defaults to read, bash, edit, write. */
  selectedTools?: string[];
  /** Active tools the model is not told about (still executable through other tools). */
  hiddenTools?: string[];
  /** One-line description per tool; only tools with one are listed. */
  toolSnippets?: Record<string, string>;
  /** Guideline lines per tool, used in `selectedTools` order. */
  toolGuidelines?: Record<string, string[]>;
  /** Further guideline lines (extensions), after the tools' own. */
  promptGuidelines?: string[];
  /** Text of APPEND_SYSTEM.md / `--append-system-prompt`: the `addendum` section. */
  appendSystemPrompt?: string;
  /** Extra named sections (lower-case names; not `preamble`); empty ones are left out. */
  sections?: Record<string, string>;
  /** Working folder of the project. */
  cwd: string;
  /** AGENTS.md / CLAUDE.md files to include. */
  contextFiles?: ContextFile[];
  /** Skills to list. */
  skills?: Skill[];
  /** Where pi's own documentation is. */
  documentation: DocumentationPaths;
}

const SECTION_NAME = /^[a-z][a-z0-9_-]*$/;
const DEFAULT_TOOLS = ["read", "bash", "edit", "write"];

const PREAMBLE =
  "You are a coding assistant running inside pi, a coding agent harness. Help users inspect files, run commands, and modify code.";

function docsSection({ readme, docs, examples }: DocumentationPaths): string {
  return `Pi documentation (read only when the user asks about the harness itself, its SDK, extensions, themes, skills, or TUI):
- Main documentation: ${readme}
- Additional docs: ${docs}
- Examples: ${examples} (extensions, custom tools, SDK)
- When reading pi docs or examples, resolve docs/... under Additional docs and examples/... under Examples, not the current working directory
- When asked about: extensions (docs/extensions.md, examples/extensions/), themes (docs/themes.md), skills (docs/skills.md), prompt templates (docs/prompt-templates.md), TUI components (docs/tui.md), keybindings (docs/keybindings.md), SDK integrations (docs/sdk.md), custom providers (docs/custom-provider.md), adding models (docs/models.md), packages (docs/packages.md), environment variables (docs/environment-variables.md), MCP servers (docs/mcp.md), codemode scripts and non-LLM models such as classifiers and image models (docs/codemode.md)
- Before implementing harness changes, read the relevant docs and examples in full, following related cross-references.`;
}

/** The `docs/*.md` files and example folders the prompt names, relative to the docs/examples roots. */
export const DOCUMENTATION_TOPICS: readonly string[] = [
  "docs/extensions.md",
  "examples/extensions",
  "docs/themes.md",
  "docs/skills.md",
  "docs/prompt-templates.md",
  "docs/tui.md",
  "docs/keybindings.md",
  "docs/sdk.md",
  "docs/custom-provider.md",
  "docs/models.md",
  "docs/packages.md",
  "docs/environment-variables.md",
  "docs/mcp.md",
  "docs/codemode.md",
];

function projectContext(files: ContextFile[]): string {
  return [
    "Project-specific instructions and guidelines:",
    ...files.map(({ path, content }) =>
      `<project_instructions path="${path}">\n${content}\n</project_instructions>`
    ),
  ].join("\n\n");
}

function rules(tools: string[], toolGuidelines: Record<string, string[]>, extra: string[]): string {
  const out: string[] = [];
  const add = (rule: string) => {
    const r = rule.trim();
    if (r && !out.includes(r)) out.push(r);
  };
  const has = (name: string) => tools.includes(name);
  if ((has("bash") || has("powershell")) && !has("grep") && !has("find") && !has("ls")) {
    if (has("bash") && has("powershell")) {
      add("Use bash or PowerShell for file operations like listing, searching, and finding files");
    } else if (has("powershell")) {
      add("Use PowerShell for file operations like listing, searching, and finding files");
    } else add("Use bash for file operations like ls, rg, find");
  }
  for (const name of tools) for (const rule of toolGuidelines[name] ?? []) add(rule);
  for (const rule of extra) add(rule);
  add("Be concise in your responses");
  add("Show file paths clearly when working with files");
  return out.map((r) => `- ${r}`).join("\n");
}

/**
 * The ordered, independently replaceable sections of the prompt. Every section but `preamble`
 * is wrapped as `<name>\n…\n</name>`. Throws on an invalid custom section name.
 */
export function buildSystemPromptSections(options: BuildSystemPromptOptions): Record<string, string> {
  const custom = options.sections ?? {};
  for (const name of Object.keys(custom)) {
    if (!SECTION_NAME.test(name) || name === "preamble") {
      throw new Error(`Invalid system prompt section name: ${name}`);
    }
  }
  const selected = options.selectedTools ?? DEFAULT_TOOLS;
  const hidden = options.hiddenTools ?? [];
  const declared = selected.filter((name) => !hidden.includes(name));
  const raw: Record<string, string> = {};
  if (options.customPrompt) {
    raw.preamble = options.customPrompt;
  } else {
    raw.preamble = PREAMBLE;
    const snippets = options.toolSnippets ?? {};
    const listed = declared.filter((name) => !!snippets[name]);
    const list = listed.length > 0
      ? listed.map((name) => `- ${name}: ${snippets[name]}`).join("\n")
      : "(none)";
    raw.tools = `${list}\n\nAdditional tools may be available.`;
    raw.rules = rules(declared, options.toolGuidelines ?? {}, options.promptGuidelines ?? []);
    raw.docs = docsSection(options.documentation);
  }
  if (options.appendSystemPrompt) raw.addendum = options.appendSystemPrompt;
  const contextFiles = options.contextFiles ?? [];
  if (contextFiles.length > 0) raw.project_context = projectContext(contextFiles);
  // Skills need a way to read their file; a hidden reader still works, but is not named.
  const reader: SkillFileReadTool | undefined =
    (["read", "bash"] as const).find((t) => declared.includes(t)) ??
      (selected.includes("read") || selected.includes("bash") ? "indirect" : undefined);
  const skills = options.skills ?? [];
  if (reader && skills.length > 0) {
    const block = formatSkillsForPrompt(skills, reader).trim();
    if (block) raw.skills = block;
  }
  raw.cwd = options.cwd.replace(/\\/g, "/");
  for (const [name, content] of Object.entries(custom)) if (content) raw[name] = content;
  const sections: Record<string, string> = { preamble: raw.preamble };
  for (const [name, content] of Object.entries(raw)) {
    if (name !== "preamble") sections[name] = `<${name}>\n${content}\n</${name}>`;
  }
  return sections;
}

/** The prompt as a system message holds it: a forced prompt as opaque content, else sections. */
export interface SystemPromptState {
  content: string;
  sections?: Record<string, string>;
}

/** The complete prompt state for `options` (see {@link SystemPromptState}). */
export function buildSystemPromptState(options: BuildSystemPromptOptions): SystemPromptState {
  if (options.forceSystemPrompt !== undefined) return { content: options.forceSystemPrompt };
  return { content: "", sections: buildSystemPromptSections(options) };
}

/** The prompt text, exactly as replaying the persisted system message renders it. */
export function buildSystemPrompt(options: BuildSystemPromptOptions): string {
  return getSystemMessageText(buildSystemPromptState(options));
}
