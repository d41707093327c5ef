/**
 * The `bash` tool: runs a command in the session's working folder and returns its combined
 * output, tail-truncated, with the full output kept in a temp file once it grows too large
 * (spec BASH-01..04).
 *
 * @module
 */
import type { AgentToolUpdateCallback } from "../agent/types.ts";
import type { TextContent } from "../ai/types.ts";
import { type BashOperations, createLocalBashOperations, getShellEnv, ShellTimeoutError } from "./shell.ts";
import { PREFER_STRICT_ARGUMENTS, type PromptedTool, type ToolDeclarations } from "./tool_metadata.ts";
import type { OutputAccumulator, OutputSnapshot } from "./output_accumulator.ts";
import { DEFAULT_MAX_BYTES, DEFAULT_MAX_LINES, formatSize, type TruncationResult } from "./truncate.ts";

/** Arguments the model passes to `bash`. */
export interface BashToolInput {
  /** The shell command line to run. */
  command: string;
  /** Seconds; no timeout when absent. */
  timeout?: number;
}

/** Details attached to a bash result when output was truncated. */
export interface BashToolDetails {
  /** Set when the output was cut. */
  truncation?: TruncationResult;
  /** Temp file holding the whole output, when it was cut. */
  fullOutputPath?: string;
}

/** What a spawn hook may rewrite before a command runs. */
export interface BashSpawnContext {
  /** The command line, after `commandPrefix`. */
  command: string;
  /** Folder the command runs in. */
  cwd: string;
  /** The command's complete environment (Node's `process.env` shape, as 1.6.0 types it). */
  env: Record<string, string | undefined>;
}

/** Adjusts command, folder or environment right before execution. */
export type BashSpawnHook = (context: BashSpawnContext) => BashSpawnContext;

export type { BashOperations, OutputSnapshot };
export { createLocalBashOperations };
// The accumulator loads with the first command, not at start-up; the SDK exports it from its own module.

/**
 * What a command may learn about the session through `PI_*` variables. Read when each command
 * starts, so a model or thinking-level switch reaches the next command.
 */
export interface BashSessionEnvironment {
  /** `PI_SESSION_ID`. */
  sessionId: string;
  /** `PI_SESSION_FILE`; absent for sessions that are not saved. */
  sessionFile?: string;
  /** `PI_PROVIDER` (with `model`). */
  provider?: string;
  /** `PI_MODEL`: the selected model's id. */
  model?: string;
  /** `PI_REASONING_LEVEL`: the effective thinking level (`off` … `max`). */
  reasoningLevel?: string;
}

/** The result as data, for programmatic callers (`structuredContent`). */
export type BashStructuredContent = {
  /** Combined stdout and stderr; head and tail only past 1 MiB. */
  output: string;
  /** Whether `output` was cut (past 1 MiB). */
  truncated: boolean;
  /** The full output file, when `output` was cut. */
  full_output_path?: string;
  /** The shell's exit status (128 + n for a signal). */
  exit_code: number;
  /** Run time, to a tenth of a second. */
  wall_time_seconds: number;
};

/** Options of {@link createBashTool}, named as in the reference SDK. */
export interface BashToolOptions {
  /** Custom execution backend; defaults to the local shell. */
  operations?: BashOperations;
  /** Prepended to every command on its own line (e.g. `shopt -s expand_aliases`). */
  commandPrefix?: string;
  /** Explicit shell executable from settings. */
  shellPath?: string;
  /** Last-moment rewrite of command, cwd and env (it sees the session variables). */
  spawnHook?: BashSpawnHook;
  /**
   * The session's current facts for `PI_SESSION_ID`, `PI_SESSION_FILE`, `PI_PROVIDER`,
   * `PI_MODEL` and `PI_REASONING_LEVEL`, called as each command starts. Inherited values of
   * these variables are always removed, so a nested pi never leaks its parent's.
   */
  sessionEnvironment?: () => BashSessionEnvironment | undefined;
  /** Set false to pass no session variables and drop the prompt guideline about them. */
  exposeSessionEnvironment?: boolean;
}

/** Largest timeout setTimeout can honour, in milliseconds. */
const MAX_TIMEOUT_MS = 2_147_483_647;
/** Output limit of `structuredContent.output`. */
const STRUCTURED_OUTPUT_MAX_BYTES = 1024 * 1024;
const SESSION_VARIABLES = [
  "PI_SESSION_ID",
  "PI_SESSION_FILE",
  "PI_PROVIDER",
  "PI_MODEL",
  "PI_REASONING_LEVEL",
];

/** Rejects timeouts the shell backend cannot honour, with the reference's wording. */
function checkTimeout(timeout: number | undefined): void {
  if (timeout === undefined) return;
  if (!Number.isFinite(timeout) || timeout <= 0) {
    throw new Error("Invalid timeout: must be a finite number of seconds");
  }
  if (timeout * 1000 > MAX_TIMEOUT_MS) {
    throw new Error(`Invalid timeout: maximum is ${MAX_TIMEOUT_MS / 1000} seconds`);
  }
}

function sessionEnv(options: BashToolOptions | undefined): Record<string, string> {
  const env = getShellEnv();
  for (const name of SESSION_VARIABLES) delete env[name];
  if (options?.exposeSessionEnvironment === false) return env;
  const facts = options?.sessionEnvironment?.();
  if (!facts) return env;
  env.PI_SESSION_ID = facts.sessionId;
  if (facts.sessionFile) env.PI_SESSION_FILE = facts.sessionFile;
  if (facts.provider && facts.model) {
    env.PI_PROVIDER = facts.provider;
    env.PI_MODEL = facts.model;
  }
  if (facts.reasoningLevel) env.PI_REASONING_LEVEL = facts.reasoningLevel;
  return env;
}

/** A built-in tool with the prompt metadata the system prompt builder reads. */
export type BashTool = PromptedTool<BashToolInput, BashToolDetails | undefined> & ToolDeclarations;

/** Shape of `structuredContent`. */
const BASH_OUTPUT_SCHEMA = {
  type: "object",
  required: ["output", "truncated", "exit_code", "wall_time_seconds"],
  properties: {
    output: { type: "string", description: "Combined stdout and stderr, possibly truncated" },
    truncated: { type: "boolean" },
    full_output_path: { type: "string", description: "Full output, when truncated" },
    exit_code: { type: "number" },
    wall_time_seconds: { type: "number" },
  },
};

const UPDATE_THROTTLE_MS = 100;

function appendStatus(text: string, status: string): string {
  return `${text ? `${text}\n\n` : ""}${status}`;
}

/**
 * Creates the `bash` tool bound to `cwd`.
 *
 * @example
 * ```ts
 * import { createBashTool } from "@pi-deno/coding-agent";
 *
 * const bash = createBashTool(Deno.cwd());
 * const controller = new AbortController();
 * const result = await bash.execute("call-1", { command: "ls -1 | head -5", timeout: 10 }, controller.signal);
 * for (const block of result.content) {
 *   if (block.type === "text") console.log(block.text);
 * }
 * ```
 */
export function createBashTool(cwd: string, options?: BashToolOptions): BashTool {
  const ops = options?.operations ?? createLocalBashOperations({ shellPath: options?.shellPath });
  const commandPrefix = options?.commandPrefix;
  const spawnHook = options?.spawnHook;
  return {
    name: "bash",
    label: "bash",
    description:
      `Execute a bash command in the current working directory. Returns stdout and stderr. Output is truncated to last ${DEFAULT_MAX_LINES} lines or ${
        DEFAULT_MAX_BYTES / 1024
      }KB (whichever is hit first). If truncated, full output is saved to a temp file. Optionally provide a timeout in seconds.`,
    promptSnippet: "Execute bash commands (ls, grep, find, etc.)",
    promptGuidelines: options?.exposeSessionEnvironment === false
      ? undefined
      : ["You can inspect PI_* environment variables for current model and session details."],
    parameters: {
      type: "object",
      required: ["command"],
      properties: {
        command: { type: "string", description: "Shell command to execute" },
        timeout: { type: "number", description: "Timeout in seconds (optional, no default timeout)" },
      },
    },
    outputSchema: BASH_OUTPUT_SCHEMA,
    constrainedSampling: PREFER_STRICT_ARGUMENTS,
    async execute(_toolCallId, { command, timeout }, signal, onUpdate) {
      const resolved = commandPrefix ? `${commandPrefix}\n${command}` : command;
      const base: BashSpawnContext = { command: resolved, cwd, env: sessionEnv(options) };
      const spawnContext = spawnHook ? spawnHook(base) : base;
      const { OutputAccumulator } = await import("./output_accumulator.ts");
      const output = new OutputAccumulator({ tempFilePrefix: "pi-bash" });
      const updates = new ThrottledUpdates(output, onUpdate);
      onUpdate?.({ content: [], details: undefined });

      // Descendants may still write after the tool has its answer; that output is dropped.
      let accepting = true;
      const finish = async (): Promise<OutputSnapshot> => {
        accepting = false;
        output.finish();
        updates.flush();
        const snapshot = output.snapshot({ persistIfTruncated: true });
        await output.closeTempFile();
        return snapshot;
      };
      const format = (snapshot: OutputSnapshot, emptyText = "(no output)") => {
        const t = snapshot.truncation;
        let text = snapshot.content || emptyText;
        let details: BashToolDetails | undefined;
        if (t.truncated) {
          details = { truncation: t, fullOutputPath: snapshot.fullOutputPath };
          const start = t.totalLines - t.outputLines + 1;
          const end = t.totalLines;
          const path = snapshot.fullOutputPath;
          if (t.lastLinePartial) {
            text += `\n\n[Showing last ${formatSize(t.outputBytes)} of line ${end} (line is ${
              formatSize(output.getLastLineBytes())
            }). Full output: ${path}]`;
          } else if (t.truncatedBy === "lines") {
            text += `\n\n[Showing lines ${start}-${end} of ${t.totalLines}. Full output: ${path}]`;
          } else {
            text += `\n\n[Showing lines ${start}-${end} of ${t.totalLines} (${
              formatSize(DEFAULT_MAX_BYTES)
            } limit). Full output: ${path}]`;
          }
        }
        return { text, details };
      };

      const startedAt = performance.now();
      try {
        checkTimeout(timeout);
        let exitCode: number | null;
        try {
          const result = await ops.exec(spawnContext.command, spawnContext.cwd, {
            onData: (data) => {
              if (!accepting) return;
              output.append(data);
              updates.schedule();
            },
            signal,
            timeout,
            env: spawnContext.env,
          });
          exitCode = result.exitCode;
        } catch (err) {
          const { text } = format(await finish(), "");
          if (err instanceof Error && err.message === "aborted") {
            throw new Error(appendStatus(text, "Command aborted"));
          }
          if (err instanceof Error && err.message.startsWith("timeout:")) {
            let status = `Command timed out after ${err.message.split(":")[1]} seconds`;
            if (err instanceof ShellTimeoutError && err.shellExit) {
              // The command's own result matters too: only its background processes ran on.
              status +=
                `. The shell exited with code ${err.shellExit.exitCode} after ${err.shellExit.afterSeconds} seconds, but background processes it started kept writing output until the timeout.`;
            }
            throw new Error(appendStatus(text, status));
          }
          throw err;
        }
        const snapshot = await finish();
        const { text, details } = format(snapshot);
        if (exitCode === null) {
          throw new Error(appendStatus(text, "Command terminated without an exit code"));
        }
        const wallTimeSeconds = Math.round((performance.now() - startedAt) / 100) / 10;
        const full = await output.readFullOutput(STRUCTURED_OUTPUT_MAX_BYTES);
        const structuredContent: BashStructuredContent = {
          output: full.content,
          truncated: full.truncated,
          ...(full.truncated && snapshot.fullOutputPath ? { full_output_path: snapshot.fullOutputPath } : {}),
          exit_code: exitCode,
          wall_time_seconds: wallTimeSeconds,
        };
        if (exitCode !== 0) {
          // A failure for the model, but callers still get the data.
          const content: TextContent[] = [{
            type: "text",
            text: appendStatus(text, `Command exited with code ${exitCode}`),
          }];
          return { content, details, structuredContent, isError: true };
        }
        const content: TextContent[] = [{ type: "text", text }];
        return { content, details, structuredContent };
      } finally {
        updates.cancel();
      }
    },
  };
}

/** Emits accumulated-output snapshots at most every 100 ms, always flushing the latest state. */
class ThrottledUpdates {
  #timer: ReturnType<typeof setTimeout> | undefined;
  #dirty = false;
  #lastAt = 0;

  constructor(
    private readonly output: OutputAccumulator,
    private readonly onUpdate: AgentToolUpdateCallback<BashToolDetails | undefined> | undefined,
  ) {}

  schedule(): void {
    if (!this.onUpdate) return;
    this.#dirty = true;
    const delay = UPDATE_THROTTLE_MS - (Date.now() - this.#lastAt);
    if (delay <= 0) {
      this.cancel();
      this.#emit();
      return;
    }
    this.#timer ??= setTimeout(() => {
      this.#timer = undefined;
      this.#emit();
    }, delay);
  }

  flush(): void {
    this.cancel();
    this.#emit();
  }

  cancel(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  #emit(): void {
    if (!this.onUpdate || !this.#dirty) return;
    this.#dirty = false;
    this.#lastAt = Date.now();
    const snapshot = this.output.snapshot({ persistIfTruncated: true });
    this.onUpdate({
      content: [{ type: "text", text: snapshot.content || "" }],
      details: {
        truncation: snapshot.truncation.truncated ? snapshot.truncation : undefined,
        fullOutputPath: snapshot.fullOutputPath,
      },
    });
  }
}
