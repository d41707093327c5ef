/**
 * Types shared by the agent loop and the tools it runs. Names follow `@mariozechner/pi-agent-core`.
 *
 * @module
 */
import type { ImageContent, JsonSchema, TextContent, Tool } from "../ai/types.ts";

/** What a tool returns: content for the model, details for logs, UIs and session files. */
// deno-lint-ignore no-explicit-any
export interface AgentToolResult<TDetails = any> {
  content: (TextContent | ImageContent)[];
  details: TDetails;
}

/** Receives partial results while a tool runs (bash output streaming, for instance). */
// deno-lint-ignore no-explicit-any
export type AgentToolUpdateCallback<TDetails = any> = (partialResult: AgentToolResult<TDetails>) => void;

/** "sequential" tools run alone; "parallel" (the default) run alongside other calls. */
export type ToolExecutionMode = "sequential" | "parallel";

/**
 * A tool the agent can run. `execute` throws on failure (the loop turns the error message into
 * an error result); it never encodes failures in `content`.
 */
// deno-lint-ignore no-explicit-any
export interface AgentTool<TParams = any, TDetails = any> extends Tool {
  /** Human-readable name for UIs. */
  label: string;
  parameters: JsonSchema;
  /** Rewrites raw arguments (e.g. legacy shapes) before validation. */
  prepareArguments?: (args: unknown) => TParams;
  execute: (
    toolCallId: string,
    params: TParams,
    signal?: AbortSignal,
    onUpdate?: AgentToolUpdateCallback<TDetails>,
  ) => Promise<AgentToolResult<TDetails>>;
  executionMode?: ToolExecutionMode;
}
