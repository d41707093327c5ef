/**
 * Result shapes of pi 1.6.0's actionable extension events that are not plain notifications:
 * `user_bash` (a handler runs the command itself or lends its backend) and the two turn
 * boundaries, `turn_end` and `agent_before_settle` (handlers propose session entries and one
 * continuation). The runner ({@link ExtensionRunner}) dispatches them; src/core applies them.
 *
 * @module
 */
import type { ImageContent, TextContent, Usage } from "../ai/types.ts";
import type { BashOperations } from "../tools/shell.ts";
import type { BashResult } from "../tools/bash_executor.ts";

/** What a `user_bash` handler may return: its own backend, or the finished result (exactly one). */
export type UserBashResult = { operations: BashOperations; result?: never } | {
  operations?: never;
  result: BashResult;
};

/** 1.6.0's message for a `user_bash` handler result that is neither undefined nor one valid choice. */
export const INVALID_USER_BASH_RESULT =
  "Invalid user_bash handler result: return undefined for local execution or exactly one valid { operations } or { result } object";

/** Whether `value` is a valid `user_bash` result (1.6.0's checks, field by field). */
export function isUserBashResult(value: unknown): value is UserBashResult {
  if (typeof value !== "object" || value === null) return false;
  const candidate = value as { operations?: unknown; result?: unknown };
  const hasOperations = candidate.operations !== undefined;
  if (hasOperations === (candidate.result !== undefined)) return false;
  if (hasOperations) {
    const operations = candidate.operations as { exec?: unknown } | null;
    return typeof operations === "object" && operations !== null && typeof operations.exec === "function";
  }
  const result = candidate.result as Record<string, unknown> | null;
  if (typeof result !== "object" || result === null) return false;
  return typeof result.output === "string" && "exitCode" in result &&
    (result.exitCode === undefined || typeof result.exitCode === "number") &&
    typeof result.cancelled === "boolean" && typeof result.truncated === "boolean" &&
    (result.fullOutputPath === undefined || typeof result.fullOutputPath === "string");
}

/** An entry a boundary handler proposes (1.6.0's `SessionBoundaryDraft`). */
export type BoundaryDraft =
  | { type: "custom"; customType: string; data?: unknown }
  | {
    type: "custom_message";
    customType: string;
    content: string | (TextContent | ImageContent)[];
    display: boolean;
    details?: unknown;
  }
  | { type: "context_edit"; targetId: string; replacement: unknown }
  | {
    type: "compaction";
    summary: string;
    /** Null keeps nothing before the compaction. */
    firstKeptEntryId: string | null;
    details?: unknown;
    usage?: Usage;
  };

/** How the last low-level run ended, as boundary events report it. */
export type ActivityOutcome = "completed" | "aborted" | "error";

/** What the boundary handlers agreed on; `valid: false` drops every entry and the continuation. */
export interface BoundaryOutcome<C> {
  /** The entries to append, in order. */
  entries: BoundaryDraft[];
  /** Whether one more request was asked for. */
  continue: boolean;
  /** The context built from the last valid proposal. */
  context: C;
  /** False when the final proposal could not be applied. */
  valid: boolean;
}
