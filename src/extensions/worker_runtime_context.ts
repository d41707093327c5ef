/**
 * `ctx` inside a Worker-hosted extension: the session's state as copied into the call
 * ({@link ContextSnapshot}), dialogs as requests pi answers, and fire-and-forget UI calls and
 * session actions as messages. What cannot cross (the session manager, the model registry, TUI
 * components, synchronous reads of the editor) throws an error that says so.
 *
 * @module
 */
import type { ExtensionContext, ExtensionUIContext } from "./types.ts";
import type { ContextSnapshot } from "./worker_runtime_protocol.ts";

/** How the context reaches pi. */
export interface WorkerContextLink {
  action(name: string, args: unknown[]): void;
  request(name: string, args: unknown[]): Promise<unknown>;
}

function unavailable(what: string): never {
  throw new Error(`${what} is not available to an extension running in a Worker yet`);
}

/** The plain theme of a UI that draws nothing itself: styles return the text unchanged. */
const plainTheme = new Proxy({}, {
  get: (_target, key) =>
    key === "name" ? "plain" : (...args: unknown[]) => String(args[args.length - 1] ?? ""),
});

/** `ctx.ui` for a Worker-hosted extension. */
function workerUI(link: WorkerContextLink): ExtensionUIContext {
  return {
    select: (...args) => link.request("ui.select", args) as Promise<string | undefined>,
    confirm: (...args) => link.request("ui.confirm", args) as Promise<boolean>,
    input: (...args) => link.request("ui.input", args) as Promise<string | undefined>,
    editor: (...args) => link.request("ui.editor", args) as Promise<string | undefined>,
    notify: (...args) => link.action("ui.notify", args),
    setStatus: (...args) => link.action("ui.setStatus", args),
    setWidget: (key, content, options) => {
      // Lines cross; a component (an object with render()) would have to draw synchronously in pi.
      if (content !== undefined && !Array.isArray(content)) {
        unavailable("ctx.ui.setWidget() with a component");
      }
      link.action("ui.setWidget", [key, content, options]);
    },
    setTitle: (...args) => link.action("ui.setTitle", args),
    setEditorText: (...args) => link.action("ui.setEditorText", args),
    getEditorText: () => unavailable("ctx.ui.getEditorText()"),
    custom: () => unavailable("ctx.ui.custom()"),
    setFooter: () => unavailable("ctx.ui.setFooter()"),
    setHeader: () => unavailable("ctx.ui.setHeader()"),
    theme: plainTheme,
  };
}

/** The `ctx` of one call. */
export function workerContext(
  snapshot: ContextSnapshot,
  signal: AbortSignal | undefined,
  link: WorkerContextLink,
): ExtensionContext {
  return {
    ui: workerUI(link),
    hasUI: snapshot.hasUI,
    mode: snapshot.mode,
    cwd: snapshot.cwd,
    get sessionManager(): unknown {
      return unavailable("ctx.sessionManager");
    },
    get modelRegistry(): unknown {
      return unavailable("ctx.modelRegistry");
    },
    model: snapshot.model,
    thinkingLevel: snapshot.thinkingLevel,
    isIdle: () => snapshot.isIdle,
    signal,
    abort: () => link.action("ctx.abort", []),
    hasPendingMessages: () => snapshot.hasPendingMessages,
    shutdown: () => {},
    getContextUsage: () => snapshot.contextUsage,
    compact: (options?: unknown) => {
      const instructions = (options as { customInstructions?: string } | undefined)?.customInstructions;
      link.action("ctx.compact", instructions === undefined ? [] : [instructions]);
    },
    getSystemPrompt: () => snapshot.systemPrompt ?? "",
  };
}
