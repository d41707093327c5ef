/**
 * Session commands: replacing the session (new, switch, fork, clone), naming it, statistics,
 * fork candidates, the last reply, export, and the invocable slash commands.
 *
 * @module
 */
import { extensionHostOf } from "../../../core/extension_host.ts";
import type { RpcSlashCommand } from "../rpc_types.ts";
import { fail, ok, type RpcCommandContext, type RpcHandlerTable } from "./context.ts";

/**
 * Ends a run still streaming before its session is replaced, so its `message_end`, `turn_end`,
 * `agent_end` and `agent_settled` still reach the client (one waiting for them would hang).
 */
async function endRunningTurn(ctx: RpcCommandContext): Promise<void> {
  if (ctx.session.isStreaming) await ctx.session.abort();
}

/** Handlers of the session commands. */
export const sessionHandlers: RpcHandlerTable = {
  async new_session(command, ctx) {
    await endRunningTurn(ctx);
    const options = command.parentSession ? { parentSession: command.parentSession } : undefined;
    const result = await ctx.host.newSession(options);
    if (!result.cancelled) ctx.rebind();
    return ok(command.id, "new_session", result);
  },

  async switch_session(command, ctx) {
    await endRunningTurn(ctx);
    const result = await ctx.host.switchSession(command.sessionPath);
    if (!result.cancelled) ctx.rebind();
    return ok(command.id, "switch_session", result);
  },

  async fork(command, ctx) {
    await endRunningTurn(ctx);
    const result = await ctx.host.fork(command.entryId);
    if (!result.cancelled) ctx.rebind();
    return ok(command.id, "fork", { text: result.selectedText as string, cancelled: result.cancelled });
  },

  async clone(command, ctx) {
    const leafId = ctx.session.sessionManager.getLeafId();
    if (!leafId) return fail(command.id, "clone", "Cannot clone session: no current entry selected");
    await endRunningTurn(ctx);
    const result = await ctx.host.fork(leafId, { position: "at" });
    if (!result.cancelled) ctx.rebind();
    return ok(command.id, "clone", { cancelled: result.cancelled });
  },

  get_session_stats(command, ctx) {
    return ok(command.id, "get_session_stats", ctx.session.getSessionStats());
  },

  async export_html(command, ctx) {
    const path = await ctx.session.exportToHtml(command.outputPath);
    return ok(command.id, "export_html", { path });
  },

  get_fork_messages(command, ctx) {
    return ok(command.id, "get_fork_messages", { messages: ctx.session.getUserMessagesForForking() });
  },

  get_entries(command, ctx) {
    const manager = ctx.session.sessionManager;
    let entries = manager.getEntries();
    if (command.since !== undefined) {
      const index = entries.findIndex((entry) => entry.id === command.since);
      if (index === -1) return fail(command.id, "get_entries", `Entry not found: ${command.since}`);
      entries = entries.slice(index + 1);
    }
    return ok(command.id, "get_entries", { entries, leafId: manager.getLeafId() });
  },

  get_tree(command, ctx) {
    const manager = ctx.session.sessionManager;
    return ok(command.id, "get_tree", { tree: manager.getTree(), leafId: manager.getLeafId() });
  },

  get_last_assistant_text(command, ctx) {
    // An absent text leaves `data` as `{}`, as the reference answers.
    return ok(command.id, "get_last_assistant_text", { text: ctx.session.getLastAssistantText() });
  },

  set_session_name(command, ctx) {
    const name = command.name.trim();
    if (!name) return fail(command.id, "set_session_name", "Session name cannot be empty");
    ctx.session.setSessionName(name);
    return ok(command.id, "set_session_name");
  },

  get_commands(command, ctx) {
    // Extension commands first, then templates, then skills (1.6.0's order).
    const commands = (extensionHostOf(ctx.session)?.commandList() ?? []) as RpcSlashCommand[];
    for (const template of ctx.session.promptTemplates) {
      commands.push({
        name: template.name,
        description: template.description,
        source: "prompt",
        sourceInfo: template.sourceInfo,
      });
    }
    for (const skill of ctx.session.resourceLoader.getSkills().skills) {
      commands.push({
        name: `skill:${skill.name}`,
        description: skill.description,
        source: "skill",
        sourceInfo: skill.sourceInfo,
      });
    }
    return ok(command.id, "get_commands", { commands });
  },
};
