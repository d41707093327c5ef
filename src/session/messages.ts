/**
 * Coding-agent message kinds that live beside the LLM's own messages (shell runs, extension
 * messages, branch and compaction summaries) and how each one is turned into LLM input.
 * Texts match `core/messages.js` of the reference because they end up in prompts.
 *
 * @module
 */
import type { ImageContent, Message, TextContent } from "../ai/types.ts";
import type { SystemMessage } from "./system_message.ts";

/** Opens the user text that replaces compacted history. */
export const COMPACTION_SUMMARY_PREFIX =
  `The conversation history before this point was compacted into the following summary:

<summary>
`;
/** Closes the compaction summary text. */
export const COMPACTION_SUMMARY_SUFFIX = `
</summary>`;
/** Opens the user text that carries a summary of an abandoned branch. */
export const BRANCH_SUMMARY_PREFIX =
  `The following is a summary of a branch that this conversation came back from:

<summary>
`;
/** Closes the branch summary text (no newline before it, unlike compaction). */
export const BRANCH_SUMMARY_SUFFIX = `</summary>`;

/** A shell command the user ran with `!` (or `!!`, which keeps it out of the LLM context). */
export interface BashExecutionMessage {
  /** Message kind. */
  role: "bashExecution";
  /** The command that ran. */
  command: string;
  /** Output, possibly truncated. */
  output: string;
  /** Exit code; undefined when killed. */
  exitCode: number | undefined;
  /** Whether the user cancelled the command. */
  cancelled: boolean;
  /** Whether the output was truncated. */
  truncated: boolean;
  /** File with the full output, when it was truncated. */
  fullOutputPath?: string;
  /** Unix time in milliseconds. */
  timestamp: number;
  /** Set for `!!` commands: shown to the user, never sent to the model. */
  excludeFromContext?: boolean;
}

/** A message an extension injected; `display` decides whether the TUI shows it. */
export interface CustomMessage<T = unknown> {
  /** Message kind. */
  role: "custom";
  /** Kind of message, chosen by the extension that wrote it. */
  customType: string;
  /** Text or blocks sent to the model. */
  content: string | (TextContent | ImageContent)[];
  /** Whether the interactive view shows the message. */
  display: boolean;
  /** Extension-specific data; not sent to the model. */
  details?: T;
  /** Unix time in milliseconds. */
  timestamp: number;
}

/** The summary of a branch the conversation returned from. */
export interface BranchSummaryMessage {
  /** Message kind. */
  role: "branchSummary";
  /** Summary of the abandoned branch. */
  summary: string;
  /** Id of the entry the branch left from (`null` in 1.6.0's type: from before the first entry). */
  fromId: string | null;
  /** Unix time in milliseconds. */
  timestamp: number;
}

/** The summary that stands in for compacted history. */
export interface CompactionSummaryMessage {
  /** Message kind. */
  role: "compactionSummary";
  /** Summary of the history it replaces. */
  summary: string;
  /** Context tokens before compaction. */
  tokensBefore: number;
  /** Unix time in milliseconds. */
  timestamp: number;
}

// Registers the kinds above with the agent, so its transcript (AgentMessage) carries them.
declare module "../agent/types.ts" {
  interface CustomAgentMessages {
    bashExecution: BashExecutionMessage;
    custom: CustomMessage;
    branchSummary: BranchSummaryMessage;
    compactionSummary: CompactionSummaryMessage;
  }
}

/** Everything that can appear in an agent's message list: LLM messages plus the kinds above. */
export type AgentMessage =
  | Message
  | SystemMessage
  | BashExecutionMessage
  | CustomMessage
  | BranchSummaryMessage
  | CompactionSummaryMessage;

/** Renders a shell run as the user text the model sees. */
export function bashExecutionToText(msg: BashExecutionMessage): string {
  let text = `Ran \`${msg.command}\`\n`;
  text += msg.output ? `\`\`\`\n${msg.output}\n\`\`\`` : "(no output)";
  if (msg.cancelled) {
    text += "\n\n(command cancelled)";
  } else if (msg.exitCode !== null && msg.exitCode !== undefined && msg.exitCode !== 0) {
    text += `\n\nCommand exited with code ${msg.exitCode}`;
  }
  if (msg.truncated && msg.fullOutputPath) {
    text += `\n\n[Output truncated. Full output: ${msg.fullOutputPath}]`;
  }
  return text;
}

/** Turns a `branch_summary` entry into a message; `timestamp` is the entry's ISO time. */
export function createBranchSummaryMessage(
  summary: string,
  fromId: string,
  timestamp: string,
): BranchSummaryMessage {
  return { role: "branchSummary", summary, fromId, timestamp: new Date(timestamp).getTime() };
}

/** Turns a `compaction` entry into a message; `timestamp` is the entry's ISO time. */
export function createCompactionSummaryMessage(
  summary: string,
  tokensBefore: number,
  timestamp: string,
): CompactionSummaryMessage {
  return { role: "compactionSummary", summary, tokensBefore, timestamp: new Date(timestamp).getTime() };
}

/** Turns a `custom_message` entry into a message; `timestamp` is the entry's ISO time. */
export function createCustomMessage(
  customType: string,
  content: string | (TextContent | ImageContent)[],
  display: boolean,
  details: unknown | undefined,
  timestamp: string,
): CustomMessage {
  return { role: "custom", customType, content, display, details, timestamp: new Date(timestamp).getTime() };
}

/**
 * Maps agent messages to what providers accept: the extra kinds become user messages, `!!`
 * shell runs and unknown roles are dropped. System messages are dropped too: the prompt they
 * carry reaches the provider as the request's system prompt (`getCurrentSystemPrompt()` of
 * system_message.ts) and their tools as its tool list.
 */
export function convertToLlm(messages: AgentMessage[]): Message[] {
  const out: Message[] = [];
  for (const m of messages) {
    switch (m.role) {
      case "bashExecution":
        if (!m.excludeFromContext) {
          out.push({
            role: "user",
            content: [{ type: "text", text: bashExecutionToText(m) }],
            timestamp: m.timestamp,
          });
        }
        break;
      case "custom":
        out.push({
          role: "user",
          content: typeof m.content === "string" ? [{ type: "text", text: m.content }] : m.content,
          timestamp: m.timestamp,
        });
        break;
      case "branchSummary":
        out.push({
          role: "user",
          content: [{ type: "text", text: BRANCH_SUMMARY_PREFIX + m.summary + BRANCH_SUMMARY_SUFFIX }],
          timestamp: m.timestamp,
        });
        break;
      case "compactionSummary":
        out.push({
          role: "user",
          content: [{
            type: "text",
            text: COMPACTION_SUMMARY_PREFIX + m.summary + COMPACTION_SUMMARY_SUFFIX,
          }],
          timestamp: m.timestamp,
        });
        break;
      case "user":
      case "assistant":
      case "toolResult":
        out.push(m);
        break;
      case "system":
        break;
    }
  }
  return out;
}
