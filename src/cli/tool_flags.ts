/**
 * `--tools`, `--exclude-tools`, `--no-tools` and `--no-builtin-tools` as pi 1.6.0 reads them
 * (CLI-16): `--tools` is an allowlist of names or `*` patterns, or — when every entry is `+name`
 * or `-name` — a change to the default tools; `--exclude-tools` removes names or patterns from
 * whatever is left. The result is the explicit tool list the session is created with.
 *
 * @module
 */
import { allToolNames } from "../tools/index.ts";
import { toolNameMatcher } from "../tools/tool_name_matcher.ts";
import { type CliArgs, isToolModifier } from "./args.ts";

export { toolNameMatcher };

/** The tools a session starts with when no flag says otherwise. */
export const DEFAULT_TOOL_NAMES: readonly string[] = ["read", "bash", "edit", "write"];

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

/** Applies `+name` / `-name` entries, in order, to `base`. */
function applyToolModifiers(base: readonly string[], entries: readonly string[]): string[] {
  const tools = [...base];
  for (const entry of entries) {
    const name = entry.slice(1);
    const index = tools.indexOf(name);
    if (entry.startsWith("+") && index === -1 && name) tools.push(name);
    else if (entry.startsWith("-") && index !== -1) tools.splice(index, 1);
  }
  return tools;
}

/** Resolves the tool flags into the session's tool options. */
export function selectTools(args: CliArgs): ToolSelection {
  const noTools = args.noTools ? "all" : args.noBuiltinTools ? "builtin" : undefined;
  const defaults = noTools ? [] : DEFAULT_TOOL_NAMES;
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
