/**
 * A cheap check of tool-call arguments that answers only when the answer is sure: the arguments
 * already fit a simple, plain JSON schema exactly (the built-in tools' kind: objects of strings,
 * numbers, integers and booleans, arrays of those), so {@link validateToolArguments} would neither
 * convert nor coerce anything and would return an equal copy. Anything else (a wrong or missing
 * value, a null, an unknown key, any other schema keyword, TypeBox schemas) is left to the full
 * validator, which keeps its conversions and exact error texts. The full validator loads TypeBox and
 * compiles a check per schema on first use; this spares a tool call that needs neither.
 *
 * @module
 */
import type { JsonSchema } from "./types.ts";

type Json = Record<string, unknown>;

/** Schema keywords this check understands; a node with any other key is left to the full validator. */
const OBJECT_KEYS = new Set(["type", "description", "properties", "required"]);
const ARRAY_KEYS = new Set(["type", "description", "items"]);
const SCALAR_KEYS = new Set(["type", "description"]);

function isPlainObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Only string keys of the allowed set, and no symbols (TypeBox marks its schemas with symbols). */
function hasOnlyKeys(schema: Json, allowed: ReadonlySet<string>): boolean {
  if (Object.getOwnPropertySymbols(schema).length > 0) return false;
  for (const key of Object.keys(schema)) if (!allowed.has(key)) return false;
  return true;
}

/** A copy of `value` when it fits `schema` exactly, else undefined. */
function fit(value: unknown, schema: unknown): unknown {
  if (!isPlainObject(schema)) return undefined;
  switch (schema.type) {
    case "string":
      return hasOnlyKeys(schema, SCALAR_KEYS) && typeof value === "string" ? value : undefined;
    case "number":
      return hasOnlyKeys(schema, SCALAR_KEYS) && Number.isFinite(value) ? value : undefined;
    case "integer":
      return hasOnlyKeys(schema, SCALAR_KEYS) && Number.isInteger(value) ? value : undefined;
    case "boolean":
      return hasOnlyKeys(schema, SCALAR_KEYS) && typeof value === "boolean" ? value : undefined;
    case "array": {
      if (!hasOnlyKeys(schema, ARRAY_KEYS) || !Array.isArray(value)) return undefined;
      const out: unknown[] = [];
      for (const item of value) {
        const copy = fit(item, schema.items);
        if (copy === undefined) return undefined;
        out.push(copy);
      }
      return out;
    }
    case "object":
      return fitObject(value, schema);
    default:
      return undefined;
  }
}

function fitObject(value: unknown, schema: Json): Json | undefined {
  if (schema.type !== "object" || !hasOnlyKeys(schema, OBJECT_KEYS) || !isPlainObject(value)) {
    return undefined;
  }
  const properties = schema.properties;
  if (!isPlainObject(properties) || Object.getOwnPropertySymbols(properties).length > 0) return undefined;
  const required = schema.required ?? [];
  if (!Array.isArray(required)) return undefined;
  for (const key of required) if (typeof key !== "string" || !Object.hasOwn(value, key)) return undefined;
  if (Object.getOwnPropertySymbols(value).length > 0) return undefined;
  const out: Json = {};
  for (const [key, item] of Object.entries(value)) {
    if (!Object.hasOwn(properties, key)) return undefined;
    const copy = fit(item, properties[key]);
    if (copy === undefined) return undefined;
    out[key] = copy;
  }
  return out;
}

/**
 * The arguments as the full validator would return them (a copy), when they surely pass a simple
 * plain schema unchanged; undefined when only the full validator can tell.
 */
export function quickValidatedArguments(
  parameters: JsonSchema,
  args: unknown,
): Record<string, unknown> | undefined {
  return isPlainObject(parameters) ? fitObject(args, parameters) : undefined;
}
