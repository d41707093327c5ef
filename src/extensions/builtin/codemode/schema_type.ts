/**
 * JSON schemas as TypeScript type expressions, the way pi 1.6.0 shows tools to scripts
 * (`ALL_TOOLS`, `describeTool()`, the `codemode` description): objects on one line with properties
 * sorted by name, or one property per line with `//` comments when a property has a description or
 * a constraint the type cannot say (`// @integer @minimum 1 @default 20`); `Array<T>`, tuples,
 * unions, intersections, literals; local `$ref`s followed (at most 32 times; recursive ones are
 * `unknown`).
 *
 * @module
 */
import { resolveLocalRef } from "../tool_search/ranker.ts";

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
const INDENT = "  ";
/** Local `$ref` expansions per rendered schema, so shared definitions cannot blow up the output. */
const MAX_REF_EXPANSIONS = 32;
/** Keywords shown as `@keyword value` tags. */
const TAG_KEYWORDS = [
  "minimum",
  "exclusiveMinimum",
  "maximum",
  "exclusiveMaximum",
  "multipleOf",
  "minLength",
  "maxLength",
  "pattern",
  "format",
  "minItems",
  "maxItems",
];
/** Bounds that all hold at once: only the largest lower or smallest upper one matters. */
const LOWER_BOUNDS = new Set(["minimum", "exclusiveMinimum", "minLength", "minItems"]);
const UPPER_BOUNDS = new Set(["maximum", "exclusiveMaximum", "maxLength", "maxItems"]);
/** Longest tag kept (large defaults, long patterns are left out). */
const MAX_TAG_CHARS = 80;
const LINE_TERMINATORS = /[\r\n\u2028\u2029]/g;

type Schema = Record<string, unknown>;

interface RenderContext {
  root: unknown;
  resolving: Set<string>;
  expansions: number;
  tags: boolean;
}

function isRecord(value: unknown): value is Schema {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * `schema` as a TypeScript type. A result longer than `maxChars` is rendered again without the
 * constraint tags, and is `unknown` when still too long.
 */
export function schemaToType(schema: unknown, options: { maxChars?: number } = {}): string {
  const render = (tags: boolean) =>
    toType(schema, { root: schema, resolving: new Set(), expansions: 0, tags });
  const type = render(true);
  if (options.maxChars === undefined || type.length <= options.maxChars) return type;
  const untagged = render(false);
  return untagged.length <= options.maxChars ? untagged : "unknown";
}

function union(types: string[]): string {
  const unique = [...new Set(types)];
  if (unique.includes("unknown")) return "unknown";
  return unique.length === 0 ? "never" : unique.join(" | ");
}

function toType(schema: unknown, context: RenderContext): string {
  if (schema === true) return "unknown";
  if (schema === false) return "never";
  if (!isRecord(schema)) return "unknown";
  if (typeof schema.$ref === "string") {
    const ref = schema.$ref;
    if (context.resolving.has(ref) || context.expansions >= MAX_REF_EXPANSIONS) return "unknown";
    const target = resolveLocalRef(ref, context.root);
    if (target === undefined) return "unknown";
    context.expansions++;
    context.resolving.add(ref);
    try {
      return toType(target, context);
    } finally {
      context.resolving.delete(ref);
    }
  }
  if ("const" in schema) return JSON.stringify(schema.const) ?? "unknown";
  if (Array.isArray(schema.enum)) {
    return union(schema.enum.map((value) => JSON.stringify(value) ?? "unknown"));
  }
  const variants = Array.isArray(schema.anyOf)
    ? schema.anyOf
    : Array.isArray(schema.oneOf)
    ? schema.oneOf
    : undefined;
  if (variants) return union(variants.map((variant) => toType(variant, context)));
  if (Array.isArray(schema.allOf)) {
    const parts = schema.allOf.map((part) => toType(part, context)).filter((part) => part !== "unknown");
    return parts.length === 0
      ? "unknown"
      : parts.map((part) => part.includes(" | ") ? `(${part})` : part).join(" & ");
  }
  const type = schema.type;
  if (Array.isArray(type)) return union(type.map((entry) => toType({ ...schema, type: entry }, context)));
  switch (type) {
    case "string":
      return "string";
    case "number":
    case "integer":
      return "number";
    case "boolean":
      return "boolean";
    case "null":
      return "null";
    case "array":
      return arrayType(schema, context);
    case "object":
      return objectType(schema, context);
    case undefined:
      if ("properties" in schema || "additionalProperties" in schema || "required" in schema) {
        return objectType(schema, context);
      }
      if ("items" in schema || "prefixItems" in schema) return arrayType(schema, context);
      return "unknown";
    default:
      return "unknown";
  }
}

function arrayType(schema: Schema, context: RenderContext): string {
  if (schema.items !== undefined && !Array.isArray(schema.items)) {
    return `Array<${toType(schema.items, context)}>`;
  }
  const tuple = Array.isArray(schema.prefixItems)
    ? schema.prefixItems
    : Array.isArray(schema.items)
    ? schema.items
    : [];
  if (tuple.length > 0) return `[${tuple.map((item) => toType(item, context)).join(", ")}]`;
  return "unknown[]";
}

function descriptionOf(property: unknown): string {
  return isRecord(property) && typeof property.description === "string" ? property.description.trim() : "";
}

/** What a property's type cannot say, as tags: `@integer @minimum 1 @maximum 100 @default 20`. */
function constraintTags(property: unknown): string {
  if (!isRecord(property)) return "";
  // `int | None` keeps its constraints in the non-null branch; both apply.
  const variants = Array.isArray(property.anyOf) ? property.anyOf : property.oneOf;
  const nonNull = Array.isArray(variants) ? variants.filter((variant) => variant?.type !== "null") : [];
  const branch = nonNull.length === 1 ? nonNull[0] : undefined;
  const branches: Schema[] = isRecord(branch) ? [property, branch] : [property];
  // Draft-04 and OpenAPI 3.0 mark exclusive bounds with a boolean.
  const schemas: Schema[] = branches.map((one) => ({
    ...one,
    ...(one.exclusiveMinimum === true ? { minimum: undefined, exclusiveMinimum: one.minimum } : {}),
    ...(one.exclusiveMaximum === true ? { maximum: undefined, exclusiveMaximum: one.maximum } : {}),
  }));
  const tags: string[] = [];
  const isInteger = (type: unknown) =>
    type === "integer" || (Array.isArray(type) && type.includes("integer"));
  if (schemas.some((one) => isInteger(one.type))) tags.push("@integer");
  for (const keyword of TAG_KEYWORDS) {
    const values = schemas.map((one) => (one as Schema)[keyword]);
    if (LOWER_BOUNDS.has(keyword) || UPPER_BOUNDS.has(keyword)) {
      const numbers = values.filter((value): value is number => typeof value === "number");
      if (numbers.length === 0) continue;
      tags.push(`@${keyword} ${LOWER_BOUNDS.has(keyword) ? Math.max(...numbers) : Math.min(...numbers)}`);
      continue;
    }
    for (const value of new Set(values)) {
      if (typeof value === "number" || typeof value === "string") tags.push(`@${keyword} ${value}`);
    }
  }
  if (schemas.some((one) => one.uniqueItems === true)) tags.push("@uniqueItems");
  if (property.default !== undefined && property.default !== null) {
    tags.push(`@default ${JSON.stringify(property.default)}`);
  }
  if (property.deprecated === true) tags.push("@deprecated");
  return tags
    .filter((tag) => tag.length <= MAX_TAG_CHARS)
    .map((tag) =>
      tag.replace(LINE_TERMINATORS, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`)
    )
    .join(" ");
}

function objectType(schema: Schema, context: RenderContext): string {
  const properties = isRecord(schema.properties) ? schema.properties : {};
  const required = new Set(Array.isArray(schema.required) ? schema.required : []);
  const names = Object.keys(properties).sort();
  const members = names.map((name) =>
    `${IDENTIFIER.test(name) ? name : JSON.stringify(name)}${required.has(name) ? "" : "?"}: ${
      toType(properties[name], context)
    };`
  );
  const additional = schema.additionalProperties;
  if (additional !== undefined && additional !== false) {
    members.push(`[key: string]: ${additional === true ? "unknown" : toType(additional, context)};`);
  } else if (additional === undefined && names.length === 0) {
    members.push("[key: string]: unknown;");
  }
  if (members.length === 0) return "{}";
  const comments = names.map((name) => {
    const lines = descriptionOf(properties[name]).split(LINE_TERMINATORS).map((line) => line.trim()).filter(
      Boolean,
    );
    const tags = context.tags ? constraintTags(properties[name]) : "";
    return tags ? [...lines, tags] : lines;
  });
  if (!comments.some((comment) => comment.length > 0)) return `{ ${members.join(" ")} }`;
  const lines = ["{"];
  comments.forEach((comment, index) => {
    for (const line of comment) lines.push(`${INDENT}// ${line}`);
    lines.push(`${INDENT}${members[index].replaceAll("\n", `\n${INDENT}`)}`);
  });
  for (const member of members.slice(names.length)) lines.push(`${INDENT}${member}`);
  lines.push("}");
  return lines.join("\n");
}
