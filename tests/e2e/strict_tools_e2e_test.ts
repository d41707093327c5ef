/**
 * Strict tool schemas as pi 1.6.0 sends them (TOOLS-1.6-STRICT: pi-1.6-delta.md's constrained
 * sampling, pi-ai's `constrainedSampling`): read, bash, edit and write prefer strict arguments, so
 * a model whose compat says the server takes strict tools (`supportsStrictTools` for Anthropic
 * Messages, `supportsStrictMode` for the OpenAI APIs, Gemini 3+ by its id) gets them `strict` with
 * the strict schema (every property required, optional ones nullable, no additional properties),
 * and Gemini the VALIDATED function-calling mode; other tools and other models stay non-strict.
 * The real `pi -p` runs against the fake provider for the four wire APIs and the `tools` of each
 * request are compared with what pi 1.6.0 sends in the same set-up (live, or its stored capture
 * tests/fixtures/providers/strict_tools_reference.json when the reference is not installed).
 */
import { join } from "node:path";
import { assertEquals } from "../support/assert.ts";
import { createAgentEnv } from "../support/agent_env.ts";
import { startFakeProvider } from "../support/fake_provider/mod.ts";
import { spawnPi, useReferenceFixtures } from "../support/spawn_pi.ts";

type Json = Record<string, unknown>;

/** provider/model of each case; `-plain` models have no strict compat. */
const CASES = [
  "fake-anthropic/test-model",
  "fake-anthropic/plain-model",
  "fake-openai/test-model",
  "fake-openai/plain-model",
  "fake-responses/test-model",
  "fake-google/gemini-3-pro-preview",
  "fake-google/gemini-2.5-pro",
];

const FIXTURE = new URL("../fixtures/providers/strict_tools_reference.json", import.meta.url);

/** Descriptions aside (the tool tests compare those): names, strictness, schemas, tool config. */
function toolFacts(body: Json): Json {
  const strip = (tool: Json): Json => {
    const { description: _d, ...rest } = tool;
    if (rest.function) rest.function = strip(rest.function as Json);
    return rest;
  };
  const tools = (body.tools ?? []) as Json[];
  const declared = body.contents
    ? ((tools[0]?.functionDeclarations ?? []) as Json[]).map(strip)
    : tools.map(strip);
  return { tools: declared, toolConfig: body.toolConfig ?? null, tool_choice: body.tool_choice ?? null };
}

/** What `pi -p` sends with every built-in tool, per case. */
async function observe(reference: boolean): Promise<Record<string, Json>> {
  const out: Record<string, Json> = {};
  for (const target of CASES) {
    const server = await startFakeProvider([{ content: [{ type: "text", text: "ok" }] }]);
    const env = await createAgentEnv(server.url);
    env.env.PI_OFFLINE = "1";
    try {
      const path = join(env.agentDir, "models.json");
      const models = JSON.parse(await Deno.readTextFile(path)) as {
        providers: Record<string, { api: string; models: Json[] }>;
      };
      for (const provider of Object.values(models.providers)) {
        const base = provider.models[0];
        const compat = provider.api === "anthropic-messages"
          ? { supportsStrictTools: true }
          : provider.api.startsWith("openai")
          ? { supportsStrictMode: true }
          : undefined;
        provider.models = [
          { ...base, ...(compat ? { compat } : {}) },
          { ...base, id: "plain-model" },
          { ...base, id: "gemini-3-pro-preview" },
          { ...base, id: "gemini-2.5-pro" },
        ];
      }
      await Deno.writeTextFile(path, JSON.stringify(models));
      const args = [
        "--no-session",
        "--model",
        target,
        "--tools",
        "read,bash,edit,write,grep,find,ls",
        "-p",
        "hi",
      ];
      const result = await spawnPi(args, { env: env.env, cwd: env.cwd, reference });
      assertEquals([result.code, result.stderr], [0, ""], `${reference ? "pi 1.6.0" : "ours"}: ${target}`);
      out[target] = toolFacts(server.requests[0].body as Json);
    } finally {
      await server.close();
      await env.cleanup();
    }
  }
  return out;
}

Deno.test("TOOLS-1.6-STRICT e2e read/bash/edit/write are sent strict where the model supports it, as pi 1.6.0 sends them", async () => {
  const ours = await observe(false);
  // The facts that make the difference, spelled out (the comparison below covers the rest).
  const anthropicRead = (ours["fake-anthropic/test-model"].tools as Json[])[0];
  assertEquals(anthropicRead.strict, true);
  assertEquals(anthropicRead.input_schema, {
    type: "object",
    required: ["path", "offset", "limit"],
    properties: {
      path: { type: "string", description: "Path to the file to read (relative or absolute)" },
      offset: {
        anyOf: [{ type: "number", description: "Line number to start reading from (1-indexed)" }, {
          type: "null",
        }],
      },
      limit: {
        anyOf: [{ type: "number", description: "Maximum number of lines to read" }, { type: "null" }],
      },
    },
    additionalProperties: false,
  });
  const strictOf = (target: string) =>
    (ours[target].tools as Json[]).map((t) => (t.function as Json | undefined)?.strict ?? t.strict ?? null);
  assertEquals(strictOf("fake-anthropic/test-model"), [true, true, true, true, null, null, null]);
  assertEquals(strictOf("fake-anthropic/plain-model"), [null, null, null, null, null, null, null]);
  assertEquals(strictOf("fake-openai/test-model"), [true, true, true, true, false, false, false]);
  assertEquals(strictOf("fake-openai/plain-model"), [null, null, null, null, null, null, null]);
  assertEquals(strictOf("fake-responses/test-model"), [true, true, true, true, false, false, false]);
  assertEquals(ours["fake-google/gemini-3-pro-preview"].toolConfig, {
    functionCallingConfig: { mode: "VALIDATED" },
  });
  assertEquals(ours["fake-google/gemini-2.5-pro"].toolConfig, null);

  const stored = JSON.parse(await Deno.readTextFile(FIXTURE)) as Record<string, Json>;
  if (useReferenceFixtures()) {
    assertEquals(ours, stored);
    return;
  }
  const reference = await observe(true);
  // `PI_STRICT_TOOLS_RECAPTURE=1` stores this run as the capture (after a deliberate reference upgrade).
  if (Deno.env.get("PI_STRICT_TOOLS_RECAPTURE") === "1") {
    await Deno.writeTextFile(FIXTURE, JSON.stringify(reference, null, 2) + "\n");
  }
  assertEquals(ours, reference);
  assertEquals(stored, reference);
});

/** What a run observes when Claude refuses the strict tools for its limits. */
async function observeLimitFallback(reference: boolean): Promise<Json> {
  const server = await startFakeProvider([
    { fault: { kind: "http", status: 400, message: "Too many strict tools (24). The maximum is 20." } },
    { content: [{ type: "text", text: "first answer" }] },
    { content: [{ type: "text", text: "second answer" }] },
  ]);
  const env = await createAgentEnv(server.url);
  env.env.PI_OFFLINE = "1";
  try {
    const path = join(env.agentDir, "models.json");
    const models = JSON.parse(await Deno.readTextFile(path)) as {
      providers: Record<string, { models: Json[] }>;
    };
    models.providers["fake-anthropic"].models[0].compat = { supportsStrictTools: true };
    await Deno.writeTextFile(path, JSON.stringify(models));
    // Two prompts in one process: the second request of the session goes non-strict at once.
    const args = ["--model", "fake-anthropic/test-model", "--tools", "read,grep", "-p", "one", "two"];
    const result = await spawnPi(args, { env: env.env, cwd: env.cwd, reference });
    const [file] = await env.sessionFiles();
    const lines = (await Deno.readTextFile(file)).trim().split("\n").map((line) => JSON.parse(line));
    return {
      code: result.code,
      stdout: result.stdout,
      stderr: result.stderr,
      // Per request: whether each tool was sent strict.
      strict: server.requests.map((r) => ((r.body as Json).tools as Json[]).map((t) => t.strict ?? false)),
      diagnostics: lines.flatMap((line) =>
        line.message?.role === "assistant"
          ? [(line.message.diagnostics ?? []).map((d: Json) => ({ type: d.type, details: d.details }))]
          : []
      ),
    };
  } finally {
    await server.close();
    await env.cleanup();
  }
}

Deno.test("TOOLS-1.6-STRICT e2e Claude refusing the strict tools for its limits: resent non-strict once, then non-strict for the session", async () => {
  const want = {
    code: 0,
    stdout: "second answer\n",
    stderr: "",
    strict: [[true, false], [false, false], [false, false]],
    diagnostics: [
      [{ type: "anthropic_strict_tools_fallback", details: { reason: "strict_tool_limits_exceeded" } }],
      [],
    ],
  };
  assertEquals(await observeLimitFallback(false), want);
  if (!useReferenceFixtures()) assertEquals(await observeLimitFallback(true), want);
});
