/**
 * Strict (schema-constrained) tool arguments, as pi-ai 1.6.0 sends them: a tool that asks for
 * `constrainedSampling: { type: "json_schema", strict: "prefer" }` (read, bash, edit, write) is
 * declared strict to a model whose compat says the server supports it, with its schema rewritten
 * to the subset strict mode accepts — every property required (optional ones may be null) and no
 * additional properties. A schema that cannot be made strict falls back to non-strict for
 * `prefer`, and is an error for `require`.
 *
 * @module
 */
import type { JsonSchema, Tool } from "../types.ts";

/** A schema keyword (with its value) that a provider's strict mode rejects. */
export type UnsupportedKeyword = (key: string, value: unknown) => boolean;

/** Why a schema cannot be made strict. */
class NotStrictCompatible extends Error {}

/** Keywords no provider's strict mode takes. */
const UNSUPPORTED_KEYS = [
  "$ref",
  "$defs",
  "definitions",
  "allOf",
  "oneOf",
  "patternProperties",
  "dependentSchemas",
  "dependencies",
  "unevaluatedProperties",
  "propertyNames",
  "contains",
  "prefixItems",
  "not",
  "if",
  "then",
  "else",
];

function isSchemaObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function typesOf(schema: Record<string, unknown>): unknown[] {
  return typeof schema.type === "string" ? [schema.type] : Array.isArray(schema.type) ? schema.type : [];
}

/** An object or array schema (strict mode takes no unions of those). */
function isStructured(schema: unknown): boolean {
  if (!isSchemaObject(schema)) return false;
  const types = typesOf(schema);
  return types.includes("object") || types.includes("array") || schema.properties !== undefined ||
    schema.items !== undefined;
}

function allowsNull(schema: unknown): boolean {
  if (!isSchemaObject(schema)) return false;
  if (typesOf(schema).includes("null")) return true;
  if (schema.const === null || (Array.isArray(schema.enum) && schema.enum.includes(null))) return true;
  return Array.isArray(schema.anyOf) && schema.anyOf.some(allowsNull);
}

/** Rewrites one node in place; throws {@link NotStrictCompatible} for what strict mode cannot express. */
function makeNodeStrict(schema: unknown, unsupported?: UnsupportedKeyword): void {
  if (!isSchemaObject(schema)) throw new NotStrictCompatible("boolean schemas are unsupported");
  for (const key of UNSUPPORTED_KEYS) {
    if (schema[key] !== undefined) throw new NotStrictCompatible(`${key} schemas are unsupported`);
  }
  if (unsupported) {
    for (const [key, value] of Object.entries(schema)) {
      if (unsupported(key, value)) {
        throw new NotStrictCompatible(`${key}: ${JSON.stringify(value)} is unsupported`);
      }
    }
  }
  // A node needs a type; an enum counts as one, a bare const does not.
  if (schema.type === undefined && schema.anyOf === undefined && schema.enum === undefined) {
    throw new NotStrictCompatible("schemas without a type are unsupported");
  }
  if (schema.anyOf !== undefined) {
    if (!Array.isArray(schema.anyOf) || schema.anyOf.length === 0) {
      throw new NotStrictCompatible("anyOf must contain at least one schema");
    }
    for (const variant of schema.anyOf) {
      if (isStructured(variant)) throw new NotStrictCompatible("object and array unions are unsupported");
      makeNodeStrict(variant, unsupported);
    }
  }
  if (schema.items !== undefined) {
    if (Array.isArray(schema.items)) throw new NotStrictCompatible("tuple schemas are unsupported");
    makeNodeStrict(schema.items, unsupported);
  }
  const isObject = schema.type === "object";
  if (schema.properties !== undefined && !isObject) {
    throw new NotStrictCompatible("properties require type object");
  }
  if (!isObject) return;
  if (schema.additionalProperties !== undefined && schema.additionalProperties !== false) {
    throw new NotStrictCompatible("schema-valued or true additionalProperties is unsupported");
  }
  if (schema.properties !== undefined && !isSchemaObject(schema.properties)) {
    throw new NotStrictCompatible("object properties must be a schema map");
  }
  if (
    schema.required !== undefined &&
    (!Array.isArray(schema.required) || schema.required.some((key) => typeof key !== "string"))
  ) {
    throw new NotStrictCompatible("object required must be a string array");
  }
  const properties = (schema.properties ?? {}) as Record<string, unknown>;
  const names = Object.keys(properties);
  const required = new Set(Array.isArray(schema.required) ? schema.required as string[] : []);
  if ([...required].some((key) => !names.includes(key))) {
    throw new NotStrictCompatible("required contains an unknown property");
  }
  for (const [key, property] of Object.entries(properties)) {
    makeNodeStrict(property, unsupported);
    // Strict mode requires every property; an optional one says so by accepting null.
    if (!required.has(key) && !allowsNull(property)) {
      properties[key] = { anyOf: [property, { type: "null" }] };
    }
  }
  schema.required = names;
  schema.additionalProperties = false;
}

/** The strict form of a tool schema (a copy); throws when the schema cannot be made strict. */
export function makeStrictJsonSchema(schema: JsonSchema, unsupported?: UnsupportedKeyword): JsonSchema {
  const copy: unknown = structuredClone(schema);
  if (!isSchemaObject(copy)) throw new NotStrictCompatible("root schema must have type object");
  makeNodeStrict(copy, unsupported);
  if (copy.type !== "object") throw new NotStrictCompatible("root schema must have type object");
  return copy;
}

/**
 * Whether `tool` is sent strict: true when it asks for JSON-schema sampling, the server supports
 * strict tools and its schema can be made strict; undefined otherwise (the tool did not ask, or
 * it prefers strict and cannot have it). A tool that requires strict sampling and cannot have it
 * is an error naming the tool.
 */
export function resolveStrictTool(
  tool: Tool,
  supportsStrict: boolean,
  unsupported?: UnsupportedKeyword,
): true | undefined {
  const config = tool.constrainedSampling;
  if (!config || config.type !== "json_schema") return undefined;
  if (supportsStrict) {
    try {
      makeStrictJsonSchema(tool.parameters as JsonSchema, unsupported);
      return true;
    } catch (error) {
      if (!(error instanceof NotStrictCompatible)) throw error;
      if (config.strict !== "require") return undefined;
      throw new Error(
        `Tool "${tool.name}" requires JSON-schema constrained sampling, but ${error.message}.`,
      );
    }
  }
  if (config.strict === "require") {
    throw new Error(
      `Tool "${tool.name}" requires JSON-schema constrained sampling, but strict tools are unsupported.`,
    );
  }
  return undefined;
}

/** Whether the tool asks for JSON-schema constrained sampling only where the provider has it ("prefer"). */
export function prefersStrictArguments(tool: Pick<Tool, "constrainedSampling"> | undefined): boolean {
  const config = tool?.constrainedSampling;
  return !!config && config.type === "json_schema" && config.strict === "prefer";
}

/** The schema to declare: the strict form when the tool is sent strict. */
export function toolParameters(tool: Tool, strict: boolean | undefined): JsonSchema {
  // A tool's parameters are a JSON Schema object (pi-ai 1.6.0 types them as any object).
  const schema = tool.parameters as JsonSchema;
  return strict === true ? makeStrictJsonSchema(schema) : schema;
}

/**
 * What Claude answers (HTTP 400) when a request's strict tools exceed its limits (about 20 strict
 * tools, 16 optional or union-typed parameters across them); pi 1.6.0 then resends the request with
 * the tools that only prefer strict arguments non-strict.
 */
const STRICT_TOOL_LIMIT_MESSAGES = [
  "The compiled grammar is too large",
  "Too many strict tools (",
  "Schemas contains too many parameters with union types (",
];

/** Whether a provider error says the request's strict tools exceed the provider's limits. */
export function isStrictToolLimitError(message: string): boolean {
  return STRICT_TOOL_LIMIT_MESSAGES.some((text) => message.includes(text));
}

/**
 * Sessions whose strict tools were refused for exceeding the limits: their later requests send
 * `prefer` tools non-strict at once (the tool set rarely changes, and switching back would only be
 * refused again and miss the prompt cache). Bounded, oldest first out.
 */
const sessionsOverStrictLimits = new Set<string>();
const MAX_SESSIONS_OVER_STRICT_LIMITS = 10_000;

/** Remembers that `sessionId`'s strict tools exceeded the limits (nothing without a session). */
export function markStrictToolLimitsExceeded(sessionId: string | undefined): void {
  if (sessionId === undefined) return;
  sessionsOverStrictLimits.add(sessionId);
  if (sessionsOverStrictLimits.size > MAX_SESSIONS_OVER_STRICT_LIMITS) {
    const oldest = sessionsOverStrictLimits.values().next().value;
    if (oldest !== undefined) sessionsOverStrictLimits.delete(oldest);
  }
}

/** Whether an earlier request of `sessionId` had its strict tools refused for the limits. */
export function hasExceededStrictToolLimits(sessionId: string | undefined): boolean {
  return sessionId !== undefined && sessionsOverStrictLimits.has(sessionId);
}
