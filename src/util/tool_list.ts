/**
 * Tool lists as `--tools`, the SDK's `tools` option and the `defaultTools` setting read them: either
 * names and `*` patterns (an allow-list), or only `+name`/`-name` entries that change the default
 * selection (pi 1.6.0).
 *
 * @module
 */

/** A `+name` or `-name` entry of a tool list: it changes the default tools instead of replacing them. */
export function isToolModifier(entry: string): boolean {
  return entry.startsWith("+") || entry.startsWith("-");
}

/**
 * Why a tool list (`--tools`, the SDK's `tools`) is invalid: it is either names and patterns or
 * only `+name`/`-name` entries with exact names. Undefined when it is valid.
 */
export function toolListError(entries: readonly string[]): string | undefined {
  const modifiers = entries.filter(isToolModifier);
  if (modifiers.length === 0) return undefined;
  if (modifiers.length < entries.length) return "tool names cannot be mixed with +name or -name entries";
  const pattern = modifiers.find((entry) => entry.includes("*"));
  return pattern ? `+name and -name entries take exact tool names, not patterns: ${pattern}` : undefined;
}

/** Applies `+name` / `-name` entries to `base` in order. */
export function applyToolModifiers(base: readonly string[], entries: readonly string[]): string[] {
  const tools = [...base];
  for (const entry of entries) {
    if (!isToolModifier(entry)) continue;
    const name = entry.slice(1);
    const index = tools.indexOf(name);
    if (entry.startsWith("+") && index === -1 && name) tools.push(name);
    else if (entry.startsWith("-") && index !== -1) tools.splice(index, 1);
  }
  return tools;
}
