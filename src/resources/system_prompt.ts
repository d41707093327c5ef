/**
 * The system prompt, built exactly as the reference builds it for the same tools, files, skills,
 * date and cwd (SYS-01…07).
 *
 * @module
 */
import type { ContextFile } from "./context_files.ts";
import { formatSkillsForPrompt, type Skill } from "./skills.ts";

/** Where the prompt points the model for pi's own documentation. */
export interface DocumentationPaths {
  readme: string;
  docs: string;
  examples: string;
}

/** Inputs of {@link buildSystemPrompt}. */
export interface BuildSystemPromptOptions {
  /** Replaces the default prompt (SYSTEM.md or `--system-prompt`); append, context, skills and date still follow. */
  customPrompt?: string;
  /** Active tool names, in order; defaults to read, bash, edit, write. */
  selectedTools?: string[];
  /** One-line description per tool; only tools with one are listed. */
  toolSnippets?: Record<string, string>;
  /** Extra guideline lines from the active tools, in tool order. */
  promptGuidelines?: string[];
  appendSystemPrompt?: string;
  cwd: string;
  contextFiles?: ContextFile[];
  skills?: Skill[];
  documentation: DocumentationPaths;
  /** Defaults to now; the local date is used. */
  now?: Date;
}

function localDate(now: Date): string {
  const month = String(now.getMonth() + 1).padStart(2, "0");
  const day = String(now.getDate()).padStart(2, "0");
  return `${now.getFullYear()}-${month}-${day}`;
}

function contextSection(files: ContextFile[]): string {
  if (files.length === 0) return "";
  let out = "\n\n# Project Context\n\nProject-specific instructions and guidelines:\n\n";
  for (const { path, content } of files) out += `## ${path}\n\n${content}\n\n`;
  return out;
}

/** Builds the system prompt. */
export function buildSystemPrompt(options: BuildSystemPromptOptions): string {
  const cwd = options.cwd.replace(/\\/g, "/");
  const date = localDate(options.now ?? new Date());
  const append = options.appendSystemPrompt ? `\n\n${options.appendSystemPrompt}` : "";
  const contextFiles = options.contextFiles ?? [];
  const skills = options.skills ?? [];
  const tail = `\nCurrent date: ${date}\nCurrent working directory: ${cwd}`;

  if (options.customPrompt) {
    const hasRead = !options.selectedTools || options.selectedTools.includes("read");
    const skillsBlock = hasRead && skills.length > 0 ? formatSkillsForPrompt(skills) : "";
    return options.customPrompt + append + contextSection(contextFiles) + skillsBlock + tail;
  }

  const tools = options.selectedTools ?? ["read", "bash", "edit", "write"];
  const snippets = options.toolSnippets ?? {};
  const visible = tools.filter((name) => !!snippets[name]);
  const toolsList = visible.length > 0
    ? visible.map((name) => `- ${name}: ${snippets[name]}`).join("\n")
    : "(none)";

  const guidelines: string[] = [];
  const add = (line: string) => {
    if (!guidelines.includes(line)) guidelines.push(line);
  };
  const has = (name: string) => tools.includes(name);
  if (has("bash") && !has("grep") && !has("find") && !has("ls")) {
    add("Use bash for file operations like ls, rg, find");
  } else if (has("bash")) {
    add("Prefer grep/find/ls tools over bash for file exploration (faster, respects .gitignore)");
  }
  for (const line of options.promptGuidelines ?? []) {
    const trimmed = line.trim();
    if (trimmed) add(trimmed);
  }
  add("Be concise in your responses");
  add("Show file paths clearly when working with files");

  const { readme, docs, examples } = options.documentation;
  let prompt =
    `You are an expert coding assistant operating inside pi, a coding agent harness. You help users by reading files, executing commands, editing code, and writing new files.

Available tools:
${toolsList}

In addition to the tools above, you may have access to other custom tools depending on the project.

Guidelines:
${guidelines.map((g) => `- ${g}`).join("\n")}

Pi documentation (read only when the user asks about pi itself, its SDK, extensions, themes, skills, or TUI):
- Main documentation: ${readme}
- Additional docs: ${docs}
- Examples: ${examples} (extensions, custom tools, SDK)
- When asked about: extensions (docs/extensions.md, examples/extensions/), themes (docs/themes.md), skills (docs/skills.md), prompt templates (docs/prompt-templates.md), TUI components (docs/tui.md), keybindings (docs/keybindings.md), SDK integrations (docs/sdk.md), custom providers (docs/custom-provider.md), adding models (docs/models.md), pi packages (docs/packages.md)
- When working on pi topics, read the docs and examples, and follow .md cross-references before implementing
- Always read pi .md files completely and follow links to related docs (e.g., tui.md for TUI API details)`;
  prompt += append + contextSection(contextFiles);
  if (has("read") && skills.length > 0) prompt += formatSkillsForPrompt(skills);
  return prompt + tail;
}
