/**
 * Agent Skills: discovery, validation, the system-prompt block, and `/skill:name` expansion.
 * A folder holding SKILL.md is one skill (not searched further); Markdown files directly in a
 * skills root are skills too. Hidden folders, node_modules and ignored paths are skipped.
 *
 * @module
 */
import { existsSync, readTextFileSync } from "../util/fs.ts";
import { basename, dirname, join, relative, resolve } from "../util/path.ts";
import type { Ignore } from "npm:ignore@7.0.17";
import { parseFrontmatter, stripFrontmatter } from "./frontmatter.ts";
import { resourceDeps } from "./resource_deps.ts";
import { addIgnoreRules, resolvedEntries, toPosix } from "./resource_fs.ts";
import { canonicalizePath, CONFIG_DIR_NAME, isUnderPath, resolveResourcePath } from "./resource_paths.ts";
import { createSyntheticSourceInfo, type SourceInfo } from "./source_info.ts";

const MAX_NAME_LENGTH = 64;
const MAX_DESCRIPTION_LENGTH = 1024;

/** A loaded skill. */
export interface Skill {
  /** Name of the skill. */
  name: string;
  /** What the skill is for, shown to the model. */
  description: string;
  /** Path of the SKILL.md file. */
  filePath: string;
  /** Folder of the skill; relative paths in the skill resolve against it. */
  baseDir: string;
  /** Where the skill was found. */
  sourceInfo: SourceInfo;
  /** Hidden from the system prompt; only `/skill:name` invokes it. */
  disableModelInvocation: boolean;
}

/** A problem found while loading resources. */
export interface ResourceDiagnostic {
  /** Diagnostic kind. */
  type: "warning" | "error" | "collision";
  /** What was wrong. */
  message: string;
  /** The file concerned. */
  path?: string;
  /** The two resources with the same name, and which one won. */
  collision?: {
    resourceType: "extension" | "skill" | "prompt" | "theme";
    name: string;
    winnerPath: string;
    loserPath: string;
  };
}

/** Skills and the problems met loading them. */
export interface LoadSkillsResult {
  /** Skills found. */
  skills: Skill[];
  /** Problems found. */
  diagnostics: ResourceDiagnostic[];
}

/** Where a skill folder came from: the user's agent dir, the project, an explicit path, or a package. */
export type SkillSource = "user" | "project" | "path" | string;

function validateName(name: string): string[] {
  const errors: string[] = [];
  if (name.length > MAX_NAME_LENGTH) {
    errors.push(`name exceeds ${MAX_NAME_LENGTH} characters (${name.length})`);
  }
  if (!/^[a-z0-9-]+$/.test(name)) {
    errors.push("name contains invalid characters (must be lowercase a-z, 0-9, hyphens only)");
  }
  if (name.startsWith("-") || name.endsWith("-")) errors.push("name must not start or end with a hyphen");
  if (name.includes("--")) errors.push("name must not contain consecutive hyphens");
  return errors;
}

function validateDescription(description: unknown): string[] {
  if (typeof description !== "string" || description.trim() === "") return ["description is required"];
  if (description.length > MAX_DESCRIPTION_LENGTH) {
    return [`description exceeds ${MAX_DESCRIPTION_LENGTH} characters (${description.length})`];
  }
  return [];
}

function sourceInfoFor(filePath: string, baseDir: string, source: SkillSource): SourceInfo {
  if (source === "user" || source === "project") {
    return createSyntheticSourceInfo(filePath, { source: "local", scope: source, baseDir });
  }
  if (source === "path") return createSyntheticSourceInfo(filePath, { source: "local", baseDir });
  return createSyntheticSourceInfo(filePath, { source, baseDir });
}

/** Loads one skill file; a missing description means no skill, only diagnostics. */
export function loadSkillFromFile(
  filePath: string,
  source: SkillSource,
): { skill: Skill | null; diagnostics: ResourceDiagnostic[] } {
  const diagnostics: ResourceDiagnostic[] = [];
  // A SKILL.md is a skill by name; any other Markdown file only when it has a description.
  const declared = basename(filePath) === "SKILL.md";
  let raw: string;
  try {
    raw = readTextFileSync(filePath);
  } catch (error) {
    const message = error instanceof Error ? error.message : "failed to read skill file";
    diagnostics.push({ type: "warning", message, path: filePath });
    return { skill: null, diagnostics };
  }
  let frontmatter: Record<string, unknown>;
  try {
    frontmatter = parseFrontmatter<Record<string, unknown>>(raw).frontmatter;
  } catch (error) {
    if (declared) {
      const message = error instanceof Error ? error.message : "failed to parse skill file";
      diagnostics.push({ type: "warning", message, path: filePath });
    }
    return { skill: null, diagnostics };
  }
  const description = frontmatter.description;
  const hasDescription = typeof description === "string" && description.trim() !== "";
  if (!declared && !hasDescription) return { skill: null, diagnostics };
  const skillDir = dirname(filePath);
  for (const message of validateDescription(description)) {
    diagnostics.push({ type: "warning", message, path: filePath });
  }
  const name = (typeof frontmatter.name === "string" && frontmatter.name) || basename(skillDir);
  for (const message of validateName(name)) diagnostics.push({ type: "warning", message, path: filePath });
  // Still loaded with warnings, unless the description is missing.
  if (!hasDescription) return { skill: null, diagnostics };
  return {
    skill: {
      name,
      description: description as string,
      filePath,
      baseDir: skillDir,
      sourceInfo: sourceInfoFor(filePath, skillDir, source),
      disableModelInvocation: frontmatter["disable-model-invocation"] === true,
    },
    diagnostics,
  };
}

/** Loads the skills under a folder (see the module doc for the layout rules). */
export function loadSkillsFromDir(options: { dir: string; source: SkillSource }): LoadSkillsResult {
  return loadFromDir(options.dir, options.source, true);
}

function loadFromDir(
  dir: string,
  source: SkillSource,
  includeRootFiles: boolean,
  matcher?: Ignore,
  rootDir = dir,
): LoadSkillsResult {
  const skills: Skill[] = [];
  const diagnostics: ResourceDiagnostic[] = [];
  if (!existsSync(dir)) return { skills, diagnostics };
  const ig = matcher ?? resourceDeps().createIgnore();
  addIgnoreRules(ig, dir, rootDir);
  try {
    const entries = resolvedEntries(dir);
    const skillFile = entries.find((e) => e.name === "SKILL.md" && e.isFile);
    if (skillFile && !ig.ignores(toPosix(relative(rootDir, skillFile.path)))) {
      const result = loadSkillFromFile(skillFile.path, source);
      if (result.skill) skills.push(result.skill);
      diagnostics.push(...result.diagnostics);
      return { skills, diagnostics };
    }
    for (const entry of entries) {
      if (entry.name.startsWith(".") || entry.name === "node_modules") continue;
      const rel = toPosix(relative(rootDir, entry.path));
      if (ig.ignores(entry.isDir ? `${rel}/` : rel)) continue;
      if (entry.isDir) {
        const sub = loadFromDir(entry.path, source, false, ig, rootDir);
        skills.push(...sub.skills);
        diagnostics.push(...sub.diagnostics);
      } else if (entry.isFile && includeRootFiles && entry.name.endsWith(".md")) {
        const result = loadSkillFromFile(entry.path, source);
        if (result.skill) skills.push(result.skill);
        diagnostics.push(...result.diagnostics);
      }
    }
  } catch { /* unreadable folders contribute nothing */ }
  return { skills, diagnostics };
}

/** Options of {@link loadSkills}. */
export interface LoadSkillsOptions {
  /** Working folder of the project. */
  cwd: string;
  /** Agent config folder. */
  agentDir: string;
  /** Extra files or folders (settings `skills`, `--skill`). */
  skillPaths: string[];
  /** Also search the agent dir's and the project's `skills` folders. */
  includeDefaults: boolean;
}

/** Loads skills from every configured place; on a name collision the first one wins. */
export function loadSkills(options: LoadSkillsOptions): LoadSkillsResult {
  const { cwd, agentDir, skillPaths, includeDefaults } = options;
  const byName = new Map<string, Skill>();
  const realPaths = new Set<string>();
  const diagnostics: ResourceDiagnostic[] = [];
  const collisions: ResourceDiagnostic[] = [];
  const add = (result: LoadSkillsResult) => {
    diagnostics.push(...result.diagnostics);
    for (const skill of result.skills) {
      const real = canonicalizePath(skill.filePath);
      if (realPaths.has(real)) continue;
      const existing = byName.get(skill.name);
      if (existing) {
        collisions.push({
          type: "collision",
          message: `name "${skill.name}" collision`,
          path: skill.filePath,
          collision: {
            resourceType: "skill",
            name: skill.name,
            winnerPath: existing.filePath,
            loserPath: skill.filePath,
          },
        });
      } else {
        byName.set(skill.name, skill);
        realPaths.add(real);
      }
    }
  };
  const userDir = join(agentDir, "skills");
  const projectDir = resolve(cwd, CONFIG_DIR_NAME, "skills");
  if (includeDefaults) {
    add(loadFromDir(userDir, "user", true));
    add(loadFromDir(projectDir, "project", true));
  }
  const sourceOf = (path: string): SkillSource => {
    if (!includeDefaults) {
      if (isUnderPath(path, userDir)) return "user";
      if (isUnderPath(path, projectDir)) return "project";
    }
    return "path";
  };
  for (const raw of skillPaths) {
    const path = resolveResourcePath(raw, cwd);
    if (!existsSync(path)) {
      diagnostics.push({ type: "warning", message: "skill path does not exist", path });
      continue;
    }
    try {
      const stats = Deno.statSync(path);
      if (stats.isDirectory) {
        add(loadFromDir(path, sourceOf(path), true));
      } else if (stats.isFile && path.endsWith(".md")) {
        const result = loadSkillFromFile(path, sourceOf(path));
        if (result.skill) add({ skills: [result.skill], diagnostics: result.diagnostics });
        else diagnostics.push(...result.diagnostics);
      } else {
        diagnostics.push({ type: "warning", message: "skill path is not a markdown file", path });
      }
    } catch (error) {
      diagnostics.push({
        type: "warning",
        message: error instanceof Error ? error.message : "failed to read skill path",
        path,
      });
    }
  }
  return { skills: [...byName.values()], diagnostics: [...diagnostics, ...collisions] };
}

function escapeXml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;")
    .replace(/'/g, "&apos;");
}

/**
 * How the model can read a skill file: the `read` tool, `bash`, or "indirect" when the reader is
 * hidden from the model but reachable through another tool (the hint then names no tool).
 */
export type SkillFileReadTool = "read" | "bash" | "indirect";

/** The system-prompt block listing the skills the model may load ("" when none are visible). */
export function formatSkillsForPrompt(skills: Skill[], fileReadTool: SkillFileReadTool = "read"): string {
  const visible = skills.filter((s) => !s.disableModelInvocation);
  if (visible.length === 0) return "";
  const hint = fileReadTool === "read"
    ? "Use the read tool to load a skill's file when the task matches its description."
    : fileReadTool === "bash"
    ? "Use bash to load a skill's file when the task matches its description."
    : "Load a skill's file when the task matches its description.";
  const lines = [
    "\n\nThe following skills provide specialized instructions for specific tasks.",
    hint,
    "Resolve relative paths against the skill's directory (parent of SKILL.md). Use absolute paths in tool calls.",
    "",
    "<available_skills>",
  ];
  for (const skill of visible) {
    lines.push(
      "  <skill>",
      `    <name>${escapeXml(skill.name)}</name>`,
      `    <description>${escapeXml(skill.description)}</description>`,
      `    <location>${escapeXml(skill.filePath)}</location>`,
      "  </skill>",
    );
  }
  lines.push("</available_skills>");
  return lines.join("\n");
}

/**
 * Expands `/skill:name args` into the skill's body wrapped in a `<skill>` block (RES-04).
 * Text that is not a skill command, or names an unknown skill, comes back unchanged.
 */
export function expandSkillCommand(text: string, skills: Skill[]): string {
  if (!text.startsWith("/skill:")) return text;
  const space = text.indexOf(" ");
  const name = space === -1 ? text.slice(7) : text.slice(7, space);
  const args = space === -1 ? "" : text.slice(space + 1).trim();
  const skill = skills.find((s) => s.name === name);
  if (!skill) return text;
  let body: string;
  try {
    body = stripFrontmatter(readTextFileSync(skill.filePath)).trim();
  } catch {
    return text;
  }
  const block =
    `<skill name="${skill.name}" location="${skill.filePath}">\nReferences are relative to ${skill.baseDir}.\n\n${body}\n</skill>`;
  return args ? `${block}\n\n${args}` : block;
}
