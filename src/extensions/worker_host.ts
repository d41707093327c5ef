/**
 * pi's side of an extension that runs in a Deno Worker with its own permissions (see
 * worker_host_permissions.ts for how they are declared). The extension becomes an ordinary
 * {@link LoadedExtension} whose handlers, tools and commands are stand-ins: each call copies the
 * event and a snapshot of `ctx` to the Worker (worker_runtime.ts) and waits for the answer, so
 * the runner, the session and the modes treat it like any other extension.
 *
 * An operation Deno refuses inside the Worker fails there, in the extension's code, and comes
 * back as the extension's error (`extension_error`, or the tool's error result) with the text
 * `permission denied: write /path (not granted to the extension)`.
 *
 * @module
 */
import type { ExtensionRuntime } from "./api.ts";
import { emptyLoadedExtension } from "./loaded_extension.ts";
import type { DiscoveredExtension } from "./discovery.ts";
import type { BuiltExtension } from "./module_build.ts";
import type {
  ExtensionContext,
  ExtensionHandler,
  ExtensionHostActions,
  ExtensionToolDefinition,
  LoadedExtension,
} from "./types.ts";
import type { WorkerPermissions } from "./worker_host_permissions.ts";
import {
  type ContextSnapshot,
  type HostToWorker,
  postSafely,
  type WireError,
  type WorkerToHost,
} from "./worker_runtime_protocol.ts";
import type { AgentToolResult } from "../agent/types.ts";

/** A call message without the fields {@link loadInWorker}'s `call` adds. */
type CallBody<M = Extract<HostToWorker, { type: "call" }>> = M extends unknown ? Omit<M, "id" | "ctx">
  : never;

const DENIED = /Requires (\w+) access to "(.*)", run again with the --allow-\w+ flag/;

/**
 * A Worker's error as pi reports it: Deno's refusals read `permission denied: <kind> <target>
 * (not granted to the extension)`; other errors keep their name, message and stack.
 */
export function hostError(error: WireError | undefined): Error {
  const wire = error ?? { name: "Error", message: "The extension's Worker failed" };
  const match = (wire.name === "NotCapable" || wire.name === "PermissionDenied")
    ? DENIED.exec(wire.message)
    : null;
  const out = new Error(
    match ? `permission denied: ${match[1]} ${match[2]} (not granted to the extension)` : wire.message,
  );
  if (!match && wire.name !== "Error") out.name = wire.name;
  if (wire.stack) {
    out.stack = match ? `Error: ${out.message}\n${wire.stack.split("\n").slice(1).join("\n")}` : wire.stack;
  }
  return out;
}

let boot: string | undefined;

/**
 * The Worker's first module: a two-line script that imports worker_runtime.ts. Starting the Worker
 * from the file itself would make `deno test` type-check its whole graph again for each Worker
 * (a minute on a busy machine); a script that imports a variable has nothing to check. Like `new Worker(new URL(…))`, this
 * needs pi's source files on disk: a bundle or compiled binary fails the load with the reason.
 */
function bootUrl(): string {
  const runtime = new URL("./worker_runtime.ts", import.meta.url).href;
  boot ??= URL.createObjectURL(
    new Blob([
      `// pi: an extension's Worker\nconst runtime = ${JSON.stringify(runtime)};\nawait import(runtime);\n`,
    ], {
      type: "text/javascript",
    }),
  );
  return boot;
}

/** What {@link loadInWorker} needs. */
export interface WorkerLoadOptions {
  entry: DiscoveredExtension;
  built: BuiltExtension;
  cwd: string;
  permissions: WorkerPermissions;
  runtime: ExtensionRuntime;
  timeoutMs: number;
}

/** A call waiting for the Worker's answer. */
interface PendingCall {
  resolve(message: Extract<WorkerToHost, { type: "result" }>): void;
  reject(error: Error): void;
  onUpdate?: (partial: AgentToolResult) => void;
}

function snapshotOf(ctx: ExtensionContext, runtime: ExtensionRuntime): ContextSnapshot {
  const actions: ExtensionHostActions | undefined = runtime.actions;
  return {
    cwd: ctx.cwd,
    hasUI: ctx.hasUI,
    mode: ctx.mode as string | undefined,
    model: ctx.model,
    thinkingLevel: ctx.thinkingLevel as string | undefined,
    isIdle: ctx.isIdle(),
    hasPendingMessages: ctx.hasPendingMessages(),
    systemPrompt: ctx.getSystemPrompt(),
    sessionName: actions?.getSessionName(),
    activeTools: actions?.getActiveTools(),
    flagValues: [...runtime.flagValues],
  };
}

/** The extension, loaded in its Worker, ready for the runner; throws with the reason when it cannot load. */
export function loadInWorker(options: WorkerLoadOptions): Promise<LoadedExtension> {
  const { entry, built, runtime } = options;
  let worker: Worker;
  try {
    const runtimeFile = new URL("./worker_runtime.ts", import.meta.url);
    // A bundle has no such file next to it; the Worker would fail later with a less clear error.
    if (runtimeFile.protocol === "file:") Deno.statSync(runtimeFile);
    worker = new Worker(bootUrl(), {
      type: "module",
      name: `pi extension ${entry.path}`,
      // deno-lint-ignore no-explicit-any
      deno: { permissions: options.permissions } as any,
    });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    // Never run a confined extension unconfined.
    return Promise.reject(
      new Error(
        /escalate/i.test(message)
          ? `it is granted permissions this pi process does not have (a sandbox profile withholds them): ${message}`
          : `it declares permissions, so it runs in a Deno Worker, and this pi cannot start one (${message})`,
      ),
    );
  }
  const extension: LoadedExtension = emptyLoadedExtension(entry, built);
  const proxies = new Map<number, ExtensionHandler>();
  const calls = new Map<number, PendingCall>();
  let nextId = 1;
  let lastContext: ExtensionContext | undefined;
  const send = (message: HostToWorker) => postSafely(worker, message);
  const report = (event: string, error: Error) =>
    runtime.reportError({
      extensionPath: entry.path,
      event,
      error: error.message,
      ...(error.stack ? { stack: error.stack } : {}),
    });

  const call = (
    message: CallBody,
    ctx: ExtensionContext,
    signal?: AbortSignal,
    onUpdate?: (partial: AgentToolResult) => void,
  ): Promise<Extract<WorkerToHost, { type: "result" }>> => {
    const id = nextId++;
    lastContext = ctx;
    return new Promise((resolve, reject) => {
      const onAbort = () => send({ type: "abort", id });
      signal?.addEventListener("abort", onAbort, { once: true });
      calls.set(id, {
        resolve: (result) => {
          signal?.removeEventListener("abort", onAbort);
          result.ok ? resolve(result) : reject(hostError(result.error));
        },
        reject,
        onUpdate,
      });
      send({ ...message, id, ctx: snapshotOf(ctx, runtime) } as HostToWorker);
    });
  };

  const handlerProxy = (handlerId: number): ExtensionHandler => async (event, ctx) => {
    const result = await call({ type: "call", kind: "handler", handlerId, event }, ctx);
    // Handlers may edit `event.input` (tool_call), `event.headers` (before_provider_headers) and
    // `event.messages` (context) in place.
    const edited = event.type === "tool_call"
      ? "input"
      : event.type === "before_provider_headers"
      ? "headers"
      : "";
    const target = edited ? event[edited] : undefined;
    const copy = edited ? result[edited as "input" | "headers"] : undefined;
    if (isRecord(target) && isRecord(copy)) {
      for (const key of Object.keys(target)) delete target[key];
      Object.assign(target, copy);
    }
    if (result.messages && Array.isArray(event.messages)) {
      event.messages.splice(0, Infinity, ...result.messages);
    }
    return result.value;
  };

  const context = (): ExtensionContext | undefined => runtime.actions?.context() ?? lastContext;

  const act = (name: string, args: unknown[]) => {
    const actions = runtime.actions as unknown as Record<string, (...a: unknown[]) => unknown> | undefined;
    if (name.startsWith("ui.")) {
      const ui = context()?.ui as unknown as Record<string, (...a: unknown[]) => unknown> | undefined;
      return ui?.[name.slice(3)]?.(...args);
    }
    if (name === "ctx.abort") return context()?.abort();
    if (name === "ctx.compact") return context()?.compact({ customInstructions: args[0] });
    if (!actions) {
      throw new Error(
        "Extension runtime not initialized. Action methods cannot be called during extension loading.",
      );
    }
    const method = actions[name];
    if (typeof method !== "function") throw new Error(`Unknown action: ${name}`);
    return method.apply(actions, args);
  };

  return new Promise<LoadedExtension>((resolve, reject) => {
    let loading = true;
    const timer = setTimeout(() => {
      loading = false;
      worker.terminate();
      reject(new Error(`Extension factory did not finish within ${options.timeoutMs} ms`));
    }, options.timeoutMs);
    const failLoad = (error: Error) => {
      clearTimeout(timer);
      loading = false;
      worker.terminate();
      reject(error);
    };
    worker.onerror = (event) => {
      event.preventDefault();
      const error = new Error(event.message);
      if (loading) failLoad(error);
      else report("uncaught", error);
    };
    worker.onmessage = (event: MessageEvent<WorkerToHost>) => {
      const message = event.data;
      switch (message.type) {
        case "ready":
          send({
            type: "load",
            entryUrl: built.entryUrl,
            hostImports: [...built.hostImports],
            path: entry.path,
            cwd: options.cwd,
            flagValues: [...runtime.flagValues],
          });
          break;
        case "loaded":
          clearTimeout(timer);
          loading = false;
          resolve(extension);
          break;
        case "load_failed":
          failLoad(hostError(message.error));
          break;
        case "on": {
          const proxy = handlerProxy(message.handlerId);
          proxies.set(message.handlerId, proxy);
          const list = extension.handlers.get(message.event) ?? [];
          list.push(proxy);
          extension.handlers.set(message.event, list);
          break;
        }
        case "off": {
          const proxy = proxies.get(message.handlerId);
          proxies.delete(message.handlerId);
          const list = extension.handlers.get(message.event);
          const index = proxy && list ? list.indexOf(proxy) : -1;
          if (index !== -1) list!.splice(index, 1);
          break;
        }
        case "tool": {
          const name = message.tool.name;
          const tool: ExtensionToolDefinition = {
            ...message.tool,
            execute: async (toolCallId, params, signal, onUpdate, ctx) =>
              (await call({ type: "call", kind: "tool", name, toolCallId, params }, ctx, signal, onUpdate))
                .value as AgentToolResult,
          };
          extension.tools.set(name, tool);
          runtime.onToolRegistered?.();
          break;
        }
        case "command":
          extension.commands.set(message.name, {
            name: message.name,
            ...(message.description ? { description: message.description } : {}),
            handler: async (args, ctx) =>
              (await call(
                { type: "call", kind: "command", name: message.name, args },
                ctx as ExtensionContext,
              ))
                .value,
            extensionPath: entry.path,
            ...(entry.sourceInfo ? { sourceInfo: entry.sourceInfo } : {}),
          });
          break;
        case "flag":
          extension.flags.set(message.name, {
            name: message.name,
            type: message.flagType,
            ...(message.description ? { description: message.description } : {}),
            ...(message.default !== undefined ? { default: message.default } : {}),
            extensionPath: entry.path,
          });
          if (message.default !== undefined && !runtime.flagValues.has(message.name)) {
            runtime.flagValues.set(message.name, message.default);
          }
          break;
        case "result": {
          const pending = calls.get(message.id);
          calls.delete(message.id);
          pending?.resolve(message);
          break;
        }
        case "update":
          calls.get(message.id)?.onUpdate?.(message.partial as AgentToolResult);
          break;
        case "action":
          try {
            void act(message.name, message.args);
          } catch (error) {
            report(message.name, error instanceof Error ? error : new Error(String(error)));
          }
          break;
        case "request": {
          const reply = (ok: boolean, value?: unknown, error?: unknown) =>
            send({
              type: "reply",
              id: message.id,
              ok,
              ...(ok
                ? { value }
                : { error: { name: "Error", message: String((error as Error)?.message ?? error) } }),
            });
          Promise.resolve().then(() => act(message.name, message.args)).then(
            (value) => reply(true, value),
            (error) => reply(false, undefined, error),
          );
          break;
        }
        case "uncaught":
          report("uncaught", hostError(message.error));
          break;
      }
    };
  });
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
