/**
 * A fake llama.cpp router (`llama serve` without a model) on 127.0.0.1, speaking the parts of
 * llama-server's HTTP API pi's `builtin:llama.cpp` uses: `GET /health`, `GET /models` (the router
 * catalog: `{data: [{id, status: {value, args?, failed?}, …}]}`), `GET /v1/models`, `GET /props`
 * (`models_autoload`, `chat_template` with `?model=`), `POST /models/load` and `/models/unload`
 * (status changes after a short delay, as a real load takes time), `POST /models` (a Hugging Face
 * download: the model shows as `downloading` with progress, then `unloaded`), `GET /models/sse`
 * (status and download events), and `POST /v1/chat/completions` streamed as OpenAI chat completion chunks (the fake
 * provider's encoder, driven by scripted turns).
 *
 * Can also run alone for manual comparisons: `deno run -A tests/support/fake_llama_server.ts`
 * prints its URL and serves until killed.
 *
 * @module
 */
import { completionsChunks } from "./fake_provider/openai_completions.ts";
import type { RecordedRequest, ScriptedTurn } from "./fake_provider/script.ts";

/** One model the router knows, as `GET /models` lists it. */
export interface FakeLlamaModel {
  id: string;
  /** `loaded`, `unloaded`, `loading`, `sleeping`, … (default `unloaded`). */
  status?: string;
  /** Router arguments of the model instance (`--ctx-size` is read for the context window). */
  args?: string[];
  /** `meta.n_ctx` once loaded. */
  nCtx?: number;
  /** `preset` or `cache` (llama.cpp's `source`). */
  source?: string;
  /** The model's chat template (`GET /props?model=`); with `enable_thinking` pi treats it as reasoning. */
  chatTemplate?: string;
  /** When set, a load fails with this exit code. */
  failLoadWithExit?: number;
}

/** A running fake llama.cpp router. */
export interface FakeLlamaServer {
  /** `http://127.0.0.1:PORT` (no trailing slash, no `/v1`). */
  url: string;
  /** Every request received, in order. */
  requests: RecordedRequest[];
  /** The router's models (mutable: tests change statuses between runs). */
  models: Map<string, FakeLlamaModel>;
  /** Queues chat completion turns. */
  push(...turns: ScriptedTurn[]): void;
  close(): Promise<void>;
}

/** Options of {@link startFakeLlamaServer}. */
export interface FakeLlamaOptions {
  models?: FakeLlamaModel[];
  turns?: ScriptedTurn[];
  /** The router's `models_autoload` (default false, as `--no-models-autoload`). */
  autoload?: boolean;
  /** When set, every request must carry `Authorization: Bearer <apiKey>` (as `--api-key`). */
  apiKey?: string;
  /** How long a load takes (ms, default 150); a download takes three times that. */
  loadDelayMs?: number;
}

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
}

/** llama-server's error shape. */
function errorResponse(status: number, message: string, type = "invalid_request_error"): Response {
  return json(status, { error: { code: status, message, type } });
}

function catalogEntry(model: FakeLlamaModel & { progress?: unknown }): Record<string, unknown> {
  const status = model.status ?? "unloaded";
  return {
    id: model.id,
    object: "model",
    owned_by: "llamacpp",
    created: 1700000000,
    in_cache: model.source !== "preset",
    path: `/models/${model.id}.gguf`,
    ...(model.source ? { source: model.source } : {}),
    status: {
      value: status,
      ...(model.args ? { args: model.args } : {}),
      ...(status === "downloading" && model.progress ? { progress: model.progress } : {}),
    },
    ...(status === "loaded" && model.nCtx
      ? { meta: { n_ctx: model.nCtx, n_ctx_train: model.nCtx * 4 } }
      : {}),
  };
}

/** Starts the fake router on a random port. */
export function startFakeLlamaServer(options: FakeLlamaOptions = {}): Promise<FakeLlamaServer> {
  const models = new Map((options.models ?? []).map((model) => [model.id, { ...model }]));
  const queue = [...(options.turns ?? [])];
  const requests: RecordedRequest[] = [];
  const sseClients = new Set<ReadableStreamDefaultController<Uint8Array>>();
  const encoder = new TextEncoder();
  const loadDelay = options.loadDelayMs ?? 150;
  const failed = new Map<string, number>();
  // Loads in progress (an unload stops one, as the router kills the model's process).
  const loading = new Map<string, ReturnType<typeof setTimeout>>();

  const broadcast = (event: Record<string, unknown>) => {
    const frame = encoder.encode(`data: ${JSON.stringify(event)}\n\n`);
    for (const client of sseClients) {
      try {
        client.enqueue(frame);
      } catch {
        sseClients.delete(client);
      }
    }
  };
  const setStatus = (id: string, status: string) => {
    const model = models.get(id);
    if (!model) return;
    model.status = status;
    broadcast({ model: id, event: "model_status", data: { status } });
  };

  const handle = async (request: Request): Promise<Response> => {
    const url = new URL(request.url);
    const raw = await request.text();
    let body: unknown = raw || undefined;
    try {
      body = raw ? JSON.parse(raw) : undefined;
    } catch { /* keep the text */ }
    const headers: Record<string, string> = {};
    request.headers.forEach((value, key) => (headers[key] = value));
    const recorded: RecordedRequest = {
      method: request.method,
      path: url.pathname,
      url: `${url.pathname}${url.search}`,
      headers,
      body,
    };
    requests.push(recorded);
    if (
      options.apiKey && url.pathname !== "/health" && headers.authorization !== `Bearer ${options.apiKey}`
    ) {
      return errorResponse(401, "Invalid API Key", "authentication_error");
    }
    const route = `${request.method} ${url.pathname}`;
    switch (route) {
      case "GET /health":
        return json(200, { status: "ok" });
      case "GET /models":
      case "GET /v1/models":
        return json(200, {
          object: "list",
          data: [...models.values()].map((model) => {
            const entry = catalogEntry(model);
            const exit = failed.get(model.id);
            if (exit !== undefined) {
              (entry.status as Record<string, unknown>).failed = true;
              (entry.status as Record<string, unknown>).exit_code = exit;
            }
            return entry;
          }),
        });
      case "GET /props": {
        const id = url.searchParams.get("model");
        if (!id) return json(200, { role: "router", models_autoload: options.autoload ?? false });
        const model = models.get(id);
        if (!model) return errorResponse(404, "model not found", "not_found_error");
        if (model.status !== "loaded") return errorResponse(400, "model is not loaded");
        return json(200, {
          model_path: `/models/${id}.gguf`,
          chat_template: model.chatTemplate ?? "{{ messages }}",
          default_generation_settings: { n_ctx: model.nCtx ?? 4096 },
        });
      }
      case "POST /models/load": {
        const id = (body as { model?: unknown } | undefined)?.model;
        const model = typeof id === "string" ? models.get(id) : undefined;
        if (!model) return errorResponse(400, `model not found: ${String(id)}`);
        if (model.status === "loaded") return errorResponse(400, "model is already loaded");
        failed.delete(model.id);
        setStatus(model.id, "loading");
        loading.set(
          model.id,
          setTimeout(() => {
            loading.delete(model.id);
            if (model.failLoadWithExit !== undefined) {
              failed.set(model.id, model.failLoadWithExit);
              setStatus(model.id, "unloaded");
            } else setStatus(model.id, "loaded");
          }, loadDelay),
        );
        return json(200, { success: true });
      }
      case "POST /models/unload": {
        const id = (body as { model?: unknown } | undefined)?.model;
        const model = typeof id === "string" ? models.get(id) : undefined;
        if (!model) return errorResponse(400, `model not found: ${String(id)}`);
        if (model.status !== "loaded" && model.status !== "sleeping" && model.status !== "loading") {
          return errorResponse(400, "model is not running");
        }
        clearTimeout(loading.get(model.id));
        loading.delete(model.id);
        setStatus(model.id, "unloaded");
        return json(200, { success: true });
      }
      case "POST /models": {
        const id = (body as { model?: unknown } | undefined)?.model;
        if (typeof id !== "string" || !id.includes("/")) return errorResponse(400, "invalid model");
        const total = 4 * 1024 * 1024 * 1024;
        const progress = (done: number) => ({ [`${id.split(":")[0]}.gguf`]: { done, total } });
        models.set(id, { id, status: "downloading" });
        const entry = models.get(id)!;
        (entry as FakeLlamaModel & { progress?: unknown }).progress = progress(total / 4);
        broadcast({ model: id, event: "download_progress", data: progress(total / 4) });
        loading.set(
          `download ${id}`,
          setTimeout(() => {
            loading.delete(`download ${id}`);
            broadcast({ model: id, event: "download_progress", data: progress(total) });
            entry.status = "unloaded";
            broadcast({ model: id, event: "download_finished", data: {} });
          }, loadDelay * 3),
        );
        return json(200, { success: true });
      }
      case "GET /models/sse": {
        let self: ReadableStreamDefaultController<Uint8Array> | undefined;
        const stream = new ReadableStream<Uint8Array>({
          start(controller) {
            self = controller;
            sseClients.add(controller);
          },
          cancel() {
            if (self) sseClients.delete(self);
          },
        });
        return new Response(stream, { headers: { "content-type": "text/event-stream" } });
      }
      case "POST /v1/chat/completions":
      case "POST /chat/completions": {
        const id = (body as { model?: unknown } | undefined)?.model;
        const model = typeof id === "string" ? models.get(id) : undefined;
        if (!model) return errorResponse(400, `model '${String(id)}' not found`);
        if (model.status !== "loaded" && model.status !== "sleeping") {
          if (!options.autoload) return errorResponse(400, "model is not loaded");
          setStatus(model.id, "loaded");
        }
        const turn = queue.shift();
        if (!turn) return errorResponse(500, "fake llama.cpp: script exhausted", "server_error");
        const chunks = completionsChunks(turn, recorded);
        return new Response(chunks.join(""), {
          headers: { "content-type": "text/event-stream", "cache-control": "no-cache" },
        });
      }
      default:
        return errorResponse(404, "File Not Found", "not_found_error");
    }
  };

  return new Promise((resolve) => {
    const server = Deno.serve({
      hostname: "127.0.0.1",
      port: 0,
      onListen: () => {},
    }, handle);
    const port = server.addr.port;
    resolve({
      url: `http://127.0.0.1:${port}`,
      requests,
      models,
      push: (...turns) => void queue.push(...turns),
      close: async () => {
        for (const timer of loading.values()) clearTimeout(timer);
        for (const client of sseClients) {
          try {
            client.close();
          } catch { /* gone */ }
        }
        sseClients.clear();
        await server.shutdown();
      },
    });
  });
}

if (import.meta.main) {
  const server = await startFakeLlamaServer({
    models: [
      { id: "qwen3-0.6b", status: "loaded", nCtx: 32768 },
      { id: "gemma-3-4b", status: "unloaded" },
    ],
    turns: Array.from(
      { length: 20 },
      () => ({ content: [{ type: "text" as const, text: "Hello from llama" }] }),
    ),
  });
  console.log(server.url);
  // Each request on stdout, to see what a client asked for.
  let seen = 0;
  setInterval(() => {
    for (; seen < server.requests.length; seen++) {
      const r = server.requests[seen];
      const { messages: _messages, tools: _tools, ...rest } = (r.body ?? {}) as Record<string, unknown>;
      console.log(r.method, r.url, r.headers.authorization ?? "", r.body ? JSON.stringify(rest) : "");
    }
  }, 100);
}
