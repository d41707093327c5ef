/**
 * One configured MCP server and its connection, on the official MCP TypeScript SDK
 * (`@modelcontextprotocol/sdk`, pinned). This file statically imports the SDK, so it is only ever
 * reached through `import()` once a server is configured (see `session_mcp.ts`). Connections open
 * lazily and reconnect on the next call after the transport dropped; messages and states follow
 * 1.6.0's (`MCP server "x" failed to connect: …` with the tail of a stdio server's stderr,
 * `MCP request timed out after Nms`, `MCP connection closed`).
 *
 * @module
 */
import {
  ErrorCode,
  ListRootsRequestSchema,
  LoggingMessageNotificationSchema,
  McpError,
  ToolListChangedNotificationSchema,
} from "npm:@modelcontextprotocol/sdk@1.32.2/types.js";
import type { Transport } from "npm:@modelcontextprotocol/sdk@1.32.2/shared/transport.js";
import { resolveConfigValueOrThrow, resolveHeadersOrThrow } from "../../../config/resolve_value.ts";
import { homeDir, isWindows } from "../../../util/os.ts";
import { basename, join, resolve } from "../../../util/path.ts";
import type { McpServerEntry } from "./config.ts";
import type { McpCallToolResult } from "./content.ts";
import type { McpServerLog } from "./log.ts";
import { Client, RAW_RESULT } from "./protocol_client.ts";
import {
  McpOAuthAuthorizationRequiredError,
  type McpOAuthChallenge,
  type McpOAuthSettings,
} from "./oauth_flow.ts";
import { authenticatedFetch, createMcpAuth, type McpAuth } from "./oauth_sign_in.ts";
import type { McpOAuthCredentialStore } from "./oauth_store.ts";
import { DenoStdioClientTransport } from "./stdio_transport.ts";

// Sessions reach the credential store through this (lazily loaded) module.
export { McpOAuthCredentialStore } from "./oauth_store.ts";

const DEFAULT_TIMEOUT_SECONDS = 60;
const STDERR_TAIL_CHARS = 2_000;
/** Delays between attempts to connect to an HTTP server that failed with a transient error. */
const CONNECT_RETRY_DELAYS_MS = [250, 1_000];

/** A tool as a server lists it. */
export interface McpTool {
  name: string;
  title?: string;
  description?: string;
  inputSchema: Record<string, unknown>;
  outputSchema?: Record<string, unknown>;
  annotations?: Record<string, unknown>;
}

/** A listed resource or resource template. */
export interface McpListItem {
  uri?: string;
  uriTemplate?: string;
  name?: string;
  mimeType?: string;
  [key: string]: unknown;
}

/** One page of a listing. */
export interface McpListPage {
  items: McpListItem[];
  nextCursor?: string;
}

/** The contents of a read resource. */
export interface McpResourceContents {
  uri: string;
  mimeType?: string;
  text?: string;
  blob?: string;
  _meta?: unknown;
}

/** Connection states, as `/mcp` and `pi mcp list` show them. */
export type McpConnectionState =
  | "connecting"
  | "connected"
  | "failed"
  | "disconnected"
  | "closed"
  | "needs-auth";

/** A progress notification of a running call. */
export interface McpProgress {
  progress: number;
  total?: number;
  message?: string;
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The SDK's errors in pi-mcp's words, which 1.6.0 shows. */
function translateError(error: unknown, timeoutMs: number): Error {
  if (error instanceof McpError) {
    const { code, message } = error as unknown as { code: number; message: string };
    if (code === ErrorCode.RequestTimeout) return new Error(`MCP request timed out after ${timeoutMs}ms`);
    if (code === ErrorCode.ConnectionClosed) return new Error("MCP connection closed");
    // The SDK prefixes "MCP error <code>: "; pi-mcp shows the server's own message.
    return new Error(message.replace(/^MCP error -?\d+: /, ""));
  }
  return error instanceof Error ? error : new Error(String(error));
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function sliceTail(text: string, max: number): string {
  return text.length <= max ? text : text.slice(text.length - max);
}

/** `~` and `~/…` name the home folder, as in a shell. */
function expandHome(value: string): string {
  if (value === "~") return homeDir();
  if (value.startsWith("~/")) return join(homeDir(), value.slice(2));
  return value;
}

/** Whether a failure is worth another connection attempt (network errors, 408, 429, 5xx). */
function isTransient(error: unknown): boolean {
  if (error instanceof TypeError) return true;
  const code = (error as { code?: unknown })?.code;
  return typeof code === "number" &&
    (code === 408 || code === 429 || (code >= 500 && code !== 501 && code < 600));
}

interface OpenTransport {
  transport: Transport;
  stderr?: () => string;
}

/** 1.6.0's message for a server the user has to sign in to. */
function signInRequiredMessage(entry: McpServerEntry): string {
  const provider = "url" in entry.config ? entry.config.auth?.provider : undefined;
  return `MCP server "${entry.name}" requires sign-in. Run ${
    provider ? `/login ${provider}` : "/mcp"
  } to sign in.`;
}

/** HTTP servers authenticate with OAuth unless the config supplies an `Authorization` header or `auth`. */
function usesOAuth(entry: McpServerEntry): boolean {
  const { config } = entry;
  if (!("url" in config) || config.auth) return false;
  return !Object.keys(config.headers ?? {}).some((header) => header.toLowerCase() === "authorization");
}

async function createTransport(
  entry: McpServerEntry,
  cwd: string,
  auth: McpAuth | undefined,
): Promise<OpenTransport> {
  const { config, name } = entry;
  if ("url" in config) {
    const headers = resolveHeadersOrThrow(config.headers, `MCP server "${name}"`);
    // Loaded only for HTTP servers: with its OAuth schemas it costs about 100 ms a stdio-only session skips.
    const { StreamableHTTPClientTransport } = await import(
      "npm:@modelcontextprotocol/sdk@1.32.2/client/streamableHttp.js"
    );
    return {
      transport: new StreamableHTTPClientTransport(new URL(config.url), {
        ...(headers ? { requestInit: { headers } } : {}),
        ...(auth ? { fetch: authenticatedFetch(auth) } : {}),
      }),
    };
  }
  const env: Record<string, string> = { ...Deno.env.toObject() };
  for (const [key, value] of Object.entries(config.env ?? {})) {
    env[key] = resolveConfigValueOrThrow(value, `MCP server "${name}" env "${key}"`);
  }
  const params = {
    command: expandHome(config.command),
    args: config.args?.map(expandHome),
    cwd: resolve(cwd, expandHome(config.cwd ?? ".")),
    env,
  };
  if (isWindows()) {
    // Only cross-spawn finds `.cmd` shims such as `npx` on Windows: the SDK's transport there.
    const { StdioClientTransport } = await import("npm:@modelcontextprotocol/sdk@1.32.2/client/stdio.js");
    const transport = new StdioClientTransport({ ...params, stderr: "pipe" });
    let stderr = "";
    transport.stderr?.on("data", (chunk: Uint8Array | string) => {
      stderr = sliceTail(
        stderr + (typeof chunk === "string" ? chunk : new TextDecoder().decode(chunk)),
        64_000,
      );
    });
    return { transport, stderr: () => stderr };
  }
  // Elsewhere our own transport on Deno.Command: the SDK's loads cross-spawn and Node's
  // child_process and streams layer (about 300 ms of start-up).
  const transport = new DenoStdioClientTransport(params);
  return { transport, stderr: () => transport.stderr };
}

/** Options of {@link McpServerConnection}. */
export interface McpServerConnectionOptions {
  entry: McpServerEntry;
  /** The session's folder: relative `cwd` values resolve against it, and it is the client's root. */
  cwd: string;
  log?: McpServerLog;
  /** Hears a new tool list (after connecting, and when the server announces a change). */
  onTools?: (connection: McpServerConnection) => void;
  /** Hears every state change (for `/mcp`). */
  onChange?: (connection: McpServerConnection) => void;
  /** Where OAuth servers' tokens are kept; without it, OAuth servers connect without tokens. */
  credentials?: McpOAuthCredentialStore;
}

/** One configured server. Reconnects lazily when a call finds the connection gone. */
export class McpServerConnection {
  readonly entry: McpServerEntry;
  state: McpConnectionState = "connecting";
  /** Why it failed or disconnected, with the tail of a stdio server's stderr. */
  error: string | undefined;
  tools: McpTool[] = [];
  hasResources = false;
  /** Server instructions from `initialize`. */
  instructions: string | undefined;
  /** The server's last OAuth challenge; a sign-in uses its resource metadata URL and scope. */
  challenge: McpOAuthChallenge | undefined;
  #auth: McpAuth | undefined;
  #client: Client | undefined;
  #opening: Promise<Client> | undefined;
  /** The transport of a connection still starting: {@link close} ends it instead of waiting for its timeout. */
  #starting: { close(): Promise<void> } | undefined;
  #closed = false;
  #options: McpServerConnectionOptions;

  constructor(options: McpServerConnectionOptions) {
    this.entry = options.entry;
    this.#options = options;
    const url = this.oauthUrl;
    if (url && options.credentials) {
      this.#auth = createMcpAuth({
        serverUrl: url,
        store: options.credentials.forServer(this.entry.name, url),
        settings: () => this.oauthSettings(),
        onChallenge: (challenge) => {
          this.challenge = challenge;
        },
      });
    }
  }

  /** The server URL when the server authenticates with OAuth. */
  get oauthUrl(): string | undefined {
    return usesOAuth(this.entry) && "url" in this.entry.config ? this.entry.config.url : undefined;
  }

  /** The `oauth` settings of the config, the client secret resolved. */
  oauthSettings(): McpOAuthSettings {
    const oauth = "url" in this.entry.config ? this.entry.config.oauth : undefined;
    if (!oauth) return {};
    const text = (key: string) => typeof oauth[key] === "string" ? oauth[key] as string : undefined;
    const secret = text("clientSecret");
    const metadataUrl = text("authServerMetadataUrl");
    return Object.fromEntries(
      Object.entries({
        clientId: text("clientId"),
        clientSecret: secret === undefined
          ? undefined
          : resolveConfigValueOrThrow(secret, `MCP server "${this.entry.name}" oauth.clientSecret`),
        callbackPort: typeof oauth.callbackPort === "number" ? oauth.callbackPort : undefined,
        callbackUrl: text("callbackUrl"),
        scope: text("scope"),
        clientName: text("clientName"),
        clientRegistration: text("clientRegistration"),
        authServerMetadataUrl: metadataUrl ? new URL(metadataUrl) : undefined,
      }).filter(([, value]) => value !== undefined),
    ) as McpOAuthSettings;
  }

  /** Connects again with fresh credentials (after a sign-in). */
  async reconnect(): Promise<void> {
    await this.#opening?.catch(() => undefined);
    await this.#dropClient();
    await this.getClient();
  }

  /** Disconnects after the stored credentials were removed. */
  async signOut(): Promise<void> {
    await this.#opening?.catch(() => undefined);
    await this.#dropClient();
    if (!this.#closed) this.#markNeedsAuth();
  }

  async #dropClient(): Promise<void> {
    const client = this.#client;
    this.#client = undefined;
    await client?.close().catch(() => undefined);
  }

  /** OAuth servers that still refuse after a refresh need the user to sign in. */
  #needsSignIn(error: unknown): boolean {
    return error instanceof McpOAuthAuthorizationRequiredError;
  }

  #markNeedsAuth(): void {
    this.state = "needs-auth";
    this.error = undefined;
    this.#changed();
  }

  #changed(): void {
    this.#options.onChange?.(this);
  }

  /** A request failed: a refused sign-in drops the client and says how to sign in. */
  async #failed(error: unknown): Promise<Error> {
    if (!this.#needsSignIn(error)) return translateError(error, this.timeoutMs);
    await this.#dropClient();
    this.#markNeedsAuth();
    return new Error(signInRequiredMessage(this.entry));
  }

  /** The server's name. */
  get name(): string {
    return this.entry.name;
  }

  /** Per-request timeout in milliseconds. */
  get timeoutMs(): number {
    return (this.entry.config.timeout ?? DEFAULT_TIMEOUT_SECONDS) * 1000;
  }

  /** The connected client, connecting (again) when needed. */
  getClient(): Promise<Client> {
    if (this.#closed) return Promise.reject(new Error(`MCP server "${this.entry.name}" is shut down`));
    if (this.#client) return Promise.resolve(this.#client);
    this.#opening ??= this.#open().finally(() => {
      this.#opening = undefined;
    });
    return this.#opening;
  }

  /**
   * Calls a tool. Progress notifications reset the timeout (1.6.0) and reach `onProgress`. Tool
   * calls are never retried: the server may have run them.
   */
  async callTool(
    name: string,
    args: Record<string, unknown>,
    options: { signal?: AbortSignal; onProgress?: (progress: McpProgress) => void } = {},
  ): Promise<McpCallToolResult> {
    const client = await this.getClient();
    try {
      const result = await client.request(
        { method: "tools/call", params: { name, arguments: args } },
        RAW_RESULT,
        {
          signal: options.signal,
          timeout: this.timeoutMs,
          resetTimeoutOnProgress: true,
          // The SDK sends a progress token only when someone listens.
          onprogress: (progress: McpProgress) => options.onProgress?.(progress),
        },
      );
      if (!isRecord(result) || !Array.isArray(result.content)) {
        throw new Error("Invalid MCP tools/call result");
      }
      return result as unknown as McpCallToolResult;
    } catch (error) {
      throw await this.#failed(error);
    }
  }

  /**
   * A read-only request (resources), reconnecting when needed and retried once after a transient
   * HTTP error, as 1.6.0 does; tool calls are never retried.
   */
  async #readOnly<T>(run: (client: Client) => Promise<T>): Promise<T> {
    for (let attempt = 1;; attempt++) {
      const client = await this.getClient();
      try {
        return await run(client);
      } catch (error) {
        if (attempt === 1 && "url" in this.entry.config && isTransient(error)) {
          await new Promise((done) => setTimeout(done, CONNECT_RETRY_DELAYS_MS[0]));
          continue;
        }
        throw await this.#failed(error);
      }
    }
  }

  /** One page of the server's resources. */
  resourcesPage(cursor: string | undefined, signal?: AbortSignal): Promise<McpListPage> {
    return this.#readOnly(async (client) => {
      return await this.#listPage(client, "resources/list", "resources", cursor, signal);
    });
  }

  /** One page of the server's resource templates (none when it does not implement them). */
  resourceTemplatesPage(cursor: string | undefined, signal?: AbortSignal): Promise<McpListPage> {
    return this.#readOnly(async (client) => {
      try {
        return await this.#listPage(client, "resources/templates/list", "resourceTemplates", cursor, signal);
      } catch (error) {
        if (
          error instanceof McpError &&
          (error as unknown as { code: number }).code === ErrorCode.MethodNotFound
        ) {
          return { items: [] };
        }
        throw error;
      }
    });
  }

  /** Every page of resources (or templates). */
  async allPages(kind: "resources" | "templates", signal?: AbortSignal): Promise<McpListItem[]> {
    const items: McpListItem[] = [];
    let cursor: string | undefined;
    do {
      const page = kind === "resources"
        ? await this.resourcesPage(cursor, signal)
        : await this.resourceTemplatesPage(cursor, signal);
      items.push(...page.items);
      cursor = page.nextCursor;
    } while (cursor);
    return items;
  }

  /** Reads one resource. */
  readResource(uri: string, signal?: AbortSignal): Promise<{ contents: McpResourceContents[] }> {
    return this.#readOnly(async (client) => {
      const result = await client.request({ method: "resources/read", params: { uri } }, RAW_RESULT, {
        signal,
        timeout: this.timeoutMs,
      });
      if (!isRecord(result) || !Array.isArray(result.contents)) {
        throw new Error("Invalid MCP resources/read result");
      }
      return { contents: result.contents as McpResourceContents[] };
    });
  }

  async #open(): Promise<Client> {
    this.state = "connecting";
    this.#changed();
    const retries = "url" in this.entry.config ? CONNECT_RETRY_DELAYS_MS : [];
    for (let attempt = 0;; attempt++) {
      let stderr: (() => string) | undefined;
      try {
        return await this.#connectOnce((tail) => (stderr = tail));
      } catch (error) {
        const delay = retries[attempt];
        if (this.#closed || delay === undefined || !isTransient(error)) {
          throw this.#connectFailed(error, stderr?.());
        }
        await new Promise((done) => setTimeout(done, delay));
      }
    }
  }

  async #connectOnce(setStderr: (tail: () => string) => void): Promise<Client> {
    const client = new Client();
    const cwd = this.#options.cwd;
    client.setRequestHandler(ListRootsRequestSchema, () => ({
      roots: [{ uri: `file://${encodeURI(cwd)}`, name: basename(cwd) }],
    }));
    const log = this.#options.log;
    if (log) {
      client.setNotificationHandler(LoggingMessageNotificationSchema, (notification: { params: unknown }) => {
        log.write(this.entry.name, notification.params);
      });
    }
    const open = await createTransport(this.entry, cwd, this.#auth);
    if (open.stderr) setStderr(open.stderr);
    this.#starting = open.transport;
    try {
      if (this.#closed) throw new Error("shut down while connecting");
      await client.connect(open.transport, { timeout: this.timeoutMs });
      client.setNotificationHandler(ToolListChangedNotificationSchema, () => void this.#refreshTools(client));
      client.onclose = () => this.#handleClose(client, open.stderr);
      const capabilities = client.server.capabilities;
      // Servers without the tools capability (prompts or resources only) do not answer tools/list.
      const tools = capabilities?.tools ? await this.#listTools(client) : [];
      if (this.#closed) throw new Error("shut down while connecting");
      this.#client = client;
      this.tools = tools;
      this.hasResources = capabilities?.resources !== undefined;
      this.instructions = client.server.instructions?.trim() || undefined;
      this.state = "connected";
      this.error = undefined;
      this.#options.onTools?.(this);
      this.#changed();
      return client;
    } catch (error) {
      await client.close().catch(() => undefined);
      throw error;
    } finally {
      if (this.#starting === open.transport) this.#starting = undefined;
    }
  }

  async #listTools(client: Client): Promise<McpTool[]> {
    const tools: McpTool[] = [];
    let cursor: string | undefined;
    do {
      const page = await this.#listPage(client, "tools/list", "tools", cursor);
      tools.push(...(page.items as unknown as McpTool[]));
      cursor = page.nextCursor;
    } while (cursor);
    return tools;
  }

  /** One page of a `…/list` method, its items under `key`. */
  async #listPage(
    client: Client,
    method: string,
    key: string,
    cursor: string | undefined,
    signal?: AbortSignal,
  ): Promise<McpListPage> {
    const result = await client.request(
      { method, params: cursor ? { cursor } : {} } as Parameters<Client["request"]>[0],
      RAW_RESULT,
      { signal, timeout: this.timeoutMs },
    );
    if (!isRecord(result) || !Array.isArray(result[key])) throw new Error(`Invalid MCP ${method} result`);
    const nextCursor = typeof result.nextCursor === "string" && result.nextCursor
      ? result.nextCursor
      : undefined;
    return { items: result[key] as McpListItem[], ...(nextCursor ? { nextCursor } : {}) };
  }

  #connectFailed(error: unknown, stderr: string | undefined): Error {
    if (this.#needsSignIn(error) && !this.#closed) {
      this.#markNeedsAuth();
      return new Error(signInRequiredMessage(this.entry));
    }
    const tail = stderr ? sliceTail(stderr.trim(), STDERR_TAIL_CHARS) : "";
    const message = errorMessage(translateError(error, this.timeoutMs));
    this.state = this.#closed ? "closed" : "failed";
    this.error = tail ? `${message}\n${tail}` : message;
    this.#changed();
    return new Error(`MCP server "${this.entry.name}" failed to connect: ${this.error}`);
  }

  /** The transport dropped: the next call reconnects; until then the state says why. */
  #handleClose(client: Client, stderr: (() => string) | undefined): void {
    if (this.#client !== client || this.#closed) return;
    this.#client = undefined;
    this.state = "disconnected";
    const tail = stderr ? sliceTail(stderr().trim(), STDERR_TAIL_CHARS) : "";
    this.error = tail ? `Connection closed\n${tail}` : "Connection closed";
    this.#changed();
  }

  async #refreshTools(client: Client): Promise<void> {
    try {
      const tools = await this.#listTools(client);
      if (this.#client !== client || this.#closed) return;
      this.tools = tools;
      this.#options.onTools?.(this);
    } catch (error) {
      this.error = `Failed to refresh tools: ${errorMessage(error)}`;
    }
    this.#changed();
  }

  /** Closes the connection (a stdio server gets EOF, then SIGTERM, then SIGKILL). */
  async close(): Promise<void> {
    this.#closed = true;
    this.state = "closed";
    const client = this.#client;
    this.#client = undefined;
    this.#changed();
    const starting = this.#starting;
    this.#starting = undefined;
    await Promise.all([
      client?.close().catch(() => undefined),
      starting?.close().catch(() => undefined),
      this.#opening?.catch(() => undefined),
    ]);
    // A refresh the server already answered may have rotated the refresh token: its answer is saved first.
    await this.#auth?.settled();
  }
}
