/**
 * MCP tools as pi tools: `mcp__<server>__<tool>` with the server's input schema (an object schema,
 * `properties` added when missing), the description the server gives (else its title, else
 * `MCP tool <tool> from server <server>`), progress as partial results, and results converted by
 * `content.ts`. A server error (`isError`) is an error result; a failed connection, a timeout or a
 * server that died mid-call is thrown, which the agent turns into an error result, and the session
 * goes on.
 *
 * @module
 */
import type { AgentTool, AgentToolResult } from "../../../agent/types.ts";
import type { McpExposure } from "./config.ts";
import { convertMcpResult } from "./content.ts";
import type { McpServerConnection, McpTool } from "./connection.ts";

/** The tool's input schema as an object schema, as LLM tool APIs want it. */
export function normalizeMcpInputSchema(
  schema: Record<string, unknown> | undefined,
): Record<string, unknown> {
  const base = schema ?? {};
  return {
    ...base,
    type: base.type ?? "object",
    ...(base.properties === undefined ? { properties: {} } : {}),
  };
}

/** An MCP tool's pi definition, with the exposure it has. */
export type McpToolDefinition = AgentTool & { exposure: McpExposure; server: string; mcpTool: string };

/** Options of {@link createMcpToolDefinition}. */
export interface McpToolDefinitionOptions {
  server: string;
  tool: McpTool;
  /** The pi tool name (`createMcpToolName`). */
  name: string;
  exposure: McpExposure;
  /** The server's connection as it is when the tool runs; throws when the tool is gone. */
  getConnection: () => McpServerConnection;
  /** Whether `read_mcp_resource` reaches this server (resource links then name it). */
  readableResources?: () => boolean;
}

/** The pi tool for one MCP tool. */
export function createMcpToolDefinition(options: McpToolDefinitionOptions): McpToolDefinition {
  const { server, tool } = options;
  const title = tool.title ?? (tool.annotations?.title as string | undefined);
  return {
    name: options.name,
    label: `${server}/${tool.name}`,
    description: tool.description?.trim() || title || `MCP tool ${tool.name} from server ${server}`,
    parameters: normalizeMcpInputSchema(tool.inputSchema) as AgentTool["parameters"],
    exposure: options.exposure,
    server,
    mcpTool: tool.name,
    async execute(_toolCallId, params, signal, onUpdate): Promise<AgentToolResult> {
      const connection = options.getConnection();
      const result = await connection.callTool(tool.name, (params ?? {}) as Record<string, unknown>, {
        signal,
        onProgress: (progress) => {
          const total = progress.total === undefined ? "" : `/${progress.total}`;
          const text = progress.message ?? `Progress ${progress.progress}${total}`;
          onUpdate?.({ content: [{ type: "text", text }], details: { server, tool: tool.name } });
        },
      });
      return await convertMcpResult(server, tool.name, result, {
        readableResources: options.readableResources?.(),
      });
    },
  };
}
