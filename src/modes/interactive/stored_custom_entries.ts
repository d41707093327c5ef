/**
 * Where the custom entries of a reopened session go in the chat (pi 1.6.0 draws them, with their
 * entry renderers, at their place among the messages): each after the message drawn before it.
 *
 * @module
 */
import type { AgentMessage } from "../../agent/types.ts";
import { buildSessionProjection } from "../../session/context.ts";
import type { CustomEntry, SessionEntry } from "../../session/entries.ts";

/**
 * The custom entries on the path to `leafId`, keyed by the message of `messages` (the session's
 * context) they follow; the `undefined` key holds those before the first message. Empty when
 * `messages` is not the context these entries make (it was changed since), so nothing is misplaced.
 */
export function customEntriesByMessage(
  entries: SessionEntry[],
  leafId: string | null,
  messages: readonly AgentMessage[],
): Map<AgentMessage | undefined, CustomEntry[]> {
  const out = new Map<AgentMessage | undefined, CustomEntry[]>();
  const projection = buildSessionProjection(entries, leafId);
  if (projection.messages.length !== messages.length) return out;
  let count = 0;
  for (const { sourceEntry, messages: contributed } of projection.entries) {
    count += contributed.length;
    if (sourceEntry.type !== "custom") continue;
    const after = count > 0 ? messages[count - 1] : undefined;
    const list = out.get(after) ?? [];
    list.push(sourceEntry as CustomEntry);
    out.set(after, list);
  }
  return out;
}
