/**
 * MCP resources through the tools Codex and opencode use, as 1.6.0 declares them:
 * `list_mcp_resources`, `list_mcp_resource_templates` and `read_mcp_resource`. They reach every
 * enabled, non-hidden server with resources. Listings are JSON (`{ server?, resources: [{ server,
 * … }], nextCursor? }`); MCP App resources (`ui://`, `profile=mcp-app`) and icons are left out;
 * read resources become text and images, other binary contents temp files.
 *
 * @module
 */
import type { JsonValue } from "../../../ai/types.ts";
import type { AgentTool, AgentToolResult } from "../../../agent/types.ts";
import { limitContent, type McpContentBlock, saveToTempFile, toModelContent } from "./content.ts";
import type { McpListItem, McpListPage, McpServerConnection } from "./connection.ts";

/** The names of the resource tools. */
export const LIST_MCP_RESOURCES_TOOL = "list_mcp_resources";
export const LIST_MCP_RESOURCE_TEMPLATES_TOOL = "list_mcp_resource_templates";
export const READ_MCP_RESOURCE_TOOL = "read_mcp_resource";

function isMcpAppResource(item: McpListItem): boolean {
  const uri = item.uri ?? item.uriTemplate ?? "";
  return uri.startsWith("ui://") || /;\s*profile\s*=\s*"?mcp-app"?/i.test(item.mimeType ?? "");
}

function listed(server: string, item: McpListItem): Record<string, unknown> {
  const { _meta: _ignored, icons: _icons, ...rest } = item;
  return { server, ...rest };
}

const stringProperty = (description: string) => ({ type: "string", description });
const LIST_PARAMETERS = {
  type: "object",
  properties: {
    server: stringProperty("MCP server name. Omit to list every server with resources."),
    cursor: stringProperty(
      "Opaque cursor from a previous call with the same server; omit for the first page.",
    ),
  },
  additionalProperties: false,
};
const READ_PARAMETERS = {
  type: "object",
  properties: {
    server: stringProperty(
      "MCP server name exactly as configured. Must match the 'server' field returned by list_mcp_resources.",
    ),
    uri: stringProperty("Resource URI to read. Must be one of the URIs returned by list_mcp_resources."),
  },
  required: ["server", "uri"],
  additionalProperties: false,
};

function stringArgument(params: unknown, key: string): string | undefined {
  const value = (params as Record<string, unknown> | undefined)?.[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "string") throw new Error(`${key} must be a string`);
  return value.trim() || undefined;
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

async function jsonResult(
  tool: string,
  server: string | undefined,
  payload: unknown,
): Promise<AgentToolResult> {
  const { content, fullOutputPath } = await limitContent(
    [{ type: "text", text: JSON.stringify(payload) }],
    saveToTempFile,
  );
  return {
    content,
    details: { server: server ?? "", tool, ...(fullOutputPath ? { fullOutputPath } : {}) },
    structuredContent: payload as JsonValue, // a server's parsed JSON
  };
}

/** A resource tool, with what codemode scripts get from it. */
type ResourceTool = AgentTool & { outputSchema: Record<string, unknown> };

const optionalString = { type: "string" };
const LISTING_ERRORS = {
  type: "array",
  description: "Servers that could not be listed",
  items: {
    type: "object",
    properties: { server: { type: "string" }, error: { type: "string" } },
    required: ["server", "error"],
  },
};

/** What `list_mcp_resources` resolves to in codemode scripts (its `structuredContent`). */
const LIST_OUTPUT_SCHEMA = {
  type: "object",
  properties: {
    server: optionalString,
    resources: {
      type: "array",
      items: {
        type: "object",
        properties: {
          server: { type: "string" },
          uri: { type: "string" },
          name: { type: "string" },
          title: optionalString,
          description: optionalString,
          mimeType: optionalString,
          size: { type: "number" },
        },
        required: ["server", "uri", "name"],
      },
    },
    nextCursor: optionalString,
    errors: LISTING_ERRORS,
  },
  required: ["resources"],
};

/** What `list_mcp_resource_templates` resolves to in codemode scripts. */
const LIST_TEMPLATES_OUTPUT_SCHEMA = {
  type: "object",
  properties: {
    server: optionalString,
    resourceTemplates: {
      type: "array",
      items: {
        type: "object",
        properties: {
          server: { type: "string" },
          uriTemplate: { type: "string", description: "RFC 6570 URI template" },
          name: { type: "string" },
          title: optionalString,
          description: optionalString,
          mimeType: optionalString,
        },
        required: ["server", "uriTemplate", "name"],
      },
    },
    nextCursor: optionalString,
    errors: LISTING_ERRORS,
  },
  required: ["resourceTemplates"],
};

/** What `read_mcp_resource` resolves to in codemode scripts. */
const READ_OUTPUT_SCHEMA = {
  type: "object",
  properties: {
    server: { type: "string" },
    uri: { type: "string" },
    contents: {
      type: "array",
      items: {
        anyOf: [
          {
            type: "object",
            properties: { uri: { type: "string" }, mimeType: optionalString, text: { type: "string" } },
            required: ["uri", "text"],
          },
          {
            type: "object",
            properties: {
              uri: { type: "string" },
              mimeType: optionalString,
              blob: { type: "string", description: "base64" },
            },
            required: ["uri", "blob"],
          },
        ],
      },
    },
  },
  required: ["server", "uri", "contents"],
};

/** The three resource tools; `servers` gives the connections they reach when they run. */
export function createMcpResourceTools(servers: () => McpServerConnection[]): AgentTool[] {
  const findServer = (name: string) => {
    const all = servers();
    const server = all.find((candidate) => candidate.name === name);
    if (server) return server;
    const available = all.map((candidate) => candidate.name).join(", ");
    throw new Error(
      `MCP server "${name}" has no resources${available ? `. Servers with resources: ${available}` : ""}`,
    );
  };
  const list = async (
    params: unknown,
    key: string,
    page: (server: McpServerConnection, cursor: string | undefined) => Promise<McpListPage>,
    all: (server: McpServerConnection) => Promise<McpListItem[]>,
  ) => {
    const serverName = stringArgument(params, "server");
    const cursor = stringArgument(params, "cursor");
    const visible = (item: McpListItem) => !isMcpAppResource(item);
    if (serverName) {
      const server = findServer(serverName);
      const result = await page(server, cursor);
      return {
        server: server.name,
        [key]: result.items.filter(visible).map((item) => listed(server.name, item)),
        ...(result.nextCursor === undefined ? {} : { nextCursor: result.nextCursor }),
      };
    }
    if (cursor) throw new Error("cursor can only be used when a server is specified");
    const sorted = [...servers()].sort((a, b) => a.name.localeCompare(b.name));
    const results = await Promise.allSettled(sorted.map((server) => all(server)));
    const items: Record<string, unknown>[] = [];
    const errors: { server: string; error: string }[] = [];
    results.forEach((result, index) => {
      const server = sorted[index].name;
      if (result.status === "fulfilled") {
        items.push(...result.value.filter(visible).map((item) => listed(server, item)));
      } else errors.push({ server, error: errorMessage(result.reason) });
    });
    return { [key]: items, ...(errors.length > 0 ? { errors } : {}) };
  };
  const listResources: ResourceTool = {
    name: LIST_MCP_RESOURCES_TOOL,
    label: LIST_MCP_RESOURCES_TOOL,
    description:
      "Lists resources provided by MCP servers. Resources allow servers to share data that provides context to language models, such as files, database schemas, or application-specific information. Prefer resources over web search when possible.",
    parameters: LIST_PARAMETERS as AgentTool["parameters"],
    outputSchema: LIST_OUTPUT_SCHEMA,
    async execute(_id, params, signal) {
      const payload = await list(
        params,
        "resources",
        (server, cursor) => server.resourcesPage(cursor, signal),
        (server) => server.allPages("resources", signal),
      );
      return await jsonResult(LIST_MCP_RESOURCES_TOOL, stringArgument(params, "server"), payload);
    },
  };
  const listTemplates: ResourceTool = {
    name: LIST_MCP_RESOURCE_TEMPLATES_TOOL,
    label: LIST_MCP_RESOURCE_TEMPLATES_TOOL,
    description:
      "Lists resource templates provided by MCP servers. Parameterized resource templates allow servers to share data that takes parameters and provides context to language models, such as files, database schemas, or application-specific information. Prefer resource templates over web search when possible.",
    parameters: LIST_PARAMETERS as AgentTool["parameters"],
    outputSchema: LIST_TEMPLATES_OUTPUT_SCHEMA,
    async execute(_id, params, signal) {
      const payload = await list(
        params,
        "resourceTemplates",
        (server, cursor) => server.resourceTemplatesPage(cursor, signal),
        (server) => server.allPages("templates", signal),
      );
      return await jsonResult(LIST_MCP_RESOURCE_TEMPLATES_TOOL, stringArgument(params, "server"), payload);
    },
  };
  const readResource: ResourceTool = {
    name: READ_MCP_RESOURCE_TOOL,
    label: READ_MCP_RESOURCE_TOOL,
    description: "Read a specific resource from an MCP server given the server name and resource URI.",
    parameters: READ_PARAMETERS as AgentTool["parameters"],
    outputSchema: READ_OUTPUT_SCHEMA,
    async execute(_id, params, signal) {
      const serverName = stringArgument(params, "server");
      const uri = stringArgument(params, "uri");
      if (!serverName) throw new Error("server must be provided");
      if (!uri) throw new Error("uri must be provided");
      const server = findServer(serverName);
      const result = await server.readResource(uri, signal);
      // Several contents (a directory, say) are labelled with their URIs.
      const blocks: McpContentBlock[] = result.contents.flatMap((contents) => [
        ...(result.contents.length > 1 ? [{ type: "text", text: `${contents.uri}:` }] : []),
        { type: "resource", resource: contents },
      ]);
      const converted = await toModelContent(server.name, blocks);
      const { content, fullOutputPath } = await limitContent(
        converted.length > 0 ? converted : [{ type: "text", text: `Resource ${uri} is empty.` }],
        saveToTempFile,
      );
      const contents = result.contents.map(({ _meta: _ignored, ...rest }) => rest);
      return {
        content,
        details: {
          server: server.name,
          tool: READ_MCP_RESOURCE_TOOL,
          ...(fullOutputPath ? { fullOutputPath } : {}),
        },
        structuredContent: { server: server.name, uri, contents },
      };
    },
  };
  return [listResources, listTemplates, readResource];
}
