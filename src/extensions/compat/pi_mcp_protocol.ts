/**
 * 1.6.0 pi-mcp's protocol values for extensions: the MCP protocol versions its client speaks,
 * JSON-RPC 2.0 message checks and error codes, and the errors its client and transports throw
 * (so an extension can construct and recognize them; our own MCP client uses the official SDK).
 *
 * @module
 */

/** The newest MCP protocol version. */
export const LATEST_PROTOCOL_VERSION = "2025-11-25";
/** The protocol versions 1.6.0's client accepts from a server, newest first. */
export const SUPPORTED_PROTOCOL_VERSIONS = [
  LATEST_PROTOCOL_VERSION,
  "2025-06-18",
  "2025-03-26",
  "2024-11-05",
] as const;

/** JSON-RPC 2.0's standard error codes. */
export const JSON_RPC_ERROR_CODES = {
  parseError: -32700,
  invalidRequest: -32600,
  methodNotFound: -32601,
  invalidParams: -32602,
  internalError: -32603,
} as const;

/** A JSON-RPC id. */
export type JsonRpcId = string | number;
/** A JSON-RPC request. */
export interface JsonRpcRequest {
  jsonrpc: "2.0";
  id: JsonRpcId;
  method: string;
  params?: unknown;
}
/** A JSON-RPC notification (no id). */
export interface JsonRpcNotification {
  jsonrpc: "2.0";
  method: string;
  params?: unknown;
}
/** A JSON-RPC response: a result or an error. */
export type JsonRpcResponse =
  | { jsonrpc: "2.0"; id: JsonRpcId; result: unknown }
  | { jsonrpc: "2.0"; id: JsonRpcId; error: { code: number; message: string; data?: unknown } };
/** Any JSON-RPC message. */
export type JsonRpcMessage = JsonRpcRequest | JsonRpcNotification | JsonRpcResponse;

/** An error a server answered with (a JSON-RPC error), or an invalid message. */
export class McpError extends Error {
  /** The JSON-RPC error code. */
  readonly code: number;
  /** The error's data (`undefined` when none was given). */
  readonly data: unknown;

  /** An error with JSON-RPC `code`, `message` and optional `data`. */
  constructor(code: number, message: string, data?: unknown) {
    super(message);
    this.name = "McpError";
    this.code = code;
    this.data = data;
  }
}

/** The connection to the server closed with requests pending. */
export class McpConnectionClosedError extends Error {
  /** Default message "MCP connection closed". */
  constructor(message = "MCP connection closed") {
    super(message);
    this.name = "McpConnectionClosedError";
  }
}

/** A request got no answer in time. */
export class McpTimeoutError extends Error {
  /** The time waited, in ms. */
  timeoutMs: number;

  /** "MCP request timed out after <timeoutMs>ms". */
  constructor(timeoutMs: number) {
    super(`MCP request timed out after ${timeoutMs}ms`);
    this.name = "McpTimeoutError";
    this.timeoutMs = timeoutMs;
  }
}

/** A request was aborted by its signal (named "AbortError", as fetch's). */
export class McpAbortError extends Error {
  /** Default message "MCP request aborted". */
  constructor(message = "MCP request aborted") {
    super(message);
    this.name = "AbortError";
  }
}

/** An HTTP server answered with an error status. */
export class McpHttpError extends Error {
  /** The HTTP status. */
  status: number;
  /** The response body. */
  body: string;

  /** An error for `status` with `message` and the response `body`. */
  constructor(status: number, message: string, body = "") {
    super(message);
    this.name = "McpHttpError";
    this.status = status;
    this.body = body;
  }
}

/** The server requires authorization (401, or 403 asking for more scope). */
export class McpAuthRequiredError extends McpHttpError {
  /** The response's `WWW-Authenticate` header. */
  wwwAuthenticate: string | null;

  /** From the server's response. */
  constructor(response: { headers: { get(name: string): string | null } }, body = "") {
    super(401, "MCP server requires authentication", body);
    this.name = "McpAuthRequiredError";
    this.wwwAuthenticate = response.headers.get("www-authenticate");
  }
}

/** The server no longer knows the session (404 with a session id). */
export class McpSessionExpiredError extends McpHttpError {
  /** With the response body. */
  constructor(body = "") {
    super(404, "MCP session expired", body);
    this.name = "McpSessionExpiredError";
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isJsonRpcId(value: unknown): value is JsonRpcId {
  return typeof value === "string" || (typeof value === "number" && Number.isFinite(value));
}

/** Whether `message` is a JSON-RPC request. */
export function isJsonRpcRequest(message: unknown): message is JsonRpcRequest {
  return isObject(message) && message.jsonrpc === "2.0" && isJsonRpcId(message.id) &&
    typeof message.method === "string";
}

/** Whether `message` is a JSON-RPC notification. */
export function isJsonRpcNotification(message: unknown): message is JsonRpcNotification {
  return isObject(message) && message.jsonrpc === "2.0" && !("id" in message) &&
    typeof message.method === "string";
}

/** Whether `message` is a JSON-RPC response (a result, or a well-formed error, not both). */
export function isJsonRpcResponse(message: unknown): message is JsonRpcResponse {
  if (!isObject(message) || message.jsonrpc !== "2.0" || !isJsonRpcId(message.id)) return false;
  if ("result" in message) return !("error" in message);
  if (!("error" in message) || !isObject(message.error)) return false;
  return typeof message.error.code === "number" && typeof message.error.message === "string";
}

/** `value` as a JSON-RPC message; an {@link McpError} (invalid request) when it is none. */
export function parseJsonRpcMessage(value: unknown): JsonRpcMessage {
  if (isJsonRpcRequest(value) || isJsonRpcNotification(value) || isJsonRpcResponse(value)) return value;
  throw new McpError(JSON_RPC_ERROR_CODES.invalidRequest, "Invalid JSON-RPC message");
}
