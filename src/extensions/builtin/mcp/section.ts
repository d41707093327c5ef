/**
 * The `mcp_servers` section of the system prompt, worded as 1.6.0 writes it: the enabled servers
 * whose tools are not declared to the model (`codemode` or `deferred` exposure), how their tools are
 * reached, and a one-line summary each, within 4096 characters.
 *
 * @module
 */
import { sliceHead } from "../../../tools/truncate.ts";
import type { McpExposure, McpServerEntry } from "./config.ts";
import { mcpNamespace, mcpServerSummary } from "./naming.ts";

/** Name of the section. */
export const MCP_SERVERS_SECTION = "mcp_servers";
/** Characters of one server's description in the section. */
const MAX_SERVER_DESCRIPTION_CHARS = 250;
/** Characters of the whole section. */
export const MAX_SERVERS_SECTION_CHARS = 4096;

/** A server as the section sees it: its entry, and its instructions once connected. */
export interface SectionServer {
  entry: McpServerEntry;
  instructions?: string;
}

/** Exposures a server's tools can have, known from its config before it connects. */
export function configuredExposures(entry: McpServerEntry): Set<McpExposure> {
  return new Set([entry.config.exposure ?? "codemode", ...Object.values(entry.config.toolExposure ?? {})]);
}

function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  return max <= 1 ? "" : `${sliceHead(text, max - 1).trimEnd()}…`;
}

/** The section's text, or undefined when no enabled server has codemode or deferred tools. */
export function renderServersSection(servers: readonly SectionServer[]): string | undefined {
  const listed = servers
    .filter((server) => {
      if (server.entry.config.enabled === false) return false;
      const exposures = configuredExposures(server.entry);
      return exposures.has("codemode") || exposures.has("deferred");
    })
    .sort((a, b) => a.entry.name.localeCompare(b.entry.name));
  if (listed.length === 0) return undefined;
  const reaches = listed.map((server) =>
    configuredExposures(server.entry).has("codemode") ? "codemode" : "tool_search"
  );
  let intro = "MCP servers whose tools are not declared to you.";
  if (reaches.includes("codemode")) intro += " Call the tools of `codemode` servers from codemode scripts.";
  if (reaches.includes("tool_search")) {
    intro += " Load the tools of `tool_search` servers with `tool_search`.";
  }
  const heads = listed.map((server, index) => `- ${mcpNamespace(server.entry.name)} (${reaches[index]})`);
  const omitted = (count: number) =>
    count > 0
      ? [`- … ${count} more server${count === 1 ? "" : "s"}; find their tools with searchTools()`]
      : [];
  const size = (kept: number) =>
    [intro, ...heads.slice(0, kept), ...omitted(listed.length - kept)].join("\n").length;
  let kept = listed.length;
  while (kept > 0 && size(kept) > MAX_SERVERS_SECTION_CHARS) kept--;
  // Each description also takes a ": " separator.
  const perServer = kept === 0
    ? 0
    : Math.min(MAX_SERVER_DESCRIPTION_CHARS, Math.floor((MAX_SERVERS_SECTION_CHARS - size(kept)) / kept) - 2);
  const lines = listed.slice(0, kept).map((server, index) => {
    const summary = perServer > 0
      ? truncate(mcpServerSummary(server.entry.config.description, server.instructions), perServer)
      : "";
    return summary ? `${heads[index]}: ${summary}` : heads[index];
  });
  return [intro, ...lines, ...omitted(listed.length - kept)].join("\n");
}
