/**
 * The main module of a Deno Worker that hosts one extension (started by worker_host.ts). It
 * publishes the pi modules the extension imports in the Worker's own registry (the shims read
 * `globalThis`, which is the Worker's here), imports the built extension, and calls its factory
 * with a `pi` object whose registrations and actions travel to pi as messages
 * (worker_runtime_protocol.ts). Handlers, tools and commands run here, under the Worker's
 * permissions: what Deno refuses them is an error in the extension, never in pi.
 *
 * @module
 */
/// <reference lib="deno.worker" />
import { createExtensionAPI, type ExtensionRuntime } from "./api.ts";
import { createEventBus } from "./event_bus.ts";
import { publishHostImport } from "./host_modules.ts";
import type { ExtensionContext, ExtensionHandler, ExtensionHostActions, LoadedExtension } from "./types.ts";
import { workerContext } from "./worker_runtime_context.ts";
import {
  type ContextSnapshot,
  type HostToWorker,
  postSafely,
  toWireError,
  type WorkerToHost,
} from "./worker_runtime_protocol.ts";

const scope = globalThis as unknown as DedicatedWorkerGlobalScope;

function post(message: WorkerToHost): void {
  postSafely(scope, message);
}

let extension: LoadedExtension | undefined;
let snapshot: ContextSnapshot | undefined;
const runtime: ExtensionRuntime = { flagValues: new Map(), reportError: () => {} };
const handlerIds = new WeakMap<ExtensionHandler, number>();
const handlersById = new Map<number, ExtensionHandler>();
let nextHandlerId = 1;
const calls = new Map<number, AbortController>();
const pending = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
let nextRequestId = 1;

function notInWorker(what: string): never {
  throw new Error(`${what} is not available to an extension running in a Worker yet`);
}

/** A request pi answers (a dialog). */
function request(name: string, args: unknown[]): Promise<unknown> {
  const id = nextRequestId++;
  return new Promise((resolve, reject) => {
    pending.set(id, { resolve, reject });
    post({ type: "request", id, name, args });
  });
}

function action(name: string, args: unknown[]): void {
  post({ type: "action", name, args });
}

const actions: ExtensionHostActions = {
  sendMessage: (...args) => action("sendMessage", args),
  sendUserMessage: (...args) => action("sendUserMessage", args),
  appendEntry: (...args) => action("appendEntry", args),
  setSessionName: (...args) => action("setSessionName", args),
  getSessionName: () => snapshot?.sessionName,
  getActiveTools: () => [...snapshot?.activeTools ?? []],
  getAllTools: () => notInWorker("pi.getAllTools()"),
  setActiveTools: (...args) => action("setActiveTools", args),
  refreshTools: () => {},
  getCommands: () => notInWorker("pi.getCommands()"),
  setModel: () =>
    Promise.reject(new Error("pi.setModel() is not available to an extension running in a Worker yet")),
  getThinkingLevel: () => snapshot?.thinkingLevel ?? "off",
  setThinkingLevel: (...args) => action("setThinkingLevel", args),
  context: () => context(undefined),
};

function context(signal: AbortSignal | undefined): ExtensionContext {
  return workerContext(snapshot!, signal, { action, request });
}

function useSnapshot(ctx: ContextSnapshot): void {
  snapshot = ctx;
  for (const [name, value] of ctx.flagValues) runtime.flagValues.set(name, value);
}

/** Wraps the `pi` object so that what the extension registers is announced to pi. */
function announcingAPI(target: LoadedExtension, cwd: string) {
  const api = createExtensionAPI(target, runtime, cwd, createEventBus());
  return {
    ...api,
    on(event: string, handler: ExtensionHandler): () => void {
      const off = api.on(event, handler);
      const list = target.handlers.get(event)!;
      const registered = list[list.length - 1];
      const handlerId = nextHandlerId++;
      handlerIds.set(registered, handlerId);
      handlersById.set(handlerId, registered);
      post({ type: "on", event, handlerId });
      return () => {
        off();
        handlersById.delete(handlerId);
        post({ type: "off", event, handlerId });
      };
    },
    registerTool(tool: Parameters<typeof api.registerTool>[0]): void {
      api.registerTool(tool);
      const wire: Record<string, unknown> = {};
      for (const [key, value] of Object.entries(tool)) if (typeof value !== "function") wire[key] = value;
      post({ type: "tool", tool: wire as { name: string; description: string; parameters: unknown } });
    },
    registerCommand(name: string, options: Parameters<typeof api.registerCommand>[1]): void {
      api.registerCommand(name, options);
      post({ type: "command", name, ...(options.description ? { description: options.description } : {}) });
    },
    registerMcpServer: (): void => notInWorker("pi.registerMcpServer()"),
    unregisterMcpServer: (): void => notInWorker("pi.unregisterMcpServer()"),
    getMcpServers: (): never => notInWorker("pi.getMcpServers()"),
    // Provider configs carry functions (streamSimple, oauth) that cannot cross to pi's side.
    registerProvider: (): void => notInWorker("pi.registerProvider()"),
    unregisterProvider: (): void => notInWorker("pi.unregisterProvider()"),
    registerFlag(name: string, options: Parameters<typeof api.registerFlag>[1]): void {
      api.registerFlag(name, options);
      post({
        type: "flag",
        name,
        flagType: options.type,
        ...(options.description ? { description: options.description } : {}),
        ...(options.default !== undefined ? { default: options.default } : {}),
      });
    },
  };
}

async function load(message: Extract<HostToWorker, { type: "load" }>): Promise<void> {
  try {
    for (const [name, value] of message.flagValues) runtime.flagValues.set(name, value);
    await Promise.all(message.hostImports.map((hostImport) => publishHostImport(hostImport)));
    const module = await import(message.entryUrl) as { default?: unknown };
    const factory = module.default;
    if (typeof factory !== "function") {
      throw new Error(`Extension does not export a valid factory function: ${message.path}`);
    }
    extension = {
      path: message.path,
      resolvedPath: message.path,
      handlers: new Map(),
      tools: new Map(),
      commands: new Map(),
      flags: new Map(),
      moduleUrls: [],
    };
    await factory(announcingAPI(extension, message.cwd));
    // Actions work once loading is over, as in the pi process (pi answers "not initialized" until a session exists).
    runtime.actions = actions;
    post({ type: "loaded" });
  } catch (error) {
    post({ type: "load_failed", error: toWireError(error) });
  }
}

async function call(message: Extract<HostToWorker, { type: "call" }>): Promise<void> {
  const controller = new AbortController();
  calls.set(message.id, controller);
  useSnapshot(message.ctx);
  const ctx = context(controller.signal);
  try {
    if (message.kind === "handler") {
      const handler = handlersById.get(message.handlerId);
      if (!handler) throw new Error("The handler was removed");
      const event = message.event as Record<string, unknown>;
      const before = Array.isArray(event.messages) ? [...event.messages] : undefined;
      const value = await handler(event, ctx);
      const edited = before && Array.isArray(event.messages) &&
        (event.messages.length !== before.length || event.messages.some((m, i) => m !== before[i]));
      post({
        type: "result",
        id: message.id,
        ok: true,
        value,
        ...(event.type === "tool_call" ? { input: event.input } : {}),
        ...(event.type === "before_provider_headers" ? { headers: event.headers } : {}),
        ...(edited ? { messages: event.messages as unknown[] } : {}),
      });
    } else if (message.kind === "tool") {
      const tool = extension?.tools.get(message.name);
      if (!tool) throw new Error(`Tool ${message.name} not found`);
      const value = await tool.execute(
        message.toolCallId,
        message.params,
        controller.signal,
        (partial) => post({ type: "update", id: message.id, partial }),
        ctx,
      );
      post({ type: "result", id: message.id, ok: true, value });
    } else {
      const command = extension?.commands.get(message.name);
      if (!command) throw new Error(`Command /${message.name} not found`);
      const value = await command.handler(message.args, ctx);
      post({ type: "result", id: message.id, ok: true, value });
    }
  } catch (error) {
    post({ type: "result", id: message.id, ok: false, error: toWireError(error) });
  } finally {
    calls.delete(message.id);
  }
}

scope.onmessage = (event: MessageEvent<HostToWorker>) => {
  const message = event.data;
  switch (message.type) {
    case "load":
      void load(message);
      break;
    case "call":
      void call(message);
      break;
    case "abort":
      calls.get(message.id)?.abort(new Error("Aborted"));
      break;
    case "reply": {
      const waiting = pending.get(message.id);
      pending.delete(message.id);
      if (!waiting) break;
      if (message.ok) waiting.resolve(message.value);
      else {waiting.reject(
          Object.assign(new Error(message.error?.message ?? "failed"), { name: message.error?.name }),
        );}
      break;
    }
  }
};

// pi sends "load" only after this: the boot script awaits this module, and a message that arrives
// before `onmessage` is set is dropped (seen with a cold Deno cache, where compiling takes seconds).
post({ type: "ready" });

// An error the extension leaves uncaught (a timer's throw, a rejection nobody awaits) is reported
// to pi as the extension's error; the Worker goes on.
scope.addEventListener("error", (event) => {
  event.preventDefault();
  post({ type: "uncaught", error: toWireError(event.error ?? event.message) });
});
scope.addEventListener("unhandledrejection", (event) => {
  event.preventDefault();
  post({ type: "uncaught", error: toWireError(event.reason) });
});
