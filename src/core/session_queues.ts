/**
 * Steering and follow-up messages queued while the agent streams, as texts for UIs
 * (`queue_update` events) alongside the messages the agent holds.
 *
 * @module
 */
import type { AgentMessage } from "../agent/types.ts";
import type { ImageContent, TextContent } from "../ai/types.ts";
import type { SessionHost } from "./session_host.ts";

/** The queues of one AgentSession. */
export class SessionQueues {
  #session: SessionHost;
  steering: string[] = [];
  followUp: string[] = [];

  constructor(session: SessionHost) {
    this.#session = session;
  }

  #update(): void {
    this.#session.emit({ type: "queue_update", steering: [...this.steering], followUp: [...this.followUp] });
  }

  /** Queues a message for the agent and announces it. */
  add(kind: "steer" | "followUp", text: string, images?: ImageContent[]): void {
    (kind === "steer" ? this.steering : this.followUp).push(text);
    this.#update();
    const content: (TextContent | ImageContent)[] = [{ type: "text", text }];
    if (images) content.push(...images);
    const message: AgentMessage = { role: "user", content, timestamp: Date.now() };
    if (kind === "steer") this.#session.agent.steer(message);
    else this.#session.agent.followUp(message);
  }

  /** A delivered message leaves its queue (steering first, as the reference matches). */
  delivered(text: string): void {
    const s = this.steering.indexOf(text);
    if (s !== -1) {
      this.steering.splice(s, 1);
      this.#update();
      return;
    }
    const f = this.followUp.indexOf(text);
    if (f !== -1) {
      this.followUp.splice(f, 1);
      this.#update();
    }
  }

  /** Empties both queues and returns their texts. */
  clear(): { steering: string[]; followUp: string[] } {
    const cleared = { steering: this.steering, followUp: this.followUp };
    this.steering = [];
    this.followUp = [];
    this.#session.agent.clearAllQueues();
    this.#update();
    return cleared;
  }
}
