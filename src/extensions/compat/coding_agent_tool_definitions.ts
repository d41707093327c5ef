/**
 * 1.6.0 pi-coding-agent's `create*ToolDefinition()` factories for extensions: the complete
 * definitions of the built-in tools (name, description, prompt snippet and guidelines, schemas,
 * `execute`), for registering a tool under a built-in name with some parts replaced. Our tool
 * factories already return that shape, so these are they. The definitions carry no `renderCall` /
 * `renderResult` (optional in 1.6.0's `ToolDefinition`): pi draws a tool registered under a
 * built-in name with the built-in look.
 *
 * @module
 */
import { createBashTool } from "../../tools/bash.ts";
import { createEditTool } from "../../tools/edit.ts";
import { createFindTool } from "../../tools/find.ts";
import { createGrepTool } from "../../tools/grep.ts";
import { createLsTool } from "../../tools/ls.ts";
import { createReadTool } from "../../tools/read.ts";
import { createWriteTool } from "../../tools/write.ts";

/** The `read` tool's definition for `cwd`. */
export const createReadToolDefinition: typeof createReadTool = createReadTool;
/** The `bash` tool's definition for `cwd`. */
export const createBashToolDefinition: typeof createBashTool = createBashTool;
/** The `edit` tool's definition for `cwd`. */
export const createEditToolDefinition: typeof createEditTool = createEditTool;
/** The `write` tool's definition for `cwd`. */
export const createWriteToolDefinition: typeof createWriteTool = createWriteTool;
/** The `find` tool's definition for `cwd`. */
export const createFindToolDefinition: typeof createFindTool = createFindTool;
/** The `grep` tool's definition for `cwd`. */
export const createGrepToolDefinition: typeof createGrepTool = createGrepTool;
/** The `ls` tool's definition for `cwd`. */
export const createLsToolDefinition: typeof createLsTool = createLsTool;
