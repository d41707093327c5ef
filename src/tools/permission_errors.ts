/**
 * Turns an operation Deno's permissions refused into the tool error the model reads, e.g.
 * `permission denied: write /etc/hosts outside the project (sandbox profile "project")`, so a
 * confined run goes on instead of failing with Deno's "run again with --allow-write" advice.
 *
 * @module
 */
import type { AgentTool } from "../agent/types.ts";
import { resolveToCwd } from "./path_utils.ts";
import { getToolSandbox } from "./sandbox_state.ts";

const DENIED = /Requires (\w+) access to "(.*)", run again with the --allow-\w+ flag/;

/**
 * The model-facing text for a permission Deno refused, or undefined for any other error. Deno's
 * own refusals are `NotCapable` (a `PermissionDenied` with the same text in older releases);
 * the operating system's refusals keep their message.
 */
export function permissionDeniedText(error: unknown, file?: string): string | undefined {
  if (!(error instanceof Deno.errors.NotCapable) && !(error instanceof Deno.errors.PermissionDenied)) {
    return undefined;
  }
  const match = DENIED.exec(error.message);
  if (!match) return undefined;
  const [, kind, denied] = match;
  // Creating a missing parent folder is what Deno refuses first; the model asked for the file.
  const target = file !== undefined && file.startsWith(`${denied}/`) ? file : denied;
  const sandbox = getToolSandbox();
  const profile = sandbox ? `sandbox profile "${sandbox.profile}"` : "not granted to this pi process";
  switch (kind) {
    case "write":
      return sandbox?.profile === "read-only"
        ? `permission denied: write ${target} (${profile} writes no files)`
        : `permission denied: write ${target} outside the project (${profile})`;
    case "read":
      return `permission denied: read ${target} outside the project (${profile})`;
    case "net":
      return `permission denied: network access to ${target}, not a provider host or in sandbox.allowNet (${profile})`;
    case "run":
      return `permission denied: run ${target} (${profile})`;
    default:
      return `permission denied: ${kind} access to ${target} (${profile})`;
  }
}

/**
 * ls, find and grep test a path with an `exists` that answers false for a refused read too; their
 * "Path not found: X" for a path this process may not read is a refusal, said as such.
 */
function unreadablePathText(error: unknown): string | undefined {
  const sandbox = getToolSandbox();
  if (!sandbox || !(error instanceof Error) || !error.message.startsWith("Path not found: ")) {
    return undefined;
  }
  const path = error.message.slice("Path not found: ".length);
  if (Deno.permissions.querySync({ name: "read", path }).state === "granted") return undefined;
  return `permission denied: read ${path} outside the project (sandbox profile "${sandbox.profile}")`;
}

/**
 * `tool` with Deno's permission refusals rethrown as {@link permissionDeniedText}; a `path`
 * argument is resolved against `cwd` to name the file.
 */
// deno-lint-ignore no-explicit-any
export function withPermissionErrors<T extends AgentTool<any, any>>(tool: T, cwd: string): T {
  const execute = tool.execute;
  return {
    ...tool,
    async execute(...args: Parameters<T["execute"]>) {
      try {
        return await execute.apply(tool, args);
      } catch (error) {
        const path = (args[1] as { path?: unknown } | undefined)?.path;
        const file = typeof path === "string" ? resolveToCwd(path, cwd) : undefined;
        const text = permissionDeniedText(error, file) ?? unreadablePathText(error);
        if (text === undefined) throw error;
        throw new Error(text);
      }
    },
  };
}
