/**
 * The `google-vertex` wire API: Gemini on Vertex AI, as pi-ai 1.6.0 speaks it through
 * `@google/genai` (v1 API): the body and SSE decoding of the Gemini provider (google.ts), sent
 * either in express mode with an API key (`x-goog-api-key` to
 * `aiplatform.googleapis.com/v1/publishers/google/models/<id>`) or with Application Default
 * Credentials to `projects/<project>/locations/<location>/publishers/google/models/<id>` on the
 * global, multi-regional (`us`, `eu`) or regional host. A model base URL without `{location}`
 * replaces the host and the project path, as the SDK's collection-scoped base URL.
 *
 * @module
 */
import type { ApiProvider } from "../api_provider.ts";
import { type ProviderEnv, providerEnvValue } from "../env_api_keys.ts";
import type { AssistantMessageEventStream } from "../event_stream.ts";
import type { Context, Model, SimpleStreamOptions } from "../types.ts";
import {
  googleSimpleOptions,
  type GoogleWireRequest,
  type GoogleWireTarget,
  streamGoogleWire,
} from "./google.ts";
import type { GoogleOptions } from "./google_request.ts";
import { getVertexAccess } from "./google_vertex_auth.ts";

/** Options of the google-vertex `stream` (pi-ai 1.6.0's `GoogleVertexOptions`). */
export interface GoogleVertexOptions extends GoogleOptions {
  /** Google Cloud project; else GOOGLE_CLOUD_PROJECT or GCLOUD_PROJECT. */
  project?: string;
  /** Vertex location (`global`, `us-central1`, …); else GOOGLE_CLOUD_LOCATION. */
  location?: string;
}

const API_VERSION = "v1";
/** The key pi stores for Vertex set up with credentials instead of a key. */
const CREDENTIALS_MARKER = "gcp-vertex-credentials";
const MULTI_REGIONAL_LOCATIONS = new Set(["us", "eu"]);

/** The options' API key unless it is a placeholder for ambient credentials. */
export function vertexApiKey(apiKey: string | undefined): string | undefined {
  const key = apiKey?.trim();
  if (!key || key === CREDENTIALS_MARKER || /^<[^>]+>$/.test(key)) return undefined;
  return key;
}

/** The project (options, GOOGLE_CLOUD_PROJECT, GCLOUD_PROJECT), or 1.6.0's error. */
export function vertexProject(options: { project?: string; env?: ProviderEnv } | undefined): string {
  const project = options?.project || providerEnvValue("GOOGLE_CLOUD_PROJECT", options?.env) ||
    providerEnvValue("GCLOUD_PROJECT", options?.env);
  if (!project) {
    throw new Error(
      "Vertex AI requires a project ID. Set GOOGLE_CLOUD_PROJECT/GCLOUD_PROJECT or pass project in options.",
    );
  }
  return project;
}

/** The location (options, GOOGLE_CLOUD_LOCATION), or 1.6.0's error. */
export function vertexLocation(options: { location?: string; env?: ProviderEnv } | undefined): string {
  const location = options?.location || providerEnvValue("GOOGLE_CLOUD_LOCATION", options?.env);
  if (!location) {
    throw new Error("Vertex AI requires a location. Set GOOGLE_CLOUD_LOCATION or pass location in options.");
  }
  return location;
}

/** The host the SDK picks for a location. */
export function vertexHost(location: string): string {
  if (location === "global") return "https://aiplatform.googleapis.com";
  if (MULTI_REGIONAL_LOCATIONS.has(location)) return `https://aiplatform.${location}.rep.googleapis.com`;
  return `https://${location}-aiplatform.googleapis.com`;
}

/** A model base URL that replaces the SDK's host (one with `{location}` is only a template). */
function customBaseUrl(model: Model, env?: ProviderEnv): string | undefined {
  const trimmed = (model.baseUrl ?? "").trim();
  if (trimmed && !trimmed.includes("{location}")) return trimmed.replace(/\/+$/, "");
  // The SDK also honours this variable when pi passes no base URL of its own.
  return providerEnvValue("GOOGLE_VERTEX_BASE_URL", env)?.replace(/\/+$/, "") || undefined;
}

function includesApiVersion(baseUrl: string): boolean {
  try {
    return new URL(baseUrl).pathname.split("/").some((part) => /^v\d+(?:beta\d*)?$/.test(part));
  } catch {
    return /(?:^|\/)v\d+(?:beta\d*)?(?:\/|$)/.test(baseUrl);
  }
}

/** The model path of the SDK's `tModel` for Vertex. */
function modelPath(id: string): string {
  if (id.startsWith("publishers/") || id.startsWith("projects/") || id.startsWith("models/")) return id;
  if (id.includes("/")) {
    const [publisher, name] = id.split("/", 2);
    return `publishers/${publisher}/models/${name}`;
  }
  return `publishers/google/models/${id}`;
}

/**
 * The streaming URL for `modelId`: express mode (API key) has no project path; a model base URL
 * (not a `{location}` template) is used as is, with the version unless it names one.
 */
export function vertexStreamUrl(
  model: Model,
  modelId: string,
  auth: { apiKey: string } | { project: string; location: string },
  env?: ProviderEnv,
): string {
  const method = `${modelPath(modelId)}:streamGenerateContent?alt=sse`;
  const fromModel = (model.baseUrl ?? "").trim();
  const custom = customBaseUrl(model, env);
  if (custom) {
    const version = includesApiVersion(custom) ? "" : `/${API_VERSION}`;
    // pi's own base URL is collection-scoped (no project path); the SDK's env URL is not.
    const scoped = fromModel && !fromModel.includes("{location}");
    const project = !scoped && "project" in auth && !modelId.startsWith("projects/")
      ? `/projects/${auth.project}/locations/${auth.location}`
      : "";
    return `${custom}${version}${project}/${method}`;
  }
  if ("apiKey" in auth) return `https://aiplatform.googleapis.com/${API_VERSION}/${method}`;
  const project = modelId.startsWith("projects/")
    ? ""
    : `/projects/${auth.project}/locations/${auth.location}`;
  return `${vertexHost(auth.location)}/${API_VERSION}${project}/${method}`;
}

function targetFor(options: GoogleVertexOptions | undefined): GoogleWireTarget {
  return {
    api: "google-vertex",
    endedWithoutFinish: "Google Vertex stream ended without a finish reason",
    resolve: async (model, params): Promise<GoogleWireRequest> => {
      const apiKey = vertexApiKey(options?.apiKey);
      if (apiKey) {
        return {
          url: vertexStreamUrl(model, params.model, { apiKey }, options?.env),
          headers: { "x-goog-api-key": apiKey },
          secrets: [apiKey],
        };
      }
      const project = vertexProject(options);
      const location = vertexLocation(options);
      const access = await getVertexAccess(options?.env, options?.signal);
      return {
        url: vertexStreamUrl(model, params.model, { project, location }, options?.env),
        headers: { ...access.headers, authorization: `Bearer ${access.token}` },
        secrets: [access.token],
      };
    },
  };
}

/** Streams one Vertex AI request. */
export function streamGoogleVertex(
  model: Model,
  context: Context,
  options?: GoogleVertexOptions,
): AssistantMessageEventStream {
  return streamGoogleWire(model, context, options, targetFor(options));
}

/**
 * The unified entry: thinking as the Gemini provider; no key needed, since Application Default
 * Credentials stand in for one.
 */
export function streamSimpleGoogleVertex(
  model: Model,
  context: Context,
  options?: SimpleStreamOptions,
): AssistantMessageEventStream {
  return streamGoogleVertex(model, context, googleSimpleOptions(model, context, options, options?.apiKey));
}

/** The registry entry for `google-vertex`. */
export const provider: ApiProvider = {
  api: "google-vertex",
  stream: (model, context, options) =>
    streamGoogleVertex(model, context, options as GoogleVertexOptions | undefined),
  streamSimple: streamSimpleGoogleVertex,
};
