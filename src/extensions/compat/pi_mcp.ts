/**
 * `@earendil-works/pi-mcp` for extensions: the helpers of 1.6.0's MCP client library that the
 * built-in MCP extension shares with it (namespaces, summaries, input schemas, the output limit).
 * Our MCP client is built differently (src/extensions/builtin/mcp), so 1.6.0's client, transports,
 * JSON-RPC helpers and errors are not available in this build yet, and `createMcpToolName` is left
 * out because ours is asynchronous where 1.6.0's returns a string; the missing names are listed by
 * tests/extensions/module_exports_test.ts.
 *
 * @module
 */
export { MCP_OUTPUT_MAX_BYTES } from "../builtin/mcp/content.ts";
export { mcpNamespace, mcpServerSummary } from "../builtin/mcp/naming.ts";
export { normalizeMcpInputSchema } from "../builtin/mcp/tools.ts";
