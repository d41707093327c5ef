/**
 * The chat transcript: turns session events into message views (user, streaming assistant
 * replies, tool rows) and draws stored messages of a resumed session the same way. It also keeps
 * the queued steering and follow-up messages shown below the chat.
 *
 * @module
 */
import type { AgentMessage, AgentToolResult } from "../../agent/types.ts";
import type { AssistantMessage, ToolResultMessage } from "../../ai/types.ts";
import type { AgentSessionEvent } from "../../core/agent_session_types.ts";
import { userText } from "../../core/session_stats.ts";
import type {
  BashExecutionMessage,
  BranchSummaryMessage,
  CompactionSummaryMessage,
  CustomMessage,
} from "../../session/messages.ts";
import type { CustomEntry } from "../../session/entries.ts";
import { type Component, Container, Spacer, Text, TruncatedText, type TUI } from "../../tui/mod.ts";
import { APP_KEYS } from "./app_keys.ts";
import { BashExecutionView } from "./bash_execution.ts";
import { BranchSummaryView } from "./branch_summary.ts";
import { AssistantMessageView, HIDDEN_THINKING_LABEL, UserMessageView } from "./chat_messages.ts";
import { CompactionSummaryView } from "./compaction_summary.ts";
import { CustomEntryView } from "./custom_entry_view.ts";
import { CustomMessageView } from "./custom_message_view.ts";
import { type ExtensionRenderers, NO_RENDERERS } from "./extension_renderers.ts";
import { keyDisplayText } from "./hotkeys.ts";
import type { Theme } from "./theme.ts";
import { ToolExecutionView } from "./tool_execution.ts";
import type { RenderPaths } from "./tool_renderers.ts";

/** The chat and the pending-message area, fed with session events. */
export class ChatView {
  /** The transcript. */
  readonly chat = new Container();
  /** Queued steering and follow-up messages. */
  readonly pending = new Container();
  #streaming?: AssistantMessageView;
  #tools = new Map<string, ToolExecutionView>();
  #expanded = false;
  #hideThinking: boolean;
  /** The row shown for hidden thinking (extensions may rename it). */
  #hiddenLabel = HIDDEN_THINKING_LABEL;
  #lastStatus?: Text;
  /** `!` commands run while a reply streamed: shown below the chat until the run settles. */
  #pendingBash: BashExecutionView[] = [];
  #queued: [readonly string[], readonly string[]] = [[], []];
  /** The renderers extensions registered; the app sets it. */
  renderers: ExtensionRenderers = NO_RENDERERS;

  /** A chat drawn with `theme`; `hideThinking` as the hideThinkingBlock setting. */
  constructor(
    private readonly theme: Theme,
    hideThinking: boolean,
    private readonly paths: RenderPaths = { cwd: Deno.cwd() },
  ) {
    this.#hideThinking = hideThinking;
  }

  /** Whether tool output is expanded. */
  get toolsExpanded(): boolean {
    return this.#expanded;
  }

  /** Expands or collapses every tool row. */
  setToolsExpanded(expanded: boolean): void {
    this.#expanded = expanded;
    for (const child of [...this.chat.children, ...this.#pendingBash]) {
      if (
        child instanceof ToolExecutionView || child instanceof BashExecutionView ||
        child instanceof CompactionSummaryView || child instanceof BranchSummaryView ||
        child instanceof CustomMessageView || child instanceof CustomEntryView
      ) {
        child.setExpanded(expanded);
      }
    }
  }

  /** Whether thinking text is hidden. */
  get thinkingHidden(): boolean {
    return this.#hideThinking;
  }

  /** Hides or shows thinking in every reply. */
  setHideThinking(hide: boolean): void {
    this.#hideThinking = hide;
    for (const child of this.chat.children) {
      if (child instanceof AssistantMessageView) child.setHideThinking(hide);
    }
  }

  /** Renames the row shown for hidden thinking in every reply (undefined: 1.6.0's default). */
  setHiddenThinkingLabel(label: string | undefined): void {
    this.#hiddenLabel = label ?? HIDDEN_THINKING_LABEL;
    for (const child of this.chat.children) {
      if (child instanceof AssistantMessageView) child.setHiddenThinkingLabel(this.#hiddenLabel);
    }
    this.#streaming?.setHiddenThinkingLabel(this.#hiddenLabel);
  }

  /** A dim line (status), a warning or an error, each after a blank row. */
  addNotice(kind: "status" | "warning" | "error" | "success", text: string): void {
    const token = kind === "status" ? "dim" : kind === "success" ? "accent" : kind;
    const prefix = kind === "warning" ? "Warning: " : kind === "error" ? "Error: " : "";
    const styled = this.theme.fg(token, prefix + text);
    const children = this.chat.children;
    // A status line right after the previous one replaces it, as in 1.6.0.
    if (kind === "status" && this.#lastStatus && children[children.length - 1] === this.#lastStatus) {
      this.#lastStatus.setText(styled);
      return;
    }
    const line = new Text(styled, 1, 0);
    this.chat.addChild(new Spacer(1));
    this.chat.addChild(line);
    this.#lastStatus = kind === "status" ? line : undefined;
  }

  /** Adds any component after a blank row. */
  addBlock(...components: Component[]): void {
    this.chat.addChild(new Spacer(1));
    for (const c of components) this.chat.addChild(c);
  }

  /** Shows a `!` command: in the chat, or (`deferred`, while a reply streams) below it. */
  addBash(view: BashExecutionView, deferred: boolean): void {
    view.setExpanded(this.#expanded);
    if (!deferred) {
      this.chat.addChild(view);
      return;
    }
    this.#pendingBash.push(view);
    this.setQueued(...this.#queued);
  }

  /** Moves the `!` commands shown below the chat into it (the session recorded them). */
  flushPendingBash(): void {
    if (this.#pendingBash.length === 0) return;
    for (const view of this.#pendingBash) this.chat.addChild(view);
    this.#pendingBash = [];
    this.setQueued(...this.#queued);
  }

  /** Empties the transcript (a new session). */
  clear(): void {
    for (const child of this.chat.children) if (child instanceof ToolExecutionView) child.dispose();
    for (const view of this.#pendingBash) view.dispose();
    this.#pendingBash = [];
    this.chat.clear();
    this.#tools.clear();
    this.#streaming = undefined;
  }

  #addUser(message: AgentMessage): void {
    const text = userText(message);
    if (!text) return;
    if (this.chat.children.length > 0) this.chat.addChild(new Spacer(1));
    this.chat.addChild(new UserMessageView(text, this.theme));
  }

  /** A custom message an extension sent to be shown (`display: true`). */
  #addCustom(message: CustomMessage): void {
    if (!message.display) return;
    const view = new CustomMessageView(this.theme, message, this.renderers.message(message.customType));
    view.setExpanded(this.#expanded);
    this.chat.addChild(view);
  }

  /** A custom entry an extension appended, when a renderer draws it; above a streaming reply. */
  #addEntry(entry: CustomEntry): boolean {
    const renderer = this.renderers.entry(entry.customType);
    if (!renderer) return false;
    const view = new CustomEntryView(this.theme, entry, renderer);
    view.setExpanded(this.#expanded);
    if (!view.hasContent) return false;
    const at = this.#streaming ? this.chat.children.indexOf(this.#streaming) : -1;
    if (at >= 0) this.chat.children.splice(at, 0, view);
    else this.chat.addChild(view);
    return true;
  }

  #toolView(id: string, name: string, args: unknown): ToolExecutionView {
    let view = this.#tools.get(id);
    if (!view) {
      const renderers = this.renderers.tool(name);
      view = new ToolExecutionView(
        this.theme,
        name,
        args,
        this.paths,
        renderers ? { renderers, toolCallId: id } : undefined,
      );
      view.onTick = () => this.onChange();
      view.setExpanded(this.#expanded);
      this.chat.addChild(view);
      this.#tools.set(id, view);
    }
    return view;
  }

  #showToolCalls(message: AssistantMessage): void {
    for (const block of message.content) {
      if (block.type !== "toolCall") continue;
      const known = this.#tools.get(block.id);
      if (known) known.updateArgs(block.arguments);
      else this.#toolView(block.id, block.name, block.arguments);
    }
  }

  /** Called when something changed outside an event (an edit's preview is ready); the app redraws. */
  onChange: () => void = () => {};

  /** The notice of an aborted reply; the app sets it to count retries. */
  abortText: () => string = () => "Operation aborted";

  /** Applies one session event; true when something visible changed. */
  handleEvent(event: AgentSessionEvent): boolean {
    switch (event.type) {
      case "agent_start":
        this.#tools.clear();
        return false;
      case "message_start":
        if (event.message.role === "custom") {
          this.#addCustom(event.message as CustomMessage);
          return true;
        }
        if (event.message.role === "user") {
          this.#addUser(event.message);
          return true;
        }
        if (event.message.role === "assistant") {
          this.#streaming = new AssistantMessageView(this.theme, this.#hideThinking, this.#hiddenLabel);
          this.chat.addChild(this.#streaming);
          this.#streaming.update(event.message as AssistantMessage);
          return true;
        }
        return false;
      case "message_update":
        if (this.#streaming && event.message.role === "assistant") {
          this.#streaming.update(event.message as AssistantMessage);
          this.#showToolCalls(event.message as AssistantMessage);
          return true;
        }
        return false;
      case "message_end": {
        if (!this.#streaming || event.message.role !== "assistant") return false;
        let message = event.message as AssistantMessage;
        // An aborted reply says so in 1.6.0's words, whatever the provider's abort error said.
        if (message.stopReason === "aborted") message = { ...message, errorMessage: this.abortText() };
        this.#streaming.update(message);
        if (message.stopReason === "aborted" || message.stopReason === "error") {
          const text = message.errorMessage || "Error";
          for (const view of this.#tools.values()) {
            view.updateResult({ content: [{ type: "text", text }], details: undefined }, true);
          }
          this.#tools.clear();
        } else {
          // The calls' arguments are final: an edit computes the diff it will make (1.6.0).
          for (const view of this.#tools.values()) {
            view.setArgsComplete();
            view.previewEdit(this.onChange);
          }
        }
        this.#streaming = undefined;
        return true;
      }
      case "entry_appended":
        return event.entry.type === "custom" && this.#addEntry(event.entry as CustomEntry);
      case "tool_execution_start":
        this.#toolView(event.toolCallId, event.toolName, event.args).markStarted();
        return true;
      case "tool_execution_update":
        this.#toolView(event.toolCallId, event.toolName, event.args).updateResult(
          event.partialResult,
          false,
          true,
        );
        return true;
      case "tool_execution_end":
        this.#toolView(event.toolCallId, event.toolName, undefined)
          .updateResult(event.result, event.isError, false, event.durationMs);
        this.#tools.delete(event.toolCallId);
        return true;
      default:
        return false;
    }
  }

  /**
   * After a compaction: the transcript is redrawn from the messages kept (the model's context
   * without its leading summary), then the new summary below them, at its place in time.
   */
  showCompacted(
    context: readonly AgentMessage[],
    summary: Pick<CompactionSummaryMessage, "summary" | "tokensBefore">,
    ui: TUI,
  ): void {
    this.chat.clear();
    this.#tools.clear();
    this.#streaming = undefined;
    this.renderMessages(context.filter((m) => m.role !== "compactionSummary"), ui);
    this.addCompactionSummary(summary);
  }

  /**
   * Draws the stored messages of a session (resume, continue); `ui` runs spinners. `entries`: the
   * custom entries to draw after a message (the `undefined` key: before the first one).
   */
  renderMessages(
    messages: readonly AgentMessage[],
    ui: TUI,
    entries?: ReadonlyMap<AgentMessage | undefined, readonly CustomEntry[]>,
  ): void {
    const drawEntries = (after: AgentMessage | undefined) => {
      for (const entry of entries?.get(after) ?? []) this.#addEntry(entry);
    };
    drawEntries(undefined);
    const results = new Map<string, ToolResultMessage>();
    for (const m of messages) {
      if (m.role === "toolResult") results.set((m as ToolResultMessage).toolCallId, m as ToolResultMessage);
    }
    for (const m of messages) {
      this.#renderStored(m, results, ui);
      drawEntries(m);
    }
  }

  #renderStored(m: AgentMessage, results: ReadonlyMap<string, ToolResultMessage>, ui: TUI): void {
    if (m.role === "user") this.#addUser(m);
    if (m.role === "custom") this.#addCustom(m as CustomMessage);
    if (m.role === "bashExecution") this.#addStoredBash(m as BashExecutionMessage, ui);
    if (m.role === "compactionSummary") this.addCompactionSummary(m as CompactionSummaryMessage);
    if (m.role === "branchSummary") {
      const view = new BranchSummaryView(this.theme, (m as BranchSummaryMessage).summary);
      view.setExpanded(this.#expanded);
      this.addBlock(view);
    }
    if (m.role !== "assistant") return;
    const reply = m as AssistantMessage;
    const view = new AssistantMessageView(this.theme, this.#hideThinking, this.#hiddenLabel);
    view.update(reply);
    this.chat.addChild(view);
    for (const block of reply.content) {
      if (block.type !== "toolCall") continue;
      const tool = this.#toolView(block.id, block.name, block.arguments);
      const result = results.get(block.id);
      if (result) {
        const asResult: AgentToolResult = { content: result.content, details: result.details };
        tool.updateResult(asResult, result.isError);
      }
    }
    this.#tools.clear();
  }

  /** A compaction's summary (collapsed unless tool output is expanded). */
  addCompactionSummary(m: Pick<CompactionSummaryMessage, "summary" | "tokensBefore">): void {
    const view = new CompactionSummaryView(this.theme, m.summary, m.tokensBefore);
    view.setExpanded(this.#expanded);
    this.addBlock(view);
  }

  #addStoredBash(m: BashExecutionMessage, ui: TUI): void {
    const view = new BashExecutionView(this.theme, m.command, ui, m.excludeFromContext);
    if (m.output) view.appendOutput(m.output);
    view.setComplete(m.exitCode, m.cancelled, m.truncated, m.fullOutputPath);
    view.setExpanded(this.#expanded);
    this.chat.addChild(view);
  }

  /** Shows the queued messages below the chat (after the `!` commands waiting there). */
  setQueued(steering: readonly string[], followUp: readonly string[]): void {
    this.#queued = [steering, followUp];
    this.pending.clear();
    for (const view of this.#pendingBash) this.pending.addChild(view);
    if (steering.length === 0 && followUp.length === 0) return;
    const dim = (t: string) => this.theme.fg("dim", t);
    this.pending.addChild(new Spacer(1));
    for (const m of steering) this.pending.addChild(new TruncatedText(dim(`Steering: ${m}`), 1, 0));
    for (const m of followUp) this.pending.addChild(new TruncatedText(dim(`Follow-up: ${m}`), 1, 0));
    this.pending.addChild(
      new TruncatedText(
        dim(`↳ ${keyDisplayText(APP_KEYS["app.message.dequeue"])} to edit all queued messages`),
        1,
        0,
      ),
    );
  }
}
