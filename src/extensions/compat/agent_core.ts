/**
 * `@earendil-works/pi-agent-core` for extensions: our agent loop.
 *
 * @module
 */
export * from "../../agent/mod.ts";
export { runToolCall } from "../../agent/tool_execution.ts";
export { DEFAULT_AGENT_IDENTITY } from "./agent_core_identity.ts";
