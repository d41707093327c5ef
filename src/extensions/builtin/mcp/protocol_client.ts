/**
 * The MCP client connection on the SDK's `Protocol` (JSON-RPC, timeouts, progress, cancellation)
 * with the `initialize` handshake, and the pass-through result schema. Loaded with `connection.ts`.
 *
 * @module
 */
import { Protocol, type RequestOptions } from "npm:@modelcontextprotocol/sdk@1.32.2/shared/protocol.js";
import type { Transport } from "npm:@modelcontextprotocol/sdk@1.32.2/shared/transport.js";
import {
  InitializeResultSchema,
  LATEST_PROTOCOL_VERSION,
  SUPPORTED_PROTOCOL_VERSIONS,
} from "npm:@modelcontextprotocol/sdk@1.32.2/types.js";
import { z } from "npm:zod@4.6.7";
import { VERSION } from "../../../version.ts";

/**
 * Results are taken as the server sent them, as pi-mcp does: the SDK's own result schemas rebuild
 * objects in schema order, which changes the JSON the model sees (resource listings).
 */
export const RAW_RESULT = z.any();

/** The part of the SDK's `Protocol` this client uses (its declared types do not resolve here). */
export interface ProtocolBase {
  connect(transport: Transport): Promise<void>;
  request(
    request: { method: string; params?: Record<string, unknown> },
    resultSchema: unknown,
    options?: RequestOptions,
  ): Promise<unknown>;
  notification(notification: { method: string; params?: Record<string, unknown> }): Promise<void>;
  close(): Promise<void>;
  setRequestHandler(schema: unknown, handler: (request: unknown) => unknown): void;
  setNotificationHandler<T>(schema: unknown, handler: (notification: T) => void): void;
  onclose?: () => void;
  /** Dispatches a notification to its handler (a microtask later). */
  _onnotification(notification: { method: string; params?: Record<string, unknown> }): void;
  /** Hands a progress notification to its request. */
  _onprogress(notification: { method: string; params?: Record<string, unknown> }): void;
}

/** What the server said about itself in `initialize`. */
export interface ServerInfo {
  capabilities?: { tools?: unknown; resources?: unknown; [key: string]: unknown };
  instructions?: string;
}

/**
 * An MCP client on the SDK's `Protocol` (JSON-RPC, timeouts, progress, cancellation) with the
 * `initialize` handshake. The SDK's own `Client` would load Ajv for output-schema checks pi does not
 * make (about 0.5 s more start-up on this machine).
 */
export class Client extends (Protocol as unknown as new () => ProtocolBase) {
  server: ServerInfo = {};

  // The client declares only roots; it checks no capability before it sends or handles anything.
  protected assertCapabilityForMethod(): void {}
  protected assertNotificationCapability(): void {}
  protected assertRequestHandlerCapability(): void {}
  protected assertTaskCapability(): void {}
  protected assertTaskHandlerCapability(): void {}

  /**
   * The SDK dispatches notifications a microtask later than responses, so the progress a server
   * sends right before its result would find the request finished and be lost. Progress is handed
   * over at once, in the order the server sent it (as pi-mcp does).
   */
  override _onnotification(notification: { method: string; params?: Record<string, unknown> }): void {
    if (
      notification.method === "notifications/progress" && notification.params?.progressToken !== undefined
    ) {
      this._onprogress(notification);
      return;
    }
    super._onnotification(notification);
  }

  /** Connects the transport and runs the `initialize` handshake. */
  override async connect(transport: Transport, options?: RequestOptions): Promise<void> {
    await super.connect(transport);
    try {
      const result = (await this.request(
        {
          method: "initialize",
          params: {
            protocolVersion: LATEST_PROTOCOL_VERSION,
            capabilities: { roots: {} },
            clientInfo: { name: "pi", version: VERSION },
          },
        },
        InitializeResultSchema,
        options,
      )) as {
        protocolVersion: string;
        capabilities?: ServerInfo["capabilities"];
        instructions?: string;
      };
      if (!SUPPORTED_PROTOCOL_VERSIONS.includes(result.protocolVersion)) {
        throw new Error(`MCP server selected unsupported protocol version ${result.protocolVersion}`);
      }
      this.server = { capabilities: result.capabilities, instructions: result.instructions };
      transport.setProtocolVersion?.(result.protocolVersion);
      await this.notification({ method: "notifications/initialized" });
    } catch (error) {
      await this.close().catch(() => undefined);
      throw error;
    }
  }
}
