/**
 * Tool names and `*` patterns, as `--tools`, `--exclude-tools` and the SDK's `tools` and
 * `excludeTools` options take them (pi 1.6.0).
 *
 * @module
 */

/** A matcher for tool names and `*` patterns (`*` is any run of characters). */
export function toolNameMatcher(patterns: readonly string[]): (name: string) => boolean {
  const regexes = patterns.map((p) =>
    new RegExp(`^${p.split("*").map((part) => part.replace(/[.+?^${}()|[\]\\]/g, "\\$&")).join(".*")}$`)
  );
  return (name) => regexes.some((r) => r.test(name));
}
