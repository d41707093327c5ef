/**
 * RPC mode (`pi --mode rpc`): JSONL commands on stdin, responses and session events on stdout.
 *
 * Unlike the reference, which starts every line's handler at once, commands are applied in the
 * order they arrive: each waits until the one before it took effect (a prompt is accepted, a
 * model is set). Only the cancelling commands (`abort`, `abort_bash`, `abort_retry`) jump the
 * line, since they exist to interrupt what is in progress. At end of input the process answers
 * everything still in flight and lets a running prompt finish before it exits.
 *
 * @module
 */
import type { AgentSession } from "../../core/agent_session.ts";
import { onTerminationSignal } from "../../core/shutdown.ts";
import { toJsonEvent } from "../json_event.ts";
import { writeStdout } from "../output.ts";
import { OutputBatch } from "../stdout_batch.ts";
import { errorText, fail, type RpcCommandContext, type RpcHandler } from "./commands/context.ts";
import { executionHandlers } from "./commands/execution.ts";
import { promptingHandlers } from "./commands/prompting.ts";
import { sessionHandlers } from "./commands/session.ts";
import { stateHandlers } from "./commands/state.ts";
import { validateCommand } from "./commands/validate.ts";
import { RpcExtensionUI } from "./extension_ui.ts";
import { readJsonlLines, serializeJsonLine } from "./jsonl.ts";
import { type SessionRuntimeHost, toRuntimeHost } from "../../core/runtime_host.ts";
import type { RpcCommand, RpcExtensionUIResponse, RpcResponse } from "./rpc_types.ts";

/** Options of {@link runRpcMode}; the defaults are the process's stdin/stdout and signals. */
export interface RpcModeOptions {
  /** Where commands come from (default stdin). */
  input?: ReadableStream<Uint8Array>;
  /** Writes one complete line (default: synchronous stdout write). */
  write?: (line: string) => void;
  /** Install SIGTERM/SIGHUP handlers that exit 143/129 (default true). */
  handleSignals?: boolean;
  /** Receives the extension UI context (for the extension runner, or a test harness). */
  onExtensionUI?: (ui: RpcExtensionUI) => void;
  /**
   * Called with each session served (the first, and each one a command switches to) before the
   * next command runs; the CLI binds extensions here. `output` writes a record (e.g. `extension_error`).
   */
  onSession?: (
    session: AgentSession,
    io: {
      ui: RpcExtensionUI;
      output: (record: unknown) => void;
      /** An extension's `ctx.shutdown()`: input is no longer read; pi ends once idle (exit 0). */
      shutdown: () => void;
      /**
       * Serves the host's current session if a command replaced it (subscribe, `onSession`); an
       * extension command's replacement calls it before its `withSession` callback, as 1.6.0 does.
       */
      serve: () => Promise<void>;
    },
  ) => Promise<void> | void;
}

/** Commands that interrupt in-flight work and therefore are not queued. */
const IMMEDIATE = new Set(["abort", "abort_bash", "abort_retry"]);

/**
 * Commands that read only the session's own model, never the model list: they run on the part of the
 * catalog the CLI loaded at start-up (src/cli/catalog_scope.ts). Any other command (listing, setting
 * or cycling models, replacing the session, compacting, exporting) first loads the whole catalog.
 */
const CATALOG_FREE = new Set([
  "prompt",
  "steer",
  "follow_up",
  "abort",
  "clear_queue",
  "get_state",
  "set_thinking_level",
  "cycle_thinking_level",
  "get_available_thinking_levels",
  "set_steering_mode",
  "set_follow_up_mode",
  "set_auto_compaction",
  "set_auto_retry",
  "abort_retry",
  "bash",
  "abort_bash",
  "get_session_stats",
  "get_fork_messages",
  "get_entries",
  "get_tree",
  "get_last_assistant_text",
  "set_session_name",
  "get_messages",
  "get_commands",
]);

const HANDLERS = {
  ...promptingHandlers,
  ...stateHandlers,
  ...executionHandlers,
  ...sessionHandlers,
} as Record<string, RpcHandler>;

/**
 * Serves RPC on stdin/stdout until input ends; resolves with the exit code (0) once every command
 * has been answered and the agent is idle. The caller exits the process.
 */
export async function runRpcMode(
  target: AgentSession | SessionRuntimeHost,
  options: RpcModeOptions = {},
): Promise<number> {
  const host = toRuntimeHost(target);
  // Events are written in batches at the end of each task (one system call per record made long
  // replies slow); a response or a dialog request goes out at once, with everything before it, since
  // a client is waiting for it.
  const batch = options.write ? undefined : new OutputBatch(writeStdout);
  const write = options.write ?? ((line: string) => batch!.write(line));
  const flush = () => batch?.flush();
  const output = (record: unknown) => {
    write(serializeJsonLine(record));
    const type = (record as { type?: unknown }).type;
    if (type === "response" || type === "extension_ui_request") flush();
  };
  const ui = new RpcExtensionUI(output);
  options.onExtensionUI?.(ui);
  // As 1.6.0: an extension's shutdown request ends the run once the commands so far are answered.
  let ending = false;
  let endInput = () => {};
  const inputEnded = new Promise<void>((resolve) => endInput = resolve);
  const shutdownRequest = () => {
    ending = true;
    endInput();
  };

  let session = host.session;
  let unsubscribe = session.subscribe((event) => output(toJsonEvent(event)));
  const serve = async () => {
    ctx.rebind();
    await binding;
  };
  await options.onSession?.(session, { ui, output, shutdown: shutdownRequest, serve });
  let binding: Promise<void> | void = undefined;
  const inFlight = new Set<Promise<unknown>>();
  const track = (work: Promise<unknown>) => {
    const settled = work.then(() => {}, () => {});
    inFlight.add(settled);
    void settled.then(() => inFlight.delete(settled));
  };

  const ctx: RpcCommandContext = {
    host,
    get session() {
      return host.session;
    },
    rebind() {
      if (host.session === session) return;
      unsubscribe();
      session = host.session;
      unsubscribe = session.subscribe((event) => output(toJsonEvent(event)));
      binding = options.onSession?.(session, { ui, output, shutdown: shutdownRequest, serve });
    },
    track,
    respond: output,
    event: output,
    notify: (message, notifyType) => ui.notify(message, notifyType),
  };

  const execute = async (command: RpcCommand): Promise<void> => {
    const handler = HANDLERS[command.type];
    let result;
    try {
      if (!CATALOG_FREE.has(command.type)) await ctx.session.modelRuntime.loadAllBuiltinModels();
      result = await handler(command, ctx);
    } catch (error) {
      ctx.rebind();
      output(fail(command.id, command.type, errorText(error)));
      return;
    }
    // A command may have replaced the session (new, switch, fork, clone).
    ctx.rebind();
    await binding;
    if ("later" in result) {
      const later = result.later.then(
        output,
        (error) => output(fail(command.id, command.type, errorText(error))),
      );
      track(later);
    } else if (!("answered" in result)) {
      output(result);
    }
  };

  let queue: Promise<void> = Promise.resolve();
  const onLine = (line: string) => {
    if (ending) return;
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch (error) {
      output(fail(undefined, "parse", `Failed to parse command: ${errorText(error)}`));
      return;
    }
    if (isUiResponse(parsed)) {
      ui.handleResponse(parsed);
      return;
    }
    const command = validateCommand(parsed);
    if (!("type" in command)) {
      const response: RpcResponse = fail(command.id, command.command, command.error);
      // Keep answers in arrival order relative to queued commands.
      queue = queue.then(() => output(response));
      return;
    }
    if (IMMEDIATE.has(command.type)) {
      if (command.type === "abort") ctx.session.abortCompaction();
      track(execute(command));
      return;
    }
    queue = queue.then(() => execute(command));
  };

  const shutdown: ShutdownState = {};
  const removeSignals = options.handleSignals === false
    ? () => {}
    : installSignalHandlers(host, ui, shutdown, flush);
  try {
    await Promise.race([readJsonlLines(options.input ?? Deno.stdin, onLine), inputEnded]);
    // Nobody is left to answer dialogs.
    ui.cancelAll();
    await queue;
    while (inFlight.size > 0) await Promise.all([...inFlight]);
    await host.session.settle();
    while (inFlight.size > 0) await Promise.all([...inFlight]);
  } finally {
    unsubscribe();
    // The handlers stay until dispose is done, so a signal meanwhile does not cut it short; after a
    // signal's own dispose, its handler exits the process.
    shutdown.disposing ??= Promise.resolve(host.dispose());
    await shutdown.disposing;
    flush();
    removeSignals();
  }
  return 0;
}

function isUiResponse(value: unknown): value is RpcExtensionUIResponse {
  return typeof value === "object" && value !== null && !Array.isArray(value) &&
    (value as { type?: unknown }).type === "extension_ui_response" &&
    typeof (value as { id?: unknown }).id === "string";
}

/**
 * SIGTERM/SIGHUP end the process with 143/129 once the running reply is aborted (its end saved)
 * and the runtime is disposed. A signal that arrives
 * while that shutdown (or the one after end of input) is still disposing does not cut it short:
 * process managers often close stdin and signal together. Only a repeated signal forces the exit.
 */
function installSignalHandlers(
  host: SessionRuntimeHost,
  ui: RpcExtensionUI,
  shutdown: ShutdownState,
  flush: () => void,
): () => void {
  let signals = 0;
  return onTerminationSignal((code) => {
    signals++;
    if (!shutdown.disposing) {
      ui.cancelAll();
      // As pi 1.6.0: the running reply is aborted and its end saved before the runtime goes.
      const session = host.session;
      shutdown.disposing = session.abort().catch(() => {}).then(() => host.dispose()).finally(() => {
        flush();
        Deno.exit(code);
      });
    } else if (signals > 1) {
      flush();
      Deno.exit(code);
    }
  });
}

/** Shared between the signal handlers and the end-of-input path. */
interface ShutdownState {
  /** Set once the runtime is being disposed; settles when it is. */
  disposing?: Promise<unknown>;
}
