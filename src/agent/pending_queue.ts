/**
 * A queue of messages waiting for the agent: released one per poll or all at once.
 *
 * @module
 */
import type { AgentMessage, QueueMode } from "./types.ts";

/** Steering or follow-up messages waiting to be delivered. */
export class PendingMessageQueue {
  #messages: AgentMessage[] = [];

  constructor(public mode: QueueMode) {}

  enqueue(message: AgentMessage): void {
    this.#messages.push(message);
  }

  hasItems(): boolean {
    return this.#messages.length > 0;
  }

  /** Messages to deliver now, per the mode. */
  drain(): AgentMessage[] {
    if (this.mode === "all") return this.takeAll();
    const first = this.#messages.shift();
    return first ? [first] : [];
  }

  /** Everything queued, regardless of mode. */
  takeAll(): AgentMessage[] {
    return this.#messages.splice(0);
  }

  clear(): void {
    this.#messages = [];
  }
}
