/**
 * The messages between pi and an extension running in a Deno Worker (worker_host.ts on pi's
 * side, worker_runtime.ts inside the Worker). Everything crosses by structured clone: functions,
 * class instances with behaviour and live objects (the session manager, TUI components) do not.
 *
 * @module
 */
import type { HostImport } from "./host_modules.ts";

/** An error as it crosses the boundary. */
export interface WireError {
  name: string;
  message: string;
  stack?: string;
}

/** What a handler, tool or command sees of `ctx`, copied for each call. */
export interface ContextSnapshot {
  cwd: string;
  hasUI: boolean;
  mode?: string;
  model?: unknown;
  thinkingLevel?: string;
  isIdle: boolean;
  hasPendingMessages: boolean;
  systemPrompt?: string;
  contextUsage?: unknown;
  sessionName?: string;
  activeTools?: string[];
  flagValues: [string, boolean | string][];
}

/** pi → Worker. */
export type HostToWorker =
  | {
    type: "load";
    entryUrl: string;
    hostImports: HostImport[];
    path: string;
    cwd: string;
    flagValues: [string, boolean | string][];
  }
  | { type: "call"; id: number; kind: "handler"; handlerId: number; event: unknown; ctx: ContextSnapshot }
  | {
    type: "call";
    id: number;
    kind: "tool";
    name: string;
    toolCallId: string;
    params: unknown;
    ctx: ContextSnapshot;
  }
  | { type: "call"; id: number; kind: "command"; name: string; args: string; ctx: ContextSnapshot }
  | { type: "abort"; id: number }
  | { type: "reply"; id: number; ok: boolean; value?: unknown; error?: WireError };

/** A tool's description without its `execute` (and other functions). */
export interface WireTool {
  name: string;
  description: string;
  parameters: unknown;
  [key: string]: unknown;
}

/** Worker → pi. */
export type WorkerToHost =
  /** The Worker listens: a message posted before this may arrive while its modules still load, and be lost. */
  | { type: "ready" }
  | { type: "loaded" }
  | { type: "load_failed"; error: WireError }
  | { type: "on"; event: string; handlerId: number }
  | { type: "off"; event: string; handlerId: number }
  | { type: "tool"; tool: WireTool }
  | { type: "command"; name: string; description?: string }
  | {
    type: "flag";
    name: string;
    description?: string;
    flagType: "boolean" | "string";
    default?: boolean | string;
  }
  | {
    type: "result";
    id: number;
    ok: boolean;
    value?: unknown;
    error?: WireError;
    /** `event.input` after a `tool_call` handler (handlers may edit it in place). */
    input?: unknown;
    /** `event.messages` after a `context` handler that edited the list in place. */
    messages?: unknown[];
    /** `event.headers` after a `before_provider_headers` handler (handlers edit them in place). */
    headers?: unknown;
  }
  | { type: "update"; id: number; partial: unknown }
  /** Fire-and-forget actions: `pi.sendMessage`, `ctx.ui.notify`, `ctx.abort` … */
  | { type: "action"; name: string; args: unknown[] }
  /** Actions with an answer: `ctx.ui.select`, `confirm`, `input`, `editor`. */
  | { type: "request"; id: number; name: string; args: unknown[] }
  | { type: "uncaught"; error: WireError };

/** The actions a Worker-hosted extension may send, and the requests it may make. */
export const WORKER_ACTIONS = [
  "sendMessage",
  "sendUserMessage",
  "appendEntry",
  "setSessionName",
  "setActiveTools",
  "setThinkingLevel",
  "ctx.abort",
  "ctx.compact",
  "ui.notify",
  "ui.setStatus",
  "ui.setWidget",
  "ui.setTitle",
  "ui.setEditorText",
] as const;

/** The requests (answered) a Worker-hosted extension may make. */
export const WORKER_REQUESTS = ["ui.select", "ui.confirm", "ui.input", "ui.editor"] as const;

/** An error as it crosses the boundary. */
export function toWireError(error: unknown): WireError {
  if (error instanceof Error) {
    return { name: error.name, message: error.message, ...(error.stack ? { stack: error.stack } : {}) };
  }
  return { name: "Error", message: String(error) };
}

/**
 * Posts `message`; when it does not clone (a function or a live object somewhere inside), posts a
 * JSON copy instead, which drops what cannot cross.
 */
export function postSafely(target: { postMessage(message: unknown): void }, message: unknown): void {
  try {
    target.postMessage(message);
  } catch (error) {
    if (!(error instanceof DOMException && error.name === "DataCloneError")) throw error;
    target.postMessage(JSON.parse(JSON.stringify(message)));
  }
}
