/**
 * `@earendil-works/pi-mcp` for extensions: the helpers of 1.6.0's MCP client library that the
 * built-in MCP extension shares with it (namespaces, summaries, input schemas, tool names, result
 * content and the output limit, configuration checks), and its protocol values (versions,
 * JSON-RPC checks, errors). Our MCP client is built differently (src/extensions/builtin/mcp, on the
 * official SDK), so 1.6.0's `McpClient` and transports are not available in this build; the missing
 * names are listed by tests/extensions/module_exports_test.ts.
 *
 * @module
 */
export { MCP_OUTPUT_MAX_BYTES } from "../builtin/mcp/content.ts";
export { mcpNamespace, mcpServerSummary } from "../builtin/mcp/naming.ts";
export { normalizeMcpInputSchema } from "../builtin/mcp/tools.ts";
export { createMcpToolName, limitMcpContent, toLlmContent } from "./pi_mcp_content.ts";
export {
  isJsonRpcNotification,
  isJsonRpcRequest,
  isJsonRpcResponse,
  JSON_RPC_ERROR_CODES,
  type JsonRpcId,
  type JsonRpcMessage,
  type JsonRpcNotification,
  type JsonRpcRequest,
  type JsonRpcResponse,
  LATEST_PROTOCOL_VERSION,
  McpAbortError,
  McpAuthRequiredError,
  McpConnectionClosedError,
  McpError,
  McpHttpError,
  McpSessionExpiredError,
  McpTimeoutError,
  parseJsonRpcMessage,
  SUPPORTED_PROTOCOL_VERSIONS,
} from "./pi_mcp_protocol.ts";
export {
  isMcpServerOverride,
  type McpServerConfigOptions,
  type McpServerConfigResult,
  validateMcpServerConfig,
} from "./pi_mcp_config.ts";
