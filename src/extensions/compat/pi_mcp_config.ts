/**
 * 1.6.0 pi-mcp's validation of one `mcpServers` entry for extensions, with its result shape
 * (`{ kind: "stdio" | "http", config }` or `{ kind: "invalid", error }`) and its OAuth checks.
 * Unknown fields are kept for the caller. The shared field checks are the built-in MCP
 * extension's (src/extensions/builtin/mcp/config.ts), which adds pi's own fields on top.
 *
 * @module
 */
import { baseFieldsError, isOverride, stdioFieldsError } from "../builtin/mcp/config.ts";

/** Options of {@link validateMcpServerConfig}. */
export interface McpServerConfigOptions {
  /**
   * Allows `oauth.clientRegistration: "cimd"`: checks the callback URL a Client ID Metadata
   * Document would name and returns an error, or undefined when it can be used.
   */
  checkMetadataDocumentCallback?: (callbackUrl: string | undefined) => string | undefined;
}

/** The outcome of {@link validateMcpServerConfig}. */
export type McpServerConfigResult =
  | { kind: "stdio"; config: Record<string, unknown> & { command: string } }
  | { kind: "http"; config: Record<string, unknown> & { url: string } }
  | { kind: "invalid"; error: string };

const SERVER_NAME = /^[A-Za-z0-9_-]+$/;
const LOOPBACK_HOSTS = ["localhost", "127.0.0.1", "[::1]"];

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isStringRecord(value: unknown): boolean {
  return isRecord(value) && Object.values(value).every((entry) => typeof entry === "string");
}

function isLoopbackRedirectUri(value: string): boolean {
  if (!URL.canParse(value)) return false;
  const url = new URL(value);
  return url.protocol === "http:" && LOOPBACK_HOSTS.includes(url.hostname) && url.search === "" &&
    url.hash === "";
}

function oauthError(value: unknown, options: McpServerConfigOptions): string | undefined {
  if (value === undefined) return undefined;
  if (!isRecord(value)) return "oauth must be an object";
  if (value.clientId !== undefined && typeof value.clientId !== "string") {
    return "oauth.clientId must be a string";
  }
  if (value.clientSecret !== undefined && typeof value.clientSecret !== "string") {
    return "oauth.clientSecret must be a string";
  }
  const port = value.callbackPort;
  if (
    port !== undefined && (typeof port !== "number" || !Number.isInteger(port) || port < 1 || port > 65535)
  ) {
    return "oauth.callbackPort must be a port number";
  }
  if (value.callbackUrl !== undefined) {
    if (typeof value.callbackUrl !== "string" || !isLoopbackRedirectUri(value.callbackUrl)) {
      return "oauth.callbackUrl must be an http URI on localhost, 127.0.0.1, or [::1] without query or fragment";
    }
    const urlPort = new URL(value.callbackUrl).port;
    if (urlPort && port !== undefined && Number(urlPort) !== port) {
      return "oauth.callbackUrl and oauth.callbackPort name different ports";
    }
  }
  if (value.scope !== undefined && typeof value.scope !== "string") return "oauth.scope must be a string";
  if (value.clientName !== undefined && (typeof value.clientName !== "string" || !value.clientName.trim())) {
    return "oauth.clientName must be a non-empty string";
  }
  const registration = value.clientRegistration;
  if (registration !== undefined && registration !== "auto" && registration !== "dcr") {
    if (registration !== "cimd") return 'oauth.clientRegistration must be "auto", "dcr", or "cimd"';
    if (value.clientId !== undefined || value.clientName !== undefined) {
      return 'oauth.clientRegistration "cimd" cannot be combined with oauth.clientId or oauth.clientName';
    }
    if (!options.checkMetadataDocumentCallback) {
      return 'oauth.clientRegistration "cimd" is not supported: there are no Client ID Metadata Documents';
    }
    const callbackError = options.checkMetadataDocumentCallback(
      typeof value.callbackUrl === "string" ? value.callbackUrl : undefined,
    );
    if (callbackError) return callbackError;
  }
  const metadataUrl = value.authServerMetadataUrl;
  if (metadataUrl !== undefined) {
    const url = typeof metadataUrl === "string" && URL.canParse(metadataUrl)
      ? new URL(metadataUrl)
      : undefined;
    if (
      !url ||
      !(url.protocol === "https:" || (url.protocol === "http:" && LOOPBACK_HOSTS.includes(url.hostname)))
    ) {
      return "oauth.authServerMetadataUrl must be an https URL, or http on localhost, 127.0.0.1, or [::1]";
    }
  }
  return undefined;
}

function httpError(
  entry: Record<string, unknown>,
  url: string,
  options: McpServerConfigOptions,
): string | undefined {
  if (!URL.canParse(url) || !/^https?:$/.test(new URL(url).protocol)) {
    return "url must be an http or https URL";
  }
  if (entry.headers !== undefined && !isStringRecord(entry.headers)) {
    return "headers must map names to strings";
  }
  return oauthError(entry.oauth, options);
}

/**
 * Validates one `mcpServers` entry (configuration files are a trust boundary). Server names are
 * letters, digits, `_` and `-`; an entry is a stdio server (`command`) or a Streamable HTTP
 * server (`url`).
 */
export function validateMcpServerConfig(
  name: string,
  raw: unknown,
  options: McpServerConfigOptions = {},
): McpServerConfigResult {
  const invalid = (error: string): McpServerConfigResult => ({ kind: "invalid", error });
  if (!SERVER_NAME.test(name)) {
    return invalid(`invalid server name "${name}" (use letters, digits, "_" and "-")`);
  }
  if (!isRecord(raw)) return invalid(`server "${name}" must be an object`);
  const fieldsError = baseFieldsError(raw);
  if (fieldsError) return invalid(`server "${name}": ${fieldsError}`);
  const { type, url, command } = raw;
  if (type === "sse") {
    return invalid(`server "${name}": legacy SSE transport is not supported; use the streamable HTTP URL`);
  }
  if (typeof url === "string" && (type === undefined || type === "http" || type === "streamable-http")) {
    const error = httpError(raw, url, options);
    return error
      ? invalid(`server "${name}": ${error}`)
      : { kind: "http", config: raw as Record<string, unknown> & { url: string } };
  }
  if (typeof command === "string" && (type === undefined || type === "stdio")) {
    const error = stdioFieldsError(raw);
    return error
      ? invalid(`server "${name}": ${error}`)
      : { kind: "stdio", config: raw as Record<string, unknown> & { command: string } };
  }
  return invalid(`server "${name}" needs either "command" (stdio) or "url" (streamable HTTP)`);
}

/**
 * Whether an entry overrides a server defined elsewhere instead of defining one (no `command`,
 * `url` or `type`), as a less trusted file may do for a few fields.
 */
export const isMcpServerOverride: (entry: Record<string, unknown>) => boolean = isOverride;
