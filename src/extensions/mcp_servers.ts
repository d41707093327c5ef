/**
 * The MCP servers extensions register with `pi.registerMcpServer()` (1.6.0's `McpServerRegistry`):
 * validated and stored here; the session's MCP connects them next to the `mcp.json` servers, and the
 * extension host announces every change after binding as `mcp_servers_change`.
 *
 * @module
 */
import type { McpServerConfig } from "./builtin/mcp/config.ts";

/** A server an extension registered. */
export interface RegisteredMcpServer {
  name: string;
  config: McpServerConfig;
  /** Path of the extension that registered it. */
  extensionPath: string;
}

/** The servers the extensions of one runtime registered, in registration order. */
export class McpServerRegistry {
  #servers = new Map<string, RegisteredMcpServer>();
  #listeners = new Set<() => void>();

  /** Registers or replaces a server (the caller checks who owns the name). */
  register(server: RegisteredMcpServer): void {
    this.#servers.set(server.name, server);
    this.#changed();
  }

  /** Removes a server `extensionPath` registered; other extensions' servers stay. */
  unregister(name: string, extensionPath: string): void {
    if (this.#servers.get(name)?.extensionPath !== extensionPath) return;
    this.#servers.delete(name);
    this.#changed();
  }

  /** The server registered under `name`. */
  get(name: string): RegisteredMcpServer | undefined {
    return this.#servers.get(name);
  }

  /** Copies of the registered servers. */
  list(): RegisteredMcpServer[] {
    return [...this.#servers.values()].map((server) => ({
      ...server,
      config: structuredClone(server.config),
    }));
  }

  /** Calls `listener` after every change; returns the unsubscribe function. */
  subscribe(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #changed(): void {
    for (const listener of [...this.#listeners]) listener();
  }
}
