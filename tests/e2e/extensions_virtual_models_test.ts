/**
 * Virtual models (issue 16, pi 1.6.0's `pi.registerVirtualModel`): an extension registers `v/x`,
 * which routes each request by prompt content to fake-anthropic's or fake-openai's test-model
 * (tests/fixtures/extensions/ours/virtual-router.ts). The run with `--model v/x` must reach the
 * physical model on the wire, and its session lines — `model_change` naming the virtual model,
 * router state, assistant messages naming the physical one — must equal 1.6.0's.
 */
import { assertEquals } from "../support/assert.ts";
import { createAgentEnv, sessionFilesOf } from "../support/agent_env.ts";
import { type ScriptedTurn, startFakeProvider } from "../support/fake_provider/mod.ts";
import { spawnPi, useReferenceFixtures } from "../support/spawn_pi.ts";
import {
  type ExtensionCase,
  type ExtensionRun,
  fixture,
  runExtensionCase,
  startRpc,
} from "./extensions_harness.ts";
import { makeNormalizer, packageDirs } from "./scenario.ts";

const ROUTER = ["-e", fixture("ours/virtual-router.ts")];

/** Runs the case with ours and with 1.6.0 (the reference must be installed: no silent skip). */
async function both(c: ExtensionCase): Promise<[ExtensionRun, ExtensionRun]> {
  assertEquals(useReferenceFixtures(), false, "these tests compare with the live reference 1.6.0");
  return [await runExtensionCase(c), await runExtensionCase(c, true)];
}

/** What the session lines say about models: selection entries, router state, and each message's model. */
function modelLines(run: ExtensionRun): unknown[] {
  return run.session.flatMap<unknown>((line) => {
    const entry = line as Record<string, unknown> & { message?: Record<string, unknown> };
    if (entry.type === "model_change") return [`model_change ${entry.provider}/${entry.modelId}`];
    if (entry.type === "thinking_level_change") return [`thinking_level_change ${entry.thinkingLevel}`];
    if (entry.type === "custom") return [{ [String(entry.customType)]: entry.data }];
    const message = entry.message;
    if (message?.role !== "assistant") return [];
    return [`assistant ${message.api} ${message.provider}/${message.model} ${message.thinkingLevel}`];
  });
}

const TOOL_THEN_TEXT: ScriptedTurn[] = [
  { content: [{ type: "toolCall", id: "call_1", name: "bash", arguments: { command: "echo hi" } }] },
  { content: [{ type: "text", text: "Done." }] },
];

Deno.test("EXT-VM-01 --model v/x: each request goes to the routed physical model; session lines equal 1.6.0's", async () => {
  const c: ExtensionCase = {
    args: ["--mode", "json", "--model", "v/x", ...ROUTER, "a hard question"],
    turns: TOOL_THEN_TEXT,
  };
  const [ours, ref] = await both(c);
  assertEquals(ours.code, 0, ours.stderr.join("\n"));
  // The prompt says "hard": Anthropic's wire, for the first request and the tool follow-up.
  assertEquals(ours.wire, ["/v1/messages test-model", "/v1/messages test-model"]);
  assertEquals(modelLines(ours), [
    "model_change v/x",
    "thinking_level_change high",
    {
      "pi.virtual-model-state": {
        provider: "v",
        modelId: "x",
        state: { provider: "fake-anthropic", reason: "user" },
      },
    },
    "assistant anthropic-messages fake-anthropic/test-model off",
    "assistant anthropic-messages fake-anthropic/test-model off",
  ]);
  assertEquals(ours.session, ref.session);
  assertEquals(ours.json, ref.json);
  assertEquals(ours.wire, ref.wire);
});

Deno.test("EXT-VM-02 pi -p --model v/x: another prompt is routed to the other physical model, as in 1.6.0", async () => {
  const c: ExtensionCase = {
    args: ["-p", "--model", "v/x", ...ROUTER, "an easy question"],
    turns: [{ content: [{ type: "text", text: "Easy answer." }] }],
  };
  const [ours, ref] = await both(c);
  assertEquals(ours.code, 0, ours.stderr.join("\n"));
  assertEquals(ours.stdout, "Easy answer.\n");
  assertEquals(ours.wire, ["/v1/chat/completions test-model"]);
  assertEquals(modelLines(ours), [
    "model_change v/x",
    "thinking_level_change high",
    {
      "pi.virtual-model-state": {
        provider: "v",
        modelId: "x",
        state: { provider: "fake-openai", reason: "user" },
      },
    },
    "assistant openai-completions fake-openai/test-model off",
  ]);
  assertEquals(ours.session, ref.session);
  assertEquals([ours.stdout, ours.stderr, ours.code], [ref.stdout, ref.stderr, ref.code]);
});

Deno.test("EXT-VM-03 a router that throws ends the turn with an error reply naming the virtual model, as in 1.6.0", async () => {
  const c: ExtensionCase = {
    args: ["--mode", "json", "--model", "v/x", ...ROUTER, "an unroutable question"],
    turns: [{ content: [{ type: "text", text: "never sent" }] }],
  };
  const [ours, ref] = await both(c);
  assertEquals(ours.wire, []);
  assertEquals(modelLines(ours), [
    "model_change v/x",
    "thinking_level_change high",
    "assistant pi-virtual v/x undefined",
  ]);
  const last = ours.session.at(-1) as { message: { stopReason: string; errorMessage: string } };
  assertEquals([last.message.stopReason, last.message.errorMessage], ["error", "No model for this prompt"]);
  assertEquals(ours.session, ref.session);
  assertEquals(ours.json, ref.json);
  assertEquals([ours.code, ours.stderr], [ref.code, ref.stderr]);
});

Deno.test("EXT-VM-04 --list-models lists the virtual model with 1.6.0's columns", async () => {
  const c: ExtensionCase = { args: ["--list-models", ...ROUTER], turns: [] };
  const [ours, ref] = await both(c);
  assertEquals(ours.code, 0, ours.stderr.join("\n"));
  assertEquals(
    ours.stdout.split("\n").find((line) => line.startsWith("v ")),
    "v               x           0        0        yes       yes   ",
  );
  assertEquals([ours.stdout, ours.stderr], [ref.stdout, ref.stderr]);
});

/** `pi -p --model v/x` with a "hard" prompt, then `pi -p -c` with an easy one; the session lines and wire paths. */
async function resumed(
  reference: boolean,
): Promise<{ lines: unknown[]; wire: string[]; outputs: unknown[] }> {
  const server = await startFakeProvider([
    { content: [{ type: "text", text: "One." }] },
    { content: [{ type: "text", text: "Two." }] },
  ]);
  const env = await createAgentEnv(server.url);
  env.env.PI_OFFLINE = "1";
  try {
    const outputs = [];
    for (const args of [["--model", "v/x", "a hard question"], ["-c", "now an easy one"]]) {
      const run = await spawnPi(["-p", ...ROUTER, ...args], { env: env.env, cwd: env.cwd, reference });
      outputs.push([run.code, run.stdout, run.stderr]);
    }
    const normalize = makeNormalizer(env.root, packageDirs());
    const [file] = await env.sessionFiles();
    const lines = (await Deno.readTextFile(file)).split("\n").filter((l) => l).slice(1)
      .map((l) => normalize(JSON.parse(l)));
    return { lines, wire: server.requests.map((r) => r.path), outputs };
  } finally {
    await server.close();
    await env.cleanup();
  }
}

Deno.test("EXT-VM-05 -c resumes the virtual selection from model_change, not the physical model that answered", async () => {
  assertEquals(useReferenceFixtures(), false, "this test compares with the live reference 1.6.0");
  const ours = await resumed(false);
  const ref = await resumed(true);
  assertEquals(ours.outputs, [[0, "One.\n", ""], [0, "Two.\n", ""]]);
  // The second prompt is routed again: to OpenAI's wire, although Anthropic's model answered last.
  assertEquals(ours.wire, ["/v1/messages", "/v1/chat/completions"]);
  assertEquals(ours.lines, ref.lines);
});

Deno.test("EXT-VM-06 an automatic retry is routed with reason retry and the failed reply, as in 1.6.0", async () => {
  const c: ExtensionCase = {
    args: ["--mode", "json", "--model", "v/x", ...ROUTER, "a hard question"],
    settings: { retry: { baseDelayMs: 1 } },
    turns: [
      { fault: { kind: "http", status: 503, message: "overloaded", retryAfter: 0 } },
      { content: [{ type: "text", text: "Done." }] },
    ],
  };
  const [ours, ref] = await both(c);
  assertEquals(ours.code, 0, ours.stderr.join("\n"));
  assertEquals(ours.wire, ["/v1/messages test-model", "/v1/messages test-model"]);
  const states = modelLines(ours).filter((line) => typeof line === "object");
  assertEquals(states.map((s) => (s as Record<string, { state: unknown }>)["pi.virtual-model-state"].state), [
    { provider: "fake-anthropic", reason: "user" },
    {
      provider: "fake-anthropic",
      reason: "retry",
      failed: '503 {"type":"error","error":{"type":"api_error","message":"overloaded"}}',
    },
  ]);
  // The context_edit's target is a raw entry id, which the normaliser leaves alone.
  const withoutTarget = (run: ExtensionRun) =>
    run.session.map((line) => {
      const { targetId: _, ...rest } = line as Record<string, unknown>;
      return rest;
    });
  assertEquals(withoutTarget(ours), withoutTarget(ref));
});

/** Two prompts under v/x over RPC, then `compact`: the answer, the session lines and the request texts. */
async function compacted(reference: boolean) {
  const rpc = await startRpc(
    ["--model", "v/x", ...ROUTER],
    [
      { content: [{ type: "text", text: "Answer." }] },
      { content: [{ type: "text", text: "Second answer." }] },
      { content: [{ type: "text", text: "## Goal\nSummary text." }] },
      { content: [{ type: "text", text: "## Prefix\nPrefix text." }] },
    ],
    reference,
    async (env) => {
      // Keep almost nothing, so that there is something to summarise.
      await Deno.writeTextFile(
        `${env.agentDir}/settings.json`,
        JSON.stringify({ compaction: { keepRecentTokens: 1 } }),
      );
    },
  );
  try {
    const ends = () => rpc.records.filter((r) => r.type === "agent_end").length;
    await rpc.send({ id: "1", type: "prompt", message: "a hard question" });
    await rpc.waitFor(() => ends() === 1, "first agent_end");
    await rpc.send({ id: "2", type: "prompt", message: "another easy one" });
    await rpc.waitFor(() => ends() === 2, "second agent_end");
    await rpc.send({ id: "3", type: "compact" });
    const answer = await rpc.waitFor((r) => r.type === "response" && r.id === "3", "compact response");
    const [file] = await sessionFilesOf(rpc.agentDir);
    const normalize = makeNormalizer(rpc.root, packageDirs());
    const lines = (await Deno.readTextFile(file)).split("\n").filter((l) => l).slice(1)
      .map((l) => normalize(JSON.parse(l)));
    const { estimatedTokensAfter: _, ...data } = answer.data as Record<string, unknown>;
    return { success: answer.success, data: normalize(data), lines, requests: rpc.requests() };
  } finally {
    await rpc.close();
  }
}

Deno.test("EXT-VM-07 a compaction summary under v/x is routed (reason direct) and no threshold compaction runs on the unknown window", async () => {
  assertEquals(useReferenceFixtures(), false, "this test compares with the live reference 1.6.0");
  const ours = await compacted(false);
  const ref = await compacted(true);
  assertEquals(ours.success, true);
  assertEquals((ours.data as { summary: string }).summary.startsWith("## Goal\nSummary text."), true);
  // Four requests: the two prompts, then the summary and the split turn's prefix, with no compaction between.
  assertEquals(ours.requests.length, 4);
  assertEquals(ours.data, ref.data);
  assertEquals(ours.lines, ref.lines);
  assertEquals(ours.requests, ref.requests);
});
