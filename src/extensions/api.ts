/**
 * The `pi` object an extension's factory receives: registration (`on`, `registerTool`,
 * `registerCommand`, `registerFlag`, …) works at once; actions (`sendMessage`, `appendEntry`, …)
 * reach the session through {@link ExtensionRuntime.actions}, which src/core binds once the
 * session exists — before that they throw 1.6.0's "not initialized" error.
 *
 * @module
 */
import { execCommand, type ExecOptions, type ExecResult } from "./exec.ts";
import { validateMcpServerConfig } from "./builtin/mcp/config.ts";
import { mcpNamespace } from "./builtin/mcp/naming.ts";
import { McpServerRegistry, type RegisteredMcpServer } from "./mcp_servers.ts";
import { ExtensionProviderRegistrations, registerExtensionProvider } from "./provider_registrations.ts";
import type { ProviderConfigInput } from "../config/model_registry.ts";
import type { EventBus } from "./event_bus.ts";
import { type ExtensionVirtualModel, ExtensionVirtualModels } from "./virtual_models.ts";
import type {
  ExtensionError,
  ExtensionHandler,
  ExtensionHostActions,
  ExtensionToolDefinition,
  LoadedExtension,
} from "./types.ts";

/** State shared by all extensions of one runtime. */
export interface ExtensionRuntime {
  /** Bound by src/core when the session exists. */
  actions?: ExtensionHostActions;
  /** Values of registered flags: the command line's, else the defaults. */
  flagValues: Map<string, boolean | string>;
  /** Called when a tool is registered after start-up. */
  onToolRegistered?: () => void;
  /** Reports errors of `pi.events` handlers. */
  reportError(error: ExtensionError): void;
  /** Servers registered with `pi.registerMcpServer()`. */
  mcpServers?: McpServerRegistry;
  /** Virtual models registered with `pi.registerVirtualModel()`: queued until src/core binds the registry. */
  virtualModels?: ExtensionVirtualModels;
  /** Providers registered with `pi.registerProvider()`: queued until src/core binds the model registry. */
  providers?: ExtensionProviderRegistrations;
  /** Set once the session was replaced: actions throw it (1.6.0's stale-context error). */
  staleMessage?: string;
}

/** A runtime with no session yet. */
export function createExtensionRuntime(): ExtensionRuntime {
  const pending: ExtensionError[] = [];
  return {
    flagValues: new Map(),
    reportError: (error) => pending.push(error),
    mcpServers: new McpServerRegistry(),
    virtualModels: new ExtensionVirtualModels(),
    providers: new ExtensionProviderRegistrations(),
  };
}

const NOT_INITIALIZED =
  "Extension runtime not initialized. Action methods cannot be called during extension loading.";

function actions(runtime: ExtensionRuntime): ExtensionHostActions {
  if (runtime.staleMessage !== undefined) throw new Error(runtime.staleMessage);
  if (!runtime.actions) throw new Error(NOT_INITIALIZED);
  return runtime.actions;
}

/** The `pi` object for one extension. */
export type ExtensionAPI = ReturnType<typeof createExtensionAPI>;

/** Builds the `pi` object for `extension`. */
export function createExtensionAPI(
  extension: LoadedExtension,
  runtime: ExtensionRuntime,
  cwd: string,
  eventBus: EventBus,
) {
  return {
    on(event: string, handler: ExtensionHandler): () => void {
      const list = extension.handlers.get(event) ?? [];
      const registered: ExtensionHandler = (e, ctx) => handler(e, ctx);
      list.push(registered);
      extension.handlers.set(event, list);
      return () => {
        const handlers = extension.handlers.get(event);
        const index = handlers?.indexOf(registered) ?? -1;
        if (index !== -1) handlers!.splice(index, 1);
      };
    },
    registerTool(tool: ExtensionToolDefinition): void {
      if (typeof tool.parameters !== "object" || tool.parameters === null || Array.isArray(tool.parameters)) {
        throw new Error(
          `Tool "${tool.name}" registered by extension "${extension.path}" must define an object parameter schema.`,
        );
      }
      extension.tools.set(tool.name, tool);
      runtime.onToolRegistered?.();
    },
    registerCommand(
      name: string,
      options: { description?: string; handler: (args: string, ctx: unknown) => unknown },
    ): void {
      if (typeof name !== "string" || name.length === 0) {
        throw new Error(
          `Command registered by extension "${extension.path}" must have a non-empty string name. Use pi.registerCommand("name", { description, handler }).`,
        );
      }
      if (typeof options?.handler !== "function") {
        throw new Error(
          `Command "/${name}" registered by extension "${extension.path}" must define handler().`,
        );
      }
      extension.commands.set(name, {
        ...options,
        name,
        extensionPath: extension.path,
        sourceInfo: extension.sourceInfo,
      });
    },
    registerFlag(
      name: string,
      options: { description?: string; type: "boolean" | "string"; default?: boolean | string },
    ): void {
      if (options.default !== undefined && typeof options.default !== options.type) {
        throw new Error(
          `Invalid default for flag "${name}": expected ${options.type}, got ${typeof options.default}`,
        );
      }
      extension.flags.set(name, { ...options, name, extensionPath: extension.path });
      if (options.default !== undefined && !runtime.flagValues.has(name)) {
        runtime.flagValues.set(name, options.default);
      }
    },
    getFlag(name: string): boolean | string | undefined {
      if (!extension.flags.has(name)) return undefined;
      return runtime.flagValues.get(name);
    },
    // Renderers and shortcuts matter to the interactive mode only; they are kept for it.
    registerShortcut(shortcut: string, options: Record<string, unknown>): void {
      (extension as unknown as { shortcuts?: Map<string, unknown> }).shortcuts ??= new Map();
      (extension as unknown as { shortcuts: Map<string, unknown> }).shortcuts.set(shortcut, options);
    },
    registerMcpServer(name: string, config: unknown): void {
      const validated = validateMcpServerConfig(name, config);
      if (typeof validated === "string") {
        throw new Error(`Invalid MCP server registered by extension "${extension.path}": ${validated}`);
      }
      const registry = runtime.mcpServers ??= new McpServerRegistry();
      const owner = registry.get(name)?.extensionPath;
      if (owner !== undefined && owner !== extension.path) {
        throw new Error(`MCP server "${name}" is already registered by extension "${owner}"`);
      }
      // Names that differ only in `-` and `_` would share a namespace.
      const clash = registry.list().find((server) =>
        server.name !== name && mcpNamespace(server.name) === mcpNamespace(name)
      );
      if (clash) throw new Error(`MCP server "${name}" conflicts with registered server "${clash.name}"`);
      registry.register({ name, config: structuredClone(validated), extensionPath: extension.path });
    },
    unregisterMcpServer(name: string): void {
      runtime.mcpServers?.unregister(name, extension.path);
    },
    getMcpServers(): RegisteredMcpServer[] {
      return runtime.mcpServers?.list() ?? [];
    },
    registerProvider(providerOrName: unknown, config?: ProviderConfigInput): void {
      runtime.providers ??= new ExtensionProviderRegistrations();
      registerExtensionProvider(runtime.providers, extension.path, providerOrName, config);
    },
    unregisterProvider(name: string): void {
      (runtime.providers ??= new ExtensionProviderRegistrations()).unregister(name);
    },
    registerVirtualModel<TState = unknown>(model: ExtensionVirtualModel<TState>): void {
      // Routing happens once a session exists, so the context is made per request.
      (runtime.virtualModels ??= new ExtensionVirtualModels()).register(
        model as ExtensionVirtualModel,
        extension.path,
        () => actions(runtime).context(),
      );
    },
    unregisterVirtualModel(provider: string, id: string): void {
      runtime.virtualModels?.unregister(provider, id);
    },
    registerMessageRenderer(customType: string, renderer: unknown): void {
      // Drawn by the interactive mode (src/modes/interactive/extension_renderers.ts).
      const holder = extension as unknown as { messageRenderers?: Map<string, unknown> };
      (holder.messageRenderers ??= new Map()).set(customType, renderer);
    },
    registerEntryRenderer(customType: string, renderer: unknown): void {
      const holder = extension as unknown as { entryRenderers?: Map<string, unknown> };
      (holder.entryRenderers ??= new Map()).set(customType, renderer);
    },
    registerToolRenderer(_resolver: unknown): void {},
    sendMessage(...args: Parameters<ExtensionHostActions["sendMessage"]>): void {
      actions(runtime).sendMessage(...args);
    },
    sendUserMessage(...args: Parameters<ExtensionHostActions["sendUserMessage"]>): void {
      actions(runtime).sendUserMessage(...args);
    },
    appendEntry(customType: string, data?: unknown): void {
      actions(runtime).appendEntry(customType, data);
    },
    setSessionName(name: string): void {
      actions(runtime).setSessionName(name);
    },
    getSessionName(): string | undefined {
      return actions(runtime).getSessionName();
    },
    exec(command: string, args: string[], options?: ExecOptions): Promise<ExecResult> {
      return execCommand(command, args, options?.cwd ?? cwd, options);
    },
    getActiveTools(): string[] {
      return actions(runtime).getActiveTools();
    },
    getAllTools(): { name: string; description: string; parameters: unknown }[] {
      return actions(runtime).getAllTools();
    },
    setActiveTools(names: string[]): void {
      actions(runtime).setActiveTools(names);
    },
    getCommands(): ReturnType<ExtensionHostActions["getCommands"]> {
      return actions(runtime).getCommands();
    },
    setModel(model: unknown): Promise<boolean> {
      if (runtime.staleMessage !== undefined) return Promise.reject(new Error(runtime.staleMessage));
      if (!runtime.actions) return Promise.reject(new Error("Extension runtime not initialized"));
      return runtime.actions.setModel(model);
    },
    getThinkingLevel(): string {
      return actions(runtime).getThinkingLevel();
    },
    setThinkingLevel(level: string): void {
      actions(runtime).setThinkingLevel(level);
    },
    events: {
      emit(channel: string, data: unknown): void {
        eventBus.emit(channel, data);
      },
      on(channel: string, handler: (data: unknown) => unknown): () => void {
        return eventBus.on(channel, handler, (error) =>
          runtime.reportError({
            extensionPath: extension.path,
            event: `events:${channel}`,
            error: error instanceof Error ? error.message : String(error),
            ...(error instanceof Error && error.stack ? { stack: error.stack } : {}),
          }));
      },
    },
  };
}
