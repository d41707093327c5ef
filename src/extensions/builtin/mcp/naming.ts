/**
 * Names of MCP tools and server namespaces as 1.6.0 gives them: `mcp__<server>__<tool>` with every
 * character but `[A-Za-z0-9_]` turned into `_`, shortened with a hash suffix past 64 characters or
 * when two tools sanitize to the same name.
 *
 * @module
 */

/** Provider tool names are limited to 64 characters of `[A-Za-z0-9_-]`. */
const MAX_TOOL_NAME_LENGTH = 64;

async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, "0")).join("");
}

/**
 * `mcp__<server>__<tool>`, sanitized; too long or `isTaken` names get the first 8 hex digits of
 * SHA-256(`server\0tool`) as a suffix (1.6.0's rule, so names match between the two).
 */
export async function createMcpToolName(
  server: string,
  tool: string,
  isTaken: (name: string) => boolean = () => false,
): Promise<string> {
  const name = `mcp__${server}__${tool}`.replace(/[^A-Za-z0-9_]/g, "_");
  if (name.length <= MAX_TOOL_NAME_LENGTH && !isTaken(name)) return name;
  const hash = (await sha256Hex(`${server}\0${tool}`)).slice(0, 8);
  return `${name.slice(0, MAX_TOOL_NAME_LENGTH - hash.length - 1)}_${hash}`;
}

/** A server's namespace, `mcp__<server>` with `-` as `_`. */
export function mcpNamespace(server: string): string {
  return `mcp__${server.replace(/-/g, "_")}`;
}

/** A server's one-line summary: the first line of its `description`, else of its instructions. */
export function mcpServerSummary(description: string | undefined, instructions: string | undefined): string {
  const text = description?.trim() || instructions?.trim() || "";
  return (text.split("\n", 1)[0] ?? "").trim();
}
