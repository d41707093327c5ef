/**
 * Reading the process environment safely: without `--allow-env` (an embedding SDK user may run pi
 * with fewer permissions) a variable counts as unset instead of throwing.
 *
 * @module
 */

/**
 * The value of environment variable `name`, or undefined when it is unset or cannot be read.
 *
 * @example
 * ```ts
 * const term = readEnv("TERM") ?? "dumb";
 * ```
 */
export function readEnv(name: string): string | undefined {
  try {
    return Deno.env.get(name);
  } catch {
    return undefined;
  }
}
