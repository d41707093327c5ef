/**
 * The `tool_search` tool of pi 1.6.0's built-in `tool-search` extension: it ranks the tools that are
 * not declared to the model (MCP tools with `deferred` or `codemode` exposure) by a query and loads
 * the matches, so the next request declares them. Loading goes through the session's active tool
 * set, so the transcript records it (a `system` message with `toolsAdded`) and a resumed session
 * keeps the tools on that branch. Name, description, parameters and result texts are 1.6.0's.
 *
 * @module
 */
import type { AgentTool, AgentToolResult } from "../../../agent/types.ts";
import {
  createToolSearchDocument,
  DEFAULT_TOOL_SEARCH_LIMIT,
  rankTools,
  type SearchableTool,
} from "./ranker.ts";

/** The tool's name. */
export const TOOL_SEARCH_TOOL_NAME = "tool_search";

/** What the system prompt's tool list says of it. */
export const TOOL_SEARCH_PROMPT_SNIPPET = "Search for tools that are not loaded yet and load the matches";

/** The description: it never lists the tools, so it stays the same while servers connect. */
export const TOOL_SEARCH_DESCRIPTION =
  `# Tool discovery\n\nSearches over deferred tool metadata with BM25 and exposes matching tools for the next model call.\n\nSome of the tools, such as tools of MCP servers, may not have been provided to you upfront, and you should use this tool (\`${TOOL_SEARCH_TOOL_NAME}\`) to search for the required tools. For MCP tool discovery, always use \`${TOOL_SEARCH_TOOL_NAME}\`.`;

/** The parameters, as 1.6.0 declares them. */
export const TOOL_SEARCH_PARAMETERS = {
  type: "object",
  properties: {
    query: { type: "string", description: "Search query for deferred tools." },
    limit: {
      type: "number",
      description: `Maximum number of tools to return. Defaults to ${DEFAULT_TOOL_SEARCH_LIMIT}.`,
    },
  },
  required: ["query"],
} as const;

/** The tools a search may load, and how it loads them. */
export interface ToolSearchCatalog {
  /** Resolves when every source of searchable tools is ready (MCP servers connected or failed). */
  ready?(): Promise<void>;
  /** Tools not declared yet that a search may load, in registration order. */
  candidates(): SearchableTool[];
  /** Declares these tools from the next request on. */
  load(names: string[]): void;
}

/** `details` of a `tool_search` result. */
export interface ToolSearchDetails {
  loaded: string[];
}

/** The `tool_search` tool over `catalog`. */
export function createToolSearchTool(
  catalog: ToolSearchCatalog,
): AgentTool<{ query: string; limit?: number }, ToolSearchDetails> & {
  promptSnippet: string;
} {
  return {
    name: TOOL_SEARCH_TOOL_NAME,
    label: TOOL_SEARCH_TOOL_NAME,
    description: TOOL_SEARCH_DESCRIPTION,
    promptSnippet: TOOL_SEARCH_PROMPT_SNIPPET,
    parameters: TOOL_SEARCH_PARAMETERS as unknown as AgentTool["parameters"],
    async execute(_toolCallId, { query, limit }): Promise<AgentToolResult<ToolSearchDetails>> {
      if (query.trim() === "") throw new Error("query must not be empty");
      const max = limit ?? DEFAULT_TOOL_SEARCH_LIMIT;
      if (!Number.isInteger(max) || max <= 0) throw new Error("limit must be a positive integer");
      // A search reaches every server's tools, so it waits for the servers still connecting.
      await catalog.ready?.();
      const candidates = catalog.candidates();
      const matches = rankTools(query, candidates.map(createToolSearchDocument), max);
      if (matches.length > 0) catalog.load(matches.map((match) => match.name));
      const found = matches.map((match) => ({
        name: match.name,
        description: candidates.find((tool) => tool.name === match.name)?.description ?? "",
      }));
      const text = found.length === 0
        ? "No matching tools found."
        : `Loaded ${found.length} tool${
          found.length === 1 ? "" : "s"
        }. They are available from your next call:\n${
          found.map((tool) => `- ${tool.name}: ${tool.description.trim().split(/\r?\n/)[0]}`).join("\n")
        }`;
      return { content: [{ type: "text", text }], details: { loaded: found.map((tool) => tool.name) } };
    },
  };
}
