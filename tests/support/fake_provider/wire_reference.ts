/**
 * Runs requests of any wire API through our LLM layer and through the reference pi-ai 1.6.0
 * (its Node, tests/ai/fixtures/capture_stream.mjs), each side against its own fake provider
 * with the same scripted turn, and hands back what each side saw: events (partials left out),
 * the final message and the requests the server received.
 *
 * @module
 */
import { findReference } from "../../../scripts/reference/locate.ts";
import { stream, streamSimple } from "../../../src/ai/stream.ts";
import type { Context, Model, SimpleStreamOptions } from "../../../src/ai/types.ts";
import type { RecordedRequest, ScriptedTurn } from "./script.ts";
import { type FakeProvider, startFakeProvider } from "./server.ts";

/** One request to run on both sides. */
export interface WireCase {
  name: string;
  turn: ScriptedTurn;
  /** More turns after `turn`, for a client that retries. */
  moreTurns?: ScriptedTurn[];
  context: Context;
  /** The model, given the fake server's URL. */
  model: (url: string) => Model;
  /** Options of `streamSimple`, or of the API's own `stream` (with `simple: false`). */
  options?: Omit<SimpleStreamOptions, "toolChoice"> & Record<string, unknown>;
  /** Abort once this many events arrived. */
  abortAfterEvents?: number;
  /** Use streamSimple (default true). */
  simple?: boolean;
}

/** What one side saw. */
export interface WireOutcome {
  events: Record<string, unknown>[];
  final: Record<string, unknown>;
  requests: RecordedRequest[];
}

/** Runs one case through our stream functions against a fresh fake server. */
export async function runOursWire(c: WireCase): Promise<WireOutcome> {
  const server = await startFakeProvider([c.turn, ...c.moreTurns ?? []]);
  try {
    const controller = new AbortController();
    const options = { ...c.options, signal: controller.signal } as SimpleStreamOptions;
    const model = c.model(server.url);
    const s = c.simple === false
      ? stream(model, c.context, options)
      : streamSimple(model, c.context, options);
    const events: Record<string, unknown>[] = [];
    for await (const event of s) {
      const { partial: _partial, ...rest } = event as unknown as Record<string, unknown>;
      events.push(rest);
      if (events.length === c.abortAfterEvents) controller.abort();
    }
    const final = await s.result() as unknown as Record<string, unknown>;
    return { events: structuredClone(events), final: structuredClone(final), requests: server.requests };
  } finally {
    await server.close();
  }
}

/** One case as the reference's capture script (tests/ai/fixtures/capture_stream.mjs) takes it. */
export interface ReferenceCaptureInput {
  name: string;
  simple: boolean;
  model: unknown;
  context: unknown;
  options: Record<string, unknown>;
  abortAfterEvents?: number;
}

/**
 * Streams each input through pi-ai 1.6.0 (the capture script under the reference's Node) and pairs
 * its events and final message with the requests the input's own fake server received.
 */
export async function captureWithReference(
  node: string,
  nodeModules: string,
  input: ReferenceCaptureInput[],
  servers: readonly Pick<FakeProvider, "requests">[],
): Promise<WireOutcome[]> {
  const child = new Deno.Command(node, {
    args: [new URL("../../ai/fixtures/capture_stream.mjs", import.meta.url).pathname],
    env: { PI_REFERENCE_DIR: nodeModules.replace(/\/node_modules$/, "") },
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(JSON.stringify(input)));
  await writer.close();
  const result = await child.output();
  if (result.code !== 0) {
    throw new Error(`reference capture failed: ${new TextDecoder().decode(result.stderr)}`);
  }
  const lines = new TextDecoder().decode(result.stdout).trim().split("\n").filter(Boolean);
  return lines.map((line, i) => {
    const parsed = JSON.parse(line) as { events: Record<string, unknown>[]; final: Record<string, unknown> };
    return { ...parsed, requests: servers[i].requests };
  });
}

/** Runs the cases through the reference pi-ai; undefined when the reference is not installed. */
export async function runReferenceWire(cases: WireCase[]): Promise<WireOutcome[] | undefined> {
  const ref = findReference();
  if (!ref) return undefined;
  const servers = await Promise.all(cases.map((c) => startFakeProvider([c.turn, ...c.moreTurns ?? []])));
  try {
    const input = cases.map((c, i) => ({
      name: c.name,
      simple: c.simple !== false,
      model: c.model(servers[i].url),
      context: c.context,
      options: c.options ?? {},
      abortAfterEvents: c.abortAfterEvents,
    }));
    return await captureWithReference(ref.node, ref.nodeModules, input, servers);
  } finally {
    await Promise.all(servers.map((s) => s.close()));
  }
}

/** Replaces values that differ run to run (times, durations) with placeholders. */
export function normaliseWire<T>(value: T): T {
  return JSON.parse(JSON.stringify(value), (key, v) => {
    if (key === "timestamp" && typeof v === "number") return "<timestamp>";
    if (key === "durationMs" && typeof v === "number") return "<durationMs>";
    return v;
  });
}

/** A 1×1 PNG, for image cases. */
export const PNG_1PX =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";

/** A tool with one required string parameter. */
export const READ_TOOL = {
  name: "read",
  description: "Read a file",
  parameters: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
};

/** A system prompt, one user message and the read tool. */
export const SIMPLE_CONTEXT: Context = {
  systemPrompt: "You are terse.",
  messages: [{ role: "user", content: "Say hi", timestamp: 1 }],
  tools: [READ_TOOL],
};

/**
 * Applies our deliberate wording differences to the reference's side: every error message of
 * its events and final message that `rewrite` changes.
 */
export function rewriteReferenceErrors(
  outcome: WireOutcome,
  rewrite: (message: string, stopReason: unknown) => string,
): WireOutcome {
  const fix = (m: Record<string, unknown>) =>
    typeof m.errorMessage === "string" ? { ...m, errorMessage: rewrite(m.errorMessage, m.stopReason) } : m;
  const events = outcome.events.map((e) =>
    e.type === "error" ? { ...e, error: fix(e.error as Record<string, unknown>) } : e
  );
  return { ...outcome, events, final: fix(outcome.final) };
}
