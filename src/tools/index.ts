/**
 * Tool set factories: the built-in tools grouped the way the reference SDK groups them
 * (`createCodingTools`, `createReadOnlyTools`, `createAllTools`) plus per-name creation.
 *
 * @module
 */
import type { ToolDeclarations } from "./tool_metadata.ts";
import type { AgentTool } from "../agent/types.ts";
import { type BashToolOptions, createBashTool } from "./bash.ts";
import { createEditTool, type EditToolOptions } from "./edit.ts";
import { createFindTool, type FindToolOptions } from "./find.ts";
import { createGrepTool, type GrepToolOptions } from "./grep.ts";
import { createLsTool, type LsToolOptions } from "./ls.ts";
import { createReadTool, type ReadToolOptions } from "./read.ts";
import { createWriteTool, type WriteToolOptions } from "./write.ts";
import { withPermissionErrors } from "./permission_errors.ts";

/** Names of the built-in tools. */
export type ToolName = "read" | "bash" | "edit" | "write" | "grep" | "find" | "ls";

/** Every built-in tool name, in the reference's order (used to validate `--tools`). */
export const allToolNames: ReadonlySet<ToolName> = new Set<ToolName>([
  "read",
  "bash",
  "edit",
  "write",
  "grep",
  "find",
  "ls",
]);

/** Per-tool options, keyed by tool name. */
export interface ToolsOptions {
  /** Options of the read tool. */
  read?: ReadToolOptions;
  /** Options of the bash tool (e.g. `sessionEnvironment`). */
  bash?: BashToolOptions;
  /** Options of the write tool. */
  write?: WriteToolOptions;
  /** Options of the edit tool. */
  edit?: EditToolOptions;
  /** Options of the grep tool. */
  grep?: GrepToolOptions;
  /** Options of the find tool. */
  find?: FindToolOptions;
  /** Options of the ls tool. */
  ls?: LsToolOptions;
}

/**
 * A built-in tool: an AgentTool plus the prompt metadata the system prompt uses and the
 * declarations providers read (`outputSchema`, `constrainedSampling`).
 */
export type BuiltinTool =
  // deno-lint-ignore no-explicit-any
  & AgentTool<any, any>
  & { promptSnippet: string; promptGuidelines?: string[] }
  & ToolDeclarations;

/**
 * Creates one built-in tool by name; unknown names throw `Unknown tool name: X`. An operation
 * Deno's permissions refuse (a `--sandbox` profile) fails with a plain "permission denied: …" text.
 */
export function createTool(toolName: ToolName, cwd: string, options?: ToolsOptions): BuiltinTool {
  return withPermissionErrors(createBuiltinTool(toolName, cwd, options), cwd);
}

function createBuiltinTool(toolName: ToolName, cwd: string, options?: ToolsOptions): BuiltinTool {
  switch (toolName) {
    case "read":
      return createReadTool(cwd, options?.read);
    case "bash":
      return createBashTool(cwd, options?.bash);
    case "edit":
      return createEditTool(cwd, options?.edit);
    case "write":
      return createWriteTool(cwd, options?.write);
    case "grep":
      return createGrepTool(cwd, options?.grep);
    case "find":
      return createFindTool(cwd, options?.find);
    case "ls":
      return createLsTool(cwd, options?.ls);
    default:
      throw new Error(`Unknown tool name: ${toolName as string}`);
  }
}

/**
 * The default coding set: read, bash, edit, write.
 *
 * @example
 * ```ts
 * import { createCodingTools, createReadOnlyTools } from "@pi-deno/coding-agent";
 *
 * const coding = createCodingTools(Deno.cwd(), { bash: { commandPrefix: "set -e" } });
 * console.log(coding.map((tool) => tool.name)); // ["read", "bash", "edit", "write"]
 * const readOnly = createReadOnlyTools(Deno.cwd());
 * console.log(readOnly.map((tool) => tool.name));
 * ```
 */
export function createCodingTools(cwd: string, options?: ToolsOptions): BuiltinTool[] {
  return (["read", "bash", "edit", "write"] as const).map((name) => createTool(name, cwd, options));
}

/** Exploration without side effects: read, grep, find, ls. */
export function createReadOnlyTools(cwd: string, options?: ToolsOptions): BuiltinTool[] {
  return (["read", "grep", "find", "ls"] as const).map((name) => createTool(name, cwd, options));
}

/** Every built-in tool, keyed by name. */
export function createAllTools(cwd: string, options?: ToolsOptions): Record<ToolName, BuiltinTool> {
  const out = {} as Record<ToolName, BuiltinTool>;
  for (const name of allToolNames) out[name] = createTool(name, cwd, options);
  return out;
}
