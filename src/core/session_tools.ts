/**
 * The tools of an AgentSession and the system prompt that describes them: built-in tools with
 * the settings that shape them, SDK tools on top, `--tools` as an allow-list, `defaultTools` as the
 * selection when nothing else chooses.
 *
 * @module
 */
import type { AgentTool } from "../agent/types.ts";
import type { SettingsManager } from "../config/settings_manager.ts";
import { DEFAULT_TOOL_NAMES } from "../config/settings_manager_extras.ts";
import { getDocumentationPaths } from "../resources/documentation.ts";
import type { DefaultResourceLoader } from "../resources/resource_loader.ts";
import { type BuildSystemPromptOptions, buildSystemPromptSections } from "../resources/system_prompt.ts";
import { getSystemMessageText } from "../session/system_message.ts";
import type { BashSessionEnvironment } from "../tools/bash.ts";
import { createAllTools } from "../tools/index.ts";
import { toolNameMatcher } from "../tools/tool_name_matcher.ts";

/** A tool with the metadata the system prompt uses. */
export type SessionTool = AgentTool & { promptSnippet?: string; promptGuidelines?: string[] };

/** What the tool set is built from. */
export interface ToolSetOptions {
  cwd: string;
  settingsManager: SettingsManager;
  customTools?: SessionTool[];
  initialActiveToolNames?: string[];
  allowedToolNames?: string[];
  /** Names or `*` patterns of tools that do not exist in the session (SDK `excludeTools`), after `allowedToolNames`. */
  excludedToolNames?: string[];
  baseToolsOverride?: Record<string, SessionTool>;
  /** What the bash tool tells commands through `PI_SESSION_*`, `PI_PROVIDER`, `PI_MODEL`, `PI_REASONING_LEVEL`. */
  sessionEnvironment?: () => BashSessionEnvironment | undefined;
}

/** Every available tool by name, and the names active at start. */
export function buildToolSet(
  options: ToolSetOptions,
): { registry: Map<string, SessionTool>; active: string[] } {
  const allowed = options.allowedToolNames ? new Set(options.allowedToolNames) : undefined;
  const excluded = options.excludedToolNames ? toolNameMatcher(options.excludedToolNames) : undefined;
  const isAllowed = (name: string) => (!allowed || allowed.has(name)) && !excluded?.(name);
  const settings = options.settingsManager;
  const base: Record<string, SessionTool> = options.baseToolsOverride ?? createAllTools(options.cwd, {
    read: { autoResizeImages: settings.getImageAutoResize() },
    bash: {
      commandPrefix: settings.getShellCommandPrefix(),
      shellPath: settings.getShellPath(),
      sessionEnvironment: options.sessionEnvironment,
    },
  });
  const registry = new Map<string, SessionTool>();
  for (const [name, tool] of Object.entries(base)) if (isAllowed(name)) registry.set(name, tool);
  for (const tool of options.customTools ?? []) if (isAllowed(tool.name)) registry.set(tool.name, tool);
  // Without an explicit list the `defaultTools` setting chooses (names it cannot find are dropped
  // when the session activates them).
  const defaults = options.baseToolsOverride
    ? Object.keys(options.baseToolsOverride)
    : settings.getDefaultTools() ?? [...DEFAULT_TOOL_NAMES];
  const active = (options.initialActiveToolNames ?? defaults).filter(isAllowed);
  if (allowed) {
    for (const name of registry.keys()) if (allowed.has(name)) active.push(name);
  } else {
    for (const tool of options.customTools ?? []) active.push(tool.name);
  }
  return { registry, active: [...new Set(active)] };
}

/**
 * The inputs of the system prompt for the active tools and the loaded resources (1.6.0's base
 * `systemPromptOptions`: what `before_agent_start` handlers and `ctx.getSystemPromptOptions()` see).
 */
export function sessionSystemPromptOptions(
  registry: Map<string, SessionTool>,
  toolNames: string[],
  loader: DefaultResourceLoader,
  cwd: string,
  extraSections?: Record<string, string>,
): BuildSystemPromptOptions {
  const snippets: Record<string, string> = {};
  const toolGuidelines: Record<string, string[]> = {};
  for (const name of toolNames) {
    const tool = registry.get(name);
    const snippet = tool?.promptSnippet?.replace(/[\r\n]+/g, " ").replace(/\s+/g, " ").trim();
    if (snippet) snippets[name] = snippet;
    const own = new Set((tool?.promptGuidelines ?? []).map((g) => g.trim()).filter((g) => g.length > 0));
    if (own.size > 0) toolGuidelines[name] = [...own];
  }
  const append = loader.getAppendSystemPrompt();
  return {
    customPrompt: loader.getSystemPrompt(),
    selectedTools: toolNames,
    hiddenTools: [],
    toolSnippets: snippets,
    toolGuidelines,
    promptGuidelines: [],
    appendSystemPrompt: append.length > 0 ? append.join("\n\n") : "",
    sections: { ...extraSections },
    cwd,
    contextFiles: loader.getAgentsFiles().agentsFiles,
    skills: loader.getSkills().skills,
    documentation: getDocumentationPaths(),
  };
}

/**
 * The system prompt for the active tools and the loaded resources: its named sections (what the
 * session's `system` messages record) and the text they make (what the provider is sent).
 */
export function buildSessionSystemPrompt(
  registry: Map<string, SessionTool>,
  toolNames: string[],
  loader: DefaultResourceLoader,
  cwd: string,
  extraSections?: Record<string, string>,
): { sections: Record<string, string>; text: string } {
  const sections = buildSystemPromptSections(
    sessionSystemPromptOptions(registry, toolNames, loader, cwd, extraSections),
  );
  return { sections, text: getSystemMessageText({ content: "", sections }) };
}
