/**
 * The built-in llama.cpp extension end to end (issues 11 and 14): the real CLI against the fake
 * llama.cpp router (tests/support/fake_llama_server.ts), with its models cached in models-store.json
 * as pi 1.6.0 writes them. Start-up in `-p`, `--mode rpc` and `--list-models` reads only that
 * cache (nothing asks the router until a request is sent); a request goes to `<router>/v1` with the
 * configured key; `-builtin:llama.cpp` removes the provider. Outputs are compared with pi 1.6.0 run
 * the same way.
 */
import { join } from "node:path";
import { assert, assertEquals } from "../../../support/assert.ts";
import { type AgentEnv, createAgentEnv } from "../../../support/agent_env.ts";
import { type FakeLlamaServer, startFakeLlamaServer } from "../../../support/fake_llama_server.ts";
import type { ScriptedTurn } from "../../../support/fake_provider/mod.ts";
import { requireReferenceCli, spawnPi, startPi } from "../../../support/spawn_pi.ts";

const HELLO: ScriptedTurn = { content: [{ type: "text", text: "Hello from llama" }] };

const MODELS = [
  { id: "qwen3-0.6b", status: "loaded", nCtx: 32768 },
  { id: "gemma-3-4b", status: "loaded" },
  { id: "phi-4-mini", status: "unloaded" },
];

const FREE = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 };
const COMPAT = {
  supportsStore: false,
  supportsReasoningEffort: false,
  supportsUsageInStreaming: true,
  supportsStrictMode: false,
  maxTokensField: "max_tokens",
};

/** models-store.json as pi 1.6.0's interactive start-up wrote it for MODELS at `url` (captured). */
function storeAsWritten(url: string): Record<string, unknown> {
  const chat = (id: string, context: number) => ({
    id,
    name: id,
    api: "openai-completions",
    provider: "llama.cpp",
    baseUrl: `${url}/v1`,
    reasoning: false,
    input: ["text"],
    cost: FREE,
    contextWindow: context,
    maxTokens: context,
    compat: COMPAT,
  });
  const classifier = (id: string, context: number) => ({
    type: "classifier",
    id,
    name: id,
    api: "llama-cpp-classify",
    provider: "llama.cpp",
    baseUrl: url,
    input: ["text"],
    cost: FREE,
    contextWindow: context,
  });
  return {
    "llama.cpp": {
      models: [
        chat("qwen3-0.6b", 32768),
        chat("gemma-3-4b", 128000),
        classifier("qwen3-0.6b", 32768),
        classifier("gemma-3-4b", 128000),
      ],
      checkedAt: 1796207729742,
    },
  };
}

interface Setup {
  server: FakeLlamaServer;
  agent: AgentEnv;
}

/** The router, an agent folder with the cached catalog, and optional settings and auth.json. */
async function setup(
  options: { settings?: Record<string, unknown>; auth?: (url: string) => unknown } = {},
): Promise<Setup> {
  const server = await startFakeLlamaServer({ models: MODELS });
  const agent = await createAgentEnv(server.url, { settings: options.settings });
  await Deno.writeTextFile(
    join(agent.agentDir, "models-store.json"),
    JSON.stringify(storeAsWritten(server.url)),
  );
  if (options.auth) {
    await Deno.writeTextFile(join(agent.agentDir, "auth.json"), JSON.stringify(options.auth(server.url)));
  }
  return { server, agent };
}

async function teardown({ server, agent }: Setup): Promise<void> {
  await server.close();
  await agent.cleanup();
}

/** What the router saw of each request: method, path, key and model. */
function seen(server: FakeLlamaServer): string[] {
  return server.requests.map((request) =>
    `${request.method} ${request.url} ${request.headers.authorization ?? "-"} ${
      (request.body as { model?: string } | undefined)?.model ?? ""
    }`.trimEnd()
  );
}

/** Runs ours, then the reference, each with a fresh catalog cache; both outputs and requests. */
async function both(
  s: Setup,
  args: string[],
  env: Record<string, string>,
  turns: ScriptedTurn[] = [],
): Promise<
  { ours: { code: number; stdout: string; stderr: string; requests: string[] }; reference: typeof ours }
> {
  const run = async (reference: boolean) => {
    s.server.requests.length = 0;
    s.server.push(...turns);
    await Deno.writeTextFile(
      join(s.agent.agentDir, "models-store.json"),
      JSON.stringify(storeAsWritten(s.server.url)),
    );
    const result = await spawnPi(args, { env: { ...s.agent.env, ...env }, cwd: s.agent.cwd, reference });
    return { code: result.code, stdout: result.stdout, stderr: result.stderr, requests: seen(s.server) };
  };
  const ours = await run(false);
  const reference = await run(true);
  return { ours, reference };
}

Deno.test("LLAMA-CPP-01 -p with --model llama.cpp/<id>: the cached model's request reaches the router (key `local`), the answer is printed; start-up asks the router nothing; as pi 1.6.0", async () => {
  requireReferenceCli();
  const s = await setup();
  try {
    const { ours, reference } = await both(
      s,
      ["--model", "llama.cpp/gemma-3-4b", "-p", "hi"],
      { LLAMA_BASE_URL: s.server.url },
      [HELLO],
    );
    assertEquals(ours, reference);
    assertEquals([ours.code, ours.stdout, ours.stderr], [0, "Hello from llama\n", ""]);
    assertEquals(ours.requests, ["POST /v1/chat/completions Bearer local gemma-3-4b"]);
  } finally {
    await teardown(s);
  }
});

Deno.test("LLAMA-CPP-02 the router and key of a stored credential (auth.json `llama.cpp`), else LLAMA_BASE_URL with LLAMA_API_KEY; as pi 1.6.0", async () => {
  requireReferenceCli();
  const s = await setup({
    auth: (url) => ({
      "llama.cpp": { type: "api_key", key: "stored-key", env: { LLAMA_BASE_URL: `${url}/v1/` } },
    }),
  });
  try {
    const stored = await both(s, ["--model", "llama.cpp/qwen3-0.6b", "-p", "hi"], {}, [HELLO]);
    assertEquals(stored.ours, stored.reference);
    assertEquals(stored.ours.stdout, "Hello from llama\n");
    assertEquals(stored.ours.requests, ["POST /v1/chat/completions Bearer stored-key qwen3-0.6b"]);
    await Deno.remove(join(s.agent.agentDir, "auth.json"));
    const fromEnv = await both(
      s,
      ["--model", "llama.cpp/qwen3-0.6b", "-p", "hi"],
      { LLAMA_BASE_URL: s.server.url, LLAMA_API_KEY: "env-key" },
      [HELLO],
    );
    assertEquals(fromEnv.ours, fromEnv.reference);
    assertEquals(fromEnv.ours.requests, ["POST /v1/chat/completions Bearer env-key qwen3-0.6b"]);
  } finally {
    await teardown(s);
  }
});

Deno.test("LLAMA-CPP-03 --list-models lists the cached llama.cpp models when a router is configured, none without; the router is not asked; as pi 1.6.0", async () => {
  requireReferenceCli();
  const s = await setup();
  try {
    const configured = await both(s, ["--list-models", "llama"], { LLAMA_BASE_URL: s.server.url });
    assertEquals(configured.ours, configured.reference);
    assertEquals(
      configured.ours.stdout,
      [
        "provider   model       context  max-out  thinking  images",
        "llama.cpp  gemma-3-4b  128K     128K     no        no    ",
        "llama.cpp  qwen3-0.6b  32.8K    32.8K    no        no    ",
        "",
      ].join("\n"),
    );
    assertEquals(configured.ours.requests, []);
    const unconfigured = await both(s, ["--list-models", "llama"], {});
    assertEquals(unconfigured.ours, unconfigured.reference);
    assertEquals(unconfigured.ours.stdout, 'No models matching "llama"\n');
    assertEquals(unconfigured.ours.requests, []);
  } finally {
    await teardown(s);
  }
});

Deno.test("LLAMA-CPP-04 -builtin:llama.cpp in the settings' extensions removes the provider: no models listed, --model llama.cpp/<id> not found; as pi 1.6.0", async () => {
  requireReferenceCli();
  const s = await setup({ settings: { extensions: ["-builtin:llama.cpp"] } });
  try {
    const env = { LLAMA_BASE_URL: s.server.url };
    const list = await both(s, ["--list-models", "llama"], env);
    assertEquals(list.ours.stdout.split("\n")[0], list.reference.stdout.split("\n")[0]);
    assertEquals(list.ours.stdout.split("\n")[0], 'No models matching "llama"');
    const print = await both(s, ["--model", "llama.cpp/gemma-3-4b", "-p", "hi"], env);
    const errorLine = (text: string) => text.split("\n").filter((line) => line.startsWith("Error:"));
    assertEquals(errorLine(print.ours.stderr), errorLine(print.reference.stderr));
    assertEquals(errorLine(print.ours.stderr), [
      'Error: Model "llama.cpp/gemma-3-4b" not found. Use --list-models to see available models.',
    ]);
    assertEquals([print.ours.code, print.ours.requests], [1, []]);
  } finally {
    await teardown(s);
  }
});

Deno.test("LLAMA-CPP-05 a router that is down: -p fails with the connection error and exit code 1 (pi 1.6.0 appends Node's cause)", async () => {
  requireReferenceCli();
  const s = await setup({ settings: { retry: { enabled: false } } });
  try {
    const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
    const closed = `http://127.0.0.1:${(listener.addr as Deno.NetAddr).port}`;
    listener.close();
    const { ours, reference } = await both(s, ["--model", "llama.cpp/gemma-3-4b", "-p", "hi"], {
      LLAMA_BASE_URL: closed,
    });
    assertEquals([ours.code, ours.stdout, ours.stderr], [1, "", "Connection error.\n"]);
    assertEquals([reference.code, reference.stdout], [1, ""]);
    assert(reference.stderr.startsWith("Connection error."), reference.stderr);
  } finally {
    await teardown(s);
  }
});

Deno.test("LLAMA-CPP-06 --mode rpc with --model llama.cpp/<id>: the prompt is answered by the router", async () => {
  const s = await setup();
  try {
    s.server.push(HELLO);
    const pi = startPi(["--model", "llama.cpp/qwen3-0.6b", "--mode", "rpc", "--no-session"], {
      env: { ...s.agent.env, LLAMA_BASE_URL: s.server.url },
      cwd: s.agent.cwd,
      stdin: `${JSON.stringify({ id: "1", type: "prompt", message: "hi" })}\n`,
    });
    const result = await pi.result;
    assertEquals(result.code, 0, result.stderr);
    const events = result.stdout.trim().split("\n").map((line) => JSON.parse(line));
    const end = events.find((event) => event.type === "agent_end");
    const assistant = end.messages.find((message: { role: string }) => message.role === "assistant");
    assertEquals(
      [assistant.provider, assistant.model, assistant.content],
      ["llama.cpp", "qwen3-0.6b", [{ type: "text", text: "Hello from llama" }]],
    );
    assertEquals(seen(s.server), ["POST /v1/chat/completions Bearer local qwen3-0.6b"]);
  } finally {
    await teardown(s);
  }
});
