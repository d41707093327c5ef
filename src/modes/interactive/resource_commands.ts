/**
 * The slash commands that come from loaded resources, for the editor's completion list, as pi 1.6.0 offers
 * them after its built-in ones: prompt templates, extension commands (not those named like a built-in), and
 * `/skill:<name>` for each skill when skill commands are on. A description starts with the resource's
 * source tag: `[u]` user, `[p]` project, `[t]` this run only, followed by `:npm:…` or `:git:host/path@ref`
 * for a package's resources; built-in extensions have none.
 *
 * @module
 */
import type { AgentSession } from "../../core/agent_session.ts";
import type { ExtensionHost } from "../../core/extension_host.ts";
import type { SourceInfo } from "../../resources/source_info.ts";
import { parseGitSource } from "../../resources/packages/package_source.ts";
import type { SlashCommand } from "../../tui/mod.ts";
import { BUILTIN_SLASH_COMMANDS } from "./slash_commands.ts";

/** The tag 1.6.0 puts before a resource command's description, or undefined for none. */
export function sourceTag(sourceInfo: SourceInfo | undefined): string | undefined {
  if (!sourceInfo || sourceInfo.source === "builtin") return undefined;
  const scope = sourceInfo.scope === "user" ? "u" : sourceInfo.scope === "project" ? "p" : "t";
  const source = sourceInfo.source.trim();
  if (source === "auto" || source === "local" || source === "cli") return scope;
  if (source.startsWith("npm:")) return `${scope}:${source}`;
  const git = parseGitSource(source);
  if (git) return `${scope}:git:${git.host}/${git.path}${git.ref ? `@${git.ref}` : ""}`;
  return scope;
}

/** `[tag] description`, `[tag]` alone, or the description untouched when there is no tag. */
export function taggedDescription(
  description: string | undefined,
  sourceInfo: SourceInfo | undefined,
): string | undefined {
  const tag = sourceTag(sourceInfo);
  if (!tag) return description;
  return description ? `[${tag}] ${description}` : `[${tag}]`;
}

/** The completion entries for `session`'s prompt templates, extension commands and skills, in 1.6.0's order. */
export function resourceCommands(
  session: AgentSession,
  extensions: ExtensionHost | undefined,
): SlashCommand[] {
  const templates: SlashCommand[] = session.promptTemplates.map((template) => ({
    name: template.name,
    description: taggedDescription(template.description, template.sourceInfo),
    ...(template.argumentHint ? { argumentHint: template.argumentHint } : {}),
  }));
  const builtins = new Set(BUILTIN_SLASH_COMMANDS.map((command) => command.name));
  const commands: SlashCommand[] = (extensions?.commandList() ?? [])
    .filter((command) => !builtins.has(command.name))
    .map((command) => ({
      name: command.name,
      description: taggedDescription(command.description, command.sourceInfo),
    }));
  const skills: SlashCommand[] = session.settingsManager.getEnableSkillCommands()
    ? session.resourceLoader.getSkills().skills.map((skill) => ({
      name: `skill:${skill.name}`,
      description: taggedDescription(skill.description, skill.sourceInfo),
    }))
    : [];
  return [...templates, ...commands, ...skills];
}
