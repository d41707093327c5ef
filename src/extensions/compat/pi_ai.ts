/**
 * `@earendil-works/pi-ai` as extensions see it (1.6.0's "extension view"): our LLM layer plus
 * TypeBox's `Type` (the host's copy) and `StringEnum`.
 *
 * @module
 */
import { Type } from "npm:typebox@1.4.3";

export * from "../../ai/mod.ts";
export { Type };

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
