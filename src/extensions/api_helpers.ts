/**
 * Small helpers pi 1.6.0 exports for extension authors.
 *
 * @module
 */

/** Returns the tool definition unchanged; it exists so TypeScript infers the parameter types. */
export function defineTool<T>(tool: T): T {
  return tool;
}

/** Narrows a `tool_call` event to one tool's input type by name. */
export function isToolCallEventType(toolName: string, event: { toolName: string }): boolean {
  return event.toolName === toolName;
}
