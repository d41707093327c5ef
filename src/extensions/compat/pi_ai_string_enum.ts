/**
 * `StringEnum` of pi 1.6.0's pi-ai extension view, built with the host's TypeBox.
 *
 * @module
 */
import { Type } from "npm:typebox@1.4.3";

/** Options of {@link StringEnum}. */
export interface StringEnumOptions {
  description?: string;
  default?: string;
}

/**
 * A string enum schema as `{ type: "string", enum: [...] }` (providers that reject `anyOf`/`const`
 * accept it), typed for TypeBox's `Static`.
 */
export function StringEnum<T extends readonly string[]>(
  values: T,
  options?: StringEnumOptions,
): ReturnType<typeof Type.Unsafe<T[number]>> {
  return Type.Unsafe<T[number]>({
    type: "string",
    enum: values,
    ...(options?.description && { description: options.description }),
    ...(options?.default && { default: options.default }),
  });
}
