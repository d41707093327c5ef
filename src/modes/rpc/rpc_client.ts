/**
 * RpcClient: drives a `pi --mode rpc` process from a Deno program with typed methods, one per
 * command, and delivers everything that is not a response (session events, extension UI
 * requests) to `onEvent` listeners.
 *
 * @example
 * ```ts
 * const client = new RpcClient({ cliPath: "main.ts", cwd: "/my/project" });
 * await client.start();
 * const events = await client.promptAndWait("List the files");
 * await client.stop();
 * ```
 *
 * @module
 */
import type { AgentMessage, AgentThinkingLevel } from "../../agent/types.ts";
import type { ImageContent, Model } from "../../ai/types.ts";
import type {
  BashResult,
  CompactionResult,
  ModelCycleResult,
  SessionStats,
} from "../../core/agent_session_types.ts";
import type { JsonAgentSessionEvent } from "../json_event.ts";
import { readJsonlLines, serializeJsonLine } from "./jsonl.ts";
import type {
  RpcBashExecutionUpdate,
  RpcCommand,
  RpcCommandType,
  RpcExtensionUIRequest,
  RpcExtensionUIResponse,
  RpcPromptDisposition,
  RpcQueueMode,
  RpcResponse,
  RpcResponseData,
  RpcSessionState,
  RpcSlashCommand,
} from "./rpc_types.ts";

/** How to start the agent process. */
export interface RpcClientOptions {
  /** Script run with `deno run --allow-all --no-prompt` (default `main.ts`); ignored with `command`. */
  cliPath?: string;
  /** The full program and arguments to run instead (e.g. a compiled `pi`); `--mode rpc` is appended. */
  command?: string[];
  /** Working folder of the agent process. */
  cwd?: string;
  /** Added to the inherited environment. */
  env?: Record<string, string>;
  /** Provider passed as `--provider`. */
  provider?: string;
  /** Model passed as `--model`. */
  model?: string;
  /** More CLI arguments. */
  args?: string[];
  /** Also copy the child's stderr to ours (default false; it is always collected). */
  echoStderr?: boolean;
  /** How long a command may go unanswered, in ms (default 30 000). */
  responseTimeoutMs?: number;
}

/** Anything the agent writes that is not a response. */
export type RpcEvent =
  | JsonAgentSessionEvent
  | RpcBashExecutionUpdate
  | RpcExtensionUIRequest
  | { type: string; [key: string]: unknown };

/** Receives events. */
export type RpcEventListener = (event: RpcEvent) => void;

/** A command without its id (the client assigns ids). */
export type CommandBody = RpcCommand extends infer C ? C extends unknown ? Omit<C, "id"> : never : never;

interface Pending {
  resolve(response: RpcResponse): void;
  reject(error: Error): void;
}

/**
 * A typed client of RPC mode.
 *
 * @example
 * ```ts
 * import { RpcClient } from "@pi-deno/coding-agent";
 *
 * // Runs an installed `pi --mode rpc`; without `command` the client runs `main.ts` of a checkout.
 * const client = new RpcClient({ command: ["pi"], cwd: Deno.cwd(), args: ["--no-session"] });
 * await client.start();
 * try {
 *   client.onEvent((event) => {
 *     if (event.type === "tool_execution_start") console.log("tool:", event.toolName);
 *   });
 *   await client.promptAndWait("Which files are in this folder?");
 *   console.log(await client.getLastAssistantText());
 * } finally {
 *   await client.stop();
 * }
 * ```
 */
export class RpcClient {
  readonly #options: RpcClientOptions;
  #child?: Deno.ChildProcess;
  #writer?: WritableStreamDefaultWriter<Uint8Array>;
  #writes: Promise<void> = Promise.resolve();
  #listeners: RpcEventListener[] = [];
  #pending = new Map<string, Pending>();
  #nextId = 0;
  #stderr = "";
  #done?: Promise<void>;
  #status?: Promise<Deno.CommandStatus>;

  /** Prepares a client; `start()` launches the process. */
  constructor(options: RpcClientOptions = {}) {
    this.#options = options;
  }

  /** Starts the agent process. */
  start(): Promise<void> {
    if (this.#child) return Promise.reject(new Error("Client already started"));
    const o = this.#options;
    const args = ["--mode", "rpc"];
    if (o.provider) args.push("--provider", o.provider);
    if (o.model) args.push("--model", o.model);
    if (o.args) args.push(...o.args);
    const [program, ...programArgs] = o.command ??
      [Deno.execPath(), "run", "--allow-all", "--no-prompt", o.cliPath ?? "main.ts"];
    this.#child = new Deno.Command(program, {
      args: [...programArgs, ...args],
      cwd: o.cwd,
      env: o.env,
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    this.#writer = this.#child.stdin.getWriter();
    this.#status = this.#child.status;
    const decoder = new TextDecoder();
    const stderr = (async () => {
      for await (const chunk of this.#child!.stderr) {
        this.#stderr += decoder.decode(chunk, { stream: true });
        if (o.echoStderr) await Deno.stderr.write(chunk);
      }
    })();
    const stdout = readJsonlLines(this.#child.stdout, (line) => this.#handleLine(line));
    this.#done = Promise.all([stdout, stderr]).then(() => {
      for (const pending of this.#pending.values()) {
        pending.reject(new Error(`Agent process ended before answering. Stderr: ${this.#stderr}`));
      }
      this.#pending.clear();
    });
    return Promise.resolve();
  }

  /** Stops the process: SIGTERM, then SIGKILL after a second. */
  async stop(): Promise<void> {
    const child = this.#child;
    if (!child) return;
    try {
      child.kill("SIGTERM");
    } catch { /* already gone */ }
    const timer = setTimeout(() => {
      try {
        child.kill("SIGKILL");
      } catch { /* already gone */ }
    }, 1000);
    await this.#status;
    clearTimeout(timer);
    await this.#done;
    this.#child = undefined;
  }

  /** Closes the agent's stdin (it finishes in-flight work, then exits) and resolves with its exit code. */
  async endInput(): Promise<number> {
    const child = this.#child;
    if (!child) throw new Error("Client not started");
    await this.#writes;
    await this.#writer?.close().catch(() => {});
    const status = await this.#status!;
    await this.#done;
    this.#child = undefined;
    return status.code;
  }

  /** Subscribes to events; returns the unsubscribe function. */
  onEvent(listener: RpcEventListener): () => void {
    this.#listeners.push(listener);
    return () => {
      const i = this.#listeners.indexOf(listener);
      if (i !== -1) this.#listeners.splice(i, 1);
    };
  }

  /** The process's stderr so far. */
  getStderr(): string {
    return this.#stderr;
  }

  // ── commands ───────────────────────────────────────────────────────────

  /**
   * Sends a prompt; resolves once it is accepted (events follow) with what became of it (a run
   * `started`, or it was `queued`). Throws when it is refused.
   */
  async prompt(
    message: string,
    images?: ImageContent[],
    streamingBehavior?: "steer" | "followUp",
  ): Promise<RpcPromptDisposition> {
    return this.#data<"prompt">(await this.send({ type: "prompt", message, images, streamingBehavior }))
      .disposition;
  }
  /** Queues a steering message. */
  async steer(message: string, images?: ImageContent[]): Promise<RpcPromptDisposition> {
    return this.#data<"steer">(await this.send({ type: "steer", message, images })).disposition;
  }
  /** Queues a follow-up message. */
  async followUp(message: string, images?: ImageContent[]): Promise<RpcPromptDisposition> {
    return this.#data<"follow_up">(await this.send({ type: "follow_up", message, images })).disposition;
  }
  /** Aborts the run and waits until the agent is idle. */
  async abort(): Promise<void> {
    this.#data(await this.send({ type: "abort" }));
  }
  /** Empties both queues; resolves with the texts that were waiting. */
  async clearQueue(): Promise<{ steering: string[]; followUp: string[] }> {
    return this.#data<"clear_queue">(await this.send({ type: "clear_queue" }));
  }
  /** Starts a new session. */
  async newSession(parentSession?: string): Promise<{ cancelled: boolean }> {
    return this.#data<"new_session">(await this.send({ type: "new_session", parentSession }));
  }
  /** The session's state. */
  async getState(): Promise<RpcSessionState> {
    return this.#data<"get_state">(await this.send({ type: "get_state" }));
  }
  /** Switches model. */
  async setModel(provider: string, modelId: string): Promise<Model> {
    return this.#data<"set_model">(await this.send({ type: "set_model", provider, modelId }));
  }
  /** Moves to the next model; null when there is only one. */
  async cycleModel(): Promise<ModelCycleResult | null> {
    return this.#data<"cycle_model">(await this.send({ type: "cycle_model" }));
  }
  /** Models with configured credentials. */
  async getAvailableModels(): Promise<Model[]> {
    return this.#data<"get_available_models">(await this.send({ type: "get_available_models" })).models;
  }
  /** Sets the thinking level (clamped to the model). */
  async setThinkingLevel(level: AgentThinkingLevel): Promise<void> {
    this.#data(await this.send({ type: "set_thinking_level", level }));
  }
  /** Moves to the next thinking level; null when the model does not reason. */
  async cycleThinkingLevel(): Promise<{ level: AgentThinkingLevel } | null> {
    return this.#data<"cycle_thinking_level">(await this.send({ type: "cycle_thinking_level" }));
  }
  /** Sets the steering queue mode. */
  async setSteeringMode(mode: RpcQueueMode): Promise<void> {
    this.#data(await this.send({ type: "set_steering_mode", mode }));
  }
  /** Sets the follow-up queue mode. */
  async setFollowUpMode(mode: RpcQueueMode): Promise<void> {
    this.#data(await this.send({ type: "set_follow_up_mode", mode }));
  }
  /** Compacts the context. */
  async compact(customInstructions?: string): Promise<CompactionResult> {
    return this.#data<"compact">(await this.send({ type: "compact", customInstructions }));
  }
  /** Turns auto-compaction on or off. */
  async setAutoCompaction(enabled: boolean): Promise<void> {
    this.#data(await this.send({ type: "set_auto_compaction", enabled }));
  }
  /** Turns auto-retry on or off. */
  async setAutoRetry(enabled: boolean): Promise<void> {
    this.#data(await this.send({ type: "set_auto_retry", enabled }));
  }
  /** Cancels a retry that is waiting. */
  async abortRetry(): Promise<void> {
    this.#data(await this.send({ type: "abort_retry" }));
  }
  /** Runs a shell command as the user (kept out of the model's context with `excludeFromContext`). */
  async bash(command: string, options: { excludeFromContext?: boolean } = {}): Promise<BashResult> {
    return this.#data<"bash">(await this.send({ type: "bash", command, ...options }));
  }
  /** Cancels the running shell command. */
  async abortBash(): Promise<void> {
    this.#data(await this.send({ type: "abort_bash" }));
  }
  /** Token, cost and message counts. */
  async getSessionStats(): Promise<SessionStats> {
    return this.#data<"get_session_stats">(await this.send({ type: "get_session_stats" }));
  }
  /** Exports the session as HTML. */
  async exportHtml(outputPath?: string): Promise<{ path: string }> {
    return this.#data<"export_html">(await this.send({ type: "export_html", outputPath }));
  }
  /** Opens another session file. */
  async switchSession(sessionPath: string): Promise<{ cancelled: boolean }> {
    return this.#data<"switch_session">(await this.send({ type: "switch_session", sessionPath }));
  }
  /** Forks a new session before a user message; `text` is that message's text. */
  async fork(entryId: string): Promise<{ text: string; cancelled: boolean }> {
    return this.#data<"fork">(await this.send({ type: "fork", entryId }));
  }
  /** Copies the current branch into a new session. */
  async clone(): Promise<{ cancelled: boolean }> {
    return this.#data<"clone">(await this.send({ type: "clone" }));
  }
  /** User messages a fork can start from. */
  async getForkMessages(): Promise<{ entryId: string; text: string }[]> {
    return this.#data<"get_fork_messages">(await this.send({ type: "get_fork_messages" })).messages;
  }
  /** Session entries, all or those after `since` (an entry id), and the current leaf. */
  async getEntries(since?: string): Promise<RpcResponseData["get_entries"]> {
    return this.#data<"get_entries">(await this.send({ type: "get_entries", since }));
  }
  /** The session's entry tree and the current leaf. */
  async getTree(): Promise<RpcResponseData["get_tree"]> {
    return this.#data<"get_tree">(await this.send({ type: "get_tree" }));
  }
  /** Thinking levels the current model supports. */
  async getAvailableThinkingLevels(): Promise<AgentThinkingLevel[]> {
    return this.#data<"get_available_thinking_levels">(
      await this.send({ type: "get_available_thinking_levels" }),
    )
      .levels;
  }
  /** Text of the last reply, or null. */
  async getLastAssistantText(): Promise<string | null> {
    return this.#data<"get_last_assistant_text">(await this.send({ type: "get_last_assistant_text" })).text ??
      null;
  }
  /** Names the session. */
  async setSessionName(name: string): Promise<void> {
    this.#data(await this.send({ type: "set_session_name", name }));
  }
  /** The transcript. */
  async getMessages(): Promise<AgentMessage[]> {
    return this.#data<"get_messages">(await this.send({ type: "get_messages" })).messages;
  }
  /** Prompt templates, skills and extension commands. */
  async getCommands(): Promise<RpcSlashCommand[]> {
    return this.#data<"get_commands">(await this.send({ type: "get_commands" })).commands;
  }

  /** Answers an extension UI dialog. */
  respondToUi(response: Omit<RpcExtensionUIResponse, "type">): Promise<void> {
    return this.writeLine(serializeJsonLine({ type: "extension_ui_response", ...response }));
  }

  // ── waiting ────────────────────────────────────────────────────────────

  /** Resolves at the next `agent_settled` (no retry or queued work continues the run). */
  async waitForIdle(timeout = 60_000): Promise<void> {
    await this.collectEvents(timeout);
  }

  /** Collects events up to and including the next `agent_settled`. */
  collectEvents(timeout = 60_000): Promise<RpcEvent[]> {
    return this.waitForEvent((e) => e.type === "agent_settled", timeout);
  }

  /** Collects events until one satisfies `predicate` (included). */
  waitForEvent(predicate: (event: RpcEvent) => boolean, timeout = 60_000): Promise<RpcEvent[]> {
    return new Promise((resolve, reject) => {
      const events: RpcEvent[] = [];
      const timer = setTimeout(() => {
        unsubscribe();
        reject(new Error(`Timeout waiting for an event. Stderr: ${this.#stderr}`));
      }, timeout);
      const unsubscribe = this.onEvent((event) => {
        events.push(event);
        if (!predicate(event)) return;
        clearTimeout(timer);
        unsubscribe();
        resolve(events);
      });
    });
  }

  /** Prompts and collects the run's events. */
  async promptAndWait(message: string, images?: ImageContent[], timeout = 60_000): Promise<RpcEvent[]> {
    const events = this.collectEvents(timeout);
    try {
      await this.prompt(message, images);
    } catch (error) {
      events.catch(() => {});
      throw error;
    }
    return events;
  }

  // ── plumbing ───────────────────────────────────────────────────────────

  /** Sends a command with a fresh id and resolves with its response (success or not). */
  send(command: CommandBody): Promise<RpcResponse> {
    if (!this.#child) return Promise.reject(new Error("Client not started"));
    const id = `req_${++this.#nextId}`;
    const timeoutMs = this.#options.responseTimeoutMs ?? 30_000;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#pending.delete(id);
        reject(new Error(`Timeout waiting for response to ${command.type}. Stderr: ${this.#stderr}`));
      }, timeoutMs);
      this.#pending.set(id, {
        resolve: (response) => {
          clearTimeout(timer);
          resolve(response);
        },
        reject: (error) => {
          clearTimeout(timer);
          reject(error);
        },
      });
      this.writeLine(serializeJsonLine({ ...command, id })).catch((error) => {
        this.#pending.get(id)?.reject(error);
        this.#pending.delete(id);
      });
    });
  }

  /** Writes raw text to the agent's stdin (tests of malformed input). */
  writeLine(text: string | Uint8Array): Promise<void> {
    const writer = this.#writer;
    if (!writer) return Promise.reject(new Error("Client not started"));
    const bytes = typeof text === "string" ? new TextEncoder().encode(text) : text;
    this.#writes = this.#writes.catch(() => {}).then(() => writer.write(bytes));
    return this.#writes;
  }

  #handleLine(line: string): void {
    let record: { type?: unknown; id?: unknown };
    try {
      record = JSON.parse(line);
    } catch {
      return; // not protocol output
    }
    if (record?.type === "response" && typeof record.id === "string" && this.#pending.has(record.id)) {
      const pending = this.#pending.get(record.id)!;
      this.#pending.delete(record.id);
      pending.resolve(record as RpcResponse);
      return;
    }
    for (const listener of [...this.#listeners]) listener(record as RpcEvent);
  }

  #data<C extends RpcCommandType>(response: RpcResponse): RpcResponseData[C] {
    if (!response.success) throw new Error(response.error);
    return response.data as RpcResponseData[C];
  }
}
