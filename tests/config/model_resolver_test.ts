/**
 * Model resolution against pi 1.6.0 (tests/fixtures/config/resolver_reference.json): `--model`/`--provider`
 * (CLI-15), scopes (CLI-16), exact references and the initial model (PROV-10). The capture uses a fixed model
 * list stored in the fixture, so the built-in catalog cannot change the cases.
 */
import { assertEquals } from "../support/assert.ts";
import type { ModelRegistry } from "../../src/config/model_registry.ts";
import {
  findExactModelReferenceMatch,
  findInitialModel,
  resolveCliModel,
  resolveModelScopeWithDiagnostics,
  restoreModelFromSession,
} from "../../src/config/model_resolver.ts";
import type { Model, ModelThinkingLevel } from "../../src/ai/types.ts";

const reference = JSON.parse(
  Deno.readTextFileSync(new URL("../fixtures/config/resolver_reference.json", import.meta.url)),
);
const MODELS = reference.models as Model[];

const ref = (m: Model | undefined) => m ? `${m.provider}/${m.id}` : null;

/** A registry over the fixture's models; `configured` providers have credentials. */
function fakeRegistry(configured: readonly string[]): ModelRegistry {
  const available = MODELS.filter((m) => configured.includes(m.provider));
  const fake = {
    getAll: () => [...MODELS],
    getAvailable: () => [...available],
    find: (provider: string, id: string) => MODELS.find((m) => m.provider === provider && m.id === id),
    hasConfiguredAuth: (model: Model) => configured.includes(model.provider),
  };
  return fake as unknown as ModelRegistry;
}

const registry = fakeRegistry(reference.configured);

Deno.test("CLI-15 resolveCliModel matches 1.6.0: references, fuzzy, :level, ambiguity, custom ids", () => {
  const actual = reference.cli.map((c: { provider: string | null; model: string }) => {
    const r = resolveCliModel({
      cliProvider: c.provider ?? undefined,
      cliModel: c.model,
      modelRegistry: registry,
    });
    return {
      provider: c.provider,
      model: c.model,
      result: ref(r.model),
      name: r.model?.name ?? null,
      thinking: r.thinkingLevel ?? null,
      warning: r.warning ?? null,
      error: r.error ?? null,
    };
  });
  assertEquals(actual, reference.cli);
  const inline = reference.cliInlineKey.map((c: { provider: string | null; model: string }) => {
    const r = resolveCliModel({
      cliProvider: c.provider ?? undefined,
      cliModel: c.model,
      inlineApiKey: true,
      modelRegistry: fakeRegistry([]),
    });
    return {
      provider: c.provider,
      model: c.model,
      result: ref(r.model),
      error: r.error ?? null,
      warning: r.warning ?? null,
    };
  });
  assertEquals(inline, reference.cliInlineKey);
});

Deno.test("CLI-15 several providers and none authenticated: an error that lists them", () => {
  const r = resolveCliModel({ cliModel: "gpt-6.2-sol", modelRegistry: fakeRegistry([]) });
  assertEquals(
    r.error,
    'Model "gpt-6.2-sol" is ambiguous across providers: azure/gpt-6.2-sol, openai/gpt-6.2-sol. No matching provider is authenticated. Use --provider or provider/model.',
  );
  const custom = resolveCliModel({
    cliProvider: "openai",
    cliModel: "new:high",
    cliThinking: "low",
    modelRegistry: registry,
  });
  assertEquals({ id: custom.model?.id, thinking: custom.thinkingLevel ?? null }, {
    id: "new:high",
    thinking: null,
  });
});

Deno.test("CLI-16 scopes: globs, :level suffixes (max included), fuzzy patterns, dedupe and diagnostics", async () => {
  const actual = [];
  for (const c of reference.scope as { patterns: string[] }[]) {
    const r = await resolveModelScopeWithDiagnostics(c.patterns, registry);
    actual.push({
      patterns: c.patterns,
      result: r.scopedModels.map((s) => [ref(s.model), s.thinkingLevel ?? null]),
      diagnostics: r.diagnostics,
      logs: [],
    });
  }
  assertEquals(actual, reference.scope);
});

Deno.test("CLI-15 exact references: provider/id or bare id, trimmed, case-insensitive", () => {
  const exact = reference.exact.map((c: { q: string }) => ({
    q: c.q,
    result: ref(findExactModelReferenceMatch(c.q, MODELS)),
  }));
  assertEquals(exact, reference.exact);
});

Deno.test("PROV-10 findInitialModel: scoped, saved default with credentials, preferred, first available", async () => {
  const actual = [];
  for (const c of reference.initial as { case: Record<string, unknown> }[]) {
    const o = c.case as {
      scoped?: boolean;
      isContinuing?: boolean;
      defaultProvider?: string;
      defaultModelId?: string;
      defaultThinkingLevel?: ModelThinkingLevel;
    };
    const r = await findInitialModel({
      scopedModels: o.scoped ? [{ model: MODELS[6], thinkingLevel: "high" }] : [],
      isContinuing: o.isContinuing ?? false,
      defaultProvider: o.defaultProvider,
      defaultModelId: o.defaultModelId,
      defaultThinkingLevel: o.defaultThinkingLevel,
      modelRegistry: registry,
    });
    actual.push({
      case: c.case,
      result: ref(r.model),
      thinking: r.thinkingLevel,
      fallbackMessage: r.fallbackMessage ?? null,
    });
  }
  assertEquals(actual, reference.initial);
  const none = await findInitialModel({
    scopedModels: [],
    isContinuing: false,
    modelRegistry: fakeRegistry([]),
  });
  assertEquals({ result: ref(none.model), thinking: none.thinkingLevel }, reference.initialNone);
  const groq = await findInitialModel({
    scopedModels: [],
    isContinuing: false,
    modelRegistry: fakeRegistry(["groq"]),
  });
  assertEquals({ result: ref(groq.model), thinking: groq.thinkingLevel }, reference.initialGroqOnly);
  // modelThinkingLevels wins over defaultThinkingLevel for the saved default.
  const perModel = await findInitialModel({
    scopedModels: [],
    isContinuing: false,
    defaultProvider: "openai",
    defaultModelId: "gpt-4o",
    defaultThinkingLevel: "low",
    modelThinkingLevels: { "openai/gpt-4o": "max" },
    modelRegistry: registry,
  });
  assertEquals(perModel.thinkingLevel, "max");
});

Deno.test("PROV-10 restoreModelFromSession (ours; 1.6.0 restores in AgentSession): fallback message", async () => {
  const original = console.log;
  const originalError = console.error;
  const logs: string[] = [];
  console.log = (m: string) => logs.push(m);
  console.error = (m: string) => logs.push(m);
  try {
    const kept = await restoreModelFromSession("anthropic", "claude-sonnet-5-0", undefined, false, registry);
    assertEquals(ref(kept.model), "anthropic/claude-sonnet-5-0");
    const gone = await restoreModelFromSession(
      "azure-openai-responses",
      "gpt-6.2-sol",
      undefined,
      false,
      registry,
    );
    assertEquals(
      { model: ref(gone.model), message: gone.fallbackMessage },
      {
        model: "anthropic/claude-opus-5-5",
        message:
          "Could not restore model azure-openai-responses/gpt-6.2-sol (model no longer exists). Using anthropic/claude-opus-5-5.",
      },
    );
    assertEquals(logs, []);
  } finally {
    console.log = original;
    console.error = originalError;
  }
});
