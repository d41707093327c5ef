/**
 * PROV-02 for OpenAI Codex Responses over its WebSocket transport (pi-ai 1.6.0's default,
 * "auto"): ours against pi-ai 1.6.0 on the same fake server, which serves the socket
 * (tests/support/fake_provider/websocket.ts). Per case the upgrade request's headers, the
 * `response.create` frame, the events and the final message must be equal. A socket that fails
 * before anything streamed falls back to server-sent events. Needs the reference.
 */
import { join } from "node:path";
import { assert, assertEquals } from "../support/assert.ts";
import { createAgentEnv } from "../support/agent_env.ts";
import { spawnPi } from "../support/spawn_pi.ts";
import type { RecordedRequest } from "../support/fake_provider/mod.ts";
import { responsesChunks } from "../support/fake_provider/openai_responses.ts";
import {
  rewriteReferenceErrors,
  runOursWire,
  runReferenceWire,
  SIMPLE_CONTEXT,
  type WireCase,
  type WireOutcome,
} from "../support/fake_provider/wire_reference.ts";
import { closeCodexWebSockets } from "../../src/ai/providers/openai_codex_websocket.ts";
import { complete } from "../../src/ai/stream.ts";
import { normalise } from "./stream_reference.ts";
import { CODEX_TOKEN, codexModel, GPT6_COMPAT, REASONING_TURN, TEXT_TURN } from "./codex_support.ts";
import type { Model } from "../../src/ai/types.ts";

const KEY = { apiKey: CODEX_TOKEN };

const CASES: WireCase[] = [
  {
    name: "text with reasoning on a session's socket",
    turn: REASONING_TURN,
    context: SIMPLE_CONTEXT,
    model: codexModel("gpt-5.6-sol"),
    options: { ...KEY, reasoning: "high", sessionId: "ws-session-1" },
  },
  {
    name: "catalog compat, parallel tool calls, explicit websocket transport",
    turn: {
      content: [
        { type: "toolCall", id: "call_a|fc_a", name: "read", arguments: { path: "x.ts" } },
        { type: "toolCall", id: "call_b|fc_b", name: "read", arguments: { path: "y.ts" } },
      ],
    },
    context: SIMPLE_CONTEXT,
    model: codexModel("gpt-6-sol", { compat: GPT6_COMPAT as unknown as Model["compat"] }),
    options: { ...KEY, reasoning: "medium", sessionId: "ws-session-2", transport: "websocket" },
  },
  {
    name: "no session: a one-off socket with a fresh request id",
    turn: TEXT_TURN,
    context: SIMPLE_CONTEXT,
    model: codexModel("gpt-5.6-sol"),
    options: KEY,
  },
  {
    name: "a server error event is the reply's error, no fallback",
    turn: { fault: { kind: "http", status: 429, message: "Rate limit reached for requests" } },
    context: SIMPLE_CONTEXT,
    model: codexModel("gpt-5.6-sol"),
    options: { ...KEY, sessionId: "ws-session-3" },
  },
  {
    name: "error event mid-stream",
    turn: {
      ...TEXT_TURN,
      fault: { kind: "error_event", message: "The model produced invalid content.", afterChunks: 5 },
    },
    context: SIMPLE_CONTEXT,
    model: codexModel("gpt-5.6-sol"),
    options: { ...KEY, sessionId: "ws-session-4" },
  },
  {
    name: "abort mid-stream",
    turn: { ...TEXT_TURN, fault: { kind: "stall", afterChunkContaining: "output_text.delta" } },
    context: SIMPLE_CONTEXT,
    model: codexModel("gpt-5.6-sol"),
    options: { ...KEY, sessionId: "ws-session-5" },
    abortAfterEvents: 3,
  },
];

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const HEADERS = [
  "authorization",
  "chatgpt-account-id",
  "originator",
  "openai-beta",
  "session-id",
  "x-client-request-id",
];

function requestView(request: RecordedRequest | undefined): Record<string, unknown> | null {
  if (!request) return null;
  const headers = Object.fromEntries(
    HEADERS.map((h) => [h, UUID.test(request.headers[h] ?? "") ? "<uuidv7>" : request.headers[h]]),
  );
  return { method: request.method, url: request.url, headers, body: request.body };
}

/** An abort mid-stream reads "Request was aborted" on every API (docs/differences.md). */
function withDeliberateDifferences(outcome: WireOutcome): WireOutcome {
  return rewriteReferenceErrors(
    outcome,
    (message, stopReason) => stopReason === "aborted" ? "Request was aborted" : message,
  );
}

Deno.test("PROV-02 OpenAI Codex Responses over WebSocket: frames, events and errors equal pi-ai 1.6.0's", async () => {
  const reference = await runReferenceWire(CASES);
  if (!reference) throw new Error("the reference pi 1.6.0 is not installed (scripts/reference/locate.ts)");
  for (let i = 0; i < CASES.length; i++) {
    const c = CASES[i];
    let ours: WireOutcome;
    try {
      ours = await runOursWire(c);
    } finally {
      closeCodexWebSockets();
    }
    const theirs = withDeliberateDifferences(reference[i]);
    assertEquals(ours.requests.map((r) => r.method), ["WS"], `${c.name}: one request, over the socket`);
    assertEquals(
      normalise(requestView(ours.requests[0])),
      normalise(requestView(theirs.requests[0])),
      c.name,
    );
    assertEquals(ours.requests.length, theirs.requests.length, `${c.name}: attempts`);
    assertEquals(normalise(ours.events), normalise(theirs.events), `${c.name}: events`);
    assertEquals(normalise(ours.final), normalise(theirs.final), `${c.name}: final message`);
  }
});

Deno.test("OpenAI Codex Responses: a socket refused before anything streamed falls back to SSE for the session", async () => {
  // A server without WebSocket support: upgrades get 426, POSTs the scripted answer.
  const seen: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const upgrade = req.headers.get("upgrade") !== null;
    seen.push(upgrade ? "upgrade" : req.method);
    if (upgrade) return new Response("no sockets here", { status: 426 });
    const chunks = responsesChunks(TEXT_TURN, { method: "POST", path: "/", url: "/", headers: {}, body: {} });
    return new Response(chunks.join(""), { headers: { "content-type": "text/event-stream" } });
  });
  try {
    const model = codexModel("gpt-5.6-sol")(`http://127.0.0.1:${server.addr.port}`);
    const first = await complete(model, SIMPLE_CONTEXT, { ...KEY, sessionId: "fallback-session" });
    assertEquals([first.stopReason, first.errorMessage], ["stop", undefined]);
    assertEquals(first.content.map((b) => b.type === "text" ? b.text : b.type), ["Hello there, friend."]);
    assertEquals(seen, ["upgrade", "POST"]);
    assertEquals(first.diagnostics?.map((d) => [d.type, d.details]), [[
      "provider_transport_failure",
      {
        configuredTransport: "auto",
        fallbackTransport: "sse",
        eventsEmitted: false,
        phase: "before_message_stream_start",
        requestBytes: first.diagnostics?.[0].details?.requestBytes,
      },
    ]]);
    // The session remembers: its next request goes straight to SSE.
    const second = await complete(model, SIMPLE_CONTEXT, { ...KEY, sessionId: "fallback-session" });
    assertEquals([second.stopReason, second.diagnostics], ["stop", undefined]);
    assertEquals(seen, ["upgrade", "POST", "POST"]);
  } finally {
    closeCodexWebSockets();
    await server.shutdown();
  }
});

Deno.test("OpenAI Codex Responses: a socket that does not open within websocketConnectTimeoutMs falls back to SSE", async () => {
  // Upgrades are never answered; POSTs get the scripted answer.
  const stalled = Promise.withResolvers<Response>();
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    if (req.headers.get("upgrade") !== null) return stalled.promise;
    const chunks = responsesChunks(TEXT_TURN, { method: "POST", path: "/", url: "/", headers: {}, body: {} });
    return new Response(chunks.join(""), { headers: { "content-type": "text/event-stream" } });
  });
  try {
    const model = codexModel("gpt-5.6-sol")(`http://127.0.0.1:${server.addr.port}`);
    const started = Date.now();
    const reply = await complete(model, SIMPLE_CONTEXT, { ...KEY, websocketConnectTimeoutMs: 300 });
    assertEquals([reply.stopReason, reply.errorMessage], ["stop", undefined]);
    assertEquals(reply.diagnostics?.map((d) => d.error?.message), ["WebSocket connect timeout after 300ms"]);
    assert(Date.now() - started < 10_000, "the fallback came after the connect timeout, not later");
  } finally {
    closeCodexWebSockets();
    stalled.resolve(new Response("gone", { status: 503 }));
    await server.shutdown();
  }
});

Deno.test("CLI: the websocketConnectTimeoutMs setting bounds the Codex socket's opening (JSON mode)", async () => {
  const stalled = Promise.withResolvers<Response>();
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    if (req.headers.get("upgrade") !== null) return stalled.promise;
    const chunks = responsesChunks(TEXT_TURN, { method: "POST", path: "/", url: "/", headers: {}, body: {} });
    return new Response(chunks.join(""), { headers: { "content-type": "text/event-stream" } });
  });
  const url = `http://127.0.0.1:${server.addr.port}`;
  const env = await createAgentEnv(url, { settings: { websocketConnectTimeoutMs: 250 } });
  try {
    await Deno.writeTextFile(
      join(env.agentDir, "models.json"),
      JSON.stringify({
        providers: {
          "codex-fake": {
            baseUrl: `${url}/backend-api`,
            api: "openai-codex-responses",
            apiKey: CODEX_TOKEN,
            models: [{
              id: "gpt-5.6-sol",
              reasoning: true,
              input: ["text"],
              contextWindow: 272000,
              maxTokens: 128000,
            }],
          },
        },
      }),
    );
    const result = await spawnPi(["--mode", "json", "--model", "codex-fake/gpt-5.6-sol", "hi"], {
      env: env.env,
      cwd: env.cwd,
    });
    assertEquals(result.code, 0, result.stderr);
    const end = result.stdout.split("\n").filter((l) => l.startsWith("{")).map((l) => JSON.parse(l)).find((
      r,
    ) => r.type === "message_end" && r.message.role === "assistant");
    assertEquals(end?.message.content.map((b: { text?: string }) => b.text), ["Hello there, friend."]);
    assertEquals(
      end?.message.diagnostics.map((d: { error: { message: string } }) => d.error.message),
      ["WebSocket connect timeout after 250ms"],
    );
  } finally {
    stalled.resolve(new Response("gone", { status: 503 }));
    await server.shutdown();
    await env.cleanup();
  }
});
