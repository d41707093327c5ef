/**
 * What the /tree navigator shows of one session entry, in pi 1.6.0's words: the row text
 * (`user: …`, `assistant: …`, `[read: path:1-5]`, `[compaction: 12k tokens]` …), the text a
 * search matches against, and the text the copy key puts on the clipboard.
 *
 * @module
 */
import { contentText } from "../../ai/content_text.ts";
import type { SessionEntry, SessionTreeNode } from "../../session/entries.ts";
import type { Theme } from "./theme.ts";
import { readLineRange, shortenHome } from "./tool_renderers.ts";

/** A tool call as the tree remembers it, to name the tool result rows. */
export interface TreeToolCall {
  name: string;
  arguments: Record<string, unknown>;
}

/** How long a message's text may be in a row or a search (1.6.0 cuts at 200 characters). */
const TEXT_LIMIT = 200;

/** The text blocks of a message's content (any other shape: ""). */
function fullText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return contentText(content.filter((b) => typeof b === "object" && b !== null));
}

const shortText = (content: unknown) => fullText(content).slice(0, TEXT_LIMIT);
/** One row: newlines and tabs as spaces. */
const oneLine = (text: string) => text.replace(/[\n\t]/g, " ").trim();

/** Whether an assistant message has any non-blank text (tool-call-only replies do not). */
export function hasText(content: unknown): boolean {
  if (typeof content === "string") return content.trim().length > 0;
  if (!Array.isArray(content)) return false;
  return content.some((b) => b?.type === "text" && typeof b.text === "string" && b.text.trim().length > 0);
}

/** The tool calls of an assistant entry, by call id. */
export function toolCallsOf(entry: SessionEntry): [string, TreeToolCall][] {
  if (entry.type !== "message" || entry.message.role !== "assistant") return [];
  const content = (entry.message as { content?: unknown }).content;
  if (!Array.isArray(content)) return [];
  return content
    .filter((b) => b?.type === "toolCall" && typeof b.id === "string")
    .map((b) => [b.id, { name: String(b.name), arguments: (b.arguments ?? {}) as Record<string, unknown> }]);
}

/** A tool call in one row: `[read: ~/f.ts:1-5]`, `[bash: ls -la]`, `[grep: /x/ in .]`, … */
export function formatToolCall(name: string, args: Record<string, unknown>, home?: string): string {
  const path = (value: unknown) => shortenHome(String(value || ""), home);
  const filePath = () => path(args.path || args.file_path);
  switch (name) {
    case "read":
      return `[read: ${filePath()}${readLineRange(args.offset, args.limit)}]`;
    case "write":
    case "edit":
      return `[${name}: ${filePath()}]`;
    case "bash": {
      const raw = String(args.command || "");
      return `[bash: ${oneLine(raw).slice(0, 50)}${raw.length > 50 ? "..." : ""}]`;
    }
    case "grep":
      return `[grep: /${String(args.pattern || "")}/ in ${path(args.path || ".")}]`;
    case "find":
      return `[find: ${String(args.pattern || "")} in ${path(args.path || ".")}]`;
    case "ls":
      return `[ls: ${path(args.path || ".")}]`;
    default: {
      const json = JSON.stringify(args) ?? "";
      return `[${name}: ${json.slice(0, 40)}${json.length > 40 ? "..." : ""}]`;
    }
  }
}

/** The row text of `node` (bold when selected). */
export function entryRowText(
  theme: Theme,
  node: SessionTreeNode,
  selected: boolean,
  toolCalls: ReadonlyMap<string, TreeToolCall>,
  home?: string,
): string {
  const text = rowText(theme, node.entry, toolCalls, home);
  return selected ? theme.bold(text) : text;
}

function rowText(
  theme: Theme,
  entry: SessionEntry,
  toolCalls: ReadonlyMap<string, TreeToolCall>,
  home?: string,
): string {
  const dim = (t: string) => theme.fg("dim", t);
  switch (entry.type) {
    case "message":
      return messageRowText(theme, entry.message as unknown as Record<string, unknown>, toolCalls, home);
    case "custom_message":
      return theme.fg("customMessageLabel", `[${entry.customType}]: `) + oneLine(fullText(entry.content));
    case "compaction":
      return theme.fg("borderAccent", `[compaction: ${Math.round(entry.tokensBefore / 1000)}k tokens]`);
    case "branch_summary":
      return theme.fg("warning", "[branch summary]: ") + oneLine(entry.summary);
    case "model_change":
      return dim(`[model: ${entry.modelId}]`);
    case "thinking_level_change":
      return dim(`[thinking: ${entry.thinkingLevel}]`);
    case "custom":
      return dim(`[custom: ${entry.customType}]`);
    case "context_edit":
      return dim(`[context ${entry.replacement === null ? "omit" : "replace"}: ${entry.targetId}]`);
    case "label":
      return dim(`[label: ${entry.label ?? "(cleared)"}]`);
    case "session_info":
      return dim("[title: ") + (entry.name ? dim(entry.name) : theme.italic(dim("empty"))) + dim("]");
    default:
      return "";
  }
}

function messageRowText(
  theme: Theme,
  message: Record<string, unknown>,
  toolCalls: ReadonlyMap<string, TreeToolCall>,
  home?: string,
): string {
  const role = String(message.role);
  if (role === "user") return theme.fg("accent", "user: ") + oneLine(shortText(message.content));
  if (role === "assistant") {
    const label = theme.fg("success", "assistant: ");
    const text = oneLine(shortText(message.content));
    if (text) return label + text;
    if (message.stopReason === "aborted") return label + theme.fg("muted", "(aborted)");
    if (typeof message.errorMessage === "string" && message.errorMessage) {
      return label + theme.fg("error", oneLine(message.errorMessage).slice(0, 80));
    }
    return label + theme.fg("muted", "(no content)");
  }
  if (role === "toolResult") {
    const call = typeof message.toolCallId === "string" ? toolCalls.get(message.toolCallId) : undefined;
    if (call) return theme.fg("muted", formatToolCall(call.name, call.arguments, home));
    return theme.fg("muted", `[${typeof message.toolName === "string" ? message.toolName : "tool"}]`);
  }
  if (role === "bashExecution") return theme.fg("dim", `[bash]: ${oneLine(String(message.command ?? ""))}`);
  return theme.fg("dim", `[${role}]`);
}

/** What a search matches in `node`: its label, kind and text. */
export function entrySearchText(node: SessionTreeNode): string {
  const entry = node.entry;
  const parts: string[] = node.label ? [node.label] : [];
  switch (entry.type) {
    case "message": {
      const message = entry.message as unknown as Record<string, unknown>;
      parts.push(String(message.role));
      if (message.content) parts.push(shortText(message.content));
      if (message.role === "bashExecution" && message.command) parts.push(String(message.command));
      break;
    }
    case "custom_message":
      parts.push(
        entry.customType,
        typeof entry.content === "string" ? entry.content : shortText(entry.content),
      );
      break;
    case "compaction":
      parts.push("compaction");
      break;
    case "branch_summary":
      parts.push("branch summary", entry.summary);
      break;
    case "session_info":
      parts.push("title");
      if (entry.name) parts.push(entry.name);
      break;
    case "model_change":
      parts.push("model", entry.modelId);
      break;
    case "thinking_level_change":
      parts.push("thinking", entry.thinkingLevel);
      break;
    case "custom":
      parts.push("custom", entry.customType);
      break;
    case "context_edit":
      parts.push("context edit", entry.replacement === null ? "omit" : "replace", entry.targetId);
      break;
    case "label":
      parts.push("label", entry.label ?? "");
      break;
  }
  return parts.join(" ");
}

/** The copy key's text for `node`; undefined when it has none. */
export function entryCopyText(node: SessionTreeNode): string | undefined {
  const entry = node.entry;
  let text: string | undefined;
  if (entry.type === "message") {
    const message = entry.message as unknown as Record<string, unknown>;
    if (message.role === "bashExecution") text = String(message.command ?? "");
    else if ("content" in message) {
      text = fullText(message.content);
      if (!text && message.role === "assistant" && typeof message.errorMessage === "string") {
        text = message.errorMessage;
      }
    }
  } else if (entry.type === "custom_message") text = fullText(entry.content);
  else if (entry.type === "compaction" || entry.type === "branch_summary") text = entry.summary;
  return text?.trim() ? text : undefined;
}

/** A label's time: `14:05` today, `3/7 14:05` this year, `25/3/7 14:05` before (local time). */
export function formatLabelTime(timestamp: string, now = new Date()): string {
  const date = new Date(timestamp);
  const pad = (n: number) => n.toString().padStart(2, "0");
  const time = `${pad(date.getHours())}:${pad(date.getMinutes())}`;
  const sameYear = date.getFullYear() === now.getFullYear();
  if (sameYear && date.getMonth() === now.getMonth() && date.getDate() === now.getDate()) return time;
  const day = `${date.getMonth() + 1}/${date.getDate()}`;
  return sameYear ? `${day} ${time}` : `${date.getFullYear().toString().slice(-2)}/${day} ${time}`;
}
