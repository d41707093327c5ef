/**
 * The user's own shell commands (`!cmd`, `!!cmd`, RPC `bash`): run, recorded as bashExecution
 * messages, and held back while the agent streams so they never split a tool call from its
 * result.
 *
 * @module
 */
import type { BashExecutionMessage } from "../session/messages.ts";
import { type BashOperations, createLocalBashOperations } from "../tools/shell.ts";
import type { SessionHost } from "./session_host.ts";
import type { BashResult } from "../tools/bash_executor.ts";

/** User bash for one AgentSession. */
export class SessionBash {
  #session: SessionHost;
  #pending: BashExecutionMessage[] = [];
  #abort?: AbortController;

  constructor(session: SessionHost) {
    this.#session = session;
  }

  get isRunning(): boolean {
    return this.#abort !== undefined;
  }

  get hasPending(): boolean {
    return this.#pending.length > 0;
  }

  /** Runs a command (with the configured prefix and shell) and records it. */
  async execute(
    command: string,
    onChunk?: (text: string) => void,
    options: { excludeFromContext?: boolean; operations?: BashOperations } = {},
  ): Promise<BashResult> {
    const settings = this.#session.settingsManager;
    this.#abort = new AbortController();
    const prefix = settings.getShellCommandPrefix();
    const operations = options.operations ??
      createLocalBashOperations({ shellPath: settings.getShellPath() });
    try {
      // The executor (output capture, ANSI stripping) loads with the first `!command`.
      const { executeBashWithOperations } = await import("../tools/bash_executor.ts");
      const result = await executeBashWithOperations(
        prefix ? `${prefix}\n${command}` : command,
        this.#session.sessionManager.getCwd(),
        operations,
        { onChunk, signal: this.#abort.signal },
      );
      this.record(command, result, options);
      return result;
    } finally {
      this.#abort = undefined;
    }
  }

  /** Records a run in the transcript and session file (deferred while streaming). */
  record(command: string, result: BashResult, options: { excludeFromContext?: boolean } = {}): void {
    const message: BashExecutionMessage = {
      role: "bashExecution",
      command,
      output: result.output,
      exitCode: result.exitCode,
      cancelled: result.cancelled,
      truncated: result.truncated,
      fullOutputPath: result.fullOutputPath,
      timestamp: Date.now(),
      excludeFromContext: options.excludeFromContext,
    };
    if (this.#session.isStreaming) this.#pending.push(message);
    else this.#append(message);
  }

  /** Cancels the running command. */
  abort(): void {
    this.#abort?.abort();
  }

  /** Writes the runs held back during streaming. */
  flush(): void {
    for (const message of this.#pending) this.#append(message);
    this.#pending = [];
  }

  #append(message: BashExecutionMessage): void {
    this.#session.agent.state.messages.push(message);
    this.#session.sessionManager.appendMessage(message);
  }
}
