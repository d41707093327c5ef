/**
 * Variable references of a theme file: a colour value may name a variable of `vars`, which may
 * name another, down to a colour. Shared by everything that reads theme colours (the interactive
 * theme, the HTML export), with pi 1.6.0's errors.
 *
 * @module
 */
import type { ThemeColorValue } from "./theme_schema.ts";

/**
 * Follows variable references (chains included) to a colour value: a hex, `oklch()`/`okhsl()`,
 * `""` or palette number is returned as it is. A missing or circular reference throws 1.6.0's
 * `Variable reference not found: x` / `Circular variable reference detected: x`.
 */
export function resolveThemeVar(
  value: ThemeColorValue,
  vars: Readonly<Record<string, ThemeColorValue>>,
): ThemeColorValue {
  const seen = new Set<string>();
  let current = value;
  while (
    typeof current === "string" && current !== "" && !current.startsWith("#") &&
    !/^ok(lch|hsl)\(/i.test(current)
  ) {
    if (seen.has(current)) throw new Error(`Circular variable reference detected: ${current}`);
    if (!Object.hasOwn(vars, current)) throw new Error(`Variable reference not found: ${current}`);
    seen.add(current);
    current = vars[current];
  }
  return current;
}
