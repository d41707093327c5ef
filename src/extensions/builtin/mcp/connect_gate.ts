/**
 * When a session's MCP servers may start. Outside the interactive mode nothing about a server
 * without `direct` tools is needed before the first request goes out (1.6.0 waits only for direct
 * servers), so their connections wait at this gate: it opens once the first reply begins or when
 * something needs a server (a codemode script naming it, `tool_search`), and is shut for good when
 * the session ends first, so servers nobody waited for are never spawned.
 *
 * @module
 */

/** A one-way gate: {@link open} lets every waiter through, {@link shut} turns them all away. */
export class ConnectGate {
  #state: "waiting" | "open" | "shut" = "waiting";
  #release!: (open: boolean) => void;
  readonly #passed = new Promise<boolean>((resolve) => this.#release = resolve);

  /** A gate that is already open (the interactive mode connects at once, as 1.6.0 does). */
  static opened(): ConnectGate {
    const gate = new ConnectGate();
    gate.open();
    return gate;
  }

  /** Lets waiters through; no effect once shut. */
  open(): void {
    if (this.#state !== "waiting") return;
    this.#state = "open";
    this.#release(true);
  }

  /** Turns waiters away from now on (the session ended); an open gate stays open. */
  shut(): void {
    if (this.#state !== "waiting") return;
    this.#state = "shut";
    this.#release(false);
  }

  /** Whether the gate was opened (waiters may go on) rather than shut. */
  get isOpen(): boolean {
    return this.#state === "open";
  }

  /** Resolves true once opened, false once shut. */
  passed(): Promise<boolean> {
    return this.#passed;
  }
}
