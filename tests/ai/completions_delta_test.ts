/**
 * The Chat Completions content-delta shortcut (src/ai/providers/openai_completions_delta.ts)
 * must give exactly what `JSON.parse` gives. Each case reads the same SSE body twice, with and
 * without the shortcut; every string the shortcut yields is expanded into the chunk it stands
 * for (the last parsed chunk with that content) and the two payload lists must be equal — and
 * so must a thrown error. Bodies are fed in pieces of 1 to 7 bytes too, so UTF-8 sequences and
 * surrogate pairs are split across reads. The e2e case runs the CLI on an answer full of
 * escapes, quotes, emoji and split surrogate pairs.
 */
import { readOpenAIStreamBatches } from "../../src/ai/providers/openai_shared_stream.ts";
import type { OpenAIStreamPayload } from "../../src/ai/providers/openai_shared_stream.ts";
import { ContentDeltaShortcut, plainContent } from "../../src/ai/providers/openai_completions_delta.ts";
import { assert, assertEquals } from "../support/assert.ts";
import { createAgentEnv } from "../support/agent_env.ts";
import { spawnPi } from "../support/spawn_pi.ts";
import { startBulkSseServer } from "../e2e/json_deltas_server.ts";

type Json = Record<string, unknown>;

function bodyOf(text: string, pieceBytes: number): ReadableStream<Uint8Array> {
  const bytes = new TextEncoder().encode(text);
  return new ReadableStream({
    start(controller) {
      for (let i = 0; i < bytes.length; i += pieceBytes) controller.enqueue(bytes.slice(i, i + pieceBytes));
      controller.close();
    },
  });
}

/** The payloads (and the error, if any) of `wire`, read with or without the shortcut. */
async function read(wire: string, pieceBytes: number, shortcut: boolean) {
  const payloads: OpenAIStreamPayload[] = [];
  let error: string | undefined;
  try {
    const batches = readOpenAIStreamBatches(
      bodyOf(wire, pieceBytes),
      undefined,
      false,
      "Test",
      undefined,
      shortcut ? new ContentDeltaShortcut() : undefined,
    );
    for await (const batch of batches) payloads.push(...batch);
  } catch (e) {
    error = (e as Error).message;
  }
  return { payloads, error };
}

/**
 * The shortcut's payloads equal the parsed ones, except that a string stands for a plain
 * content chunk (applying it is appending the text) with exactly that content.
 */
function assertSamePayloads(fast: OpenAIStreamPayload[], full: OpenAIStreamPayload[], message: string): void {
  assertEquals(fast.length, full.length, message);
  fast.forEach((p, i) => {
    if (typeof p !== "string") return assertEquals(p, full[i], `${message}, payload ${i}`);
    assertEquals(plainContent(full[i] as Json), p, `${message}, payload ${i}`);
  });
}

/**
 * Asserts the shortcut changes nothing for `datas` (one SSE event each) at several read sizes;
 * resolves with how many payloads it answered without parsing (at whole-body reads).
 */
async function sameAsParse(datas: string[]): Promise<number> {
  const wire = datas.map((d) => `data: ${d}\n\n`).join("");
  let shortcuts = 0;
  for (const piece of [wire.length * 4, 1, 2, 3, 5, 7]) {
    const full = await read(wire, piece, false);
    const fast = await read(wire, piece, true);
    assertEquals(full.payloads.every((p) => typeof p !== "string"), true);
    assertSamePayloads(fast.payloads, full.payloads, `pieces of ${piece} bytes`);
    assertEquals(fast.error, full.error);
    if (piece > wire.length) shortcuts = fast.payloads.filter((p) => typeof p === "string").length;
  }
  return shortcuts;
}

const HEAD =
  '{"id":"c1","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":';
const TAIL = ',"logprobs":null,"finish_reason":null}],"usage":null}';
/** A chunk in the usual layout with `delta` as given (raw JSON text). */
const chunk = (delta: string) => `${HEAD}${delta}${TAIL}`;
const content = (raw: string) => chunk(`{"content":"${raw}"}`);

Deno.test("completions shortcut: plain deltas are recognised, and equal to their parse", async () => {
  const n = await sameAsParse([
    chunk('{"role":"assistant","content":"","refusal":null}'),
    content("Hello"),
    content(", world"),
    content(" and more text than thirteen characters"),
    content("!"),
    chunk("{}").replace('"finish_reason":null', '"finish_reason":"stop"'),
    `{"id":"c1","choices":[],"usage":{"prompt_tokens":3,"completion_tokens":4}}`,
    "[DONE]",
  ]);
  // "Hello" is parsed (it becomes the template); the next three are not.
  assertEquals(n, 3);
});

Deno.test("completions shortcut: escapes, unicode escapes and raw unicode in the content equal their parse", async () => {
  const n = await sameAsParse([
    content("plain start"),
    content('say \\"hi\\"'),
    content("back\\\\slash"),
    content("new\\nline\\ttab"),
    content("caf\\u00e9 \\/ slash"),
    content("raw café ünïcödé"),
    content("emoji 😀 pair"),
    content("\\ud83d\\ude00 escaped pair"),
    content("\\ud83d"),
    content("\\ude00 a pair split across two chunks"),
    content("after"),
  ]);
  // Raw unicode and plain text go through the shortcut; anything with a backslash is parsed
  // (and leaves the template in place).
  assertEquals(n, 3);
});

Deno.test("completions shortcut: another field order, extra fields and look-alikes are parsed", async () => {
  await sameAsParse([
    content("template"),
    // The same prefix and suffix around a middle that closes the string and adds a key.
    content('a","role":"assistant'),
    content('a"},"x":{"content":"b'),
    // Other field orders and shapes.
    '{"choices":[{"delta":{"content":"reordered"},"index":0}],"id":"c1"}',
    '{"choices":[{"delta":{"content":"again"},"index":0}],"id":"c1"}',
    chunk('{"content":"x","reasoning_content":"y"}'),
    chunk('{"reasoning_content":"thinking"}'),
    chunk('{"tool_calls":[{"index":0,"id":"t","function":{"name":"f","arguments":"{}"}}]}'),
    content("back to text"),
    // The content's slot text appears twice: not used as a template.
    '{"a":{"delta":{"content":"dup"}},"choices":[{"index":0,"delta":{"content":"dup"}}]}',
    '{"a":{"delta":{"content":"dup"}},"choices":[{"index":0,"delta":{"content":"dup2"}}]}',
    // An empty middle and usage on the same layout.
    content(""),
    content("usage next"),
    chunk('{"content":"u"}').replace('"usage":null', '"usage":{"prompt_tokens":1}'),
    content("after usage"),
    content("z"),
  ]);
});

Deno.test("completions shortcut: chunks whose layout never repeats stop the learning (no second parse each)", () => {
  const learnt = (shortcut: ContentDeltaShortcut, data: string) => shortcut.learn(data, JSON.parse(data));
  // Control: a fresh shortcut learns the usual layout from one chunk.
  const fresh = new ContentDeltaShortcut();
  learnt(fresh, content("x"));
  assertEquals(fresh.match(content("y")), "y");
  // A random field in every chunk (OpenAI's "obfuscation"): no template is ever used.
  const shortcut = new ContentDeltaShortcut();
  for (let i = 0; i < 50; i++) {
    const data = content(`text ${i}`).replace('"usage":null', `"usage":null,"obfuscation":"r${i}"`);
    assertEquals(shortcut.match(data), undefined);
    learnt(shortcut, data);
  }
  // It has stopped learning (each learnt template costs a probe parse): the usual layout is not taken up.
  learnt(shortcut, content("x"));
  assertEquals(shortcut.match(content("y")), undefined);
});

Deno.test("completions shortcut: a raw control character is the same parse error as without it", async () => {
  const tab = "\t";
  await sameAsParse([content("ok"), content(`bad${tab}tab`), content("never read")]);
  const full = await read(`data: ${content("ok")}\n\ndata: ${content(`bad${tab}`)}\n\n`, 1000, true);
  assert(full.error?.startsWith("Could not parse Test stream event: "), full.error);
});

Deno.test("completions shortcut: an error payload in the template's layout is still thrown", async () => {
  const error = content("x").replace('"usage":null', '"usage":null,"error":{"message":"overloaded"}');
  await sameAsParse([content("first"), content("second"), error, content("third")]);
});

Deno.test("completions shortcut e2e: pi -p prints an answer of escapes, quotes, emoji and split pairs exactly", async () => {
  const piece =
    'He said "hi" \\ back\\slash, tab\there, new\nline, café, 😀🎉👍🏽, 𝒳 math, </script> \u2028 end. ';
  // 16-character deltas cut some surrogate pairs in two (JSON.stringify escapes each half).
  const text = piece.repeat(300);
  const server = startBulkSseServer(text, 16);
  const env = await createAgentEnv(server.url);
  try {
    const r = await spawnPi(["-p", "--no-session", "--model", "fake-openai/test-model", "go"], {
      env: { ...env.env, PI_OFFLINE: "1" },
      cwd: env.cwd,
      timeoutMs: 120_000,
    });
    assertEquals([r.code, r.stderr], [0, ""]);
    assertEquals(r.stdout, `${text}\n`);
  } finally {
    await server.close();
    await env.cleanup();
  }
});
