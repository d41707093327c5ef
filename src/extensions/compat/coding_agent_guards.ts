/**
 * 1.6.0 pi-coding-agent's guards for `tool_result` events: whether an event is the result of one
 * of the built-in tools, by tool name.
 *
 * @module
 */

/** A `tool_result` event, as far as the guards look at it. */
export interface ToolResultEventLike {
  /** The tool that ran. */
  toolName: string;
}

/** Whether the event is a result of the `bash` tool. */
export function isBashToolResult(event: ToolResultEventLike): boolean {
  return event.toolName === "bash";
}

/** Whether the event is a result of the `powershell` tool. */
export function isPowerShellToolResult(event: ToolResultEventLike): boolean {
  return event.toolName === "powershell";
}

/** Whether the event is a result of the `read` tool. */
export function isReadToolResult(event: ToolResultEventLike): boolean {
  return event.toolName === "read";
}

/** Whether the event is a result of the `edit` tool. */
export function isEditToolResult(event: ToolResultEventLike): boolean {
  return event.toolName === "edit";
}

/** Whether the event is a result of the `write` tool. */
export function isWriteToolResult(event: ToolResultEventLike): boolean {
  return event.toolName === "write";
}

/** Whether the event is a result of the `grep` tool. */
export function isGrepToolResult(event: ToolResultEventLike): boolean {
  return event.toolName === "grep";
}

/** Whether the event is a result of the `find` tool. */
export function isFindToolResult(event: ToolResultEventLike): boolean {
  return event.toolName === "find";
}

/** Whether the event is a result of the `ls` tool. */
export function isLsToolResult(event: ToolResultEventLike): boolean {
  return event.toolName === "ls";
}
