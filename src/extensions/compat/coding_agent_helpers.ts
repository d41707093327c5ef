/**
 * Small helpers of 1.6.0's pi-coding-agent that extensions import: a standalone event bus (the kind
 * `pi.events` is), the summary text of a conversation, and the parse of a skill invocation
 * message.
 *
 * @module
 */
import { generateSummaryWithUsage } from "../../compaction/compaction.ts";
import { createEventBus as createBus } from "../event_bus.ts";

/** A channel bus (1.6.0's `EventBus`). */
export interface EventBusController {
  /** Calls the channel's handlers with `data`. */
  emit(channel: string, data: unknown): void;
  /** Adds a handler; its errors are logged, never thrown at the emitter. Returns its removal. */
  on(channel: string, handler: (data: unknown) => unknown): () => void;
  /** Removes every handler. */
  clear(): void;
}

/** A new, empty bus: handlers run as events are emitted; a failing handler is logged to stderr. */
export function createEventBus(): EventBusController {
  let bus = createBus();
  return {
    emit: (channel, data) => bus.emit(channel, data),
    on: (channel, handler) =>
      bus.on(channel, handler, (error) => console.error(`Event handler error (${channel}):`, error)),
    clear: () => {
      bus = createBus();
    },
  };
}

/** A summary of `currentMessages` by `model`: {@link generateSummaryWithUsage}'s text. */
export async function generateSummary(
  ...args: Parameters<typeof generateSummaryWithUsage>
): Promise<string> {
  return (await generateSummaryWithUsage(...args)).text;
}

/** A skill invocation read from a user message's text. */
export interface ParsedSkillBlock {
  /** The skill's name. */
  name: string;
  /** Its file. */
  location: string;
  /** The skill text inside the block. */
  content: string;
  /** What the user typed after the skill, if anything. */
  userMessage: string | undefined;
}

const SKILL_BLOCK = /^<skill name="([^"]+)" location="([^"]+)">\n([\s\S]*?)\n<\/skill>(?:\n\n([\s\S]+))?$/;

/** The skill block a message's text consists of (with the user's text after it), or null. */
export function parseSkillBlock(text: string): ParsedSkillBlock | null {
  const match = text.match(SKILL_BLOCK);
  if (!match) return null;
  return {
    name: match[1],
    location: match[2],
    content: match[3],
    userMessage: match[4]?.trim() || undefined,
  };
}
