/**
 * The system prompt as a persisted transcript message (pi 1.6.0's session format). The first
 * request of a session records a `system` message holding every prompt section and the tool
 * declarations; later changes are recorded as further `system` messages that patch sections by
 * name (`null` removes one) and list `toolsAdded` / `toolsRemoved`. Replaying them in order gives
 * the prompt and tools in force, which is how a resumed session knows what the model was told.
 *
 * @example
 * ```ts
 * const first: SystemMessage = { role: "system", content: "", sections: { preamble: "Hi" }, timestamp: 1 };
 * const patch: SystemMessage = { role: "system", content: "", sections: { cwd: "<cwd>\n/p\n</cwd>" }, timestamp: 2 };
 * getCurrentSystemPrompt([first, patch]); // "Hi\n\n<cwd>\n/p\n</cwd>"
 * ```
 *
 * @module
 */
import { contentText } from "../ai/content_text.ts";
import type { TextContent, Tool } from "../ai/types.ts";

/** Names a tool a later system message withdraws. */
export interface ToolReference {
  /** Name of the tool. */
  name: string;
}

/**
 * A system prompt state or change. `content` is opaque prompt text (a forced prompt, or text
 * appended later); `sections` are the named parts of the structured prompt, in prompt order.
 */
export interface SystemMessage {
  /** Message kind. */
  role: "system";
  /** The system prompt text. */
  content: string | TextContent[];
  /** Named prompt parts; in a later message a value of `null` removes that section. */
  sections?: Record<string, string | null>;
  /** Tools offered from here on. */
  toolsAdded?: Tool[];
  /** Tools no longer offered. */
  toolsRemoved?: ToolReference[];
  /** Unix time in milliseconds. */
  timestamp: number;
}

// Registers the role with the agent's transcript type, next to the coding-agent kinds.
declare module "../agent/types.ts" {
  interface CustomAgentMessages {
    system: SystemMessage;
  }
}

/** Anything with a role: replay helpers only look at `system` messages. */
export type TranscriptMessages = readonly { role: string }[];

function isSystem(message: { role: string }): message is SystemMessage {
  return message.role === "system";
}

/**
 * The full prompt text of one system message: its content, then each section in order, joined by
 * blank lines (empty parts are left out).
 */
export function getSystemMessageText(message: Pick<SystemMessage, "content" | "sections">): string {
  const parts = [contentText(message.content ?? "", "\n")];
  for (const text of Object.values(message.sections ?? {})) if (text !== null) parts.push(text);
  return parts.filter((p) => p.length > 0).join("\n\n");
}

/** Tools in force after replaying every system message's removals and additions, in order. */
export function getCurrentTools(messages: TranscriptMessages): Tool[] {
  const tools = new Map<string, Tool>();
  for (const message of messages) {
    if (!isSystem(message)) continue;
    for (const tool of message.toolsRemoved ?? []) tools.delete(tool.name);
    for (const tool of message.toolsAdded ?? []) tools.set(tool.name, tool);
  }
  return [...tools.values()];
}

/**
 * One system message equivalent to all of them: contents appended in order, sections patched by
 * name, the current tools as `toolsAdded`. Undefined when the transcript has none.
 */
export function getCurrentSystemMessage(messages: TranscriptMessages): SystemMessage | undefined {
  const content: string[] = [];
  const sections = new Map<string, string>();
  let timestamp: number | undefined;
  for (const message of messages) {
    if (!isSystem(message)) continue;
    timestamp ??= message.timestamp;
    const text = contentText(message.content ?? "", "\n");
    if (text.length > 0) content.push(text);
    for (const [name, value] of Object.entries(message.sections ?? {})) {
      if (value === null) sections.delete(name);
      else sections.set(name, value);
    }
  }
  const tools = getCurrentTools(messages);
  if (timestamp === undefined && tools.length === 0) return undefined;
  return {
    role: "system",
    content: content.join("\n\n"),
    ...(sections.size > 0 ? { sections: Object.fromEntries(sections) } : {}),
    ...(tools.length > 0 ? { toolsAdded: tools } : {}),
    timestamp: timestamp ?? 0,
  };
}

/** The prompt text in force after replaying every system message ("" when there is none). */
export function getCurrentSystemPrompt(messages: TranscriptMessages): string {
  const message = getCurrentSystemMessage(messages);
  return message ? getSystemMessageText(message) : "";
}

/**
 * A tool as it is persisted: name, description and a plain-JSON copy of the schema (drops
 * functions, TypeBox markers and undefined fields, so equal tools serialize equally).
 */
export function toToolDeclaration(tool: Tool & { constrainedSampling?: unknown }): Tool {
  return {
    name: tool.name,
    description: tool.description,
    parameters: JSON.parse(JSON.stringify(tool.parameters)),
    ...(tool.constrainedSampling === undefined ? {} : { constrainedSampling: tool.constrainedSampling }),
  } as Tool;
}

/** Whether two tools declare the same interface to the model. */
export function declarationsEqual(left: Tool, right: Tool): boolean {
  return JSON.stringify(toToolDeclaration(left)) === JSON.stringify(toToolDeclaration(right));
}

/** The `toolsAdded` / `toolsRemoved` of a system message. */
export interface ToolStateChanges {
  toolsAdded: Tool[];
  toolsRemoved: ToolReference[];
}

/**
 * What changed between two tool sets. A tool whose definition changed is both removed and added,
 * so replay ends with the new definition.
 */
export function getToolStateChanges(previous: readonly Tool[], current: readonly Tool[]): ToolStateChanges {
  const before = new Map(previous.map((t) => [t.name, t]));
  const after = new Map(current.map((t) => [t.name, t]));
  return {
    toolsAdded: current
      .filter((t) => {
        const old = before.get(t.name);
        return old === undefined || !declarationsEqual(old, t);
      })
      .map(toToolDeclaration),
    toolsRemoved: previous
      .filter((t) => {
        const now = after.get(t.name);
        return now === undefined || !declarationsEqual(t, now);
      })
      .map((t) => ({ name: t.name })),
  };
}

/**
 * The `sections` patch that turns `previous` (replayed, never null) into `current`: changed or
 * new sections with their text, vanished ones as `null`. Undefined when nothing changed.
 */
export function diffSystemPromptSections(
  previous: Readonly<Record<string, string | null>>,
  current: Readonly<Record<string, string>>,
): Record<string, string | null> | undefined {
  const patch: Record<string, string | null> = {};
  for (const [name, text] of Object.entries(current)) if (previous[name] !== text) patch[name] = text;
  for (const name of Object.keys(previous)) if (current[name] === undefined) patch[name] = null;
  return Object.keys(patch).length > 0 ? patch : undefined;
}

/**
 * The system message to record before a request: the whole prompt and tools when the transcript
 * has none yet, else a patch of what changed. Undefined when nothing changed.
 */
export function systemMessageUpdate(
  transcript: TranscriptMessages,
  sections: Readonly<Record<string, string>>,
  tools: readonly Tool[],
  timestamp: number = Date.now(),
): SystemMessage | undefined {
  const current = getCurrentSystemMessage(transcript);
  const sectionPatch = diffSystemPromptSections(current?.sections ?? {}, sections);
  const { toolsAdded, toolsRemoved } = getToolStateChanges(current?.toolsAdded ?? [], tools);
  if (!sectionPatch && toolsAdded.length === 0 && toolsRemoved.length === 0) return undefined;
  return {
    role: "system",
    content: "",
    ...(sectionPatch ? { sections: sectionPatch } : {}),
    // Key order as 1.6.0 writes it: the tool changes follow the timestamp.
    timestamp,
    ...(toolsAdded.length > 0 ? { toolsAdded } : {}),
    ...(toolsRemoved.length > 0 ? { toolsRemoved } : {}),
  };
}
