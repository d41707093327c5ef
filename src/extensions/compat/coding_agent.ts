/**
 * `@earendil-works/pi-coding-agent` for extensions: the values extensions use at run time (tool
 * factories, truncation helpers, the file mutation queue, paths, `defineTool` and the event type
 * guards). Types are erased when an extension is transpiled, so only values matter here.
 *
 * @module
 */
export * from "../../tools/mod.ts";
export { getAgentDir } from "../../config/paths.ts";
export { defineTool, isToolCallEventType } from "../api_helpers.ts";
