/**
 * The HTTP client of a llama.cpp router (`llama serve` without a model): its catalog
 * (`GET /models`), per-model properties (`GET /props?model=…&autoload=false`), loading and
 * unloading (`POST /models/load`, `POST /models/unload`), downloads (`POST /models`) and the
 * status stream (`GET /models/sse`). Every request times out after 15 s and sends the API key as a
 * bearer token when there is one, as pi 1.6.0's built-in llama.cpp extension does.
 *
 * @module
 */
import { formatBytes, normalizeLlamaServerUrl } from "./server_url.ts";

/** A model of the router's catalog (`GET /models` → `data[]`), the fields pi reads. */
export interface RouterModel {
  id: string;
  /** `loaded`, `unloaded`, `loading`, `sleeping`, `downloading`, … */
  status: {
    value: string;
    args?: string[];
    failed?: boolean;
    exit_code?: number;
    progress?: unknown;
  };
  /** `preset` for models of a `--models-preset` file. */
  source?: string;
  /** Runtime facts of a loaded model. */
  meta?: { n_ctx?: number; n_ctx_train?: number };
  /** Modalities (llama.cpp 0.6.0 reports `decisions` for decision models). */
  architecture?: { input_modalities?: string[]; output_modalities?: string[] };
}

/** `GET /props`: the router's `models_autoload`, a loaded model's `chat_template`. */
export interface RouterProps {
  models_autoload?: boolean;
  chat_template?: string;
}

/** Progress of a load or download, for the user. */
export interface LlamaProgress {
  message: string;
  /** 0…1 when known. */
  ratio?: number;
  /** e.g. "1.50 GiB / 4.00 GiB". */
  detail?: string;
}

/** One event of `GET /models/sse`. */
interface RouterEvent {
  model: string;
  event: string;
  data?: unknown;
}

const REQUEST_TIMEOUT_MS = 15_000;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null;
}

/** The message of llama-server's `{error: {message}}` body, else `fallback`. */
function errorMessage(payload: unknown, fallback: string): string {
  const error = isRecord(payload) ? payload.error : undefined;
  const message = isRecord(error) ? error.message : undefined;
  return typeof message === "string" && message ? message : fallback;
}

function isRouterModel(value: unknown): value is RouterModel {
  return isRecord(value) && typeof value.id === "string" && isRecord(value.status) &&
    typeof value.status.value === "string";
}

/** Waits `ms`, or rejects when `signal` aborts first. */
function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason ?? new Error("Cancelled"));
    const abort = () => {
      clearTimeout(timer);
      reject(signal?.reason ?? new Error("Cancelled"));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", abort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", abort, { once: true });
  });
}

/** A load's progress from a status event (`progress.current`/`stages`/`value`). */
function loadProgress(data: unknown): LlamaProgress | undefined {
  const progress = isRecord(data) ? data.progress : undefined;
  if (!isRecord(progress)) return undefined;
  const stage = typeof progress.current === "string"
    ? progress.current
    : typeof progress.stage === "string"
    ? progress.stage
    : undefined;
  const stages = Array.isArray(progress.stages) ? progress.stages.filter((s) => typeof s === "string") : [];
  const stageRatio = typeof progress.value === "number"
    ? Math.max(0, Math.min(1, progress.value))
    : undefined;
  let ratio = stageRatio;
  const index = stage ? stages.indexOf(stage) : -1;
  if (index >= 0) ratio = (index + (stageRatio ?? 0)) / stages.length;
  return { message: stage ? `Loading ${stage.replaceAll("_", " ")}` : "Loading model", ratio };
}

/** A download's progress: the sum of `{done, total}` over its files. */
function downloadProgress(data: unknown): LlamaProgress | undefined {
  if (!isRecord(data)) return undefined;
  const files = isRecord(data.progress) ? data.progress : data;
  let done = 0;
  let total = 0;
  for (const entry of Object.values(files)) {
    if (!isRecord(entry) || typeof entry.done !== "number" || typeof entry.total !== "number") continue;
    done += entry.done;
    total += entry.total;
  }
  if (total <= 0) return undefined;
  return {
    message: "Downloading model",
    ratio: done / total,
    detail: `${formatBytes(done)} / ${formatBytes(total)}`,
  };
}

/**
 * The network-level reason a fetch of `url` failed, in Node's words where pi 1.6.0 shows them
 * (`connect ECONNREFUSED 127.0.0.1:9931`); Deno puts the reason in the message, Node in `cause`.
 */
function connectionDetail(error: unknown, url: string): string {
  const cause = error instanceof Error ? error.cause : undefined;
  const message = cause instanceof Error && cause.message
    ? cause.message
    : error instanceof Error
    ? error.message
    : String(error);
  if (/connection refused/i.test(message)) {
    const { hostname, port, protocol } = new URL(url);
    return `connect ECONNREFUSED ${hostname}:${port || (protocol === "https:" ? "443" : "80")}`;
  }
  return message;
}

/** Talks to one llama.cpp router. */
export class LlamaClient {
  /** The router's URL without `/v1` or a trailing slash. */
  readonly serverUrl: string;

  /** A client of `serverUrl` (normalised), sending `apiKey` when given. */
  constructor(serverUrl: string, readonly apiKey?: string) {
    this.serverUrl = normalizeLlamaServerUrl(serverUrl);
  }

  /** fetch, with a failure to connect named by server and cause. */
  async #fetch(path: string, init: RequestInit): Promise<Response> {
    try {
      return await fetch(`${this.serverUrl}${path}`, init);
    } catch (error) {
      if (init.signal?.aborted) throw error;
      const detail = connectionDetail(error, this.serverUrl);
      throw new Error(`Could not reach llama.cpp server at ${this.serverUrl}: ${detail}`, {
        cause: error,
      });
    }
  }

  #headers(json: boolean): Headers {
    const headers = new Headers();
    if (json) headers.set("Content-Type", "application/json");
    if (this.apiKey) headers.set("Authorization", `Bearer ${this.apiKey}`);
    return headers;
  }

  async #request(path: string, init: { method?: string; body?: unknown; signal?: AbortSignal } = {}) {
    const timeout = AbortSignal.timeout(REQUEST_TIMEOUT_MS);
    const response = await this.#fetch(path, {
      method: init.method ?? "GET",
      headers: this.#headers(init.body !== undefined),
      ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}),
      signal: init.signal ? AbortSignal.any([init.signal, timeout]) : timeout,
    });
    let payload: unknown;
    try {
      payload = await response.json();
    } catch {
      payload = undefined;
    }
    if (!response.ok) throw new Error(errorMessage(payload, `llama.cpp returned HTTP ${response.status}`));
    return payload;
  }

  /** The router's catalog; a server not in router mode is an error. */
  async list(options: { reload?: boolean; signal?: AbortSignal } = {}): Promise<RouterModel[]> {
    const payload = await this.#request(`/models${options.reload ? "?reload=1" : ""}`, {
      signal: options.signal,
    });
    const data = isRecord(payload) ? payload.data : undefined;
    if (!Array.isArray(data)) throw new Error("llama.cpp returned an invalid model catalog");
    if (!data.every(isRouterModel)) throw new Error("Server is not running in llama.cpp router mode");
    return data;
  }

  /** The router's properties, or a loaded model's (without waking or loading it). */
  async props(options: { model?: string; signal?: AbortSignal } = {}): Promise<RouterProps> {
    const query = options.model ? `?${new URLSearchParams({ model: options.model, autoload: "false" })}` : "";
    const payload = await this.#request(`/props${query}`, { signal: options.signal });
    if (!isRecord(payload)) return {};
    return {
      ...(typeof payload.models_autoload === "boolean" ? { models_autoload: payload.models_autoload } : {}),
      ...(typeof payload.chat_template === "string" ? { chat_template: payload.chat_template } : {}),
    };
  }

  /** Asks the router to load `model`. */
  async load(model: string, signal?: AbortSignal): Promise<void> {
    await this.#request("/models/load", { method: "POST", body: { model }, signal });
  }

  /** Asks the router to unload `model`. */
  async unload(model: string, signal?: AbortSignal): Promise<void> {
    await this.#request("/models/unload", { method: "POST", body: { model }, signal });
  }

  /** Unloads `model` and waits until the catalog shows it unloaded (or gone). */
  async unloadAndWait(model: string, signal?: AbortSignal): Promise<void> {
    await this.unload(model, signal);
    for (;;) {
      const entry = (await this.list({ signal })).find((candidate) => candidate.id === model);
      if (!entry || entry.status.value === "unloaded") return;
      await sleep(100, signal);
    }
  }

  /** Asks the router to download `model` (`owner/repository[:quant]`) from Hugging Face. */
  async download(model: string, signal?: AbortSignal): Promise<void> {
    await this.#request("/models", { method: "POST", body: { model }, signal });
  }

  /** Reads `GET /models/sse` until it ends or `signal` aborts; malformed events are skipped. */
  async watch(onEvent: (event: RouterEvent) => void, signal: AbortSignal): Promise<void> {
    const response = await this.#fetch("/models/sse", { headers: this.#headers(false), signal });
    if (!response.ok || !response.body) throw new Error(`llama.cpp SSE returned HTTP ${response.status}`);
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = "";
    for (;;) {
      const chunk = await reader.read();
      if (chunk.done) return;
      buffer += chunk.value.replaceAll("\r\n", "\n");
      for (let end = buffer.indexOf("\n\n"); end >= 0; end = buffer.indexOf("\n\n")) {
        const data = buffer.slice(0, end).split("\n").filter((line) => line.startsWith("data:"))
          .map((line) => line.slice(5).trimStart()).join("\n");
        buffer = buffer.slice(end + 2);
        if (!data) continue;
        try {
          const event = JSON.parse(data);
          if (isRecord(event) && typeof event.model === "string" && typeof event.event === "string") {
            onEvent(event as unknown as RouterEvent);
          }
        } catch {
          // Polling the catalog stays authoritative.
        }
      }
    }
  }

  /** Follows the status stream for the life of `run`, which polls the catalog. */
  async #watching<T>(
    onEvent: (event: RouterEvent) => void,
    signal: AbortSignal | undefined,
    run: () => Promise<T>,
  ): Promise<T> {
    const watcher = new AbortController();
    const stop = () => watcher.abort();
    signal?.addEventListener("abort", stop, { once: true });
    void this.watch(onEvent, watcher.signal).catch(() => {});
    try {
      return await run();
    } finally {
      signal?.removeEventListener("abort", stop);
      watcher.abort();
    }
  }

  /** Loads `model` and waits until the router reports it loaded; a failed load throws. */
  loadAndWait(
    model: string,
    onProgress: (progress: LlamaProgress) => void,
    signal?: AbortSignal,
  ): Promise<RouterModel> {
    let eventLoaded = false;
    let eventError: string | undefined;
    return this.#watching(
      (event) => {
        if (
          event.model !== model || (event.event !== "model_status" && event.event !== "status_change")
        ) return;
        const status = isRecord(event.data) ? event.data.status : undefined;
        if (status === "loaded") eventLoaded = true;
        if (status === "unloaded") eventError = "Model failed to load";
        const progress = loadProgress(event.data);
        if (progress) onProgress(progress);
      },
      signal,
      async () => {
        await this.load(model, signal);
        onProgress({ message: "Loading model" });
        for (;;) {
          if (signal?.aborted) throw signal.reason ?? new Error("Cancelled");
          const entry = (await this.list({ signal })).find((candidate) => candidate.id === model);
          if (entry?.status.value === "loaded") return entry;
          if (eventLoaded && !entry) return { id: model, status: { value: "loaded" } };
          if (entry?.status.failed || eventError) {
            throw new Error(
              entry?.status.exit_code === undefined
                ? eventError ?? "Model failed to load"
                : `Model exited with code ${entry.status.exit_code}`,
            );
          }
          await sleep(250, signal);
        }
      },
    );
  }

  /** Downloads `model` and waits until the router has it; returns the reloaded catalog. */
  downloadAndWait(
    model: string,
    onProgress: (progress: LlamaProgress) => void,
    signal?: AbortSignal,
  ): Promise<RouterModel[]> {
    let finished = false;
    let failure: string | undefined;
    let sawDownloading = false;
    let polls = 0;
    return this.#watching(
      (event) => {
        if (event.model !== model) return;
        if (event.event === "download_finished") finished = true;
        if (event.event === "download_failed") failure = errorMessage(event.data, "Download failed");
        if (event.event === "download_progress") {
          sawDownloading = true;
          const progress = downloadProgress(event.data);
          if (progress) onProgress(progress);
        }
      },
      signal,
      async () => {
        await this.download(model, signal);
        onProgress({ message: "Downloading model" });
        for (;;) {
          if (signal?.aborted) throw signal.reason ?? new Error("Cancelled");
          if (failure) throw new Error(failure);
          const entry = (await this.list({ signal })).find((candidate) => candidate.id === model);
          polls++;
          if (entry?.status.value === "downloading") {
            sawDownloading = true;
            const progress = downloadProgress(entry.status.progress);
            if (progress) onProgress(progress);
          } else if (finished || (entry && (sawDownloading || polls >= 2))) {
            return this.list({ reload: true, signal });
          }
          await sleep(500, signal);
        }
      },
    );
  }
}
