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
  /** Name used as the slash command. */
  name: string;
  /** Description from the frontmatter or the first line. */
  description: string;
  /** Hint for the arguments, from the frontmatter. */
  argumentHint?: string;
  /** Template text, frontmatter removed. */
  content: string;
  /** Where the template was found. */
  sourceInfo: SourceInfo;
  /** Path of the template file. */
  filePath: string;
}

/**
 * Splits arguments like a shell would for quoting (pi 1.6.0 rules): any whitespace separates;
 * a quote opens only at the start of an argument (so apostrophes inside words stay literal),
 * `\"` inside double quotes (or `\'` inside single ones) is a literal quote, `""` is an empty
 * argument, and an unclosed quote is read as a literal quote character.
 */
export function parseCommandArgs(argsString: string): string[] {
  const args: string[] = [];
  let current = "";
  let hasToken = false;
  let quote: string | null = null;
  let quoteStart = 0;
  for (let i = 0; i < argsString.length; i++) {
    const char = argsString[i];
    if (quote) {
      if (char === "\\" && argsString[i + 1] === quote) {
        current += quote;
        i++;
      } else if (char === quote) quote = null;
      else current += char;
    } else if ((char === '"' || char === "'") && !hasToken) {
      quote = char;
      quoteStart = i;
      hasToken = true;
    } else if (/\s/.test(char)) {
      if (hasToken) {
        args.push(current);
        current = "";
        hasToken = false;
      }
    } else {
      current += char;
      hasToken = true;
    }
    if (quote && i === argsString.length - 1) {
      // Unclosed: keep the quote as text and read the rest again from just after it.
      quote = null;
      current = argsString[quoteStart];
      i = quoteStart;
    }
  }
  if (hasToken) args.push(current);
  return args;
}

/**
 * Fills the placeholders of a template in one pass (substituted values are never substituted
 * again): `$1`…, `$@` / `$ARGUMENTS`, `${N:-default}`, `${@:-default}` / `${ARGUMENTS:-default}`
 * (the default when the value is missing or empty), `${@:N}` and `${@:N:L}` slices.
 */
export function substituteArgs(content: string, args: string[]): string {
  const all = args.join(" ");
  return content.replace(
    /\$\{(\d+|ARGUMENTS|@):-([^}]*)\}|\$\{@:(\d+)(?::(\d+))?\}|\$(ARGUMENTS|@|\d+)/g,
    (
      _match: string,
      defaultTarget?: string,
      defaultValue?: string,
      sliceStart?: string,
      sliceLength?: string,
      simple?: string,
    ) => {
      if (defaultTarget) {
        const value = defaultTarget === "@" || defaultTarget === "ARGUMENTS"
          ? all
          : args[parseInt(defaultTarget, 10) - 1];
        return value ? value : defaultValue ?? "";
      }
      if (sliceStart) {
        const start = Math.max(0, parseInt(sliceStart, 10) - 1);
        return sliceLength
          ? args.slice(start, start + parseInt(sliceLength, 10)).join(" ")
          : args.slice(start).join(" ");
      }
      if (simple === "ARGUMENTS" || simple === "@") return all;
      return args[parseInt(simple!, 10) - 1] ?? "";
    },
  );
}

/** A problem found while loading templates (the file is skipped). */
export interface PromptTemplateDiagnostic {
  /** Diagnostic kind. */
  type: "warning";
  /** What was wrong. */
  message: string;
  /** The file concerned. */
  path: string;
}

/** Templates and the problems met loading them. */
export interface LoadPromptTemplatesResult {
  /** Templates found. */
  templates: PromptTemplate[];
  /** Problems found. */
  diagnostics: PromptTemplateDiagnostic[];
}

function errorText(error: unknown, fallback: string): string {
  return error instanceof Error ? error.message : fallback;
}

function loadTemplateFile(filePath: string, sourceInfo: SourceInfo): LoadPromptTemplatesResult {
  let raw: string;
  try {
    raw = readTextFileSync(filePath);
  } catch (error) {
    return {
      templates: [],
      diagnostics: [{
        type: "warning",
        message: errorText(error, "failed to read prompt template file"),
        path: filePath,
      }],
    };
  }
  let parsed: { frontmatter: Record<string, unknown>; body: string };
  try {
    parsed = parseFrontmatter<Record<string, unknown>>(raw);
  } catch (error) {
    return {
      templates: [],
      diagnostics: [{
        type: "warning",
        message: errorText(error, "failed to parse prompt template file"),
        path: filePath,
      }],
    };
  }
  const { frontmatter, body } = parsed;
  let description = typeof frontmatter.description === "string" ? frontmatter.description : "";
  if (!description) {
    const firstLine = body.split("\n").find((line) => line.trim());
    if (firstLine) description = firstLine.length > 60 ? `${firstLine.slice(0, 60)}...` : firstLine;
  }
  const hint = frontmatter["argument-hint"];
  const template: PromptTemplate = {
    name: basename(filePath).replace(/\.md$/, ""),
    description,
    ...(typeof hint === "string" && hint ? { argumentHint: hint } : {}),
    content: body,
    sourceInfo,
    filePath,
  };
  return { templates: [template], diagnostics: [] };
}

function loadTemplatesFromDir(
  dir: string,
  sourceInfoOf: (path: string) => SourceInfo,
): LoadPromptTemplatesResult {
  const result: LoadPromptTemplatesResult = { templates: [], diagnostics: [] };
  if (!existsSync(dir)) return result;
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
      const one = loadTemplateFile(fullPath, sourceInfoOf(fullPath));
      result.templates.push(...one.templates);
      result.diagnostics.push(...one.diagnostics);
    }
  } catch { /* unreadable folder */ }
  return result;
}

/** Options of {@link loadPromptTemplates}. */
export interface LoadPromptTemplatesOptions {
  /** Working folder of the project. */
  cwd: string;
  /** Agent config folder. */
  agentDir: string;
  /** Extra files or folders (settings `prompts`, `--prompt-template`). */
  promptPaths: string[];
  /** Whether the default folders are searched. */
  includeDefaults: boolean;
}

/**
 * Loads templates from the agent dir's and project's `prompts` folders (not recursive) and extra
 * paths. Unreadable files and bad frontmatter are reported as diagnostics, not thrown.
 */
export function loadPromptTemplates(options: LoadPromptTemplatesOptions): LoadPromptTemplatesResult {
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
  const out: LoadPromptTemplatesResult = { templates: [], diagnostics: [] };
  const add = (r: LoadPromptTemplatesResult) => {
    out.templates.push(...r.templates);
    out.diagnostics.push(...r.diagnostics);
  };
  if (includeDefaults) {
    add(loadTemplatesFromDir(globalDir, sourceInfoOf));
    add(loadTemplatesFromDir(projectDir, sourceInfoOf));
  }
  for (const raw of promptPaths) {
    const path = resolveResourcePath(raw, cwd);
    if (!existsSync(path)) continue;
    try {
      const stats = Deno.statSync(path);
      if (stats.isDirectory) add(loadTemplatesFromDir(path, sourceInfoOf));
      else if (stats.isFile && path.endsWith(".md")) add(loadTemplateFile(path, sourceInfoOf(path)));
    } catch (error) {
      out.diagnostics.push({
        type: "warning",
        message: errorText(error, "failed to read prompt template path"),
        path,
      });
    }
  }
  return out;
}

/**
 * Expands `/name args` when `name` is a template (exact match; any whitespace separates the
 * name); other text comes back unchanged.
 */
export function expandPromptTemplate(text: string, templates: PromptTemplate[]): string {
  if (!text.startsWith("/")) return text;
  const match = text.match(/^\/([^\s]+)(?:\s+([\s\S]*))?$/);
  if (!match) return text;
  const template = templates.find((t) => t.name === match[1]);
  if (!template) return text;
  return substituteArgs(template.content, parseCommandArgs(match[2] ?? ""));
}
