/**
 * MCP server configuration as pi 1.6.0 reads it: `mcp.json` in the agent dir and, in trusted
 * projects, `.pi/mcp.json`, both in the `mcpServers` shape other MCP clients share. A project entry
 * replaces a global one of the same name; a project entry without `command`, `url` or `type` only
 * overrides `enabled`, `exposure` and `toolExposure` of the global server (credentials stay where the
 * user put them). Invalid entries are reported with their file and skipped; the rest still load.
 *
 * @module
 */
import { existsSync, readTextFileSync } from "../../../util/fs.ts";
import { join } from "../../../util/path.ts";
import { CONFIG_DIR_NAME } from "../../../config/paths.ts";
import { mcpNamespace } from "./naming.ts";

/** How a server's tools reach the model. */
export type McpExposure = "codemode" | "deferred" | "direct" | "hidden";

/** Fields both server kinds share. */
export interface McpServerBase {
  enabled?: boolean;
  description?: string;
  /** Per-request timeout in seconds (default 60); progress notifications reset it. */
  timeout?: number;
  exposure?: McpExposure;
  toolExposure?: Record<string, McpExposure>;
  type?: string;
}

/** A stdio server: one executable with its arguments. */
export interface McpStdioServerConfig extends McpServerBase {
  command: string;
  args?: string[];
  env?: Record<string, string>;
  cwd?: string;
}

/** A streamable HTTP server. */
export interface McpHttpServerConfig extends McpServerBase {
  url: string;
  headers?: Record<string, string>;
  oauth?: Record<string, unknown>;
  auth?: { provider: string };
}

/** One validated `mcpServers` entry. */
export type McpServerConfig = McpStdioServerConfig | McpHttpServerConfig;

/** A server with where it was defined. */
export interface McpServerEntry {
  name: string;
  config: McpServerConfig;
  /** The `mcp.json` that defines it. */
  source: string;
  /** `extension`: registered with `pi.registerMcpServer()` (`source` is the extension's path). */
  scope: "global" | "project" | "extension";
  /** The project `mcp.json` that overrides some of its fields. */
  override?: string;
}

/** What {@link loadMcpConfig} found. */
export interface LoadedMcpConfig {
  servers: McpServerEntry[];
  autoEnableCodemode?: boolean;
  /** One line per problem, each starting with the file's path. */
  errors: string[];
  /** The trusted project's `mcp.json` path (whether or not it exists). */
  projectConfig?: string;
}

const SERVER_NAME = /^[A-Za-z0-9_-]+$/;
const EXPOSURES: readonly McpExposure[] = ["codemode", "deferred", "direct", "hidden"];
const EXPOSURE_ALIASES: Record<string, McpExposure> = { "codemode-deferred": "codemode" };
const OVERRIDE_KEYS = ["enabled", "exposure", "toolExposure"];
const LOOPBACK_HOSTS = ["localhost", "127.0.0.1", "[::1]"];

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isStringRecord(value: unknown): value is Record<string, string> {
  return isRecord(value) && Object.values(value).every((entry) => typeof entry === "string");
}

/** Regular expression of a tool-name pattern where `*` matches any characters. */
function toolPattern(pattern: string): RegExp {
  const source = pattern.split("*").map((part) => part.replace(/[.+?^${}()|[\]\\]/g, "\\$&")).join(".*");
  return new RegExp(`^${source}$`);
}

/** Exposure of one tool: its exact `toolExposure` entry, else the first matching pattern, else the server's. */
export function getMcpToolExposure(config: McpServerConfig, toolName: string): McpExposure {
  const overrides = config.toolExposure ?? {};
  const exact = overrides[toolName];
  if (exact !== undefined) return exact;
  for (const [pattern, exposure] of Object.entries(overrides)) {
    if (pattern.includes("*") && toolPattern(pattern).test(toolName)) return exposure;
  }
  return config.exposure ?? "codemode";
}

/** The error of an entry's shared fields (`enabled`, `description`, `timeout`), 1.6.0's wording. */
export function baseFieldsError(entry: Record<string, unknown>): string | undefined {
  const { enabled, timeout, description } = entry;
  if (enabled !== undefined && typeof enabled !== "boolean") return "enabled must be a boolean";
  if (description !== undefined && typeof description !== "string") return "description must be a string";
  if (timeout !== undefined && (typeof timeout !== "number" || !(timeout > 0))) {
    return "timeout must be a positive number of seconds";
  }
  return undefined;
}

function httpFieldsError(entry: Record<string, unknown>, url: string): string | undefined {
  if (!URL.canParse(url) || !/^https?:$/.test(new URL(url).protocol)) {
    return "url must be an http or https URL";
  }
  if (entry.headers !== undefined && !isStringRecord(entry.headers)) {
    return "headers must map names to strings";
  }
  if (entry.oauth !== undefined && !isRecord(entry.oauth)) return "oauth must be an object";
  return undefined;
}

/** The error of a stdio entry's fields (`args`, `env`, `cwd`), 1.6.0's wording. */
export function stdioFieldsError(entry: Record<string, unknown>): string | undefined {
  const { args, env, cwd } = entry;
  if (args !== undefined && !(Array.isArray(args) && args.every((arg) => typeof arg === "string"))) {
    return "args must be an array of strings";
  }
  if (env !== undefined && !isStringRecord(env)) return "env must map names to strings";
  if (cwd !== undefined && typeof cwd !== "string") return "cwd must be a string";
  return undefined;
}

function exposuresError(entry: Record<string, unknown>): string | undefined {
  const { exposure, toolExposure } = entry;
  const names = EXPOSURES.map((value) => `"${value}"`).join(", ");
  const valid = (value: unknown) => typeof value === "string" && (EXPOSURES as string[]).includes(value);
  if (exposure !== undefined && !valid(exposure)) return `exposure must be one of ${names}`;
  if (toolExposure !== undefined) {
    if (!isRecord(toolExposure)) return "toolExposure must map tool names to exposures";
    for (const [tool, value] of Object.entries(toolExposure)) {
      if (!valid(value)) return `toolExposure "${tool}" must be one of ${names}`;
    }
  }
  return undefined;
}

function authError(auth: unknown, url: string): string | undefined {
  if (auth === undefined) return undefined;
  if (!isRecord(auth) || typeof auth.provider !== "string" || !auth.provider) {
    return "auth.provider must be a provider name";
  }
  const parsed = new URL(url);
  if (parsed.protocol !== "https:" && !LOOPBACK_HOSTS.includes(parsed.hostname)) {
    return "auth requires an https URL, or http on localhost, 127.0.0.1, or [::1]";
  }
  return undefined;
}

/** A copy with the old exposure names (`codemode-deferred`) replaced by their current ones. */
function resolveAliases(raw: Record<string, unknown>): Record<string, unknown> {
  const alias = (value: unknown) => typeof value === "string" ? (EXPOSURE_ALIASES[value] ?? value) : value;
  const resolved = { ...raw };
  if (raw.exposure !== undefined) resolved.exposure = alias(raw.exposure);
  if (isRecord(raw.toolExposure)) {
    resolved.toolExposure = Object.fromEntries(
      Object.entries(raw.toolExposure).map(([tool, value]) => [tool, alias(value)]),
    );
  }
  return resolved;
}

/**
 * Validates one `mcpServers` entry with 1.6.0's checks and messages. Returns the config (aliases
 * resolved) or an error message naming the server.
 */
export function validateMcpServerConfig(name: string, input: unknown): McpServerConfig | string {
  if (!SERVER_NAME.test(name)) return `invalid server name "${name}" (use letters, digits, "_" and "-")`;
  if (!isRecord(input)) return `server "${name}" must be an object`;
  const raw = resolveAliases(input);
  const fields = baseFieldsError(raw);
  if (fields) return `server "${name}": ${fields}`;
  const { type, url, command } = raw;
  if (type === "sse") {
    return `server "${name}": legacy SSE transport is not supported; use the streamable HTTP URL`;
  }
  let config: McpServerConfig | undefined;
  if (typeof url === "string" && (type === undefined || type === "http" || type === "streamable-http")) {
    const error = httpFieldsError(raw, url);
    if (error) return `server "${name}": ${error}`;
    config = raw as unknown as McpHttpServerConfig;
  } else if (typeof command === "string" && (type === undefined || type === "stdio")) {
    const error = stdioFieldsError(raw);
    if (error) return `server "${name}": ${error}`;
    config = raw as unknown as McpStdioServerConfig;
  }
  if (!config) return `server "${name}" needs either "command" (stdio) or "url" (streamable HTTP)`;
  const error = exposuresError(raw) ?? ("url" in config ? authError(raw.auth, config.url) : undefined);
  return error ? `server "${name}": ${error}` : config;
}

/** Whether an entry only overrides a server defined elsewhere: no `command`, `url` or `type`. */
export function isOverride(entry: Record<string, unknown>): boolean {
  return entry.command === undefined && entry.url === undefined && entry.type === undefined;
}

function stripBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

interface ReadState {
  servers: Map<string, McpServerEntry>;
  errors: string[];
  autoEnableCodemode?: boolean;
}

function readConfigFile(path: string, scope: "global" | "project", state: ReadState): void {
  const { servers, errors } = state;
  if (!existsSync(path)) return;
  let parsed: unknown;
  try {
    parsed = JSON.parse(stripBom(readTextFileSync(path)));
  } catch (error) {
    errors.push(`${path}: ${error instanceof Error ? error.message : String(error)}`);
    return;
  }
  if (!isRecord(parsed) || (parsed.mcpServers !== undefined && !isRecord(parsed.mcpServers))) {
    errors.push(`${path}: expected an object with an "mcpServers" object`);
    return;
  }
  if (typeof parsed.autoEnableCodemode === "boolean") state.autoEnableCodemode = parsed.autoEnableCodemode;
  else if (parsed.autoEnableCodemode !== undefined) {
    errors.push(`${path}: autoEnableCodemode must be a boolean`);
  }
  for (const [name, value] of Object.entries((parsed.mcpServers ?? {}) as Record<string, unknown>)) {
    if (scope === "project" && isRecord(value) && isOverride(value)) {
      const base = servers.get(name);
      const extra = Object.keys(value).filter((key) => !OVERRIDE_KEYS.includes(key));
      if (!base) {
        errors.push(`${path}: server "${name}" needs "command" or "url", or a global server to override`);
      } else if (extra.length > 0) {
        errors.push(`${path}: server "${name}": an override can only set ${OVERRIDE_KEYS.join(", ")}`);
      } else {
        const config = validateMcpServerConfig(name, { ...base.config, ...value });
        if (typeof config === "string") errors.push(`${path}: ${config}`);
        else servers.set(name, { ...base, config, override: path });
      }
      continue;
    }
    const config = validateMcpServerConfig(name, value);
    if (typeof config === "string") {
      errors.push(`${path}: ${config}`);
      continue;
    }
    // Names that differ only in `-` and `_` would share a namespace.
    const clash = [...servers.keys()].find((other) =>
      other !== name && mcpNamespace(other) === mcpNamespace(name)
    );
    if (clash) {
      errors.push(`${path}: server "${name}" conflicts with "${clash}"`);
      continue;
    }
    if (scope === "project" && "url" in config && config.auth) {
      errors.push(`${path}: server "${name}": auth is only allowed in the global mcp.json`);
      continue;
    }
    servers.set(name, { name, config, source: path, scope });
  }
}

/** The `mcp.json` files a run reads: the agent dir's, and the project's when it is trusted. */
export function mcpConfigPaths(agentDir: string, cwd: string, projectTrusted: boolean): string[] {
  const paths = [join(agentDir, "mcp.json")];
  if (projectTrusted) paths.push(join(cwd, CONFIG_DIR_NAME, "mcp.json"));
  return paths;
}

/**
 * Reads the global and (when trusted) the project `mcp.json`. Disabled servers are included with
 * `enabled: false`. Never throws for a bad file: its problem is in `errors`.
 */
export function loadMcpConfig(
  options: { agentDir: string; cwd: string; projectTrusted: boolean },
): LoadedMcpConfig {
  const state: ReadState = { servers: new Map(), errors: [] };
  readConfigFile(join(options.agentDir, "mcp.json"), "global", state);
  const projectConfig = options.projectTrusted ? join(options.cwd, CONFIG_DIR_NAME, "mcp.json") : undefined;
  if (projectConfig) readConfigFile(projectConfig, "project", state);
  return {
    servers: [...state.servers.values()],
    ...(state.autoEnableCodemode === undefined ? {} : { autoEnableCodemode: state.autoEnableCodemode }),
    errors: state.errors,
    ...(projectConfig ? { projectConfig } : {}),
  };
}
