/**
 * The client side of MCP's stdio transport on `Deno.Command`: newline-delimited JSON-RPC on the
 * server's stdin/stdout, its stderr kept as a tail for error messages. It replaces the SDK's
 * `StdioClientTransport`, whose cross-spawn and Node `child_process`/streams layer cost about
 * 300 ms of start-up under Deno; what a user sees is the same (the `spawn <cmd> ENOENT` message,
 * the inherited environment, the close sequence: end of stdin, 2 s, SIGTERM, 2 s, SIGKILL).
 *
 * @module
 */
import type { Transport } from "npm:@modelcontextprotocol/sdk@1.32.2/shared/transport.js";
import type { JSONRPCMessage } from "npm:@modelcontextprotocol/sdk@1.32.2/types.js";
import { JSONRPCMessageSchema } from "npm:@modelcontextprotocol/sdk@1.32.2/types.js";

/** Variables a server inherits even when its environment is given (the SDK's list, after sudo's). */
const DEFAULT_INHERITED_ENV_VARS = ["HOME", "LOGNAME", "PATH", "SHELL", "TERM", "USER"];
/** The SDK's limit on one unfinished line from the server. */
const MAX_BUFFER_BYTES = 10 * 1024 * 1024;
/** How long `close()` waits after ending stdin, and again after SIGTERM (the SDK's delays). */
const CLOSE_STEP_MS = 2_000;
/** How much of the server's stderr is kept. */
const STDERR_KEEP_CHARS = 64_000;
const NEWLINE = 0x0a;

/** Servers still running; pi's exit sends each SIGTERM (see {@link trackUntilExit}). */
const running = new Set<Deno.ChildProcess>();
let exitHook = false;

/**
 * Keeps `child` in {@link running} until it exits. A server that ignores the end of its stdin (or
 * is still starting when pi ends) would otherwise outlive pi: the close sequence's timers do not
 * keep pi alive, and Deno does not end child processes on exit.
 */
function trackUntilExit(child: Deno.ChildProcess): void {
  running.add(child);
  void child.status.then(() => running.delete(child), () => running.delete(child));
  if (exitHook) return;
  exitHook = true;
  globalThis.addEventListener("unload", () => {
    for (const server of running) {
      try {
        server.kill("SIGTERM");
      } catch {
        // It exited meanwhile.
      }
    }
  });
}

/** How to start a stdio server. */
export interface StdioServerParameters {
  command: string;
  args?: string[];
  /** Added to the inherited defaults ({@link defaultEnvironment}). */
  env?: Record<string, string>;
  cwd?: string;
}

/** The variables every server inherits (the SDK's `getDefaultEnvironment`). */
export function defaultEnvironment(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const key of DEFAULT_INHERITED_ENV_VARS) {
    const value = Deno.env.get(key);
    // Exported shell functions are skipped (a security risk), as the SDK does.
    if (value === undefined || value.startsWith("()")) continue;
    env[key] = value;
  }
  return env;
}

/** Node's words for a spawn failure (`spawn <cmd> ENOENT`), which 1.6.0 shows. */
function spawnError(command: string, error: unknown): Error {
  const code = error instanceof Deno.errors.NotFound
    ? "ENOENT"
    : error instanceof Deno.errors.PermissionDenied
    ? "EACCES"
    : undefined;
  if (!code) return error instanceof Error ? error : new Error(String(error));
  return Object.assign(new Error(`spawn ${command} ${code}`), {
    code,
    syscall: `spawn ${command}`,
    path: command,
  });
}

function concat(chunks: Uint8Array[], size: number): Uint8Array {
  if (chunks.length === 1) return chunks[0];
  const out = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.length;
  }
  return out;
}

/** Runs an MCP server as a child process and talks to it over stdin/stdout. */
export class DenoStdioClientTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  #params: StdioServerParameters;
  #child: Deno.ChildProcess | undefined;
  #writer: WritableStreamDefaultWriter<Uint8Array> | undefined;
  #exited = false;
  #stderr = "";
  #pending: Uint8Array[] = [];
  #pendingBytes = 0;
  #decoder = new TextDecoder();
  #encoder = new TextEncoder();

  constructor(params: StdioServerParameters) {
    this.#params = params;
  }

  /** The tail of what the server wrote to stderr. */
  get stderr(): string {
    return this.#stderr;
  }

  /** The server's process id once started. */
  get pid(): number | undefined {
    return this.#child?.pid;
  }

  /** Starts the server; rejects with `spawn <cmd> ENOENT` (and tells `onerror`) when it cannot. */
  start(): Promise<void> {
    if (this.#child) return Promise.reject(new Error("DenoStdioClientTransport already started"));
    const { command, args = [], env = {}, cwd } = this.#params;
    let child: Deno.ChildProcess;
    try {
      child = new Deno.Command(command, {
        args,
        env: { ...defaultEnvironment(), ...env },
        clearEnv: true,
        cwd,
        stdin: "piped",
        stdout: "piped",
        stderr: "piped",
      }).spawn();
    } catch (error) {
      const failure = spawnError(command, error);
      this.onerror?.(failure);
      return Promise.reject(failure);
    }
    this.#child = child;
    trackUntilExit(child);
    this.#writer = child.stdin.getWriter();
    const reading = Promise.all([this.#readStdout(child), this.#readStderr(child)]);
    void Promise.all([child.status, reading]).then(() => {
      this.#child = undefined;
      this.#writer = undefined;
      this.onclose?.();
    });
    void child.status.then(() => {
      this.#exited = true;
    });
    return Promise.resolve();
  }

  async #readStdout(child: Deno.ChildProcess): Promise<void> {
    try {
      for await (const chunk of child.stdout) this.#append(chunk);
    } catch (error) {
      this.onerror?.(error instanceof Error ? error : new Error(String(error)));
    }
  }

  async #readStderr(child: Deno.ChildProcess): Promise<void> {
    const decoder = new TextDecoder();
    try {
      for await (const chunk of child.stderr) {
        const text = this.#stderr + decoder.decode(chunk, { stream: true });
        this.#stderr = text.length > STDERR_KEEP_CHARS ? text.slice(text.length - STDERR_KEEP_CHARS) : text;
      }
    } catch {
      // A broken stderr pipe loses only diagnostics.
    }
  }

  /** Splits stdout into lines; one unfinished line may not exceed the SDK's 10 MiB. */
  #append(chunk: Uint8Array): void {
    let start = 0;
    while (start < chunk.length) {
      const end = chunk.indexOf(NEWLINE, start);
      if (end === -1) {
        const rest = chunk.subarray(start);
        if (this.#pendingBytes + rest.length > MAX_BUFFER_BYTES) {
          this.#pending = [];
          this.#pendingBytes = 0;
          this.onerror?.(new Error(`ReadBuffer exceeded maximum size of ${MAX_BUFFER_BYTES} bytes`));
          this.close().catch(() => undefined);
          return;
        }
        this.#pending.push(rest);
        this.#pendingBytes += rest.length;
        return;
      }
      const piece = chunk.subarray(start, end);
      const line = concat([...this.#pending, piece], this.#pendingBytes + piece.length);
      this.#pending = [];
      this.#pendingBytes = 0;
      start = end + 1;
      this.#deliver(this.#decoder.decode(line).replace(/\r$/, ""));
    }
  }

  #deliver(line: string): void {
    let message: JSONRPCMessage;
    try {
      message = JSONRPCMessageSchema.parse(JSON.parse(line)) as JSONRPCMessage;
    } catch (error) {
      this.onerror?.(error instanceof Error ? error : new Error(String(error)));
      return;
    }
    this.onmessage?.(message);
  }

  /** Writes one message as a line; a server that went away is reported to `onerror`. */
  async send(message: JSONRPCMessage): Promise<void> {
    const writer = this.#writer;
    if (!writer) throw new Error("Not connected");
    try {
      await writer.write(this.#encoder.encode(JSON.stringify(message) + "\n"));
    } catch (error) {
      this.onerror?.(error instanceof Error ? error : new Error(String(error)));
    }
  }

  /** Ends stdin, then SIGTERM after 2 s and SIGKILL after 2 s more if the server is still running. */
  async close(): Promise<void> {
    const child = this.#child;
    const writer = this.#writer;
    this.#writer = undefined;
    this.#pending = [];
    this.#pendingBytes = 0;
    if (!child || !writer) return;
    await writer.close().catch(() => undefined);
    for (const signal of ["SIGTERM", "SIGKILL"] as const) {
      if (!(await this.#exitsWithin(child, CLOSE_STEP_MS))) {
        try {
          child.kill(signal);
        } catch {
          // It exited meanwhile.
        }
      }
      if (signal === "SIGKILL" || this.#exited) break;
    }
  }

  async #exitsWithin(child: Deno.ChildProcess, ms: number): Promise<boolean> {
    if (this.#exited) return true;
    let timer = 0;
    const elapsed = new Promise<boolean>((done) => {
      // Deno's timer id (the SDK's Node types declare another return type).
      timer = setTimeout(() => done(false), ms) as unknown as number;
      // The wait must not keep pi running on its own (the SDK unrefs it too).
      Deno.unrefTimer(timer);
    });
    const exited = await Promise.race([child.status.then(() => true), elapsed]);
    clearTimeout(timer);
    return exited;
  }
}
