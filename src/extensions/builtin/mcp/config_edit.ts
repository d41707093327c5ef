/**
 * Edits of an `mcp.json` as `pi mcp add` / `remove` make them (1.6.0): the `mcpServers` entry is
 * replaced or deleted, everything else in the file is kept, and the file keeps its indentation
 * (two spaces for a new file).
 *
 * @module
 */
import { existsSync, readTextFileSync } from "../../../util/fs.ts";
import { dirname } from "../../../util/path.ts";

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function editMcpServers(
  path: string,
  edit: (servers: Record<string, unknown> | undefined, parsed: Record<string, unknown>) => boolean,
): void {
  const raw = existsSync(path) ? readTextFileSync(path) : undefined;
  const text = raw?.charCodeAt(0) === 0xfeff ? raw.slice(1) : raw;
  const parsed: unknown = text === undefined ? {} : JSON.parse(text);
  if (!isRecord(parsed) || (parsed.mcpServers !== undefined && !isRecord(parsed.mcpServers))) {
    throw new Error(`${path}: expected an object with an "mcpServers" object`);
  }
  const servers = isRecord(parsed.mcpServers) ? parsed.mcpServers : undefined;
  if (!edit(servers, parsed)) return;
  const indent = (text && /^([ \t]+)\S/m.exec(text)?.[1]) || "  ";
  Deno.mkdirSync(dirname(path), { recursive: true });
  Deno.writeTextFileSync(path, `${JSON.stringify(parsed, null, indent)}\n`);
}

/** Adds or replaces a server, creating the file when missing. True when an entry was replaced. */
export function addMcpServerConfig(path: string, name: string, config: unknown): boolean {
  let replaced = false;
  editMcpServers(path, (servers, parsed) => {
    const target = servers ?? {};
    replaced = target[name] !== undefined;
    target[name] = config;
    parsed.mcpServers = target;
    return true;
  });
  return replaced;
}

/** Removes a server; false when the file does not define it. */
export function removeMcpServerConfig(path: string, name: string): boolean {
  if (!existsSync(path)) return false;
  let removed = false;
  editMcpServers(path, (servers) => {
    if (!servers || servers[name] === undefined) return false;
    delete servers[name];
    removed = true;
    return true;
  });
  return removed;
}

/**
 * Sets `enabled` or `exposure` of a server as `/mcp` does (1.6.0): a default value (`enabled: true`,
 * `exposure: "codemode"`) is written by leaving the field out, except in an override entry, where it
 * must stay to override the global server. `override` creates the override entry when missing.
 */
export function updateMcpServerConfig(
  path: string,
  name: string,
  patch: { enabled?: boolean; exposure?: string },
  options: { override?: boolean } = {},
): void {
  editMcpServers(path, (servers, parsed) => {
    let server = servers?.[name];
    if (server === undefined && options.override) {
      server = {};
      parsed.mcpServers = { ...servers, [name]: server };
    }
    if (!isRecord(server)) throw new Error(`${path} does not define MCP server "${name}"`);
    const keepDefaults = server.command === undefined && server.url === undefined &&
      server.type === undefined;
    if (patch.enabled !== undefined) {
      if (patch.enabled && !keepDefaults) delete server.enabled;
      else server.enabled = patch.enabled;
    }
    if (patch.exposure !== undefined) {
      if (patch.exposure === "codemode" && !keepDefaults) delete server.exposure;
      else server.exposure = patch.exposure;
    }
    return true;
  });
}
