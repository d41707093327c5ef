/**
 * The Hugging Face look-ups of `/llama`'s "Download model…": a search of GGUF repositories by
 * downloads (`GET /api/models?search=…&filter=gguf&sort=downloads&direction=-1&limit=20`) and a
 * repository's quantizations with their sizes (`GET /api/models/<id>?blobs=true`), as pi 1.6.0
 * asks. The token is `HF_TOKEN`, else the first of `$HF_TOKEN_PATH`, `$HF_HOME/token`,
 * `$XDG_CACHE_HOME/huggingface/token` and `~/.cache/huggingface/token`; without one the search
 * still works, with lower rate limits. The download itself is the llama.cpp router's. `HF_ENDPOINT`
 * (Hugging Face's variable for a mirror) replaces `https://huggingface.co` (1.6.0 does not read it).
 *
 * @module
 */
import { join } from "../../../util/path.ts";

const DEFAULT_HUGGING_FACE_URL = "https://huggingface.co";
const REQUEST_TIMEOUT_MS = 15_000;
const QUANTIZATION =
  /(?:^|[-_.])((?:UD-)?(?:IQ\d(?:_[A-Z0-9]+)+|Q\d(?:_[A-Z0-9]+)+|BF16|F16|F32|MXFP\d(?:_[A-Z0-9]+)*))$/iu;
const SHARD_SUFFIX = /-\d{5}-of-\d{5}$/u;

/** A search result. */
export interface HuggingFaceModel {
  id: string;
  downloads: number;
}

/** A repository: its id, whether access must be granted, its quantizations (Q4_K_M first, then by size). */
export interface HuggingFaceDetails {
  id: string;
  gated: false | "auto" | "manual";
  quantizations: { name: string; size?: number }[];
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null;
}

async function readToken(path: string): Promise<string | undefined> {
  try {
    return (await Deno.readTextFile(path)).trim() || undefined;
  } catch {
    return undefined;
  }
}

/** The Hugging Face token of the environment or its token files, if any. */
export async function findHuggingFaceToken(
  env: (name: string) => string | undefined,
): Promise<string | undefined> {
  const direct = env("HF_TOKEN")?.trim();
  if (direct) return direct;
  const hfHome = env("HF_HOME");
  const cache = env("XDG_CACHE_HOME");
  const home = env("HOME");
  const paths = [
    env("HF_TOKEN_PATH"),
    hfHome ? join(hfHome, "token") : undefined,
    cache ? join(cache, "huggingface", "token") : undefined,
    home ? join(home, ".cache", "huggingface", "token") : undefined,
  ].filter((path): path is string => Boolean(path));
  for (const path of new Set(paths)) {
    const token = await readToken(path);
    if (token) return token;
  }
  return undefined;
}

/** Talks to the Hugging Face Hub API. */
export class HuggingFaceClient {
  readonly #baseUrl: string;

  /** A client sending `token` when given. */
  constructor(private readonly token?: string, baseUrl = DEFAULT_HUGGING_FACE_URL) {
    this.#baseUrl = baseUrl.replace(/\/+$/u, "");
  }

  async #request(path: string, signal?: AbortSignal): Promise<unknown> {
    const headers = new Headers();
    if (this.token) headers.set("Authorization", `Bearer ${this.token}`);
    const timeout = AbortSignal.timeout(REQUEST_TIMEOUT_MS);
    const response = await fetch(`${this.#baseUrl}${path}`, {
      headers,
      signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
    });
    let payload: unknown;
    try {
      payload = await response.json();
    } catch {
      payload = undefined;
    }
    if (response.ok) return payload;
    if (response.status === 429) {
      const delay = Number(response.headers.get("retry-after")) ||
        Number(response.headers.get("ratelimit")?.match(/(?:^|;)t=(\d+)/u)?.[1]);
      throw new Error(
        delay ? `Hugging Face rate limit reached; retry in ${delay}s` : "Hugging Face rate limit reached",
      );
    }
    const error = isRecord(payload) ? payload.error : undefined;
    throw new Error(
      typeof error === "string" && error ? error : `Hugging Face returned HTTP ${response.status}`,
    );
  }

  /** GGUF repositories matching `query`, most downloaded first. */
  async search(query: string, signal?: AbortSignal): Promise<HuggingFaceModel[]> {
    const params = new URLSearchParams({
      search: query,
      filter: "gguf",
      sort: "downloads",
      direction: "-1",
      limit: "20",
    });
    const payload = await this.#request(`/api/models?${params}`, signal);
    if (!Array.isArray(payload)) throw new Error("Hugging Face returned invalid search results");
    return payload.flatMap((value) =>
      isRecord(value) && typeof value.id === "string"
        ? [{ id: value.id, downloads: typeof value.downloads === "number" ? value.downloads : 0 }]
        : []
    );
  }

  /** A repository's gating and the quantizations of its GGUF files (shards summed, mmproj files left out). */
  async details(id: string, signal?: AbortSignal): Promise<HuggingFaceDetails> {
    const encoded = id.split("/").map(encodeURIComponent).join("/");
    const payload = await this.#request(`/api/models/${encoded}?blobs=true`, signal);
    if (!isRecord(payload)) throw new Error("Hugging Face returned invalid model details");
    const sizes = new Map<string, { total: number; complete: boolean }>();
    for (const file of Array.isArray(payload.siblings) ? payload.siblings : []) {
      if (!isRecord(file) || typeof file.rfilename !== "string") continue;
      if (!file.rfilename.toLowerCase().endsWith(".gguf")) continue;
      const name = file.rfilename.split("/").at(-1) ?? "";
      if (name.toLowerCase().startsWith("mmproj")) continue;
      const quantization = name.slice(0, -5).replace(SHARD_SUFFIX, "").match(QUANTIZATION)?.[1]
        ?.toUpperCase();
      if (!quantization) continue;
      const current = sizes.get(quantization) ?? { total: 0, complete: true };
      if (typeof file.size === "number") current.total += file.size;
      else current.complete = false;
      sizes.set(quantization, current);
    }
    const quantizations = [...sizes]
      .map(([name, size]) => ({ name, size: size.complete ? size.total : undefined }))
      .sort((left, right) => {
        if (left.name === "Q4_K_M") return -1;
        if (right.name === "Q4_K_M") return 1;
        return (left.size ?? Number.MAX_SAFE_INTEGER) - (right.size ?? Number.MAX_SAFE_INTEGER) ||
          left.name.localeCompare(right.name);
      });
    return {
      id: typeof payload.id === "string" ? payload.id : id,
      gated: payload.gated === "auto" || payload.gated === "manual" ? payload.gated : false,
      quantizations,
    };
  }
}
