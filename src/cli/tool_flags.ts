/**
 * `--tools`, `--exclude-tools`, `--no-tools` and `--no-builtin-tools` as pi 1.6.0 reads them
 * (CLI-16): `--tools` is an allowlist of names or `*` patterns, or — when every entry is `+name`
 * or `-name` — a change to the default tools that leaves the others available (and applies on top
 * of a resumed session's tools); `--exclude-tools` removes names or patterns from whatever exists.
 * The session (`createAgentSession`) applies them, as 1.6.0's does.
 *
 * @module
 */
import { allToolNames } from "../tools/index.ts";
import { toolNameMatcher } from "../tools/tool_name_matcher.ts";
import { isToolModifier } from "../util/tool_list.ts";
import type { CliArgs } from "./args.ts";

export { toolNameMatcher };

/** The tool options for `createAgentSession`. */
export interface ToolSelection {
  /** Tool names (an allow-list), or `+name`/`-name` entries; undefined keeps the defaults. */
  tools?: string[];
  /** Names or `*` patterns of tools that do not exist in the session. */
  excludeTools?: string[];
  noTools?: "all" | "builtin";
}

/** Expands `*` patterns against the built-in names; other entries stay as given (extension tools). */
function expandPatterns(entries: readonly string[]): string[] {
  const out: string[] = [];
  for (const entry of entries) {
    const names = entry.includes("*") ? [...allToolNames].filter(toolNameMatcher([entry])) : [entry];
    for (const name of names) if (!out.includes(name)) out.push(name);
  }
  return out;
}

/** Translates the tool flags into the session's tool options. */
export function selectTools(args: CliArgs): ToolSelection {
  const noTools = args.noTools ? "all" : args.noBuiltinTools ? "builtin" : undefined;
  const tools = args.tools
    ? args.tools.length > 0 && args.tools.every(isToolModifier) ? [...args.tools] : expandPatterns(args.tools)
    : undefined;
  const excludeTools = args.excludeTools && args.excludeTools.length > 0 ? [...args.excludeTools] : undefined;
  return {
    ...(tools ? { tools } : {}),
    ...(excludeTools ? { excludeTools } : {}),
    ...(noTools ? { noTools } : {}),
  };
}
