/**
 * What extensions add to, and see of, the resources and the system prompt (pi 1.6.0):
 * `resources_discover` (skill, prompt template and theme paths added after `session_start`, asked
 * again after a reload), `systemPromptOptions` (the inputs the prompt is built from, which
 * `before_agent_start` handlers edit for one run and `ctx.getSystemPromptOptions()` returns), and
 * `ctx.reload()` for commands.
 *
 * @module
 */
import type { DiscoveredResourcePaths, ExtensionRunner } from "../extensions/runner.ts";
import type { ExtensionResourcePath } from "../resources/resource_loader.ts";
import {
  type BuildSystemPromptOptions,
  buildSystemPromptSections,
  type DocumentationPaths,
} from "../resources/system_prompt.ts";
import { getSystemMessageText } from "../session/system_message.ts";
import { basename, dirname } from "../util/path.ts";
import type { AgentSession } from "./agent_session.ts";

/** 1.6.0's label for resources an extension added: `extension:<file name without .ts/.js>`. */
function extensionSource(extensionPath: string): string {
  if (extensionPath.startsWith("<")) return `extension:${extensionPath.replace(/[<>]/g, "")}`;
  return `extension:${basename(extensionPath).replace(/\.(ts|js)$/, "")}`;
}

function withProvenance(entries: DiscoveredResourcePaths["skillPaths"]): ExtensionResourcePath[] {
  return entries.map(({ path, extensionPath }) => ({
    path,
    metadata: {
      source: extensionSource(extensionPath),
      scope: "temporary",
      origin: "top-level",
      ...(extensionPath.startsWith("<") ? {} : { baseDir: dirname(extensionPath) }),
    },
  }));
}

/**
 * Runs `resources_discover` (after `session_start`, as 1.6.0) and adds what the handlers returned
 * to the session's resources; the system prompt is rebuilt when anything was added.
 */
export async function discoverExtensionResources(
  runner: ExtensionRunner,
  session: AgentSession,
  reason: "startup" | "reload",
): Promise<void> {
  if (!runner.hasHandlers("resources_discover")) return;
  const found = await runner.emitResourcesDiscover(session.cwd, reason);
  if (found.skillPaths.length + found.promptPaths.length + found.themePaths.length === 0) return;
  await session.resourceLoader.extendResources({
    skillPaths: withProvenance(found.skillPaths),
    promptPaths: withProvenance(found.promptPaths),
    themePaths: withProvenance(found.themePaths),
  });
  session.refreshSystemPrompt();
}

/** The options as extensions get them: 1.6.0's fields, without our documentation paths. */
export function extensionPromptOptions(options: BuildSystemPromptOptions): Record<string, unknown> {
  const { documentation: _documentation, ...rest } = options;
  return {
    // 1.6.0 lists both even when unset.
    customPrompt: undefined,
    forceSystemPrompt: undefined,
    ...rest,
    selectedTools: [...(rest.selectedTools ?? [])],
    hiddenTools: [...(rest.hiddenTools ?? [])],
    toolSnippets: { ...rest.toolSnippets },
    toolGuidelines: Object.fromEntries(
      Object.entries(rest.toolGuidelines ?? {}).map(([name, list]) => [name, [...list]]),
    ),
    promptGuidelines: [...(rest.promptGuidelines ?? [])],
    sections: { ...rest.sections },
    contextFiles: (rest.contextFiles ?? []).map((file) => ({ ...file })),
    skills: (rest.skills ?? []).map((skill) => ({ ...skill })),
  };
}

/** Options an extension may have edited, made whole again for the prompt builder. */
function builderOptions(
  options: Record<string, unknown>,
  documentation: DocumentationPaths,
): BuildSystemPromptOptions {
  return { ...options, documentation } as unknown as BuildSystemPromptOptions;
}

/** The prompt text `options` make (a forced prompt as it is). */
export function renderPromptOptions(
  options: Record<string, unknown>,
  documentation: DocumentationPaths,
): string {
  const whole = builderOptions(options, documentation);
  if (whole.forceSystemPrompt !== undefined) return whole.forceSystemPrompt;
  return getSystemMessageText({ content: "", sections: buildSystemPromptSections(whole) });
}

/**
 * What a run uses after `before_agent_start` handlers edited `options`: the sections the transcript
 * records (the structured prompt, even under a forced one, as in 1.6.0) and the text the provider
 * gets. Undefined fields: the base prompt is unchanged.
 */
export function promptForRun(
  options: Record<string, unknown>,
  base: BuildSystemPromptOptions,
): { systemPrompt?: string; sections?: Record<string, string> } {
  const whole = builderOptions({ ...options, forceSystemPrompt: undefined }, base.documentation);
  const sections = buildSystemPromptSections(whole);
  const baseSections = buildSystemPromptSections(base);
  const changed = JSON.stringify(sections) !== JSON.stringify(baseSections);
  const forced = options.forceSystemPrompt as string | undefined;
  if (!changed && forced === undefined) return {};
  return {
    systemPrompt: forced ?? getSystemMessageText({ content: "", sections }),
    ...(changed ? { sections } : {}),
  };
}

/** A command's `ctx.getSystemPromptOptions()` and `ctx.reload()`. */
export function resourceCommandMembers(host: {
  session(): AgentSession;
  reload: (() => Promise<void>) | undefined;
  mode(): string;
}): Record<string, unknown> {
  return {
    getSystemPromptOptions: () => extensionPromptOptions(host.session().getSystemPromptOptions()),
    reload: () =>
      host.reload
        ? host.reload()
        : Promise.reject(new Error(`ctx.reload() is not available in ${host.mode()} mode in this build yet`)),
  };
}
