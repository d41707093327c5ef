/**
 * Shared pieces of the anthropic-messages provider tests: a hand-built model, a fake-server
 * wrapper, and an event collector that reduces a stream to (type, contentIndex) pairs.
 *
 * @module
 */
import { streamAnthropic } from "../../../src/ai/providers/anthropic.ts";
import type { AnthropicOptions } from "../../../src/ai/providers/anthropic.ts";
import type { AssistantMessageEventStream } from "../../../src/ai/event_stream.ts";
import type { AssistantMessageEvent, Context, Model } from "../../../src/ai/types.ts";
import { type FakeProvider, type ScriptedTurn, startFakeProvider } from "../../support/fake_provider/mod.ts";

/** A Claude Sonnet 4.5-like model (reasoning, images, real prices) served from `baseUrl`. */
export function model(baseUrl: string, extra: Partial<Model> = {}): Model {
  return {
    id: "claude-sonnet-4-5",
    name: "Claude Sonnet 4.5",
    api: "anthropic-messages",
    provider: "anthropic",
    baseUrl,
    reasoning: true,
    input: ["text", "image"],
    cost: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
    contextWindow: 200000,
    maxTokens: 64000,
    ...extra,
  };
}

/** A one-parameter tool as the agent would declare it. */
export const readTool = {
  name: "read",
  description: "Read a file",
  parameters: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
};

/** A system prompt and one user message. */
export const hello: Context = {
  systemPrompt: "You are helpful.",
  messages: [{ role: "user", content: "hello", timestamp: 1 }],
};

/** An event reduced to its type and, for block events, its contentIndex. */
export type Seen = [string, number?];

/** Drains a stream: every event, the reduced sequence, and the final message. */
export async function collect(stream: AssistantMessageEventStream) {
  const events: AssistantMessageEvent[] = [];
  for await (const event of stream) events.push(event);
  const final = await stream.result();
  const seq: Seen[] = events.map((e) => ("contentIndex" in e ? [e.type, e.contentIndex] : [e.type]));
  return { events, seq, final };
}

/** Runs `fn` against a fake server with `turns`, closing it afterwards. */
export async function withServer(
  turns: ScriptedTurn[],
  fn: (server: FakeProvider) => Promise<void>,
): Promise<void> {
  const server = await startFakeProvider(turns);
  try {
    await fn(server);
  } finally {
    await server.close();
  }
}

/** Streams against `server` with a test API key and no client retries unless overridden. */
export function run(
  server: FakeProvider,
  context: Context = hello,
  options: AnthropicOptions = {},
  m?: Partial<Model>,
) {
  return collect(
    streamAnthropic(model(server.url, m), context, { apiKey: "sk-ant-api-test", maxRetries: 0, ...options }),
  );
}

/** A recorded JSON request body. */
// deno-lint-ignore no-explicit-any
export type Body = Record<string, any>;
/** The JSON body of the `i`-th recorded request. */
export const bodyOf = (server: FakeProvider, i = 0) => server.requests[i].body as Body;
