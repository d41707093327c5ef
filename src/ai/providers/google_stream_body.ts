/**
 * Reads a Gemini SSE body into GenerateContentResponse chunks. Besides `data:` records, Google
 * reports failures that happen after HTTP 200 as a bare JSON object (`{"error":{...}}`) in the
 * body; those are caught here and thrown with the wording of the official SDK.
 *
 * @module
 */
import { malformedEventError, readSseEvents } from "../sse.ts";

/** The fields of a streamed GenerateContentResponse this provider reads. */
export interface GoogleChunk {
  candidates?: {
    content?: {
      parts?: {
        text?: string;
        thought?: boolean;
        thoughtSignature?: string;
        functionCall?: { id?: string; name?: string; args?: Record<string, unknown> };
      }[];
    };
    finishReason?: string;
  }[];
  usageMetadata?: {
    promptTokenCount?: number;
    candidatesTokenCount?: number;
    thoughtsTokenCount?: number;
    cachedContentTokenCount?: number;
    totalTokenCount?: number;
  };
  modelVersion?: string;
  responseId?: string;
  error?: { code?: number; message?: string; status?: string };
}

const SSE_LINE = /^(?:$|:|(?:data|event|id|retry)(?::|$))/;

/** The SDK's text for an error reported inside a 200 response. */
function streamErrorText(json: { error?: { status?: unknown } }): string {
  return `got status: ${json.error?.status}. ${JSON.stringify(json)}`;
}

function parseErrorObject(text: string): { error: Record<string, unknown> } | undefined {
  try {
    const json = JSON.parse(text);
    if (json && typeof json === "object" && json.error && typeof json.error === "object") return json;
  } catch { /* not (yet) a complete JSON document */ }
  return undefined;
}

/**
 * Yields the JSON chunks of the body. Throws the SDK's `got status: …` text for an error object
 * (bare or framed), "Incomplete JSON segment at the end" for stray text left at the end, an
 * error naming the event and its data for unparsable JSON, and rethrows body errors.
 */
export async function* readGoogleChunks(
  body: ReadableStream<Uint8Array>,
  signal?: AbortSignal,
  idleTimeoutMs?: number,
): AsyncGenerator<GoogleChunk> {
  // Lines that are not SSE syntax are collected on the side while the bytes pass through.
  let stray = "";
  let partialLine = "";
  const decoder = new TextDecoder();
  const scan = (text: string) => {
    const lines = (partialLine + text).split(/\r\n|\r|\n/);
    partialLine = lines.pop() ?? "";
    for (const line of lines) if (!SSE_LINE.test(line)) stray += line + "\n";
  };
  const watched = body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        scan(decoder.decode(chunk, { stream: true }));
        controller.enqueue(chunk);
      },
      flush() {
        scan(decoder.decode() + "\n");
      },
    }),
  );
  const strayError = () => {
    if (stray.trim() === "") return;
    const json = parseErrorObject(stray);
    if (json) throw new Error(streamErrorText(json));
  };

  for await (const event of readSseEvents(watched, signal, idleTimeoutMs)) {
    const data = event.data.trim();
    if (data !== "") {
      let chunk: GoogleChunk;
      try {
        chunk = JSON.parse(data) as GoogleChunk;
      } catch (error) {
        throw malformedEventError("Google", event, error);
      }
      if (chunk.error && typeof chunk.error === "object") throw new Error(streamErrorText(chunk));
      yield chunk;
    }
    // Records that came in the same read as the error object went out first, as sent.
    strayError();
  }
  strayError();
  if (stray.trim() !== "") throw new Error("Incomplete JSON segment at the end");
}
