/**
 * Serialisation of session events for `--mode json`. The reference writes every event whole,
 * so each `message_update` repeats the message so far (quadratic in the reply's length); the
 * delta-only form drops `message` and `assistantMessageEvent.partial` from updates and stays
 * linear.
 *
 * @module
 */
import type { AgentSessionEvent } from "../core/agent_session_types.ts";

/** One JSON line for an event. */
export function serializeJsonEvent(event: AgentSessionEvent, deltaOnly: boolean): string {
  if (deltaOnly && event.type === "message_update") {
    const { partial: _partial, ...assistantMessageEvent } = event.assistantMessageEvent as
      & typeof event.assistantMessageEvent
      & { partial?: unknown };
    return `${JSON.stringify({ type: event.type, assistantMessageEvent })}\n`;
  }
  return `${JSON.stringify(event)}\n`;
}
