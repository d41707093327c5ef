import { assertEquals } from "../support/assert.ts";
import { AuthStorage } from "../../src/config/auth_storage.ts";
import { ModelRegistry } from "../../src/config/model_registry.ts";
import {
  findExactModelReferenceMatch,
  findInitialModel,
  parseModelPattern,
  resolveCliModel,
  resolveModelScope,
  restoreModelFromSession,
} from "../../src/config/model_resolver.ts";
import type { Model, ModelThinkingLevel } from "../../src/ai/types.ts";
import { isolatedTest } from "./isolation.ts";

/** Registered only inside the isolated subprocess (see isolation.ts). */
const test = isolatedTest(import.meta.url);

const reference = JSON.parse(
  Deno.readTextFileSync(new URL("../fixtures/config/resolver_reference.json", import.meta.url)),
);

const ref = (m: Model | undefined) => m ? `${m.provider}/${m.id}` : null;

/** Clears API-key variables so only the in-memory auth counts, and captures console output. */
async function isolated<T>(fn: (logs: [string, string][]) => Promise<T>): Promise<T> {
  const saved = Deno.env.toObject();
  const logs: [string, string][] = [];
  const original = { warn: console.warn, log: console.log, error: console.error };
  console.warn = (m: string) => logs.push(["warn", m]);
  console.log = (m: string) => logs.push(["log", m]);
  console.error = (m: string) => logs.push(["error", m]);
  try {
    return await fn(logs);
  } finally {
    Object.assign(console, original);
    for (const [key, value] of Object.entries(saved)) Deno.env.set(key, value);
  }
}

function registry(): ModelRegistry {
  return ModelRegistry.inMemory(AuthStorage.inMemory({
    anthropic: { type: "api_key", key: "a" },
    openai: { type: "api_key", key: "o" },
    openrouter: { type: "api_key", key: "r" },
  }));
}

test("CLI-15 resolveCliModel matches the reference for provider/model/fuzzy/thinking/fallback cases", async () => {
  await isolated(() => {
    const reg = registry();
    const actual = reference.cli.map((c: { provider: string | null; model: string }) => {
      const r = resolveCliModel({
        cliProvider: c.provider ?? undefined,
        cliModel: c.model,
        modelRegistry: reg,
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
    return Promise.resolve();
  });
});

test("CLI-16 resolveModelScope: globs, :level suffixes, fuzzy patterns, dedupe and warnings", async () => {
  await isolated(async (logs) => {
    const reg = registry();
    const actual = [];
    for (const c of reference.scope as { patterns: string[] }[]) {
      logs.length = 0;
      const r = await resolveModelScope(c.patterns, reg);
      actual.push({
        patterns: c.patterns,
        result: r.map((s) => [ref(s.model), s.thinkingLevel ?? null]),
        logs: [...logs],
      });
    }
    assertEquals(actual, reference.scope);
  });
});

test("PROV-10 findInitialModel order: CLI, scoped, saved default, defaultModelPerProvider, first available", async () => {
  await isolated(async () => {
    const reg = registry();
    const scoped = await resolveModelScope(["gpt-5.4:high"], reg);
    const actual = [];
    for (const c of reference.initial as { case: Record<string, unknown> }[]) {
      const options = {
        ...c.case,
        scopedModels: (c.case.scopedModels as number) > 0 ? scoped : [],
        isContinuing: c.case.isContinuing as boolean,
        defaultThinkingLevel: c.case.defaultThinkingLevel as ModelThinkingLevel | undefined,
        modelRegistry: reg,
      };
      const r = await findInitialModel(options);
      actual.push({
        case: c.case,
        result: ref(r.model),
        thinking: r.thinkingLevel,
        fallbackMessage: r.fallbackMessage ?? null,
      });
    }
    assertEquals(actual, reference.initial);

    const groqOnly = ModelRegistry.inMemory(AuthStorage.inMemory({ groq: { type: "api_key", key: "g" } }));
    const g = await findInitialModel({ scopedModels: [], isContinuing: false, modelRegistry: groqOnly });
    assertEquals({ result: ref(g.model), thinking: g.thinkingLevel }, reference.initialGroqOnly);
    const none = ModelRegistry.inMemory(AuthStorage.inMemory({}));
    const n = await findInitialModel({ scopedModels: [], isContinuing: false, modelRegistry: none });
    assertEquals({ result: ref(n.model), thinking: n.thinkingLevel }, reference.initialNone);
  });
});

test("PROV-10 restoreModelFromSession messages and fallbacks match the reference", async () => {
  await isolated(async (logs) => {
    const reg = registry();
    const actual = [];
    for (const c of reference.restore as { saved: string; current: string | null }[]) {
      logs.length = 0;
      const slash = c.saved.indexOf("/");
      const current = c.current
        ? reg.find(c.current.split("/")[0], c.current.split("/").slice(1).join("/"))
        : undefined;
      const r = await restoreModelFromSession(
        c.saved.slice(0, slash),
        c.saved.slice(slash + 1),
        current,
        true,
        reg,
      );
      actual.push({
        saved: c.saved,
        current: c.current,
        result: ref(r.model),
        fallbackMessage: r.fallbackMessage ?? null,
        logs: [...logs],
      });
    }
    assertEquals(actual, reference.restore);
  });
});

test("CLI-15 exact reference matching and colon-suffix peeling in parseModelPattern", async () => {
  await isolated(() => {
    const all = registry().getAll();
    const exact = reference.exact.map((c: { q: string }) => ({
      q: c.q,
      result: ref(findExactModelReferenceMatch(c.q, all)),
    }));
    assertEquals(exact, reference.exact);
    const parsed = reference.parse.map((c: { q: string }) => {
      const r = parseModelPattern(c.q, all);
      return { q: c.q, result: ref(r.model), thinking: r.thinkingLevel ?? null, warning: r.warning ?? null };
    });
    assertEquals(parsed, reference.parse);
    return Promise.resolve();
  });
});

test("PROV-10 findInitialModel rejects an unknown --provider with the resolver's error, printing nothing", async () => {
  await isolated(async (logs) => {
    const error = await findInitialModel({
      cliProvider: "no-such-provider",
      cliModel: "some-model",
      scopedModels: [],
      isContinuing: false,
      modelRegistry: registry(),
    }).then(() => undefined, (e: Error) => e.message);
    assertEquals(
      error,
      'Unknown provider "no-such-provider". Use --list-models to see available providers/models.',
    );
    assertEquals(logs, []);
  });
});
