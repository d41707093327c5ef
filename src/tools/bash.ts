/**
 * The `bash` tool: runs a command in the session's working folder and returns its combined
 * output, tail-truncated, with the full output kept in a temp file once it grows too large
 * (spec BASH-01..04).
 *
 * @module
 */
import type { AgentTool, AgentToolUpdateCallback } from "../agent/types.ts";
import type { TextContent } from "../ai/types.ts";
import { type BashOperations, createLocalBashOperations, getShellEnv } from "./shell.ts";
import {
  DEFAULT_MAX_BYTES,
  DEFAULT_MAX_LINES,
  formatSize,
  truncateTail,
  type TruncationResult,
  utf8ByteLength,
} from "./truncate.ts";
import { randomHex } from "../util/bytes.ts";
import { tmpDir } from "../util/os.ts";
import { join } from "../util/path.ts";

/** Arguments the model passes to `bash`. */
export interface BashToolInput {
  command: string;
  /** Seconds; no timeout when absent. */
  timeout?: number;
}

/** Details attached to a bash result when output was truncated. */
export interface BashToolDetails {
  truncation?: TruncationResult;
  fullOutputPath?: string;
}

/** What a spawn hook may rewrite before a command runs. */
export interface BashSpawnContext {
  command: string;
  cwd: string;
  env: Record<string, string>;
}

/** Adjusts command, folder or environment right before execution. */
export type BashSpawnHook = (context: BashSpawnContext) => BashSpawnContext;

export type { BashOperations };
export { createLocalBashOperations };

/** Options of {@link createBashTool}, named as in the reference SDK. */
export interface BashToolOptions {
  /** Custom execution backend; defaults to the local shell. */
  operations?: BashOperations;
  /** Prepended to every command on its own line (e.g. `shopt -s expand_aliases`). */
  commandPrefix?: string;
  /** Explicit shell executable from settings. */
  shellPath?: string;
  /** Last-moment rewrite of command, cwd and env. */
  spawnHook?: BashSpawnHook;
}

/** A built-in tool with the prompt metadata the system prompt builder reads. */
export type BashTool = AgentTool<BashToolInput, BashToolDetails | undefined> & {
  promptSnippet: string;
  promptGuidelines?: string[];
};

const UPDATE_THROTTLE_MS = 100;

function appendStatus(text: string, status: string): string {
  return `${text ? `${text}\n\n` : ""}${status}`;
}

/** Creates the `bash` tool bound to `cwd`. */
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
    parameters: {
      type: "object",
      required: ["command"],
      properties: {
        command: { type: "string", description: "Bash command to execute" },
        timeout: { type: "number", description: "Timeout in seconds (optional, no default timeout)" },
      },
    },
    async execute(_toolCallId, { command, timeout }, signal, onUpdate) {
      const resolved = commandPrefix ? `${commandPrefix}\n${command}` : command;
      const base: BashSpawnContext = { command: resolved, cwd, env: getShellEnv() };
      const spawnContext = spawnHook ? spawnHook(base) : base;
      const output = new OutputAccumulator({ tempFilePrefix: "pi-bash" });
      const updates = new ThrottledUpdates(output, onUpdate);
      onUpdate?.({ content: [], details: undefined });

      const finish = async (): Promise<OutputSnapshot> => {
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

      try {
        let exitCode: number | null;
        try {
          const result = await ops.exec(spawnContext.command, spawnContext.cwd, {
            onData: (data) => {
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
            throw new Error(
              appendStatus(text, `Command timed out after ${err.message.split(":")[1]} seconds`),
            );
          }
          throw err;
        }
        const { text, details } = format(await finish());
        if (exitCode !== 0 && exitCode !== null) {
          throw new Error(appendStatus(text, `Command exited with code ${exitCode}`));
        }
        const content: TextContent[] = [{ type: "text", text }];
        return { content, details };
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

/** A view of accumulated output: the tail to show plus how it was truncated. */
export interface OutputSnapshot {
  content: string;
  truncation: TruncationResult;
  fullOutputPath?: string;
}

/**
 * Collects streamed command output in bounded memory: decodes UTF-8 incrementally, keeps only a
 * rolling tail (about 4× the byte budget) for display, and once any limit is exceeded writes all
 * raw bytes — earlier chunks included — to `<tmpdir>/<prefix>-<16 hex>.log`.
 */
export class OutputAccumulator {
  readonly #maxLines: number;
  readonly #maxBytes: number;
  readonly #maxRollingBytes: number;
  readonly #prefix: string;
  #decoder = new TextDecoder();
  #rawChunks: Uint8Array[] = [];
  #tailText = "";
  #tailBytes = 0;
  #tailStartsAtLineBoundary = true;
  #totalRawBytes = 0;
  #totalDecodedBytes = 0;
  #totalLines = 1;
  #currentLineBytes = 0;
  #finished = false;
  #tempFilePath: string | undefined;
  #tempFile: Deno.FsFile | undefined;

  constructor(options: { maxLines?: number; maxBytes?: number; tempFilePrefix?: string } = {}) {
    this.#maxLines = options.maxLines ?? DEFAULT_MAX_LINES;
    this.#maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
    this.#maxRollingBytes = Math.max(this.#maxBytes * 2, 1);
    this.#prefix = options.tempFilePrefix ?? "pi-output";
  }

  /** Adds a raw chunk of output. */
  append(data: Uint8Array): void {
    if (this.#finished) throw new Error("Cannot append to a finished output accumulator");
    this.#totalRawBytes += data.length;
    this.#appendDecoded(this.#decoder.decode(data, { stream: true }));
    if (this.#tempFile || this.#shouldUseTempFile()) {
      this.#ensureTempFile();
      this.#writeRaw(data);
    } else if (data.length > 0) {
      // Copy: callers may reuse their buffers.
      this.#rawChunks.push(data.slice());
    }
  }

  /** Flushes the decoder; no more data may follow. */
  finish(): void {
    if (this.#finished) return;
    this.#finished = true;
    this.#appendDecoded(this.#decoder.decode());
    if (this.#shouldUseTempFile()) this.#ensureTempFile();
  }

  /** The tail-truncated view of everything so far. */
  snapshot(options: { persistIfTruncated?: boolean } = {}): OutputSnapshot {
    const tail = truncateTail(this.#snapshotText(), { maxLines: this.#maxLines, maxBytes: this.#maxBytes });
    const truncated = this.#totalLines > this.#maxLines || this.#totalDecodedBytes > this.#maxBytes;
    const truncatedBy = truncated
      ? (tail.truncatedBy ?? (this.#totalDecodedBytes > this.#maxBytes ? "bytes" : "lines"))
      : null;
    const truncation: TruncationResult = {
      ...tail,
      truncated,
      truncatedBy,
      totalLines: this.#totalLines,
      totalBytes: this.#totalDecodedBytes,
      maxLines: this.#maxLines,
      maxBytes: this.#maxBytes,
    };
    if (options.persistIfTruncated && truncated) this.#ensureTempFile();
    return { content: truncation.content, truncation, fullOutputPath: this.#tempFilePath };
  }

  /** Closes the full-output file (if any) so its contents are complete on disk. */
  closeTempFile(): Promise<void> {
    const file = this.#tempFile;
    this.#tempFile = undefined;
    file?.close();
    return Promise.resolve();
  }

  /** UTF-8 size of the last (possibly unterminated) line, for the partial-line notice. */
  getLastLineBytes(): number {
    return this.#currentLineBytes;
  }

  #writeRaw(data: Uint8Array): void {
    let offset = 0;
    while (offset < data.length) offset += this.#tempFile!.writeSync(data.subarray(offset));
  }

  #appendDecoded(text: string): void {
    if (text.length === 0) return;
    const bytes = utf8ByteLength(text);
    this.#totalDecodedBytes += bytes;
    this.#tailText += text;
    this.#tailBytes += bytes;
    if (this.#tailBytes > this.#maxRollingBytes * 2) this.#trimTail();
    let newlines = 0;
    let lastNewline = -1;
    for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) {
      newlines++;
      lastNewline = i;
    }
    if (newlines === 0) {
      this.#currentLineBytes += bytes;
    } else {
      this.#totalLines += newlines;
      this.#currentLineBytes = utf8ByteLength(text.slice(lastNewline + 1));
    }
  }

  #trimTail(): void {
    const buffer = new TextEncoder().encode(this.#tailText);
    if (buffer.length <= this.#maxRollingBytes) {
      this.#tailBytes = buffer.length;
      return;
    }
    let start = buffer.length - this.#maxRollingBytes;
    while (start < buffer.length && (buffer[start] & 0xc0) === 0x80) start++;
    this.#tailStartsAtLineBoundary = start === 0
      ? this.#tailStartsAtLineBoundary
      : buffer[start - 1] === 0x0a;
    this.#tailText = new TextDecoder().decode(buffer.subarray(start));
    this.#tailBytes = utf8ByteLength(this.#tailText);
  }

  #snapshotText(): string {
    if (this.#tailStartsAtLineBoundary) return this.#tailText;
    const firstNewline = this.#tailText.indexOf("\n");
    return firstNewline === -1 ? this.#tailText : this.#tailText.slice(firstNewline + 1);
  }

  #shouldUseTempFile(): boolean {
    return this.#totalRawBytes > this.#maxBytes || this.#totalDecodedBytes > this.#maxBytes ||
      this.#totalLines > this.#maxLines;
  }

  #ensureTempFile(): void {
    if (this.#tempFilePath) return;
    this.#tempFilePath = join(tmpDir(), `${this.#prefix}-${randomHex(8)}.log`);
    this.#tempFile = Deno.openSync(this.#tempFilePath, { write: true, create: true, truncate: true });
    for (const chunk of this.#rawChunks) this.#writeRaw(chunk);
    this.#rawChunks = [];
  }
}
