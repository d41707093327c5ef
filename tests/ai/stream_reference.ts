/**
 * Runs the same requests through our LLM layer and through the reference pi-ai 1.6.0 (with the
 * reference's Node), each against its own fake provider with the same script, and hands back
 * both sides' events, final messages and request bodies, normalised for comparison.
 *
 * @module
 */
import { findReference } from "../../scripts/reference/locate.ts";
import { stream, streamSimple } from "../../src/ai/stream.ts";
import type { AssistantMessageEvent, Context, Model, SimpleStreamOptions } from "../../src/ai/types.ts";
import { type RecordedRequest, type ScriptedTurn, startFakeProvider } from "../support/fake_provider/mod.ts";
import { captureWithReference } from "../support/fake_provider/wire_reference.ts";

/** The four wire APIs we implement. */
export const WIRE_APIS = [
  "anthropic-messages",
  "openai-completions",
  "openai-responses",
  "google-generative-ai",
] as const;

/** One of {@link WIRE_APIS}. */
export type WireApi = typeof WIRE_APIS[number];

/** One request to run on both sides. */
export interface StreamCase {
  name: string;
  api: WireApi;
  turn: ScriptedTurn;
  context: Context;
  options?: SimpleStreamOptions;
  /** Abort once this many events arrived. */
  abortAfterEvents?: number;
  /** Use streamSimple (default true). */
  simple?: boolean;
  /** Model fields over the defaults (e.g. reasoning, provider). */
  model?: Partial<Model>;
}

/** What one side saw. */
export interface StreamOutcome {
  events: Record<string, unknown>[];
  final: Record<string, unknown>;
  requests: RecordedRequest[];
}

/** A model of `api` pointed at `url`, the fake server. */
export function fakeModel(api: WireApi, url: string, extra: Partial<Model> = {}): Model {
  const baseUrl = api === "anthropic-messages"
    ? url
    : api === "google-generative-ai"
    ? `${url}/v1beta`
    : `${url}/v1`;
  const provider = api === "anthropic-messages"
    ? "anthropic"
    : api === "google-generative-ai"
    ? "google"
    : "openai";
  return {
    id: "fake-model",
    name: "Fake",
    api,
    provider,
    baseUrl,
    reasoning: false,
    input: ["text", "image"],
    cost: { input: 1, output: 2, cacheRead: 0.5, cacheWrite: 1.25 },
    contextWindow: 100000,
    maxTokens: 8192,
    ...extra,
  };
}

function stripPartial(event: AssistantMessageEvent): Record<string, unknown> {
  const { partial: _partial, ...rest } = event as AssistantMessageEvent & { partial?: unknown };
  return rest as Record<string, unknown>;
}

/** Runs the cases through our stream functions. */
export async function runOurs(cases: StreamCase[]): Promise<StreamOutcome[]> {
  const out: StreamOutcome[] = [];
  for (const c of cases) {
    const server = await startFakeProvider([c.turn]);
    try {
      const controller = new AbortController();
      const model = fakeModel(c.api, server.url, c.model);
      const options = { apiKey: "test-key", ...c.options, signal: controller.signal };
      const s = c.simple === false
        ? stream(model, c.context, options)
        : streamSimple(model, c.context, options);
      const events: Record<string, unknown>[] = [];
      for await (const event of s) {
        events.push(stripPartial(event));
        if (events.length === c.abortAfterEvents) controller.abort();
      }
      const final = await s.result() as unknown as Record<string, unknown>;
      out.push({ events: structuredClone(events), final: structuredClone(final), requests: server.requests });
    } finally {
      await server.close();
    }
  }
  return out;
}

/** Runs the cases through the reference pi-ai; undefined when the reference is not installed. */
export async function runReference(cases: StreamCase[]): Promise<StreamOutcome[] | undefined> {
  const ref = findReference();
  if (!ref) return undefined;
  const servers = await Promise.all(cases.map((c) => startFakeProvider([c.turn])));
  try {
    const input = cases.map((c, i) => ({
      name: c.name,
      simple: c.simple !== false,
      model: fakeModel(c.api, servers[i].url, c.model),
      context: c.context,
      options: { apiKey: "test-key", ...c.options },
      abortAfterEvents: c.abortAfterEvents,
    }));
    return await captureWithReference(ref.node, ref.nodeModules, input, servers);
  } finally {
    await Promise.all(servers.map((s) => s.close()));
  }
}

/** Replaces values that differ run to run (times, durations) with placeholders. */
export function normalise<T>(value: T): T {
  return JSON.parse(JSON.stringify(value), (key, v) => {
    if (key === "timestamp" && typeof v === "number") return "<timestamp>";
    if (key === "durationMs" && typeof v === "number") return "<durationMs>";
    // The fake server numbers its responses process-wide.
    if (typeof v === "string") {
      return v.replace(/fake\d{6}/g, "fake<n>").replace(/^fakeResp\d+$/, "fakeResp<n>");
    }
    return v;
  });
}

/** Request headers compared with the reference (transport and SDK identity headers are not). */
export const COMPARED_HEADERS = [
  "anthropic-beta",
  "authorization",
  "x-api-key",
  "x-goog-api-key",
  "session-id",
  "session_id",
  "x-session-id",
  "x-session-affinity",
  "x-client-request-id",
];

/** What is compared of the first request: path with query, the chosen headers, the body. */
export function requestView(request: RecordedRequest | undefined): Record<string, unknown> | null {
  if (!request) return null;
  const headers = Object.fromEntries(
    COMPARED_HEADERS.filter((h) => request.headers[h] !== undefined).map((h) => [h, request.headers[h]]),
  );
  return { url: request.url, headers, body: request.body };
}
