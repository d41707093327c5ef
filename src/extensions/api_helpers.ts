/**
 * Small helpers pi 1.6.0 exports for extension authors.
 *
 * @module
 */
import type { BashToolInput } from "../tools/bash.ts";
import type { EditToolInput } from "../tools/edit.ts";
import type { FindToolInput } from "../tools/find.ts";
import type { GrepToolInput } from "../tools/grep.ts";
import type { LsToolInput } from "../tools/ls.ts";
import type { ReadToolInput } from "../tools/read.ts";
import type { WriteToolInput } from "../tools/write.ts";

/** Returns the tool definition unchanged; it exists so TypeScript infers the parameter types. */
export function defineTool<T>(tool: T): T {
  return tool;
}

/** The input of each built-in tool (`powershell` takes bash's). */
export interface BuiltinToolInputs {
  /** `bash`. */
  bash: BashToolInput;
  /** `powershell`. */
  powershell: BashToolInput;
  /** `read`. */
  read: ReadToolInput;
  /** `edit`. */
  edit: EditToolInput;
  /** `write`. */
  write: WriteToolInput;
  /** `grep`. */
  grep: GrepToolInput;
  /** `find`. */
  find: FindToolInput;
  /** `ls`. */
  ls: LsToolInput;
}

/**
 * Narrows a `tool_call` event to one tool's input type by name: a built-in tool's own input, or
 * `TInput` for another tool (`isToolCallEventType<"my_tool", MyInput>("my_tool", event)`).
 */
export function isToolCallEventType<
  TName extends string,
  TInput = TName extends keyof BuiltinToolInputs ? BuiltinToolInputs[TName] : Record<string, unknown>,
  E extends { toolName: string } = { toolName: string },
>(toolName: TName, event: E): event is E & { toolName: TName; input: TInput } {
  return event.toolName === toolName;
}
