/**
 * Hand-written structural validator for models.json. It replaces a TypeBox-compiled schema so that start-up does
 * not pay for loading TypeBox, and it reproduces TypeBox 1.4.3's error list exactly (keywords, messages,
 * instance paths, order, and the cap of 8 errors), because users see that list verbatim.
 *
 * Only the constructs the models.json schema needs are supported: strings (minLength), finite numbers,
 * booleans, null, string literals (TypeBox emits `type: "string"` plus `const`, so both can fail), objects with
 * required/optional properties (extra keys allowed), string-keyed records, arrays, and unions (anyOf).
 *
 * @module
 */

/** One schema violation, shaped like TypeBox's error objects so existing formatting carries over. */
export interface SchemaError {
  keyword: "type" | "required" | "minLength" | "const" | "anyOf";
  /** JSON pointer into the document ("" for the root), keys escaped as `~0` / `~1`. */
  instancePath: string;
  params: Record<string, unknown>;
  /** TypeBox's en_US message for the keyword. */
  message: string;
}

type SchemaNode =
  | { readonly kind: "string"; readonly minLength?: number }
  | { readonly kind: "number" }
  | { readonly kind: "boolean" }
  | { readonly kind: "null" }
  | { readonly kind: "literal"; readonly value: string }
  | { readonly kind: "array"; readonly items: SchemaNode }
  | { readonly kind: "record"; readonly values: SchemaNode }
  | {
    readonly kind: "object";
    readonly properties: ReadonlyArray<readonly [string, SchemaNode]>;
    readonly required: readonly string[];
  }
  | { readonly kind: "union"; readonly anyOf: readonly SchemaNode[] };

// TypeBox's default `maxErrors` setting; errors past this are dropped.
const MAX_ERRORS = 8;
// A record's key pattern `^.*$` is compiled with the `u` flag, so keys containing line terminators do not match
// and their values go unchecked. Kept as the same regular expression to inherit that quirk exactly.
const RECORD_KEY = /^.*$/u;

function isObjectNotArray(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function pointerSegment(key: string): string {
  return key.replace(/~/g, "~0").replace(/\//g, "~1");
}

function codePointCount(value: string): number {
  let count = 0;
  for (const _ of value) count++;
  return count;
}

/** Records an error (if there is room) and returns false so callers can `return fail(...)`. */
function fail(
  sink: SchemaError[] | undefined,
  keyword: SchemaError["keyword"],
  instancePath: string,
  params: Record<string, unknown>,
  message: string,
): false {
  if (sink && sink.length < MAX_ERRORS) sink.push({ keyword, instancePath, params, message });
  return false;
}

/**
 * Validates `value` against `node`. Without a sink it is a pure check that stops at the first problem; with a
 * sink it walks everything the way TypeBox's error pass does and appends errors in the same order.
 */
function visit(node: SchemaNode, value: unknown, path: string, sink?: SchemaError[]): boolean {
  if (sink && sink.length >= MAX_ERRORS) return false;
  switch (node.kind) {
    case "string":
      if (typeof value !== "string") return fail(sink, "type", path, { type: "string" }, "must be string");
      if (node.minLength !== undefined && codePointCount(value) < node.minLength) {
        return fail(
          sink,
          "minLength",
          path,
          { limit: node.minLength },
          `must not have fewer than ${node.minLength} characters`,
        );
      }
      return true;
    case "number":
      return Number.isFinite(value) || fail(sink, "type", path, { type: "number" }, "must be number");
    case "boolean":
      return typeof value === "boolean" || fail(sink, "type", path, { type: "boolean" }, "must be boolean");
    case "null":
      return value === null || fail(sink, "type", path, { type: "null" }, "must be null");
    case "literal": {
      // Type and const are separate keywords: a non-string reports both.
      let ok = true;
      if (typeof value !== "string") {
        ok = fail(sink, "type", path, { type: "string" }, "must be string");
        if (!sink) return false;
      }
      if (value !== node.value) {
        ok = fail(sink, "const", path, { allowedValue: node.value }, "must be equal to constant");
      }
      return ok;
    }
    case "array": {
      if (!Array.isArray(value)) return fail(sink, "type", path, { type: "array" }, "must be array");
      let ok = true;
      for (let index = 0; index < value.length; index++) {
        if (!visit(node.items, value[index], `${path}/${index}`, sink)) {
          ok = false;
          if (!sink) return false;
        }
      }
      return ok;
    }
    case "record": {
      if (!isObjectNotArray(value)) return fail(sink, "type", path, { type: "object" }, "must be object");
      let ok = true;
      for (const [key, entry] of Object.entries(value)) {
        if (!RECORD_KEY.test(key)) continue;
        if (!visit(node.values, entry, `${path}/${pointerSegment(key)}`, sink)) {
          ok = false;
          if (!sink) return false;
        }
      }
      return ok;
    }
    case "object": {
      if (!isObjectNotArray(value)) return fail(sink, "type", path, { type: "object" }, "must be object");
      let ok = true;
      const missing = node.required.filter((key) => !(key in value));
      if (missing.length > 0) {
        ok = fail(
          sink,
          "required",
          path,
          { requiredProperties: missing },
          `must have required properties ${missing.join(", ")}`,
        );
        if (!sink) return false;
      }
      for (const [key, child] of node.properties) {
        if (!(key in value)) continue;
        // TypeBox treats an optional property set to undefined as absent, but checks a required one.
        const entry = value[key];
        if (entry === undefined && !node.required.includes(key)) continue;
        if (!visit(child, entry, `${path}/${pointerSegment(key)}`, sink)) {
          ok = false;
          if (!sink) return false;
        }
      }
      return ok;
    }
    case "union": {
      if (node.anyOf.some((branch) => visit(branch, value, path))) return true;
      if (!sink) return false;
      // Every branch failed: its errors come first, branch by branch, then the union's own error.
      for (const branch of node.anyOf) visit(branch, value, path, sink);
      return fail(sink, "anyOf", path, {}, "must match a schema in anyOf");
    }
  }
}

// ---------------------------------------------------------------------------------------------------------------
// The models.json schema. Property order matters: it is the order errors are reported in.

const STRING: SchemaNode = { kind: "string" };
const NON_EMPTY: SchemaNode = { kind: "string", minLength: 1 };
const NUMBER: SchemaNode = { kind: "number" };
const BOOLEAN: SchemaNode = { kind: "boolean" };
const NULL: SchemaNode = { kind: "null" };

function literals(...values: string[]): SchemaNode {
  const nodes: SchemaNode[] = values.map((value) => ({ kind: "literal", value }));
  return nodes.length === 1 ? nodes[0] : { kind: "union", anyOf: nodes };
}
function union(...anyOf: SchemaNode[]): SchemaNode {
  return { kind: "union", anyOf };
}
function array(items: SchemaNode): SchemaNode {
  return { kind: "array", items };
}
function record(values: SchemaNode): SchemaNode {
  return { kind: "record", values };
}
/** An object schema; `required` lists the non-optional keys (all others are optional). */
function object(properties: Record<string, SchemaNode>, required: readonly string[] = []): SchemaNode {
  return { kind: "object", properties: Object.entries(properties), required };
}

function buildModelsConfigSchema(): SchemaNode {
  const percentileCutoffs = object({ p50: NUMBER, p75: NUMBER, p90: NUMBER, p99: NUMBER });
  const numberOrString = union(NUMBER, STRING);
  const openRouterRouting = object({
    allow_fallbacks: BOOLEAN,
    require_parameters: BOOLEAN,
    data_collection: literals("deny", "allow"),
    zdr: BOOLEAN,
    enforce_distillable_text: BOOLEAN,
    order: array(STRING),
    only: array(STRING),
    ignore: array(STRING),
    quantizations: array(STRING),
    sort: union(STRING, object({ by: STRING, partition: union(STRING, NULL) })),
    max_price: object({
      prompt: numberOrString,
      completion: numberOrString,
      image: numberOrString,
      audio: numberOrString,
      request: numberOrString,
    }),
    preferred_min_throughput: union(NUMBER, percentileCutoffs),
    preferred_max_latency: union(NUMBER, percentileCutoffs),
  });
  const vercelGatewayRouting = object({ only: array(STRING), order: array(STRING) });
  const levelValue = union(STRING, NULL);
  const thinkingLevelMap = object({
    off: levelValue,
    minimal: levelValue,
    low: levelValue,
    medium: levelValue,
    high: levelValue,
    xhigh: levelValue,
  });
  const openAICompletionsCompat = object({
    supportsStore: BOOLEAN,
    supportsDeveloperRole: BOOLEAN,
    supportsReasoningEffort: BOOLEAN,
    supportsUsageInStreaming: BOOLEAN,
    maxTokensField: literals("max_completion_tokens", "max_tokens"),
    requiresToolResultName: BOOLEAN,
    requiresAssistantAfterToolResult: BOOLEAN,
    requiresThinkingAsText: BOOLEAN,
    requiresReasoningContentOnAssistantMessages: BOOLEAN,
    thinkingFormat: literals("openai", "openrouter", "deepseek", "zai", "qwen", "qwen-chat-template"),
    cacheControlFormat: literals("anthropic"),
    openRouterRouting,
    vercelGatewayRouting,
    supportsStrictMode: BOOLEAN,
    supportsLongCacheRetention: BOOLEAN,
  });
  const openAIResponsesCompat = object({ sendSessionIdHeader: BOOLEAN, supportsLongCacheRetention: BOOLEAN });
  const anthropicMessagesCompat = object({
    supportsEagerToolInputStreaming: BOOLEAN,
    supportsLongCacheRetention: BOOLEAN,
  });
  const compat = union(openAICompletionsCompat, openAIResponsesCompat, anthropicMessagesCompat);
  const input = array(literals("text", "image"));
  const headers = record(STRING);
  const modelDefinition = object({
    id: NON_EMPTY,
    name: NON_EMPTY,
    api: NON_EMPTY,
    baseUrl: NON_EMPTY,
    reasoning: BOOLEAN,
    thinkingLevelMap,
    input,
    cost: object(
      { input: NUMBER, output: NUMBER, cacheRead: NUMBER, cacheWrite: NUMBER },
      ["input", "output", "cacheRead", "cacheWrite"],
    ),
    contextWindow: NUMBER,
    maxTokens: NUMBER,
    headers,
    compat,
  }, ["id"]);
  const modelOverride = object({
    name: NON_EMPTY,
    reasoning: BOOLEAN,
    thinkingLevelMap,
    input,
    cost: object({ input: NUMBER, output: NUMBER, cacheRead: NUMBER, cacheWrite: NUMBER }),
    contextWindow: NUMBER,
    maxTokens: NUMBER,
    headers,
    compat,
  });
  const providerConfig = object({
    name: NON_EMPTY,
    baseUrl: NON_EMPTY,
    apiKey: NON_EMPTY,
    api: NON_EMPTY,
    headers,
    compat,
    authHeader: BOOLEAN,
    models: array(modelDefinition),
    modelOverrides: record(modelOverride),
  });
  return object({ providers: record(providerConfig) }, ["providers"]);
}

let modelsConfigSchema: SchemaNode | undefined;
function schema(): SchemaNode {
  modelsConfigSchema ??= buildModelsConfigSchema();
  return modelsConfigSchema;
}

/** True when `value` (parsed JSON) has the structure models.json requires; semantic rules are checked elsewhere. */
export function isModelsConfigShape(value: unknown): boolean {
  return visit(schema(), value, "");
}

/** The schema errors for `value`, at most 8, in TypeBox's order; empty when the structure is valid. */
export function modelsConfigSchemaErrors(value: unknown): SchemaError[] {
  const errors: SchemaError[] = [];
  if (visit(schema(), value, "")) return errors;
  visit(schema(), value, "", errors);
  return errors;
}

/** The fields of an error that the user-facing list uses; TypeBox's error objects fit it too. */
export interface SchemaErrorLike {
  keyword: string;
  instancePath: string;
  params: unknown;
  message: string;
}

/** Where an error points, as the user sees it: dotted path, with the missing key appended for `required`. */
function displayPath(error: SchemaErrorLike): string {
  const path = error.instancePath.replace(/^\//, "").replace(/\//g, ".");
  if (error.keyword === "required") {
    const missing = (error.params as { requiredProperties?: string[] }).requiredProperties?.[0];
    if (missing) return path ? `${path}.${missing}` : missing;
  }
  return path || "root";
}

/**
 * Formats errors as the bullet list shown after "Invalid models.json schema:". Accepts TypeBox's error objects
 * too, which is how the tests compare the two validators.
 */
export function formatSchemaErrors(errors: readonly SchemaErrorLike[]): string {
  return errors.map((error) => `  - ${displayPath(error)}: ${error.message}`).join("\n") ||
    "Unknown schema error";
}
