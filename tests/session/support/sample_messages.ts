/**
 * Deterministic messages used by the session fixture writers (shared with the capture script's
 * expectations through the files it stores).
 *
 * @module
 */
import type { AssistantMessage, Usage, UserMessage } from "../../../src/ai/types.ts";
import type { BashExecutionMessage } from "../../../src/session/messages.ts";

/** A user message with fixed text and time. */
export function userMessage(text: string, timestamp = 1_700_000_000_000): UserMessage {
  return { role: "user", content: [{ type: "text", text }], timestamp };
}

/** An assistant reply from the fake provider. */
export function assistantMessage(text: string, timestamp = 1_700_000_001_000): AssistantMessage {
  return {
    role: "assistant",
    content: [{ type: "text", text }],
    api: "anthropic-messages",
    provider: "anthropic",
    model: "claude-sonnet-4-5",
    usage: {
      input: 10,
      output: 5,
      cacheRead: 0,
      cacheWrite: 0,
      totalTokens: 15,
      cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
    },
    stopReason: "stop",
    timestamp,
  };
}

/** A `!ls` run. */
export function bashMessage(excludeFromContext = false): BashExecutionMessage {
  return {
    role: "bashExecution",
    command: "ls",
    output: "a.txt\nb.txt",
    exitCode: 0,
    cancelled: false,
    truncated: false,
    timestamp: 1_700_000_002_000,
    excludeFromContext,
  };
}

/** Usage of a cache-warming request. */
export function sampleUsage(): Usage {
  return {
    input: 0,
    output: 1,
    cacheRead: 4000,
    cacheWrite: 0,
    totalTokens: 4001,
    cost: { input: 0, output: 0.00001, cacheRead: 0.0012, cacheWrite: 0, total: 0.00121 },
  };
}
