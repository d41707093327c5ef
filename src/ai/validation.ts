/**
 * Validation of tool-call arguments against a tool's JSON schema, with the lenient coercions
 * models need ("5" for a number, "true" for a boolean, null for an empty string …), and the
 * error text the model reads back when arguments are wrong.
 *
 * @module
 */
import { Compile } from "npm:typebox@1.4.3/compile";
import { Value } from "npm:typebox@1.4.3/value";
import type { JsonSchema, Tool, ToolCall } from "./types.ts";
import { explainSchemaErrors, formatProblemPath } from "./validation_explain.ts";

type Validator = ReturnType<typeof Compile>;
type Json = Record<string, unknown>;

const validators = new WeakMap<object, Validator>();
const TYPEBOX_KIND = Symbol.for("TypeBox.Kind");

function isRecord(value: unknown): value is Json {
  return typeof value === "object" && value !== null;
}

function validatorFor(schema: JsonSchema): Validator {
  let validator = validators.get(schema);
  if (!validator) {
    // deno-lint-ignore no-explicit-any
    validator = Compile(schema as any);
    validators.set(schema, validator);
  }
  return validator;
}

function schemaTypes(schema: Json): string[] {
  if (typeof schema.type === "string") return [schema.type];
  if (Array.isArray(schema.type)) return schema.type.filter((t): t is string => typeof t === "string");
  return [];
}

function matchesType(value: unknown, type: string): boolean {
  switch (type) {
    case "number":
      return typeof value === "number";
    case "integer":
      return typeof value === "number" && Number.isInteger(value);
    case "boolean":
      return typeof value === "boolean";
    case "string":
      return typeof value === "string";
    case "null":
      return value === null;
    case "array":
      return Array.isArray(value);
    case "object":
      return isRecord(value) && !Array.isArray(value);
    default:
      return false;
  }
}

function coercePrimitive(value: unknown, type: string): unknown {
  switch (type) {
    case "number":
    case "integer": {
      if (value === null) return 0;
      if (typeof value === "string" && value.trim() !== "") {
        const parsed = Number(value);
        if (type === "integer" ? Number.isInteger(parsed) : Number.isFinite(parsed)) return parsed;
      }
      if (typeof value === "boolean") return value ? 1 : 0;
      return value;
    }
    case "boolean":
      if (value === null) return false;
      if (value === "true" || value === 1) return true;
      if (value === "false" || value === 0) return false;
      return value;
    case "string":
      // As pi-schema converts it: the model meant the word.
      if (value === null) return "null";
      if (typeof value === "number" || typeof value === "boolean") return String(value);
      return value;
    case "null":
      return value === "" || value === 0 || value === false ? null : value;
    default:
      return value;
  }
}

function coerceUnion(value: unknown, schemas: unknown[]): unknown {
  for (const schema of schemas) {
    if (!isRecord(schema)) continue;
    const coerced = coerce(structuredClone(value), schema);
    try {
      if (validatorFor(schema).Check(coerced)) return coerced;
    } catch { /* an uncompilable branch never matches */ }
  }
  return value;
}

/** Coerces a value towards a plain JSON schema, in place for objects and arrays. */
function coerce(value: unknown, schema: Json): unknown {
  let next = value;
  if (Array.isArray(schema.allOf)) { for (const s of schema.allOf) if (isRecord(s)) next = coerce(next, s); }
  if (Array.isArray(schema.anyOf)) next = coerceUnion(next, schema.anyOf);
  if (Array.isArray(schema.oneOf)) next = coerceUnion(next, schema.oneOf);
  const types = schemaTypes(schema);
  // A single value where an array belongs is a one-element array.
  if (types.length === 1 && types[0] === "array" && next !== undefined && !Array.isArray(next)) next = [next];
  const matchesMember = types.length > 1 && types.some((t) => matchesType(next, t));
  if (types.length > 0 && !matchesMember) {
    for (const type of types) {
      const candidate = coercePrimitive(next, type);
      if (candidate !== next) {
        next = candidate;
        break;
      }
    }
  }
  if (types.includes("object") && isRecord(next) && !Array.isArray(next)) {
    const props = isRecord(schema.properties) ? schema.properties : undefined;
    if (props) {
      for (const [key, sub] of Object.entries(props)) {
        if (key in next && isRecord(sub)) next[key] = coerce(next[key], sub);
      }
    }
    if (isRecord(schema.additionalProperties)) {
      for (const [key, v] of Object.entries(next)) {
        if (!props || !(key in props)) next[key] = coerce(v, schema.additionalProperties);
      }
    }
  }
  if (types.includes("array") && Array.isArray(next)) {
    const items = schema.items;
    for (let i = 0; i < next.length; i++) {
      const itemSchema = Array.isArray(items) ? items[i] : items;
      if (isRecord(itemSchema)) next[i] = coerce(next[i], itemSchema);
    }
  }
  return next;
}

/**
 * Removes properties set to null that are optional and do not accept null: models send `null`
 * for "not given".
 */
function dropOptionalNulls(value: unknown, schema: Json): unknown {
  if (Array.isArray(value)) {
    const items = schema.items;
    return isRecord(items) && !Array.isArray(items) ? value.map((v) => dropOptionalNulls(v, items)) : value;
  }
  if (!isRecord(value) || !isRecord(schema.properties)) return value;
  const required = new Set(Array.isArray(schema.required) ? schema.required : []);
  const out: Json = {};
  for (const [key, v] of Object.entries(value)) {
    const property = schema.properties[key];
    if (v === null && !required.has(key) && isRecord(property) && !acceptsNull(property)) continue;
    out[key] = isRecord(property) ? dropOptionalNulls(v, property) : v;
  }
  return out;
}

function acceptsNull(schema: Json): boolean {
  try {
    return validatorFor(schema).Check(null);
  } catch {
    return true;
  }
}

/** Finds the tool a call names and validates its arguments; throws when either fails. */
export function validateToolCall(tools: Tool[], toolCall: ToolCall): Record<string, unknown> {
  const tool = tools.find((t) => t.name === toolCall.name);
  if (!tool) throw new Error(`Tool "${toolCall.name}" not found`);
  return validateToolArguments(tool, toolCall);
}

/**
 * Returns the (possibly coerced) arguments of a call, or throws an Error whose message lists
 * every problem and echoes what the model sent, so it can correct itself.
 */
export function validateToolArguments(tool: Tool, toolCall: ToolCall): Record<string, unknown> {
  // A tool's parameters are a JSON Schema object (pi-ai 1.6.0 types them as any object).
  const schema = tool.parameters as JsonSchema;
  const args = dropOptionalNulls(structuredClone(toolCall.arguments), schema) as Json;
  // deno-lint-ignore no-explicit-any
  Value.Convert(tool.parameters as any, args);
  const validator = validatorFor(schema);
  const isTypeBox = Object.getOwnPropertySymbols(tool.parameters).includes(TYPEBOX_KIND);
  if (!isTypeBox) {
    const coerced = coerce(args, schema);
    if (coerced !== args) {
      if (isRecord(coerced)) {
        for (const key of Object.keys(args)) delete args[key];
        Object.assign(args, coerced);
      } else {
        return (validator.Check(coerced) ? coerced : args) as Json;
      }
    }
  }
  if (validator.Check(args)) return args;
  const check = (node: Json, value: unknown) => {
    try {
      return validatorFor(node).Check(value);
    } catch {
      return true; // A sub-schema TypeBox cannot compile alone is not blamed.
    }
  };
  const errors = explainSchemaErrors(tool.parameters as Json, args, check)
    .map((e) => `  - ${formatProblemPath(e.path)}: ${e.message}`)
    .join("\n");
  throw new Error(
    `Validation failed for tool "${toolCall.name}":\n${errors}\n\nReceived arguments:\n${
      JSON.stringify(toolCall.arguments, null, 2)
    }`,
  );
}
