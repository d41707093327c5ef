/**
 * Runs one codemode script in a Deno Worker with every permission denied (the worker's JavaScript
 * is `worker_source.ts`), one worker per script; a {@link SandboxPool} starts the next one early. The worker asks the host for tool calls and globals by message; the host
 * answers them, collects the output, and ends the worker when the script settles, when its deadline
 * passes (an endless loop included: terminating a worker stops it mid-instruction) or when the
 * call is aborted. Calls still running then are aborted through their signal.
 *
 * @module
 */
import { MAX_OUTPUT_CHARS, MAX_OUTPUT_ITEMS, WORKER_SOURCE } from "./worker_source.ts";

/** One output item of a script, in order. */
export type SandboxOutput =
  | { type: "text"; text: string; console?: boolean }
  | { type: "image"; data: string; mimeType: string };

/** Why a script failed. */
export interface SandboxError {
  kind: "script" | "timeout" | "aborted" | "sandbox";
  name?: string;
  message: string;
  stack?: string;
}

/** How a script ended. */
export type SandboxResult =
  & { output: SandboxOutput[] }
  & (
    | { ok: true; value: unknown; storeWrites: { set: Record<string, unknown>; delete: string[] } }
    | { ok: false; error: SandboxError }
  );

/** A tool or global the script may call; it resolves to a JSON value or throws. */
export type SandboxHandler = (args: unknown, signal: AbortSignal) => Promise<unknown> | unknown;

/** What a script runs with. */
export interface SandboxOptions {
  code: string;
  /** Tools as `tools.<jsName>` (and `tools[name]`), with the description `ALL_TOOLS` shows. */
  tools: { name: string; jsName: string; description: string; call: SandboxHandler }[];
  /** Globals (`a.b` names group into an `a` object); `spread` passes the argument list as an array. */
  globals: { name: string; spread: boolean; call: SandboxHandler }[];
  /** The `store()` values, as JSON text by key. */
  store: Record<string, string>;
  timeoutMs?: number;
  signal?: AbortSignal;
}

let workerUrl: string | undefined;

/** How long after a script ends the next worker starts (see {@link SandboxPool.prewarmSoon}). */
const PREWARM_DELAY_MS = 20;

/** Starts the worker with no permissions; refuses (throws) rather than run a script unconfined. */
function startWorker(): Worker {
  workerUrl ??= URL.createObjectURL(new Blob([WORKER_SOURCE], { type: "text/javascript" }));
  try {
    return new Worker(workerUrl, {
      type: "module",
      name: "codemode",
      // deno-lint-ignore no-explicit-any
      deno: { permissions: "none" } as any,
    });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new Error(
      `codemode needs Deno's worker permissions to confine scripts, and this runtime refused them (${message}). Run pi with --unstable-worker-options.`,
    );
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Own enumerable properties of an error besides name, message and stack (an MCP error's code, say). */
function extraProperties(error: unknown): string | undefined {
  if (typeof error !== "object" || error === null) return undefined;
  const extra: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(error)) {
    if (key !== "name" && key !== "message" && key !== "stack") extra[key] = value;
  }
  if (Object.keys(extra).length === 0) return undefined;
  try {
    return JSON.stringify(extra);
  } catch {
    return undefined;
  }
}

function parseJson(text: unknown): unknown {
  return typeof text === "string" ? JSON.parse(text) : undefined;
}

/**
 * Keeps one confined worker started ahead of the next script, so a script does not wait for a
 * worker's start (a new isolate: 100-400 ms on a busy machine). Each worker still runs exactly one
 * script and is terminated after it: a script never meets another's state. The spare worker has
 * received nothing yet when a script takes it; a new spare starts once that script has ended.
 */
export class SandboxPool {
  #spare: Worker | undefined;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #broken = false;
  #disposed = false;

  /** Starts a spare worker unless one is waiting (or the pool is disposed); never throws. */
  prewarm(): void {
    if (this.#spare || this.#disposed) return;
    try {
      const worker = startWorker();
      this.#broken = false;
      // A worker that fails before a script takes it is dropped, not handed out.
      worker.onerror = (event) => {
        event.preventDefault();
        this.#broken = true;
      };
      this.#spare = worker;
    } catch {
      // The runtime refuses confined workers: runInSandbox says so when a script runs.
    }
  }

  /**
   * {@link prewarm} after the work already queued: creating a worker holds this thread up (Deno
   * builds the worker's runtime before `new Worker` returns: 100-250 ms on a busy machine), so the
   * result in hand goes out first. The timer does not keep the process alive.
   */
  prewarmSoon(): void {
    if (this.#spare || this.#disposed || this.#timer !== undefined) return;
    const timer = setTimeout(() => {
      this.#timer = undefined;
      this.prewarm();
    }, PREWARM_DELAY_MS);
    Deno.unrefTimer(timer);
    this.#timer = timer;
  }

  /** Whether a spare worker is waiting for a script. */
  get hasSpare(): boolean {
    return this.#spare !== undefined;
  }

  /** The spare worker, or a new one when none is ready. */
  take(): Worker {
    const spare = this.#spare;
    this.#spare = undefined;
    if (spare && !this.#broken) {
      spare.onerror = null;
      return spare;
    }
    spare?.terminate();
    return startWorker();
  }

  /** Terminates the spare worker; later scripts start their own. */
  dispose(): void {
    this.#disposed = true;
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#spare?.terminate();
    this.#spare = undefined;
  }
}

/** Runs `options.code`; never throws for anything the script does. */
export function runInSandbox(options: SandboxOptions, pool?: SandboxPool): Promise<SandboxResult> {
  const output: SandboxOutput[] = [];
  let outputChars = 0;
  if (options.signal?.aborted) {
    return Promise.resolve({ ok: false, output, error: abortError(options.signal) });
  }
  const worker = pool ? pool.take() : startWorker();
  // Each call has its own controller, dropped when it settles: when the script ends only the calls
  // still running are aborted (1.6.0). One controller shared by all calls aborted the finished ones
  // too, and an MCP call's abort sends its server `notifications/cancelled`, one per call made.
  const running = new Set<AbortController>();
  const tools = new Map(options.tools.map((tool) => [tool.name, tool]));
  const globals = new Map(options.globals.map((global) => [global.name, global]));
  return new Promise<SandboxResult>((resolve) => {
    let settled = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const finish = (result: SandboxResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal?.removeEventListener("abort", onAbort);
      worker.terminate();
      // Calls still running when the script ends are cancelled (1.6.0).
      const reason = new Error("The script ended");
      for (const call of running) call.abort(reason);
      running.clear();
      resolve(result);
      // The next script's worker starts once this result is on its way to the model.
      pool?.prewarmSoon();
    };
    const fail = (error: SandboxError) => finish({ ok: false, output, error });
    const onAbort = () => fail(abortError(options.signal));
    options.signal?.addEventListener("abort", onAbort, { once: true });
    if (options.timeoutMs !== undefined) {
      timer = setTimeout(
        () => fail({ kind: "timeout", message: `Execution timed out after ${options.timeoutMs} ms` }),
        options.timeoutMs,
      );
    }
    const answer = async (id: unknown, handler: SandboxHandler | undefined, name: string, args: unknown) => {
      let reply: Record<string, unknown>;
      const call = new AbortController();
      running.add(call);
      try {
        if (!handler) throw new Error(`Unknown tool or global: ${name}`);
        const value = await handler(parseJson(args), call.signal);
        reply = {
          type: "settle",
          id,
          ok: true,
          payload: value === undefined ? undefined : JSON.stringify(value),
        };
      } catch (error) {
        reply = {
          type: "settle",
          id,
          ok: false,
          payload: messageOf(error),
          properties: extraProperties(error),
        };
      }
      running.delete(call);
      if (!settled) worker.postMessage(reply);
    };
    worker.onmessage = (event: MessageEvent) => {
      const message = event.data as Record<string, unknown>;
      if (settled || typeof message !== "object" || message === null) return;
      const name = String(message.name);
      switch (message.type) {
        case "call":
          void answer(message.id, tools.get(name)?.call, name, message.args);
          return;
        case "global":
          void answer(message.id, globals.get(name)?.call, name, message.args);
          return;
        case "output": {
          const data = String(message.data);
          // The worker counts too; this holds even for a script that posts by itself.
          outputChars += data.length;
          if (outputChars > MAX_OUTPUT_CHARS || output.length >= MAX_OUTPUT_ITEMS) {
            fail({
              kind: "script",
              name: "RangeError",
              message:
                `script output exceeded the limit of ${MAX_OUTPUT_CHARS} characters or ${MAX_OUTPUT_ITEMS} text(), image(), and console calls. Print a summary instead, or write large data to a file with a tool.`,
            });
            return;
          }
          if (message.kind === "image") {
            output.push({ type: "image", data, mimeType: String(message.mimeType) });
          } else {output.push({
              type: "text",
              text: data,
              ...(message.kind === "console" ? { console: true } : {}),
            });}
          return;
        }
        case "done":
          finish(doneResult(message, output));
          return;
      }
    };
    worker.onerror = (event: ErrorEvent) => {
      event.preventDefault();
      fail({ kind: "sandbox", message: event.message || "The codemode worker failed" });
    };
    worker.postMessage({
      type: "start",
      code: options.code,
      tools: options.tools.map(({ name, jsName, description }) => ({ name, jsName, description })),
      globals: options.globals.map(({ name, spread }) => ({ name, spread })),
      store: options.store,
    });
  });
}

function abortError(signal: AbortSignal | undefined): SandboxError {
  const reason = signal?.reason;
  return { kind: "aborted", message: reason instanceof Error ? reason.message : "Execution aborted" };
}

/** The result a worker's `done` message describes. */
function doneResult(message: Record<string, unknown>, output: SandboxOutput[]): SandboxResult {
  try {
    if (message.ok === true) {
      const writes = parseJson(message.writes) as ([string] | [string, string])[] | undefined ?? [];
      const set: Record<string, unknown> = {};
      const deleted: string[] = [];
      for (const [key, json] of writes) {
        if (json === undefined) {
          delete set[key];
          deleted.push(key);
        } else {
          set[key] = JSON.parse(json);
          const at = deleted.indexOf(key);
          if (at >= 0) deleted.splice(at, 1);
        }
      }
      return { ok: true, output, value: parseJson(message.payload), storeWrites: { set, delete: deleted } };
    }
    const error = parseJson(message.payload) as
      | { name?: string; message?: string; stack?: string }
      | undefined;
    return {
      ok: false,
      output,
      error: {
        kind: "script",
        ...(error?.name ? { name: error.name } : {}),
        message: error?.message ?? "The script failed",
        ...(error?.stack ? { stack: error.stack } : {}),
      },
    };
  } catch (error) {
    return { ok: false, output, error: { kind: "sandbox", message: messageOf(error) } };
  }
}
