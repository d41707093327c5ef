/**
 * 1.6.0 pi-coding-agent's guards for `tool_result` events: whether an event is the result of one
 * of the built-in tools, by tool name. Each narrows the event it is given to that tool's result
 * (1.6.0's `BashToolResultEvent` …): the tool name, and the tool's `details`.
 *
 * @module
 */
import type { BashToolDetails } from "../../tools/bash.ts";
import type { EditToolDetails } from "../../tools/edit.ts";
import type { FindToolDetails } from "../../tools/find.ts";
import type { GrepToolDetails } from "../../tools/grep.ts";
import type { LsToolDetails } from "../../tools/ls.ts";
import type { ReadToolDetails } from "../../tools/read.ts";

/** A `tool_result` event, as far as the guards look at it. */
export interface ToolResultEventLike {
  /** The tool that ran. */
  toolName: string;
}

/** The details each built-in tool puts on its results (`write` has none; `powershell` has bash's). */
export interface BuiltinToolResultDetails {
  /** `bash`. */
  bash: BashToolDetails | undefined;
  /** `powershell`, whose results are bash's. */
  powershell: BashToolDetails | undefined;
  /** `read`. */
  read: ReadToolDetails | undefined;
  /** `edit`. */
  edit: EditToolDetails | undefined;
  /** `write`. */
  write: undefined;
  /** `grep`. */
  grep: GrepToolDetails | undefined;
  /** `find`. */
  find: FindToolDetails | undefined;
  /** `ls`. */
  ls: LsToolDetails | undefined;
}

/** `E` narrowed to a result of the built-in tool `N`. */
export type BuiltinToolResultEvent<E, N extends keyof BuiltinToolResultDetails> = E & {
  toolName: N;
  details: BuiltinToolResultDetails[N];
};

/** Whether the event is a result of the `bash` tool. */
export function isBashToolResult<E extends ToolResultEventLike>(
  event: E,
): event is BuiltinToolResultEvent<E, "bash"> {
  return event.toolName === "bash";
}

/** Whether the event is a result of the `powershell` tool. */
export function isPowerShellToolResult<E extends ToolResultEventLike>(
  event: E,
): event is BuiltinToolResultEvent<E, "powershell"> {
  return event.toolName === "powershell";
}

/** Whether the event is a result of the `read` tool. */
export function isReadToolResult<E extends ToolResultEventLike>(
  event: E,
): event is BuiltinToolResultEvent<E, "read"> {
  return event.toolName === "read";
}

/** Whether the event is a result of the `edit` tool. */
export function isEditToolResult<E extends ToolResultEventLike>(
  event: E,
): event is BuiltinToolResultEvent<E, "edit"> {
  return event.toolName === "edit";
}

/** Whether the event is a result of the `write` tool. */
export function isWriteToolResult<E extends ToolResultEventLike>(
  event: E,
): event is BuiltinToolResultEvent<E, "write"> {
  return event.toolName === "write";
}

/** Whether the event is a result of the `grep` tool. */
export function isGrepToolResult<E extends ToolResultEventLike>(
  event: E,
): event is BuiltinToolResultEvent<E, "grep"> {
  return event.toolName === "grep";
}

/** Whether the event is a result of the `find` tool. */
export function isFindToolResult<E extends ToolResultEventLike>(
  event: E,
): event is BuiltinToolResultEvent<E, "find"> {
  return event.toolName === "find";
}

/** Whether the event is a result of the `ls` tool. */
export function isLsToolResult<E extends ToolResultEventLike>(
  event: E,
): event is BuiltinToolResultEvent<E, "ls"> {
  return event.toolName === "ls";
}
