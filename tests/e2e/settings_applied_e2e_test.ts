/**
 * Settings and models.json fields that change what is sent to the model, through the real CLI
 * against the fake provider: `defaultTools` (SET-04, with `--tools +name` and `--exclude-tools` on
 * top), `modelThinkingLevels` (SET-04) and `samplingParams` / `samplingParamsByThinkingLevel`
 * (PROV-04). The expected request fields were observed from pi 1.6.0; when the reference is
 * installed it runs beside ours and must still send the same.
 *
 * @module
 */
import { join } from "node:path";
import { assertEquals } from "../support/assert.ts";
import { createAgentEnv, FAKE_MODEL_ID, FAKE_PROVIDERS } from "../support/agent_env.ts";
import type { ScriptedTurn } from "../support/fake_provider/script.ts";
import { startFakeProvider } from "../support/fake_provider/server.ts";
import { startTestProxy } from "../support/http_proxy.ts";
import { spawnPi, useReferenceFixtures } from "../support/spawn_pi.ts";

/** One run: settings.json, fields merged into the fake model of `provider`, extra CLI arguments. */
interface Case {
  provider: string;
  settings?: Record<string, unknown>;
  model?: Record<string, unknown>;
  args?: string[];
}

/** The request fields these settings shape (the rest is covered by the scenario tests). */
interface Observed {
  code: number;
  stderr: string;
  tools: string[];
  fields: Record<string, unknown>;
}

const SHAPED_FIELDS = [
  "reasoning_effort",
  "reasoning",
  "temperature",
  "top_k",
  "top_p",
  "max_completion_tokens",
  "max_output_tokens",
  "max_tokens",
  "thinking",
  "generationConfig",
];

function toolName(tool: Record<string, unknown>): string[] {
  if (typeof tool.name === "string") return [tool.name];
  const fn = tool.function as { name?: string } | undefined;
  if (fn?.name) return [fn.name];
  const declarations = tool.functionDeclarations as { name: string }[] | undefined;
  return declarations?.map((d) => d.name) ?? [];
}

async function observe(testCase: Case, reference: boolean): Promise<Observed> {
  const server = await startFakeProvider([{ content: [{ type: "text", text: "ok" }] }]);
  const env = await createAgentEnv(server.url, { settings: testCase.settings, reasoning: true });
  try {
    const modelsPath = join(env.agentDir, "models.json");
    const models = JSON.parse(await Deno.readTextFile(modelsPath));
    Object.assign(models.providers[testCase.provider].models[0], testCase.model ?? {});
    await Deno.writeTextFile(modelsPath, JSON.stringify(models));
    const args = ["-p", "--model", `${testCase.provider}/${FAKE_MODEL_ID}`, ...(testCase.args ?? []), "hi"];
    const result = await spawnPi(args, { env: env.env, cwd: env.cwd, reference });
    const body = (server.requests[0]?.body ?? {}) as Record<string, unknown>;
    const fields: Record<string, unknown> = {};
    for (const key of SHAPED_FIELDS) if (body[key] !== undefined) fields[key] = body[key];
    const tools = ((body.tools ?? []) as Record<string, unknown>[]).flatMap(toolName);
    return { code: result.code, stderr: result.stderr, tools, fields };
  } finally {
    await server.close();
    await env.cleanup();
  }
}

/** Ours must send `expected`; so must pi 1.6.0 when it is installed. */
async function check(testCase: Case, expected: { tools: string[]; fields: Record<string, unknown> }) {
  const want = { code: 0, stderr: "", ...expected };
  assertEquals(await observe(testCase, false), want, "ours");
  if (!useReferenceFixtures()) assertEquals(await observe(testCase, true), want, "pi 1.6.0");
}

const OPENAI = FAKE_PROVIDERS["openai-completions"];
const RESPONSES = FAKE_PROVIDERS["openai-responses"];
const CHAT_LIMIT = { max_completion_tokens: 8192 };

Deno.test("SET-04 defaultTools: plain names replace the default tools", async () => {
  await check({ provider: OPENAI, settings: { defaultTools: ["read", "grep", "no-such-tool"] } }, {
    tools: ["read", "grep"],
    fields: { ...CHAT_LIMIT, reasoning_effort: "medium" },
  });
});

Deno.test("SET-04 defaultTools: +name / -name change the defaults; [] sends no tools", async () => {
  await check({ provider: OPENAI, settings: { defaultTools: ["-bash", "+grep"] } }, {
    tools: ["read", "edit", "write", "grep"],
    fields: { ...CHAT_LIMIT, reasoning_effort: "medium" },
  });
  await check({ provider: OPENAI, settings: { defaultTools: [] } }, {
    tools: [],
    fields: { ...CHAT_LIMIT, reasoning_effort: "medium" },
  });
});

Deno.test("SET-04 CLI-16 --tools +name and --exclude-tools start from defaultTools", async () => {
  const settings = { defaultTools: ["read", "grep"] };
  await check({ provider: OPENAI, settings, args: ["--tools", "+ls"] }, {
    tools: ["read", "grep", "ls"],
    fields: { ...CHAT_LIMIT, reasoning_effort: "medium" },
  });
  await check({ provider: OPENAI, settings, args: ["--exclude-tools", "read"] }, {
    tools: ["grep"],
    fields: { ...CHAT_LIMIT, reasoning_effort: "medium" },
  });
  await check({ provider: OPENAI, settings, args: ["--tools", "find"] }, {
    tools: ["find"],
    fields: { ...CHAT_LIMIT, reasoning_effort: "medium" },
  });
});

Deno.test("SET-04 modelThinkingLevels: the model's level wins over defaultThinkingLevel, a flag over both", async () => {
  const settings = {
    defaultThinkingLevel: "low",
    modelThinkingLevels: { [`${OPENAI}/${FAKE_MODEL_ID}`]: "high" },
    defaultTools: [],
  };
  await check({ provider: OPENAI, settings }, {
    tools: [],
    fields: { ...CHAT_LIMIT, reasoning_effort: "high" },
  });
  await check({ provider: OPENAI, settings, args: ["--thinking", "minimal"] }, {
    tools: [],
    fields: { ...CHAT_LIMIT, reasoning_effort: "minimal" },
  });
  // Another model's entry does not apply.
  await check({ provider: RESPONSES, settings }, {
    tools: [],
    fields: {
      max_output_tokens: 8192,
      reasoning: { effort: "low", summary: "auto" },
    },
  });
});

const SAMPLING = {
  samplingParams: { temperature: 0.2, top_k: 40, max_completion_tokens: 100 },
  samplingParamsByThinkingLevel: { high: { temperature: 0.7 }, off: { top_p: 0.5 } },
};

Deno.test("PROV-04 samplingParams: merged last into Chat Completions and Responses bodies, per thinking level", async () => {
  await check({
    provider: OPENAI,
    settings: { defaultThinkingLevel: "high", defaultTools: [] },
    model: SAMPLING,
  }, {
    tools: [],
    fields: { max_completion_tokens: 100, reasoning_effort: "high", temperature: 0.7, top_k: 40 },
  });
  await check({
    provider: OPENAI,
    settings: { defaultThinkingLevel: "off", defaultTools: [] },
    model: SAMPLING,
  }, {
    tools: [],
    fields: { max_completion_tokens: 100, temperature: 0.2, top_k: 40, top_p: 0.5 },
  });
  await check({
    provider: RESPONSES,
    settings: { defaultThinkingLevel: "high", defaultTools: [] },
    model: SAMPLING,
  }, {
    tools: [],
    fields: {
      max_output_tokens: 8192,
      max_completion_tokens: 100,
      reasoning: { effort: "high", summary: "auto" },
      temperature: 0.7,
      top_k: 40,
    },
  });
});

Deno.test("PROV-04 samplingParams: not sent by the Anthropic and Google APIs", async () => {
  const settings = { defaultThinkingLevel: "high", defaultTools: [] };
  await check({ provider: FAKE_PROVIDERS["anthropic-messages"], settings, model: SAMPLING }, {
    tools: [],
    fields: { max_tokens: 8192, thinking: { type: "enabled", budget_tokens: 7168, display: "summarized" } },
  });
  await check({ provider: FAKE_PROVIDERS["google-generative-ai"], settings, model: SAMPLING }, {
    tools: [],
    fields: {
      generationConfig: {
        maxOutputTokens: 8192,
        thinkingConfig: { includeThoughts: true, thinkingBudget: -1 },
      },
    },
  });
});

/** Where each request through the proxy went (`host:port`), whether tunnelled (CONNECT) or forwarded. */
async function proxiedTargets(
  reference: boolean,
  extraEnv: Record<string, string>,
): Promise<Observed & { via: string[] }> {
  const server = await startFakeProvider([{ content: [{ type: "text", text: "ok" }] }]);
  const proxy = startTestProxy();
  const env = await createAgentEnv(server.url, {
    settings: { httpProxy: ` ${proxy.url} `, defaultTools: [] },
  });
  try {
    const result = await spawnPi(["-p", "--model", `${OPENAI}/${FAKE_MODEL_ID}`, "hi"], {
      // No Deno update check: it would go through the proxy too.
      env: { ...env.env, DENO_NO_UPDATE_CHECK: "1", ...extraEnv },
      cwd: env.cwd,
      reference,
    });
    const serverHost = new URL(server.url).host;
    const via = proxy.requests
      .map((r) => (r.method === "CONNECT" ? r.target : new URL(r.target).host))
      .map((host) => (host === serverHost ? "<fake provider>" : host));
    return { code: result.code, stderr: result.stderr, tools: [], fields: {}, via: [...new Set(via)] };
  } finally {
    await server.close();
    await proxy.close();
    await env.cleanup();
  }
}

Deno.test("SET-04 httpProxy: provider requests go through the proxy; NO_PROXY still bypasses it", async () => {
  for (const [extraEnv, via] of [[{}, ["<fake provider>"]], [{ NO_PROXY: "127.0.0.1" }, []]] as const) {
    const want = { code: 0, stderr: "", tools: [], fields: {}, via: [...via] };
    assertEquals(await proxiedTargets(false, extraEnv), want, `ours ${JSON.stringify(extraEnv)}`);
    if (!useReferenceFixtures()) {
      assertEquals(await proxiedTargets(true, extraEnv), want, `pi 1.6.0 ${JSON.stringify(extraEnv)}`);
    }
  }
});

/** `-p` against a fake provider that answers `turns`; exit code, output and how many requests were made. */
async function printRun(
  reference: boolean,
  settings: Record<string, unknown>,
  turns: ScriptedTurn[],
): Promise<{ code: number; stdout: string; stderr: string; requests: number }> {
  const server = await startFakeProvider(turns);
  const env = await createAgentEnv(server.url, { settings: { defaultTools: [], ...settings } });
  try {
    const args = ["-p", "--model", `${OPENAI}/${FAKE_MODEL_ID}`, "hi"];
    const result = await spawnPi(args, { env: env.env, cwd: env.cwd, reference, timeoutMs: 30_000 });
    return {
      code: result.code,
      stdout: result.stdout,
      stderr: result.stderr,
      requests: server.requests.length,
    };
  } finally {
    await server.close();
    await env.cleanup();
  }
}

const STALLED: ScriptedTurn = {
  content: [{ type: "text", text: "partial answer" }],
  fault: { kind: "stall", afterChunks: 1 },
};

Deno.test("SET-04 httpIdleTimeoutMs: a response that goes silent fails with 'terminated' (retry off)", async () => {
  const settings = { httpIdleTimeoutMs: 1500, retry: { enabled: false } };
  assertEquals(await printRun(false, settings, [STALLED]), {
    code: 1,
    stdout: "",
    stderr: "terminated: the provider sent nothing for 1.5 s (httpIdleTimeoutMs)\n",
    requests: 1,
  });
  if (!useReferenceFixtures()) {
    // pi 1.6.0 words it as undici does: "terminated: Body Timeout Error (UND_ERR_BODY_TIMEOUT)".
    const live = await printRun(true, settings, [STALLED]);
    assertEquals({ ...live, stderr: live.stderr.split(":")[0] }, {
      code: 1,
      stdout: "",
      stderr: "terminated",
      requests: 1,
    });
  }
});

Deno.test("SET-04 httpIdleTimeoutMs: the silent response is retried like a dropped connection", async () => {
  const settings = { httpIdleTimeoutMs: 1500, retry: { baseDelayMs: 10 } };
  const turns = (): ScriptedTurn[] => [STALLED, { content: [{ type: "text", text: "second try" }] }];
  const want = { code: 0, stdout: "second try\n", stderr: "", requests: 2 };
  assertEquals(await printRun(false, settings, turns()), want);
  if (!useReferenceFixtures()) assertEquals(await printRun(true, settings, turns()), want);
});

Deno.test("SET-04 httpIdleTimeoutMs: a malformed value stops the run before any request", async () => {
  const settings = { httpIdleTimeoutMs: "soon" };
  const turns = (): ScriptedTurn[] => [{ content: [{ type: "text", text: "ok" }] }];
  assertEquals(await printRun(false, settings, turns()), {
    code: 1,
    stdout: "",
    stderr: 'Error: Invalid httpIdleTimeoutMs setting: soon (settings.json: milliseconds, 0 or "disabled")\n',
    requests: 0,
  });
  if (!useReferenceFixtures()) {
    // pi 1.6.0 stops with a stack trace around the same message.
    const live = await printRun(true, settings, turns());
    assertEquals(
      {
        code: live.code,
        requests: live.requests,
        named: live.stderr.includes("Invalid httpIdleTimeoutMs setting: soon"),
      },
      { code: 1, requests: 0, named: true },
    );
  }
});
