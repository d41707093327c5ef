/**
 * Compaction and branch summarization: token accounting, cut-point selection, conversation
 * serialization and the LLM calls that write summaries.
 *
 * @module
 */
export * from "./token_estimate.ts";
export * from "./cut_point.ts";
export * from "./file_tracking.ts";
export * from "./serialize.ts";
export * from "./prompts.ts";
export * from "./compaction.ts";
export * from "./branch_summarization.ts";
