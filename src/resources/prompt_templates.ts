/**
 * Prompt templates: Markdown files invoked as `/name args`, with bash-like argument splitting
 * and `$1`, `${@:N}`, `${@:N:L}`, `$ARGUMENTS`, `$@` placeholders.
 *
 * @module
 */
import { existsSync, readDirSorted, readTextFileSync } from "../util/fs.ts";
import { basename, dirname, join, resolve } from "../util/path.ts";
import { parseFrontmatter } from "./frontmatter.ts";
import { CONFIG_DIR_NAME, isUnderPath, resolveResourcePath } from "./resource_paths.ts";
import { createSyntheticSourceInfo, type SourceInfo } from "./source_info.ts";

/** A loaded prompt template. */
export interface PromptTemplate {
  name: string;
  description: string;
  argumentHint?: string;
  content: string;
  sourceInfo: SourceInfo;
  filePath: string;
}

/** Splits arguments like a shell would for quoting: `'…'` and `"…"` group, spaces and tabs split. */
export function parseCommandArgs(argsString: string): string[] {
  const args: string[] = [];
  let current = "";
  let quote: string | null = null;
  for (const char of argsString) {
    if (quote) {
      if (char === quote) quote = null;
      else current += char;
    } else if (char === '"' || char === "'") {
      quote = char;
    } else if (char === " " || char === "\t") {
      if (current) {
        args.push(current);
        current = "";
      }
    } else {
      current += char;
    }
  }
  if (current) args.push(current);
  return args;
}

/**
 * Fills the placeholders of a template. Positional ones first, then slices, then the
 * all-arguments forms; substituted values are never substituted again.
 */
export function substituteArgs(content: string, args: string[]): string {
  let result = content.replace(/\$(\d+)/g, (_, num: string) => args[parseInt(num, 10) - 1] ?? "");
  result = result.replace(/\$\{@:(\d+)(?::(\d+))?\}/g, (_, startText: string, lengthText?: string) => {
    const start = Math.max(0, parseInt(startText, 10) - 1);
    return lengthText
      ? args.slice(start, start + parseInt(lengthText, 10)).join(" ")
      : args.slice(start).join(" ");
  });
  const all = args.join(" ");
  return result.replace(/\$ARGUMENTS/g, () => all).replace(/\$@/g, () => all);
}

function loadTemplateFile(filePath: string, sourceInfo: SourceInfo): PromptTemplate | null {
  try {
    const { frontmatter, body } = parseFrontmatter<Record<string, unknown>>(readTextFileSync(filePath));
    let description = typeof frontmatter.description === "string" ? frontmatter.description : "";
    if (!description) {
      const firstLine = body.split("\n").find((line) => line.trim());
      if (firstLine) description = firstLine.length > 60 ? `${firstLine.slice(0, 60)}...` : firstLine;
    }
    const hint = frontmatter["argument-hint"];
    return {
      name: basename(filePath).replace(/\.md$/, ""),
      description,
      ...(hint ? { argumentHint: String(hint) } : {}),
      content: body,
      sourceInfo,
      filePath,
    };
  } catch {
    return null;
  }
}

function loadTemplatesFromDir(dir: string, sourceInfoOf: (path: string) => SourceInfo): PromptTemplate[] {
  const templates: PromptTemplate[] = [];
  if (!existsSync(dir)) return templates;
  try {
    for (const entry of readDirSorted(dir)) {
      const fullPath = join(dir, entry.name);
      let isFile = entry.isFile;
      if (entry.isSymlink) {
        try {
          isFile = Deno.statSync(fullPath).isFile;
        } catch {
          continue;
        }
      }
      if (!isFile || !entry.name.endsWith(".md")) continue;
      const template = loadTemplateFile(fullPath, sourceInfoOf(fullPath));
      if (template) templates.push(template);
    }
  } catch { /* unreadable folder */ }
  return templates;
}

/** Options of {@link loadPromptTemplates}. */
export interface LoadPromptTemplatesOptions {
  cwd: string;
  agentDir: string;
  /** Extra files or folders (settings `prompts`, `--prompt-template`). */
  promptPaths: string[];
  includeDefaults: boolean;
}

/** Loads templates from the agent dir's and project's `prompts` folders (not recursive) and extra paths. */
export function loadPromptTemplates(options: LoadPromptTemplatesOptions): PromptTemplate[] {
  const { cwd, agentDir, promptPaths, includeDefaults } = options;
  const globalDir = join(agentDir, "prompts");
  const projectDir = resolve(cwd, CONFIG_DIR_NAME, "prompts");
  const sourceInfoOf = (path: string): SourceInfo => {
    if (isUnderPath(path, globalDir)) {
      return createSyntheticSourceInfo(path, { source: "local", scope: "user", baseDir: globalDir });
    }
    if (isUnderPath(path, projectDir)) {
      return createSyntheticSourceInfo(path, { source: "local", scope: "project", baseDir: projectDir });
    }
    return createSyntheticSourceInfo(path, {
      source: "local",
      baseDir: Deno.statSync(path).isDirectory ? path : dirname(path),
    });
  };
  const templates: PromptTemplate[] = [];
  if (includeDefaults) {
    templates.push(...loadTemplatesFromDir(globalDir, sourceInfoOf));
    templates.push(...loadTemplatesFromDir(projectDir, sourceInfoOf));
  }
  for (const raw of promptPaths) {
    const path = resolveResourcePath(raw, cwd);
    if (!existsSync(path)) continue;
    try {
      const stats = Deno.statSync(path);
      if (stats.isDirectory) templates.push(...loadTemplatesFromDir(path, sourceInfoOf));
      else if (stats.isFile && path.endsWith(".md")) {
        const template = loadTemplateFile(path, sourceInfoOf(path));
        if (template) templates.push(template);
      }
    } catch { /* skip unreadable paths */ }
  }
  return templates;
}

/** Expands `/name args` when `name` is a template (exact match); other text comes back unchanged. */
export function expandPromptTemplate(text: string, templates: PromptTemplate[]): string {
  if (!text.startsWith("/")) return text;
  const space = text.indexOf(" ");
  const name = space === -1 ? text.slice(1) : text.slice(1, space);
  const template = templates.find((t) => t.name === name);
  if (!template) return text;
  return substituteArgs(template.content, parseCommandArgs(space === -1 ? "" : text.slice(space + 1)));
}
