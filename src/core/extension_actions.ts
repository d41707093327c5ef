/**
 * The session actions behind the `pi` object (`sendMessage`, `sendUserMessage`, `appendEntry`,
 * tools, commands, model and thinking level), bound to one {@link AgentSession} with 1.6.0's
 * rules: a failed send is reported as an extension error from `<runtime>`.
 *
 * @module
 */
import type { ImageContent } from "../ai/types.ts";
import type { ExtensionRunner } from "../extensions/runner.ts";
import type { ExtensionContext, ExtensionHostActions } from "../extensions/types.ts";
import type { SourceInfo } from "../resources/source_info.ts";
import type { AgentSession } from "./agent_session.ts";

/** What the actions need of the extension host. */
export interface ActionHost {
  runner: ExtensionRunner;
  /** Adds tools registered since start-up to the session. */
  refreshTools(): void;
  /** The extensions' commands as `get_commands` lists them. */
  commandList(): { name: string; description?: string; source: string; sourceInfo?: SourceInfo }[];
  context(): ExtensionContext;
}

/** The `pi` object's session actions for `session`. */
export function sessionActions(session: AgentSession, host: ActionHost): ExtensionHostActions {
  const report = (event: string) => (error: unknown) =>
    host.runner.emitError({
      extensionPath: "<runtime>",
      event,
      error: error instanceof Error ? error.message : String(error),
    });
  return {
    sendMessage: (message, options) => {
      session.sendCustomMessage(
        message as Parameters<AgentSession["sendCustomMessage"]>[0],
        options as Parameters<AgentSession["sendCustomMessage"]>[1],
      ).catch(report("send_message"));
    },
    sendUserMessage: (content, options) => {
      let text: string;
      let images: ImageContent[] | undefined;
      if (typeof content === "string") text = content;
      else {
        text = content.flatMap((part) => part.type === "text" ? [part.text] : []).join("\n");
        const parts = content.filter((part): part is ImageContent => part.type === "image");
        images = parts.length > 0 ? parts : undefined;
      }
      session.prompt(text, {
        expandPromptTemplates: false,
        streamingBehavior: options?.deliverAs,
        images,
        source: "extension",
      }).catch(report("send_user_message"));
    },
    appendEntry: (customType, data) => session.appendCustomEntry(customType, data),
    setSessionName: (name) => session.setSessionName(name),
    getSessionName: () => session.sessionName,
    getActiveTools: () => session.getActiveToolNames(),
    getAllTools: () => session.getAllTools(),
    setActiveTools: (names) => session.setActiveToolsByName(names),
    refreshTools: () => host.refreshTools(),
    getCommands: () => [
      ...host.commandList(),
      ...session.promptTemplates.map((t) => ({
        name: t.name,
        description: t.description,
        source: "prompt",
        sourceInfo: t.sourceInfo,
      })),
      ...session.resourceLoader.getSkills().skills.map((skill) => ({
        name: `skill:${skill.name}`,
        description: skill.description,
        source: "skill",
        sourceInfo: skill.sourceInfo,
      })),
    ],
    setModel: async (model) => {
      const m = model as { provider: string };
      if (!session.modelRegistry.hasConfiguredAuth(m as never)) return false;
      await session.setModel(model as never);
      return true;
    },
    getThinkingLevel: () => session.thinkingLevel,
    setThinkingLevel: (level) => session.setThinkingLevel(level as never),
    context: () => host.context(),
  };
}
