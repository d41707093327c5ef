/**
 * Why a value fails a JSON schema, in the words pi 1.5+ (pi-schema) uses for tool arguments:
 * one `{path, message}` per problem, `missing` for a required property, `expected number, got
 * string` for a wrong type, `unknown field` for a property `additionalProperties: false`
 * forbids. The model reads these lines and corrects its call.
 *
 * @module
 */

/** One problem: where (a JSON pointer) and what. */
export interface SchemaProblem {
  path: string;
  message: string;
}

type Json = Record<string, unknown>;

/** Tells whether `value` passes the schema `node` (a compiled validator in practice). */
export type SchemaCheck = (node: Json, value: unknown) => boolean;

function isSchema(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isPlainObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value) &&
    !(value instanceof Uint8Array);
}

/** The value's kind as the messages name it (`integer` for whole numbers). */
function typeName(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "array";
  if (v instanceof Uint8Array) return "bytes";
  if (typeof v === "number" && Number.isInteger(v)) return "integer";
  if (typeof v === "number" && !Number.isFinite(v)) return String(v);
  return typeof v;
}

function hasType(v: unknown, type: string): boolean {
  switch (type) {
    case "string":
      return typeof v === "string";
    case "number":
      return typeof v === "number";
    case "integer":
      return typeof v === "number" && Number.isInteger(v);
    case "boolean":
      return typeof v === "boolean";
    case "null":
      return v === null;
    case "array":
      return Array.isArray(v);
    case "object":
      return isPlainObject(v);
    default:
      return false;
  }
}

/** At most 10 allowed values as JSON, then how many more there are. */
function listValues(values: unknown[]): string {
  const LISTED = 10;
  if (values.length <= LISTED) return JSON.stringify(values);
  const listed = JSON.stringify(values.slice(0, LISTED));
  return `${listed.slice(0, -1)}, ... and ${values.length - LISTED} more]`;
}

function pointer(path: string, key: string | number): string {
  return `${path}/${String(key).replace(/~/g, "~0").replace(/\//g, "~1")}`;
}

function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** Explains failures of one schema; `check` decides whether a sub-schema passes. */
export function explainSchemaErrors(schema: Json, value: unknown, check: SchemaCheck): SchemaProblem[] {
  const out: SchemaProblem[] = [];
  walk(schema, value, "", out, check);
  if (out.length === 0) out.push({ path: "", message: "invalid" });
  return out;
}

function walk(node: unknown, v: unknown, path: string, out: SchemaProblem[], check: SchemaCheck): void {
  if (node === true) return;
  if (node === false) {
    out.push({ path, message: "no value is allowed here" });
    return;
  }
  if (!isSchema(node) || check(node, v)) return;
  const push = (message: string, at = path) => out.push({ path: at, message });
  if (node.type !== undefined) {
    const types = (Array.isArray(node.type) ? node.type : [node.type]).map(String);
    if (!types.some((t) => hasType(v, t))) {
      push(`expected ${types.join(" or ")}, got ${typeName(v)}`);
      return;
    }
  }
  if (Array.isArray(node.enum) && !node.enum.some((e) => sameJson(e, v))) {
    push(`expected one of ${listValues(node.enum)}`);
  }
  if (Object.hasOwn(node, "const") && !sameJson(node.const, v)) {
    push(`expected ${JSON.stringify(node.const)}`);
  }
  if (typeof v === "string") walkString(node, v, push);
  if (typeof v === "number") walkNumber(node, v, push);
  if (isPlainObject(v)) walkObject(node, v, path, out, push, check);
  if (Array.isArray(v)) walkArray(node, v, path, out, push, check);
  if (Array.isArray(node.allOf)) { for (const s of node.allOf) walk(s, v, path, out, check); }
  if (Array.isArray(node.anyOf)) walkUnion(node.anyOf, v, path, out, false, check);
  if (Array.isArray(node.oneOf)) walkUnion(node.oneOf, v, path, out, true, check);
  if (isSchema(node.not) && check(node.not, v)) push("must not match the schema in not");
}

function walkString(node: Json, v: string, push: (message: string) => void): void {
  const length = [...v].length;
  if (typeof node.minLength === "number" && length < node.minLength) {
    push(`expected at least ${node.minLength} characters`);
  }
  if (typeof node.maxLength === "number" && length > node.maxLength) {
    push(`expected at most ${node.maxLength} characters`);
  }
  if (typeof node.pattern === "string" && !new RegExp(node.pattern, "u").test(v)) {
    push(`expected to match ${node.pattern}`);
  }
}

function walkNumber(node: Json, v: number, push: (message: string) => void): void {
  const { minimum, maximum, exclusiveMinimum, exclusiveMaximum, multipleOf } = node;
  if (typeof minimum === "number" && v < minimum) push(`expected >= ${minimum}`);
  if (typeof maximum === "number" && v > maximum) push(`expected <= ${maximum}`);
  if (typeof exclusiveMinimum === "number" && v <= exclusiveMinimum) push(`expected > ${exclusiveMinimum}`);
  if (typeof exclusiveMaximum === "number" && v >= exclusiveMaximum) push(`expected < ${exclusiveMaximum}`);
  if (typeof multipleOf === "number" && !Number.isInteger(v / multipleOf)) {
    push(`expected a multiple of ${multipleOf}`);
  }
}

function walkObject(
  node: Json,
  v: Json,
  path: string,
  out: SchemaProblem[],
  push: (message: string, at?: string) => void,
  check: SchemaCheck,
): void {
  const properties = isSchema(node.properties) ? node.properties : {};
  const required = Array.isArray(node.required) ? node.required : [];
  for (const key of required) {
    if (typeof key !== "string") continue;
    if (!Object.hasOwn(v, key) || v[key] === undefined) push("missing", pointer(path, key));
  }
  for (const key of Object.keys(properties)) {
    if (Object.hasOwn(v, key) && v[key] !== undefined) {
      walk(properties[key], v[key], pointer(path, key), out, check);
    }
  }
  const patterns = isSchema(node.patternProperties) ? Object.entries(node.patternProperties) : [];
  for (const key of Object.keys(v)) {
    let matched = Object.hasOwn(properties, key);
    for (const [pattern, s] of patterns) {
      if (new RegExp(pattern, "u").test(key)) {
        matched = true;
        walk(s, v[key], pointer(path, key), out, check);
      }
    }
    if (!matched && node.additionalProperties !== undefined) {
      if (node.additionalProperties === false) push("unknown field", pointer(path, key));
      else walk(node.additionalProperties, v[key], pointer(path, key), out, check);
    }
  }
  const count = Object.keys(v).length;
  if (typeof node.minProperties === "number" && count < node.minProperties) {
    push(`expected at least ${node.minProperties} properties`);
  }
  if (typeof node.maxProperties === "number" && count > node.maxProperties) {
    push(`expected at most ${node.maxProperties} properties`);
  }
}

function walkArray(
  node: Json,
  v: unknown[],
  path: string,
  out: SchemaProblem[],
  push: (message: string) => void,
  check: SchemaCheck,
): void {
  const prefix = Array.isArray(node.items)
    ? node.items
    : Array.isArray(node.prefixItems)
    ? node.prefixItems
    : [];
  const rest = Array.isArray(node.items) ? node.additionalItems : node.items;
  for (let i = 0; i < v.length; i++) {
    const s = i < prefix.length ? prefix[i] : rest;
    if (s !== undefined) walk(s, v[i], `${path}/${i}`, out, check);
  }
  if (typeof node.minItems === "number" && v.length < node.minItems) {
    push(`expected at least ${node.minItems} items`);
  }
  if (typeof node.maxItems === "number" && v.length > node.maxItems) {
    push(`expected at most ${node.maxItems} items`);
  }
  if (node.uniqueItems === true && new Set(v.map((x) => JSON.stringify(x))).size !== v.length) {
    push("expected unique items");
  }
}

/** A failed union is blamed on the branch that declares most of an object's keys, else the deepest error. */
function walkUnion(
  branches: unknown[],
  v: unknown,
  path: string,
  out: SchemaProblem[],
  exactlyOne: boolean,
  check: SchemaCheck,
): void {
  const matches = branches.filter((s) => isSchema(s) ? check(s, v) : s === true).length;
  if (matches === 1 || (!exactlyOne && matches > 0)) return;
  if (matches > 1) {
    out.push({ path, message: "matches more than one alternative" });
    return;
  }
  let best: { errors: SchemaProblem[]; declared: number } | undefined;
  for (const s of branches) {
    const errors: SchemaProblem[] = [];
    walk(s, v, path, errors, check);
    if (errors.length === 0) continue;
    const props = isSchema(s) && isSchema(s.properties) ? s.properties : {};
    const declared = isPlainObject(v) ? Object.keys(v).filter((k) => Object.hasOwn(props, k)).length : 0;
    const better = best === undefined || declared > best.declared ||
      (declared === best.declared && errors[0].path.length > best.errors[0].path.length);
    if (better) best = { errors, declared };
  }
  out.push(...(best?.errors ?? [{ path, message: "matches no alternative" }]));
}

/** A JSON pointer as the dotted path the model sees: `/edits/0/oldText` → `edits.0.oldText`. */
export function formatProblemPath(pointerPath: string): string {
  if (pointerPath === "") return "root";
  return pointerPath.slice(1).split("/").map((s) => s.replace(/~1/g, "/").replace(/~0/g, "~")).join(".");
}
