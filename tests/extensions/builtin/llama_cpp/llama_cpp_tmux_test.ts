/**
 * The built-in llama.cpp extension in the interactive mode (tmux), against the fake llama.cpp
 * router: start-up refreshes the provider's models from the router in the background and caches
 * them in models-store.json exactly as pi 1.6.0 does (both run the same way, the files compared);
 * `/llama` lists the router's models, loads one after asking about the loaded ones, and the loaded
 * model can be chosen with `/model` and answers a prompt.
 */
import { join } from "node:path";
import { assert, assertEquals } from "../../../support/assert.ts";
import { createAgentEnv } from "../../../support/agent_env.ts";
import { startFakeLlamaServer } from "../../../support/fake_llama_server.ts";
import { shellQuote } from "../../../support/interactive_scenario.ts";
import { MAIN_TS, requireReferenceCli } from "../../../support/spawn_pi.ts";
import { requireReference } from "../../../../scripts/reference/locate.ts";
import { TmuxPane } from "../../../support/tmux_pane.ts";

const STEP = 30_000;

const MODELS = [
  { id: "qwen3-0.6b", status: "loaded", nCtx: 32768, chatTemplate: "{% if enable_thinking %}…{% endif %}" },
  { id: "gemma-3-4b", status: "loaded", args: ["--ctx-size", "16384"] },
  { id: "phi-4-mini", status: "unloaded" },
  { id: "preset-model", status: "unloaded", source: "preset" },
];

/**
 * Starts pi (ours or 1.6.0) in a pane with the router configured (`configure: false`: not);
 * returns the pane and its folders.
 */
async function startWithRouter(reference: boolean, serverUrl: string, configure = true) {
  const agent = await createAgentEnv(serverUrl, { tempBase: "/tmp" });
  const env: Record<string, string> = { ...agent.env, ...(configure ? { LLAMA_BASE_URL: serverUrl } : {}) };
  delete env.NO_COLOR;
  const pane = await TmuxPane.start({ env, cwd: agent.cwd, width: 110, height: 34 });
  const ref = reference ? requireReference() : undefined;
  const command = ref
    ? `${shellQuote(ref.node)} ${shellQuote(ref.cli)}`
    : `${shellQuote(Deno.execPath())} run --quiet --allow-all --no-prompt ${shellQuote(MAIN_TS)}`;
  await pane.command(`clear; ${command}`);
  return { agent, pane };
}

/**
 * Waits for pi's footer: the catalog can be cached before pi has made the terminal raw, and keys typed then
 * reach it as one cooked line whose Enter is a line feed, which the editor does not submit.
 */
async function piReady(pane: TmuxPane): Promise<void> {
  await pane.waitFor((t) => t.includes("/200k"), STEP, "pi's first frame");
}

/** The `llama.cpp` entry of models-store.json once written, with the time and the URL masked. */
async function storedCatalog(agentDir: string, serverUrl: string): Promise<unknown> {
  const path = join(agentDir, "models-store.json");
  let text = "";
  const deadline = Date.now() + STEP;
  while (!text.includes('"llama.cpp"')) {
    if (Date.now() > deadline) throw new Error(`no cached llama.cpp catalog in ${path}: ${text}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
    text = await Deno.readTextFile(path).catch(() => "");
  }
  const entry = JSON.parse(text.replaceAll(serverUrl, "<router>"))["llama.cpp"];
  return { ...entry, checkedAt: typeof entry.checkedAt };
}

Deno.test("LLAMA-CPP-07 interactive start-up caches the router's models in models-store.json as pi 1.6.0 does", async () => {
  requireReferenceCli();
  const catalogs: unknown[] = [];
  for (const reference of [false, true]) {
    const server = await startFakeLlamaServer({ models: MODELS, autoload: true });
    const { agent, pane } = await startWithRouter(reference, server.url);
    try {
      catalogs.push(await storedCatalog(agent.agentDir, server.url));
      // Only the catalog, the router's autoload and the loaded models' templates were asked for.
      assertEquals(
        server.requests.map((request) => request.url).sort(),
        [
          "/models",
          "/props",
          "/props?model=gemma-3-4b&autoload=false",
          "/props?model=qwen3-0.6b&autoload=false",
        ],
      );
    } finally {
      await pane.close();
      await agent.cleanup();
      await server.close();
    }
  }
  assertEquals(catalogs[0], catalogs[1]);
  const models = (catalogs[0] as { models: { id: string; type?: string; reasoning?: boolean }[] }).models;
  // Loaded models and (with router autoload) the unloaded preset; qwen's template thinks.
  assertEquals(
    models.map((model) => `${model.type ?? "chat"} ${model.id} ${model.reasoning ?? ""}`.trimEnd()),
    [
      "chat qwen3-0.6b true",
      "chat gemma-3-4b false",
      "chat preset-model false",
      "classifier qwen3-0.6b",
      "classifier gemma-3-4b",
      "classifier preset-model",
    ],
  );
});

Deno.test("LLAMA-CPP-08 /llama lists the router's models, loads one (asking about the loaded ones); /model then picks it and it answers", async () => {
  const server = await startFakeLlamaServer({
    models: MODELS.slice(0, 3),
    turns: [{ content: [{ type: "text", text: "Hello from llama" }] }],
  });
  const { agent, pane } = await startWithRouter(false, server.url);
  try {
    await storedCatalog(agent.agentDir, server.url);
    await piReady(pane);
    await pane.command("/llama");
    let screen = await pane.waitFor((t) => t.includes("Download model…"), STEP, "the model list");
    const list = screen.split("\n").slice(
      screen.split("\n").findIndex((l) => l.includes("llama.cpp models")),
    );
    assertEquals(list.slice(0, 7), [
      " llama.cpp models",
      ` ${server.url}`,
      "",
      " → gemma-3-4b                            loaded · 16k context",
      "   qwen3-0.6b                            loaded · 33k context",
      "   phi-4-mini",
      "   Download model…                       Hugging Face owner/repository[:quant]",
    ]);
    await pane.keys("Down", "Down", "Enter");
    screen = await pane.waitFor((t) => t.includes("2 models are loaded"), STEP, "the loaded-models question");
    assert(screen.includes("Keep loaded and load"), screen);
    await pane.keys("Down", "Enter");
    screen = await pane.waitFor((t) => /phi-4-mini\s+loaded/.test(t), STEP, "phi loaded in the list");
    assert(screen.includes(" Loaded phi-4-mini"), screen);
    assertEquals(
      server.requests.filter((r) => r.method === "POST").map((r) => `${r.url} ${JSON.stringify(r.body)}`),
      ['/models/load {"model":"phi-4-mini"}'],
    );
    await pane.keys("Escape");
    await pane.waitFor((t) => !t.includes("Download model…"), STEP, "the list closed");
    // The model argument completes from the provider's models: the first Enter takes the completion.
    await pane.type("/model llama.cpp/phi-4-mini");
    await pane.waitFor((t) => /→ phi-4-mini\s+llama\.cpp/.test(t), STEP, "the model completion");
    await pane.keys("Enter");
    await pane.waitFor((t) => !/→ phi-4-mini\s+llama\.cpp/.test(t), STEP, "the completion taken");
    await pane.keys("Enter");
    await pane.waitFor((t) => t.includes("Model: phi-4-mini"), STEP, "the model change");
    await pane.command("hi");
    await pane.waitFor((t) => t.includes("Hello from llama"), STEP, "the answer");
    const chat = server.requests.filter((r) => r.url === "/v1/chat/completions");
    assertEquals(chat.map((r) => (r.body as { model: string }).model), ["phi-4-mini"]);
  } finally {
    await pane.close();
    await agent.cleanup();
    await server.close();
  }
});

Deno.test("LLAMA-CPP-09 a router that is down: start-up says nothing; /llama offers Retry and Close with 1.6.0's message", async () => {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const closed = `http://127.0.0.1:${(listener.addr as Deno.NetAddr).port}`;
  listener.close();
  const { agent, pane } = await startWithRouter(false, closed);
  try {
    await pane.waitFor((t) => t.includes("escape interrupt"), STEP, "the start-up screen");
    // The background refresh fails quietly; give it time to fail.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    assert(!/llama|Could not/i.test(await pane.screen()), await pane.screen());
    await pane.type("/llama");
    await pane.waitFor((t) => /→ llama\s/.test(t), STEP, "the command completion");
    await pane.keys("Enter");
    const screen = await pane.waitFor((t) => t.includes("Close"), STEP, "the Retry/Close dialog");
    const lines = screen.split("\n");
    const from = lines.findIndex((line) => line === " llama.cpp unavailable");
    assert(from >= 0, screen);
    assertEquals(lines.slice(from, from + 7), [
      " llama.cpp unavailable",
      ` ${closed}`,
      "",
      ` Could not reach llama.cpp server at ${closed}: connect ECONNREFUSED ${
        closed.slice("http://".length)
      }`,
      "",
      " → Retry",
      "   Close",
    ]);
    await pane.keys("Down", "Enter");
    await pane.waitFor((t) => !t.includes("llama.cpp unavailable"), STEP, "the dialog closed");
  } finally {
    await pane.close();
    await agent.cleanup();
  }
});

/** The rows of `screen` from the first one that includes `from` to the next rule (`───`). */
function block(screen: string, from: string): string[] {
  const lines = screen.split("\n");
  const start = lines.findIndex((line) => line.includes(from));
  if (start < 0) return [];
  const end = lines.findIndex((line, index) => index > start && line.startsWith("───"));
  return lines.slice(start, end < 0 ? undefined : end);
}

Deno.test("LLAMA-CPP-10 /login llama.cpp asks for the router's URL and an optional key, checks the router and stores the credential, as pi 1.6.0", async () => {
  requireReferenceCli();
  const results: { dialog: string[]; notices: string[]; auth: unknown; requests: string[] }[] = [];
  for (const reference of [false, true]) {
    const server = await startFakeLlamaServer({ models: MODELS.slice(0, 2) });
    const { agent, pane } = await startWithRouter(reference, server.url, false);
    try {
      await pane.waitFor((t) => t.includes("escape interrupt"), STEP, "the start-up screen");
      await pane.type("/login llama.cpp");
      await pane.waitFor((t) => /→ llama\.cpp\s+API key/.test(t), STEP, "the provider completion");
      await pane.keys("Enter");
      await pane.waitFor((t) => !/→ llama\.cpp\s+API key/.test(t), STEP, "the completion taken");
      await pane.keys("Enter");
      await pane.waitFor((t) => t.includes("llama.cpp server URL"), STEP, "the URL prompt");
      await pane.type(`${server.url}/v1/`);
      await pane.keys("Enter");
      await pane.waitFor((t) => t.includes("API key (optional)"), STEP, "the key prompt");
      const dialog = block((await pane.screen()).replaceAll(server.url, "<router>"), "Login to llama.cpp");
      await pane.type("secret-key");
      await pane.keys("Enter");
      const screen = await pane.waitFor((t) => t.includes("Credentials saved to"), STEP, "the login result");
      const notices = screen.replaceAll(agent.root, "<root>").split("\n").filter((line) =>
        line.includes("llama.cpp") && !line.includes("Login to")
      );
      const auth = JSON.parse(
        (await Deno.readTextFile(join(agent.agentDir, "auth.json"))).replaceAll(server.url, "<router>"),
      );
      const requests = server.requests.slice(0, 1).map((r) => `${r.url} ${r.headers.authorization ?? "-"}`);
      results.push({ dialog, notices, auth, requests });
    } finally {
      await pane.close();
      await agent.cleanup();
      await server.close();
    }
  }
  assertEquals(results[0], results[1]);
  assertEquals(results[0].auth, {
    "llama.cpp": { type: "api_key", key: "secret-key", env: { LLAMA_BASE_URL: "<router>" } },
  });
  assertEquals(results[0].requests, ["/models Bearer secret-key"]);
  // A model was selected already (the agent folder's models.json has some): no guidance follows.
  assertEquals(results[0].notices, [
    " Saved API key for llama.cpp. Credentials saved to <root>/agent/auth.json",
  ]);
});

Deno.test("LLAMA-CPP-11 with -builtin:llama.cpp the interactive mode asks the router nothing, /login does not offer llama.cpp and /llama is an ordinary prompt", async () => {
  const server = await startFakeLlamaServer({ models: MODELS.slice(0, 2) });
  const agent = await createAgentEnv(server.url, {
    tempBase: "/tmp",
    settings: { extensions: ["-builtin:llama.cpp"] },
  });
  const env: Record<string, string> = { ...agent.env, LLAMA_BASE_URL: server.url };
  delete env.NO_COLOR;
  const pane = await TmuxPane.start({ env, cwd: agent.cwd, width: 110, height: 34 });
  try {
    await pane.command(
      `clear; ${shellQuote(Deno.execPath())} run --quiet --allow-all --no-prompt ${shellQuote(MAIN_TS)}`,
    );
    await pane.waitFor((t) => t.includes("escape interrupt"), STEP, "the start-up screen");
    // Not among the commands: the selected model (fake-anthropic/test-model) gets it as a prompt.
    await pane.command("/llama");
    await pane.waitFor((t) => /\n \/llama\n/.test(t), STEP, "the prompt in the chat");
    assert(!(await pane.screen()).includes("llama.cpp models"));
    await new Promise((resolve) => setTimeout(resolve, 500));
    assertEquals(server.requests.map((r) => `${r.method} ${r.path}`), ["POST /v1/messages"]);
    await pane.type("/login llama");
    await new Promise((resolve) => setTimeout(resolve, 1000));
    assert(!/→ llama\.cpp\s+API key/.test(await pane.screen()), await pane.screen());
    const store = await Deno.readTextFile(join(agent.agentDir, "models-store.json")).catch(() => "");
    assert(!store.includes("llama.cpp"), store);
  } finally {
    await pane.close();
    await agent.cleanup();
    await server.close();
  }
});

/** A fake Hugging Face Hub API: one search and one repository's files; records the paths asked. */
function startFakeHub(asked: string[]): Deno.HttpServer<Deno.NetAddr> {
  return Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, (request) => {
    const url = new URL(request.url);
    asked.push(`${url.pathname}${url.search}`);
    if (url.pathname === "/api/models") {
      return Response.json([
        { id: "Qwen/Qwen3-0.6B-GGUF", downloads: 123456 },
        { id: "unsloth/Qwen3-0.6B-GGUF", downloads: 2000 },
      ]);
    }
    if (url.pathname === "/api/models/Qwen/Qwen3-0.6B-GGUF") {
      return Response.json({
        id: "Qwen/Qwen3-0.6B-GGUF",
        gated: false,
        siblings: [
          { rfilename: "Qwen3-0.6B-Q8_0.gguf", size: 639446688 },
          { rfilename: "Qwen3-0.6B-Q4_K_M.gguf", size: 484220000 },
          { rfilename: "mmproj-F16.gguf", size: 1000 },
          { rfilename: "README.md", size: 10 },
        ],
      });
    }
    return Response.json({ error: "Repository not found" }, { status: 404 });
  });
}

Deno.test("LLAMA-CPP-12 /llama's Download model…: a Hugging Face search, the quantization (Q4_K_M first, with sizes), the router downloads it and lists it", async () => {
  const server = await startFakeLlamaServer({ models: MODELS.slice(0, 2) });
  const asked: string[] = [];
  const hub = startFakeHub(asked);
  const agent = await createAgentEnv(server.url, { tempBase: "/tmp" });
  const env: Record<string, string> = {
    ...agent.env,
    LLAMA_BASE_URL: server.url,
    HF_ENDPOINT: `http://127.0.0.1:${hub.addr.port}`,
  };
  delete env.NO_COLOR;
  const pane = await TmuxPane.start({ env, cwd: agent.cwd, width: 110, height: 34 });
  try {
    await pane.command(
      `clear; ${shellQuote(Deno.execPath())} run --quiet --allow-all --no-prompt ${shellQuote(MAIN_TS)}`,
    );
    await storedCatalog(agent.agentDir, server.url);
    await piReady(pane);
    await pane.command("/llama");
    await pane.waitFor((t) => t.includes("Download model…"), STEP, "the model list");
    await pane.keys("Down", "Down", "Enter");
    await pane.waitFor(
      (t) => t.includes("Model name or owner/repository[:quant]"),
      STEP,
      "the search prompt",
    );
    await pane.type("qwen3");
    await pane.keys("Enter");
    let screen = await pane.waitFor((t) => t.includes("123456 downloads"), STEP, "the search results");
    assert(screen.includes("→ Qwen/Qwen3-0.6B-GGUF  123456 downloads"), screen);
    assert(screen.includes("  unsloth/Qwen3-0.6B-GGUF  2000 downloads"), screen);
    await pane.keys("Enter");
    screen = await pane.waitFor((t) => t.includes("Select quantization"), STEP, "the quantizations");
    const rows = screen.split("\n").filter((line) => /Q4_K_M|Q8_0/.test(line)).map((line) => line.trim());
    assertEquals(rows, ["→ Q4_K_M · 461.8 MiB · recommended", "Q8_0 · 609.8 MiB"]);
    await pane.keys("Enter");
    screen = await pane.waitFor(
      (t) => t.includes(" Downloaded Qwen/Qwen3-0.6B-GGUF:Q4_K_M") && t.includes("Download model…"),
      STEP,
      "the downloaded model in the list",
    );
    assert(/\n\s+Qwen\/Qwen3-0\.6B-GGUF:Q4_K_M\n/.test(screen), screen);
    assertEquals(asked, [
      "/api/models?search=qwen3&filter=gguf&sort=downloads&direction=-1&limit=20",
      "/api/models/Qwen/Qwen3-0.6B-GGUF?blobs=true",
    ]);
    assertEquals(
      server.requests.filter((r) => r.method === "POST").map((r) => `${r.url} ${JSON.stringify(r.body)}`),
      ['/models {"model":"Qwen/Qwen3-0.6B-GGUF:Q4_K_M"}'],
    );
  } finally {
    await pane.close();
    await agent.cleanup();
    await server.close();
    await hub.shutdown();
  }
});

Deno.test("LLAMA-CPP-13 a load shows its progress; Escape asks whether to stop, Yes unloads it at the router and the list shows it unloaded", async () => {
  const server = await startFakeLlamaServer({ models: MODELS.slice(0, 3), loadDelayMs: 60_000 });
  const { agent, pane } = await startWithRouter(false, server.url);
  try {
    await storedCatalog(agent.agentDir, server.url);
    await piReady(pane);
    await pane.command("/llama");
    await pane.waitFor((t) => t.includes("Download model…"), STEP, "the model list");
    await pane.keys("Down", "Down", "Enter");
    await pane.waitFor((t) => t.includes("2 models are loaded"), STEP, "the loaded-models question");
    await pane.keys("Down", "Enter");
    // "Starting…" until the router took the load request.
    const screen = await pane.waitFor(
      (t) => t.includes("escape/ctrl+c stop") && block(t, "Loading model")[3] === " Loading model",
      STEP,
      "the progress",
    );
    assertEquals(block(screen, "Loading model").slice(0, 6), [
      " Loading model",
      " phi-4-mini",
      "",
      " Loading model",
      "",
      " escape/ctrl+c stop",
    ]);
    await pane.keys("Escape");
    await pane.waitFor((t) => t.includes("Stop loading?"), STEP, "the stop question");
    await pane.keys("Enter");
    await pane.waitFor((t) => /→ gemma-3-4b[\s\S]*\n\s+phi-4-mini\n/.test(t), STEP, "the list again");
    assertEquals(
      server.requests.filter((r) => r.method === "POST").map((r) => `${r.url} ${JSON.stringify(r.body)}`),
      ['/models/load {"model":"phi-4-mini"}', '/models/unload {"model":"phi-4-mini"}'],
    );
  } finally {
    await pane.close();
    await agent.cleanup();
    await server.close();
  }
});

/** A dialog's rows from its title to its key hints, without the selection arrow and column padding. */
function dialogRows(screen: string, title: string): string[] {
  const rows = block(screen, title);
  const end = rows.findIndex((row) => /escape\/ctrl\+c (close|cancel)/.test(row));
  return rows.slice(0, end < 0 ? undefined : end).map((row) =>
    row.trim().replace(/^→ /, "").split(/\s{2,}/).join(" | ")
  )
    .filter((row) => row !== "");
}

Deno.test("LLAMA-CPP-15 /llama's model list and its loaded-models question hold pi 1.6.0's rows (models, order, states, contexts, choices)", async () => {
  requireReferenceCli();
  const seenBy: string[][][] = [];
  for (const reference of [false, true]) {
    const server = await startFakeLlamaServer({ models: MODELS.slice(0, 3) });
    const { agent, pane } = await startWithRouter(reference, server.url);
    try {
      await storedCatalog(agent.agentDir, server.url);
      await pane.type("/llama");
      await pane.waitFor((t) => /→ llama\s/.test(t), STEP, "the command completion");
      await pane.keys("Enter");
      const list = await pane.waitFor((t) => t.includes("Download model…"), STEP, "the model list");
      await pane.keys("Down", "Down", "Enter");
      const question = await pane.waitFor((t) => t.includes("Keep loaded and load"), STEP, "the question");
      seenBy.push([
        dialogRows(list.replaceAll(server.url, "<router>"), "llama.cpp models"),
        dialogRows(question, "2 models are loaded"),
      ]);
    } finally {
      await pane.close();
      await agent.cleanup();
      await server.close();
    }
  }
  assertEquals(seenBy[0], seenBy[1]);
  assertEquals(seenBy[0], [
    [
      "llama.cpp models",
      "<router>",
      "gemma-3-4b | loaded · 16k context",
      "qwen3-0.6b | loaded · 33k context",
      "phi-4-mini",
      "Download model… | Hugging Face owner/repository[:quant]",
    ],
    ["2 models are loaded", "Unload all and load", "Keep loaded and load", "Cancel"],
  ]);
});
