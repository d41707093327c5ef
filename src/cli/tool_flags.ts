/**
 * `--tools`, `--exclude-tools`, `--no-tools` and `--no-builtin-tools` as pi 1.6.0 reads them
 * (CLI-16): `--tools` is an allowlist of names or `*` patterns, or — when every entry is `+name`
 * or `-name` — a change to the default tools; `--exclude-tools` removes names or patterns from
 * whatever is left. The result is the explicit tool list the session is created with.
 *
 * @module
 */
import { applyToolModifiers, DEFAULT_TOOL_NAMES } from "../config/settings_manager_extras.ts";
import { allToolNames } from "../tools/index.ts";
import { toolNameMatcher } from "../tools/tool_name_matcher.ts";
import { type CliArgs, isToolModifier } from "./args.ts";

export { toolNameMatcher };

/** The tool options for `createAgentSession`. */
export interface ToolSelection {
  /** Only these tools exist; undefined keeps the session's defaults. */
  tools?: string[];
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

/**
 * Resolves the tool flags into the session's tool options; `defaultTools` is the setting's
 * selection, which `+name`/`-name` entries and `--exclude-tools` change.
 */
export function selectTools(args: CliArgs, defaultTools?: readonly string[]): ToolSelection {
  const noTools = args.noTools ? "all" : args.noBuiltinTools ? "builtin" : undefined;
  const defaults = noTools ? [] : defaultTools ?? DEFAULT_TOOL_NAMES;
  let tools: string[] | undefined;
  if (args.tools && args.tools.length > 0 && args.tools.every(isToolModifier)) {
    tools = applyToolModifiers(defaults, args.tools);
  } else if (args.tools) {
    tools = expandPatterns(args.tools);
  }
  if (args.excludeTools && args.excludeTools.length > 0) {
    const excluded = toolNameMatcher(args.excludeTools);
    tools = (tools ?? (noTools === "all" ? [] : [...defaults])).filter((name) => !excluded(name));
  }
  return { ...(tools ? { tools } : {}), ...(noTools ? { noTools } : {}) };
}
