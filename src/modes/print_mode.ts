/**
 * Print mode (`pi -p`, `pi --mode json`): run the prompts, then print the final answer (text) or
 * stream every event as a JSON line (json). Errors go to stderr and make the exit code 1, as do a
 * reply cut at the output limit (its text is still printed) and a failed overflow compaction.
 *
 * @module
 */
import type { AgentSession } from "../core/agent_session.ts";
import { type SessionRuntimeHost, toRuntimeHost } from "../core/runtime_host.ts";
import type { AssistantMessage, ImageContent } from "../ai/types.ts";
import { onTerminationSignal } from "../core/shutdown.ts";
import { writeStderr, writeStdout } from "./output.ts";
import { OutputBatch } from "./stdout_batch.ts";
import { runBuiltinCommand } from "./builtin_commands.ts";

/** Options of {@link runPrintMode}. */
export interface PrintModeOptions {
  /** Plain text or JSON records. */
  mode: "text" | "json";
  /** Prompts sent one after another, after `initialMessage`. */
  messages?: string[];
  /** The first prompt (with `@file` contents and piped stdin already folded in). */
  initialMessage?: string;
  /** Images sent with the first message. */
  initialImages?: ImageContent[];
  /**
   * Ignored: JSON mode is always delta-only now (pi 1.6.0's form). Kept so `--json-deltas`
   * scripts written for earlier versions of this port keep working.
   */
  jsonDeltas?: boolean;
  /**
   * Runs for the first session once output is set up (the JSON header written, events subscribed)
   * and before the first prompt, and again for each session an extension command replaces it with:
   * the CLI binds extensions here, so what their `session_start` handlers do is output too (pi
   * 1.6.0's order). `serve` switches output to the host's current session (subscribe, then this
   * callback); the replacement calls it before the command's `withSession`.
   */
  bindSession?: (session: AgentSession, io: { serve: () => Promise<void> }) => Promise<void>;
}

/**
 * Runs print or JSON mode and resolves with the exit code. Prompts after an extension command
 * replaced the session go to the new one, and its events are output (no second JSON header).
 */
export async function runPrintMode(
  target: AgentSession | SessionRuntimeHost,
  options: PrintModeOptions,
): Promise<number> {
  const { mode, messages = [], initialMessage, initialImages } = options;
  const host = toRuntimeHost(target);
  let session = host.session;
  // The JSON record writer loads only in JSON mode.
  const writeJsonEvent = mode === "json" ? (await import("./json_event.ts")).writeJsonEvent : undefined;
  // JSON records are written in batches (one system call per record made long replies slow).
  const out = new OutputBatch();
  // SIGTERM/SIGHUP as in pi 1.6.0: JSON records stop, the running reply is aborted and saved in
  // the session file (text mode reports it on stderr as any aborted reply), then pi exits 143/129.
  // A second signal exits at once.
  let writeEvents = true;
  let signalled = false;
  let runFinished!: () => void;
  const finished = new Promise<void>((resolve) => runFinished = resolve);
  const removeSignals = onTerminationSignal((exitCode) => {
    if (signalled) {
      out.flush();
      Deno.exit(exitCode);
    }
    signalled = true;
    writeEvents = false;
    session.abort().catch(() => {}).then(() => finished).finally(() => {
      out.flush();
      session.dispose();
      Deno.exit(exitCode);
    });
  });
  // Overflow recovery takes the failed reply out of the context; when it then fails (the summary
  // overflows too) or finds nothing to compact, no assistant answer is left to report. The
  // compaction's error, else the failed reply's, is kept for stderr and the exit code (pi 1.6.0
  // exits 0 with no output there).
  let compactionError: string | undefined;
  let lastReplyError: string | undefined;
  const listen = (served: AgentSession) =>
    served.subscribe((event) => {
      if (event.type === "compaction_end") compactionError = event.errorMessage;
      if (event.type === "message_end" && event.message.role === "assistant") {
        const reply = event.message as AssistantMessage;
        lastReplyError = reply.stopReason === "error" ? reply.errorMessage || "Request error" : undefined;
      }
      if (writeJsonEvent && writeEvents) writeJsonEvent(event, out);
    });
  let unsubscribe = listen(session);
  const serve = async () => {
    if (host.session === session) return;
    unsubscribe();
    session = host.session;
    unsubscribe = listen(session);
    await options.bindSession?.(session, { serve });
  };
  try {
    if (mode === "json") {
      const header = session.sessionManager.getHeader();
      if (header) out.write(`${JSON.stringify(header)}\n`);
    }
    await options.bindSession?.(session, { serve });
    // A built-in extension's command (`/llama`) runs instead; with no UI here it shows nothing.
    if (initialMessage && !runBuiltinCommand(session, initialMessage)) {
      await session.prompt(initialMessage, { images: initialImages, source: "print" });
    }
    for (const message of messages) {
      if (!runBuiltinCommand(session, message)) await session.prompt(message, { source: "print" });
    }
    // A command may have replaced the session: the run ends with the one served now.
    await serve();
    await session.settle();
    if (mode === "text") {
      const last = session.state.messages[session.state.messages.length - 1];
      if (last?.role === "assistant") {
        const assistant = last as AssistantMessage;
        if (assistant.stopReason === "error" || assistant.stopReason === "aborted") {
          writeStderr(`${assistant.errorMessage || `Request ${assistant.stopReason}`}\n`);
          return 1;
        }
        for (const block of assistant.content) if (block.type === "text") writeStdout(`${block.text}\n`);
        if (assistant.stopReason === "length") {
          writeStderr("Response was truncated: the model reached its output token limit.\n");
          return 1;
        }
      } else if (compactionError || lastReplyError) {
        writeStderr(`${compactionError ?? lastReplyError}\n`);
        return 1;
      }
    }
    return 0;
  } catch (error) {
    writeStderr(`${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  } finally {
    out.flush();
    runFinished();
    // After a signal the handler exits once the aborted reply is saved; keep its listeners until then.
    if (!signalled) removeSignals();
    unsubscribe();
    if (!signalled) session.dispose();
  }
}
