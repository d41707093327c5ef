/**
 * The Gemini body reader on bodies the fake server cannot script: malformed records, framed
 * error objects and stray trailing text.
 */
import { assertEquals, assertRejects } from "../../support/assert.ts";
import { type GoogleChunk, readGoogleChunks } from "../../../src/ai/providers/google_stream_body.ts";

function bodyOf(...pieces: string[]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    start(controller) {
      for (const piece of pieces) controller.enqueue(encoder.encode(piece));
      controller.close();
    },
  });
}

async function drain(body: ReadableStream<Uint8Array>, into: GoogleChunk[]): Promise<void> {
  for await (const chunk of readGoogleChunks(body)) into.push(chunk);
}

const first = 'data: {"candidates":[{"content":{"parts":[{"text":"a"}]}}]}\r\n\r\n';

Deno.test("PROV-02 google body: records split across reads and CRLF framing parse", async () => {
  const seen: GoogleChunk[] = [];
  await drain(bodyOf(first.slice(0, 20), first.slice(20), ': comment\n\ndata: {"responseId":"r"}\n\n'), seen);
  assertEquals(seen, [{ candidates: [{ content: { parts: [{ text: "a" }] } }] }, { responseId: "r" }]);
});

Deno.test("PROV-02 PROV-ERR google body: a malformed record fails naming the stream and quoting the data", async () => {
  const seen: GoogleChunk[] = [];
  const err = await assertRejects(() => drain(bodyOf(first, "data: not json\n\n"), seen));
  assertEquals(
    err.message,
    `Could not parse Google stream event: Unexpected token 'o', "not json" is not valid JSON; data=not json`,
  );
  assertEquals(seen.length, 1);
});

Deno.test("PROV-02 google body: a bare pretty-printed error object after data fails with the SDK wording", async () => {
  const seen: GoogleChunk[] = [];
  const bare =
    '{\n  "error": {\n    "code": 503,\n    "message": "Overloaded",\n    "status": "UNAVAILABLE"\n  }\n}\n';
  const err = await assertRejects(() => drain(bodyOf(first + bare), seen));
  assertEquals(
    err.message,
    'got status: UNAVAILABLE. {"error":{"code":503,"message":"Overloaded","status":"UNAVAILABLE"}}',
  );
  assertEquals(seen.length, 1);
});

Deno.test("PROV-02 google body: a framed error object and stray trailing text both fail", async () => {
  const framed = 'data: {"error":{"code":500,"message":"x","status":"INTERNAL"}}\n\n';
  const err = await assertRejects(() => drain(bodyOf(framed), []));
  assertEquals(err.message, 'got status: INTERNAL. {"error":{"code":500,"message":"x","status":"INTERNAL"}}');
  const stray = await assertRejects(() => drain(bodyOf(first, "<html>oops"), []));
  assertEquals(stray.message, "Incomplete JSON segment at the end");
});
