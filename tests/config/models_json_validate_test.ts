/**
 * PROV-06: our models.json schema interpreter must agree with TypeBox (the reference's validator) on every
 * input: same Check result, same errors (keyword, path, message, order, cap). TypeBox is the oracle here and
 * only here.
 */
import { assert, assertEquals } from "../support/assert.ts";
import { Type } from "typebox";
import { Compile } from "typebox/compile";
import { stripJsonComments } from "../../src/config/jsonc.ts";
import modelsSchema from "../../src/config/models_schema.json" with { type: "json" };
import { readModelsJson } from "../../src/config/models_json.ts";
import {
  formatSchemaErrors,
  isModelsConfigShape,
  modelsConfigSchemaErrors,
} from "../../src/config/models_json_validate.ts";

// ---------------------------------------------------------------------------------------------------------------
// Oracle: TypeBox compiling the same schema document pi 1.6.0 publishes (schemas/models.schema.json, structure
// only, as captured into src/config/models_schema.json), exactly as the reference validates models.json.

const oracle = Compile(Type.Unsafe(modelsSchema));

interface Outcome {
  ok: boolean;
  errors: Array<[string, string, string]>;
  formatted: string;
}

function oracleOutcome(value: unknown): Outcome {
  const ok = oracle.Check(value);
  const raw = ok ? [] : [...oracle.Errors(value)];
  return {
    ok,
    errors: raw.map((error) => [error.keyword, error.instancePath, error.message]),
    formatted: formatSchemaErrors(raw),
  };
}

function ourOutcome(value: unknown): Outcome {
  const ok = isModelsConfigShape(value);
  const raw = modelsConfigSchemaErrors(value);
  assertEquals(raw.length === 0, ok, "errors must be empty exactly when the check passes");
  return {
    ok,
    errors: raw.map((error) => [error.keyword, error.instancePath, error.message]),
    formatted: formatSchemaErrors(raw),
  };
}

/** Compares both validators on one document; returns the oracle's outcome for coverage bookkeeping. */
function assertSame(value: unknown, label: string): Outcome {
  const expected = oracleOutcome(value);
  assertEquals(ourOutcome(value), expected, `${label}: ${JSON.stringify(value)?.slice(0, 400)}`);
  return expected;
}

// ---------------------------------------------------------------------------------------------------------------
// A rich valid document touching every field of the schema.

function richConfig(): Record<string, unknown> {
  const routing = {
    allow_fallbacks: true,
    require_parameters: false,
    data_collection: "deny",
    zdr: true,
    enforce_distillable_text: false,
    order: ["a", "b"],
    only: ["a"],
    ignore: ["c"],
    quantizations: ["fp8"],
    sort: { by: "price", partition: null },
    max_price: { prompt: 1, completion: "2", image: 0.5, audio: "0", request: 3 },
    preferred_min_throughput: { p50: 10, p75: 20, p90: 30, p99: 40 },
    preferred_max_latency: 5,
  };
  const completions = {
    supportsStore: true,
    supportsDeveloperRole: false,
    supportsReasoningEffort: true,
    supportsUsageInStreaming: true,
    maxTokensField: "max_tokens",
    requiresToolResultName: false,
    requiresAssistantAfterToolResult: false,
    requiresThinkingAsText: true,
    requiresReasoningContentOnAssistantMessages: false,
    thinkingFormat: "qwen-chat-template",
    cacheControlFormat: "anthropic",
    openRouterRouting: routing,
    vercelGatewayRouting: { only: ["x"], order: ["y", "z"] },
    supportsStrictMode: true,
    supportsLongCacheRetention: false,
    promptCacheKeyMode: "disabled",
    chatTemplateKwargs: { enable_thinking: true, depth: 2, extra: null },
    allowedFallbackModels: [{
      provider: "p",
      model: "m",
      cost: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0 },
    }],
  };
  return {
    $schema: "https://pi.dev/schemas/models.schema.json",
    providers: {
      local: {
        name: "Local",
        baseUrl: "http://localhost:11434/v1",
        apiKey: "KEY",
        api: "openai-completions",
        headers: { "X-A": "a", "X-B": "b" },
        compat: completions,
        authHeader: true,
        oauth: "radius",
        models: [
          {
            id: "m1",
            name: "Model One",
            api: "openai-completions",
            baseUrl: "http://localhost:1/v1",
            reasoning: true,
            thinkingLevelMap: {
              off: null,
              minimal: "min",
              low: "low",
              medium: "med",
              high: "high",
              xhigh: null,
              max: "max",
            },
            input: ["text", "image"],
            cost: {
              input: 1,
              output: 2,
              cacheRead: 0.1,
              cacheWrite: 0.2,
              tiers: [{ inputTokensAbove: 1000, input: 2, output: 4, cacheRead: 0.2, cacheWrite: 0.4 }],
            },
            contextWindow: 128000,
            maxTokens: 4096,
            headers: { "X-M": "m" },
            compat: { sessionAffinityFormat: "openrouter", supportsLongCacheRetention: true },
            inputLimits: {
              maxRequestBytes: 1000,
              images: {
                resize: { maxWidth: 10, maxHeight: 10, maxBytes: 100, jpegQuality: 80 },
                maxPerMessage: 2,
              },
            },
            promptCache: { short: 300, long: 3600 },
            samplingParams: { temperature: 0.5 },
            samplingParamsByThinkingLevel: { off: { top_k: 1 }, max: { top_p: 0.9 } },
          },
          { id: "m2", compat: { supportsEagerToolInputStreaming: true }, input: ["text"] },
        ],
        modelOverrides: {
          "gpt-x": {
            name: "Renamed",
            reasoning: false,
            thinkingLevelMap: { high: "max" },
            input: ["image"],
            cost: { input: 3 },
            contextWindow: 1000,
            maxTokens: 100,
            headers: { "X-O": "o" },
            compat: { openRouterRouting: { sort: "latency", preferred_min_throughput: 7 } },
          },
        },
      },
      anthropic: { baseUrl: "https://proxy.example.com", compat: { supportsLongCacheRetention: true } },
    },
  };
}

// ---------------------------------------------------------------------------------------------------------------

Deno.test("PROV-06 validator matches TypeBox on every models.json fixture", () => {
  const dir = new URL("../fixtures/config/models/", import.meta.url);
  let compared = 0;
  let invalid = 0;
  for (const entry of [...Deno.readDirSync(dir)].sort((a, b) => a.name.localeCompare(b.name))) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(stripJsonComments(Deno.readTextFileSync(new URL(entry.name, dir))));
    } catch {
      continue; // parse_error.json never reaches the validator
    }
    if (!assertSame(parsed, entry.name).ok) invalid++;
    compared++;
  }
  assert(compared >= 15, `compared ${compared} fixtures`);
  // The files pi 1.6.0 rejects with "Invalid models.json schema" (tests/fixtures/config/models_reference.json).
  const reference = JSON.parse(
    Deno.readTextFileSync(new URL("../fixtures/config/models_reference.json", import.meta.url)),
  ) as { errors: Record<string, { configError: string | null }> };
  const schemaInvalid = Object.values(reference.errors)
    .filter((entry) => entry.configError?.startsWith("Invalid models.json schema")).length;
  assertEquals(invalid, schemaInvalid);
  assertEquals(schemaInvalid, 6);
  assertSame(richConfig(), "rich");
  assert(isModelsConfigShape(richConfig()));
});

Deno.test("PROV-06 schema error list for schema_error.json is the reference's", () => {
  const parsed = JSON.parse(
    Deno.readTextFileSync(new URL("../fixtures/config/models/schema_error.json", import.meta.url)),
  );
  assertEquals(
    formatSchemaErrors(modelsConfigSchemaErrors(parsed)),
    [
      "  - providers.x.baseUrl: must be string",
      "  - providers.x.models.0.id: must have required properties id",
      "  - providers.x.models.0.name: must not have fewer than 1 characters",
      "  - providers.y: must be object",
    ].join("\n"),
  );
});

/** Wraps a provider config into a whole document. */
function provider(config: unknown, name = "p"): unknown {
  return { providers: { [name]: config } };
}
function model(fields: Record<string, unknown>): unknown {
  return provider({ baseUrl: "u", apiKey: "k", api: "a", models: [{ id: "m", ...fields }] });
}
function compat(value: unknown): unknown {
  return provider({ compat: value });
}
/**
 * Compat is a union of three objects that all allow extra keys, so a bad `openRouterRouting` alone is accepted by
 * the other two branches. A bad shared key makes every branch fail and surfaces the nested routing errors.
 */
function routing(value: unknown): unknown {
  return compat({ supportsLongCacheRetention: "no", openRouterRouting: value });
}

const TRICKY: Array<[string, unknown]> = [
  // Root level.
  ["root null", null],
  ["root string", "x"],
  ["root number", 1],
  ["root array", []],
  ["root array of objects", [{ providers: {} }]],
  ["empty object", {}],
  ["providers null", { providers: null }],
  ["providers array", { providers: [] }],
  ["providers string", { providers: "x" }],
  ["providers empty", { providers: {} }],
  ["extra root keys", { providers: {}, extra: 1, other: null }],
  ["provider null", provider(null)],
  ["provider array", provider([])],
  ["provider number", provider(3)],
  // Provider fields.
  ["provider empty strings", provider({ name: "", baseUrl: "", apiKey: "", api: "" })],
  ["provider wrong scalars", provider({ name: 1, baseUrl: true, apiKey: null, api: [], authHeader: "yes" })],
  ["headers not object", provider({ headers: ["a"] })],
  ["headers null", provider({ headers: null })],
  ["header values wrong", provider({ headers: { a: 1, b: null, c: "ok", d: {}, e: [] } })],
  ["header key escaping", provider({ headers: { "a/b": 1, "c~d": 2, "~/": 3, "": 4 } })],
  ["header key with newline skipped", provider({ headers: { "a\nb": 1, "c\rd": 2, "e\u2028": 3, ok: 4 } })],
  ["provider key escaping", { providers: { "x/y~z": { baseUrl: 5 }, "": null } }],
  ["provider key with newline skipped", { providers: { "bad\nkey": 42 } }],
  ["numeric-like provider keys order", { providers: { b: 1, "2": 2, a: 3, "1": 4 } }],
  ["__proto__ provider key", JSON.parse('{"providers":{"__proto__":{"baseUrl":1}}}')],
  ["models not array", provider({ models: {} })],
  ["models null", provider({ models: null })],
  ["models mixed array", provider({ models: [null, 1, "x", [], { id: "" }, { id: 5 }, {}] })],
  ["modelOverrides array", provider({ modelOverrides: [] })],
  ["modelOverrides values wrong", provider({ modelOverrides: { a: null, b: [], c: { name: "" } } })],
  // Model fields.
  ["model missing id", provider({ baseUrl: "u", apiKey: "k", api: "a", models: [{ name: "n" }] })],
  ["model id undefined (not JSON, still matched)", model({ id: undefined })],
  ["optional undefined (not JSON, still matched)", model({ name: undefined, cost: undefined })],
  ["model id empty", model({ id: "" })],
  ["model id number", model({ id: 0 })],
  ["model name empty", model({ name: "" })],
  ["model name emoji", model({ name: "\u{1F600}" })],
  ["model api/baseUrl empty", model({ api: "", baseUrl: "" })],
  ["model reasoning string", model({ reasoning: "true" })],
  ["model numbers as strings", model({ contextWindow: "1", maxTokens: "2" })],
  ["model infinite numbers", model({ contextWindow: Infinity, maxTokens: -Infinity })],
  ["model negative zero", model({ contextWindow: -0, maxTokens: 0 })],
  ["input not array", model({ input: "text" })],
  ["input wrong members", model({ input: ["text", "audio", 1, null, "image", ["text"]] })],
  ["input empty", model({ input: [] })],
  ["cost empty", model({ cost: {} })],
  ["cost partial", model({ cost: { input: 1, cacheWrite: 2 } })],
  ["cost wrong types", model({ cost: { input: "1", output: null, cacheRead: [], cacheWrite: {} } })],
  ["cost array", model({ cost: [] })],
  ["override cost partial ok", provider({ modelOverrides: { a: { cost: { input: 1 } } } })],
  ["override cost wrong", provider({ modelOverrides: { a: { cost: { input: "1", output: null } } } })],
  ["thinkingLevelMap wrong", model({ thinkingLevelMap: { off: 1, low: false, high: [], xhigh: null } })],
  ["thinkingLevelMap null", model({ thinkingLevelMap: null })],
  ["thinkingLevelMap string", model({ thinkingLevelMap: "high" })],
  ["model headers wrong", model({ headers: "x" })],
  // Compat unions.
  ["compat null", compat(null)],
  ["compat string", compat("x")],
  ["compat array", compat([])],
  ["compat empty", compat({})],
  ["compat unknown keys", compat({ unknown: 1 })],
  ["compat one wrong bool", compat({ supportsStore: "yes" })],
  ["compat shared key wrong", compat({ supportsLongCacheRetention: 1 })],
  ["compat responses wrong", compat({ sendSessionIdHeader: "x" })],
  ["compat anthropic wrong", compat({ supportsEagerToolInputStreaming: null })],
  ["compat mixed branches", compat({ supportsStore: true, sendSessionIdHeader: true })],
  [
    "compat mixed wrong",
    compat({ supportsStore: 1, sendSessionIdHeader: 2, supportsEagerToolInputStreaming: 3 }),
  ],
  ["maxTokensField wrong literal", compat({ maxTokensField: "max" })],
  ["maxTokensField number", compat({ maxTokensField: 1 })],
  ["thinkingFormat wrong", compat({ thinkingFormat: "OPENAI" })],
  ["thinkingFormat null", compat({ thinkingFormat: null })],
  ["cacheControlFormat wrong", compat({ cacheControlFormat: "openai" })],
  ["cacheControlFormat number", compat({ cacheControlFormat: 7 })],
  ["vercel routing wrong", compat({ vercelGatewayRouting: { only: "x", order: [1, "a", null] } })],
  ["vercel routing null", compat({ vercelGatewayRouting: null })],
  ["model compat deep wrong", model({ compat: { openRouterRouting: { sort: 1 } } })],
  ["override compat wrong", provider({ modelOverrides: { a: { compat: { maxTokensField: "x" } } } })],
  // OpenRouter routing.
  ["routing errors absorbed by other compat branches", compat({ openRouterRouting: { sort: 1, zdr: "x" } })],
  ["routing null", routing(null)],
  ["routing array", routing([])],
  ["routing bools wrong", routing({ allow_fallbacks: 1, require_parameters: "x", zdr: null })],
  ["data_collection wrong", routing({ data_collection: "maybe" })],
  ["data_collection number", routing({ data_collection: 0 })],
  ["routing arrays wrong", routing({ order: "a", only: [1], ignore: [null, "x"], quantizations: {} })],
  ["sort number", routing({ sort: 5 })],
  ["sort null", routing({ sort: null })],
  ["sort object wrong", routing({ sort: { by: 1, partition: 2 } })],
  ["sort partition null ok", routing({ sort: { partition: null } })],
  ["sort array", routing({ sort: ["price"] })],
  [
    "max_price wrong",
    routing({ max_price: { prompt: null, completion: true, image: [], audio: {}, request: 1 } }),
  ],
  ["max_price string", routing({ max_price: "1" })],
  ["throughput string", routing({ preferred_min_throughput: "fast" })],
  ["throughput cutoffs wrong", routing({ preferred_min_throughput: { p50: "1", p99: null } })],
  ["latency null", routing({ preferred_max_latency: null })],
  ["latency infinite", routing({ preferred_max_latency: Infinity })],
  ["latency cutoffs array", routing({ preferred_max_latency: [1] })],
  // Error cap (8) across nesting and unions.
  ["many errors", provider({ name: 1, baseUrl: 2, apiKey: 3, api: 4, headers: 5, compat: 6, authHeader: 7 })],
  [
    "many errors across providers",
    { providers: { a: 1, b: 2, c: 3, d: 4, e: 5, f: 6, g: 7, h: 8, i: 9, j: 10 } },
  ],
  ["cap inside union", compat({ supportsStore: 1, supportsDeveloperRole: 2, supportsReasoningEffort: 3 })],
  [
    "cap mid-union",
    provider({
      name: "",
      baseUrl: "",
      apiKey: "",
      api: "",
      headers: { a: 1, b: 2 },
      compat: { supportsStore: 1, sendSessionIdHeader: 2 },
    }),
  ],
  [
    "cap in routing",
    routing({
      allow_fallbacks: 1,
      require_parameters: 1,
      data_collection: 1,
      zdr: 1,
      enforce_distillable_text: 1,
      order: 1,
      only: 1,
      ignore: 1,
      quantizations: 1,
    }),
  ],
  [
    "many models each wrong",
    provider({ models: Array.from({ length: 12 }, (_, i) => ({ id: i })) }),
  ],
];

Deno.test("PROV-06 validator matches TypeBox on hand-picked tricky documents", () => {
  let capped = 0;
  let unionErrors = 0;
  for (const [label, value] of TRICKY) {
    const outcome = assertSame(value, label);
    if (outcome.errors.length === 8) capped++;
    if (outcome.errors.some(([keyword]) => keyword === "anyOf")) unionErrors++;
  }
  console.log(`tricky: ${TRICKY.length} documents, ${capped} capped, ${unionErrors} with union errors`);
  assert(capped >= 4, `only ${capped} documents hit the 8-error cap`);
  assert(unionErrors >= 15, `only ${unionErrors} documents produced union errors`);
});

// ---------------------------------------------------------------------------------------------------------------
// Seeded mutation fuzzer.

/** mulberry32: small deterministic PRNG so failures reproduce. */
function rng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const KEY_POOL = [
  ..."id name api baseUrl apiKey models compat headers cost input providers extra 0 __proto__".split(" "),
  ..."supportsStore sendSessionIdHeader openRouterRouting sort max_price p50".split(" "),
  "a/b",
  "t~x",
  "line\nbreak",
  "",
];

/** Leaf values: every JSON type, near-miss literals, empty and emoji strings, and numbers JSON can produce. */
const LEAVES: readonly unknown[] = [
  ..."|x|text|image|deny|allow|anthropic|max_tokens|openai|\u{1F600}".split("|"),
  ...[0, -0, -1.5, 128000, Infinity, true, false, null, null],
];

function randomValue(random: () => number, depth = 0): unknown {
  const roll = random();
  if (depth > 1 || roll < 0.75) {
    const index = Math.floor(random() * (LEAVES.length + 4));
    if (index < LEAVES.length) return LEAVES[index];
    return [[], {}, ["text"], { id: "m" }][index - LEAVES.length];
  }
  if (roll < 0.85) return [randomValue(random, depth + 1), randomValue(random, depth + 1)];
  const out: Record<string, unknown> = {};
  const count = 1 + Math.floor(random() * 3);
  for (let i = 0; i < count; i++) {
    setOwn(out, KEY_POOL[Math.floor(random() * KEY_POOL.length)], randomValue(random, depth + 1));
  }
  return out;
}

type Container = Record<string, unknown> | unknown[];

/** Every container in the document with its own keys, so a mutation can target any level. */
function containers(value: unknown, out: Container[] = []): Container[] {
  if (typeof value !== "object" || value === null) return out;
  out.push(value as Container);
  for (const child of Object.values(value)) containers(child, out);
  return out;
}

function setOwn(target: Container, key: string | number, value: unknown): void {
  // defineProperty keeps "__proto__" an ordinary own key, as JSON.parse does.
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

function mutate(doc: unknown, random: () => number): unknown {
  const all = containers(doc);
  const target = all[Math.floor(random() * all.length)];
  const keys = Object.keys(target);
  const action = random();
  if (keys.length > 0 && action < 0.55) {
    const key = keys[Math.floor(random() * keys.length)];
    setOwn(target, Array.isArray(target) ? Number(key) : key, randomValue(random));
  } else if (keys.length > 0 && action < 0.8) {
    const key = keys[Math.floor(random() * keys.length)];
    if (Array.isArray(target)) target.splice(Number(key), 1);
    else delete target[key];
  } else if (Array.isArray(target)) {
    target.push(randomValue(random));
  } else {
    setOwn(target, KEY_POOL[Math.floor(random() * KEY_POOL.length)], randomValue(random));
  }
  return doc;
}

Deno.test("PROV-06 validator matches TypeBox on 4000 seeded random mutations", () => {
  const random = rng(0x5eed_0601);
  let invalid = 0;
  let capped = 0;
  let unions = 0;
  const keywords = new Set<string>();
  for (let i = 0; i < 4000; i++) {
    const doc = richConfig();
    const mutations = 1 + Math.floor(random() * 4);
    for (let m = 0; m < mutations; m++) mutate(doc, random);
    const outcome = assertSame(doc, `mutation #${i}`);
    if (!outcome.ok) invalid++;
    if (outcome.errors.length === 8) capped++;
    if (outcome.errors.some(([keyword]) => keyword === "anyOf")) unions++;
    for (const [keyword] of outcome.errors) keywords.add(keyword);
  }
  console.log(`fuzz: 4000 documents, ${invalid} invalid, ${capped} capped, ${unions} with union errors`);
  // The fuzzer must actually exercise the interesting paths, not just produce valid documents.
  assert(invalid > 1500 && invalid < 3900, `invalid: ${invalid}`);
  assert(capped > 20, `capped: ${capped}`);
  assert(unions > 300, `union failures: ${unions}`);
  assertEquals([...keywords].sort(), [
    "anyOf",
    "const",
    "enum",
    "exclusiveMinimum",
    "maximum",
    "minLength",
    "minimum",
    "required",
    "type",
  ]);
});

Deno.test("PROV-06 readModelsJson reports the TypeBox-formatted list for a broken file", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const doc = {
      providers: {
        x: { baseUrl: "", compat: { supportsLongCacheRetention: 1 }, models: [{ cost: { input: "1" } }] },
        y: [],
      },
    };
    const path = `${dir}/models.json`;
    await Deno.writeTextFile(path, JSON.stringify(doc));
    const result = readModelsJson(path, new Set());
    assertEquals(
      result.error,
      `Invalid models.json schema:\n${oracleOutcome(doc).formatted}\n\nFile: ${path}`,
    );
    assertEquals(
      result.error,
      [
        "Invalid models.json schema:",
        "  - providers.x.baseUrl: must not have fewer than 1 characters",
        "  - providers.x.compat.supportsLongCacheRetention: must be boolean",
        "  - providers.x.models.0.id: must have required properties id",
        "  - providers.x.models.0.cost.output: must have required properties output, cacheRead, cacheWrite",
        "  - providers.x.models.0.cost.input: must be number",
        "  - providers.y: must be object",
        "",
        `File: ${path}`,
      ].join("\n"),
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("PROV-06 models_json.ts no longer pulls typebox into the module graph", async () => {
  const root = new URL("../../", import.meta.url).pathname;
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", "src/config/models_json.ts"],
    cwd: root,
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert(output.success, new TextDecoder().decode(output.stderr));
  const graph = JSON.parse(new TextDecoder().decode(output.stdout)) as {
    modules: Array<{ specifier: string }>;
  };
  const specifiers = graph.modules.map((module) => module.specifier);
  assert(specifiers.some((specifier) => specifier.endsWith("/src/config/models_json_validate.ts")));
  assertEquals(specifiers.filter((specifier) => /typebox/i.test(specifier)), []);
});
