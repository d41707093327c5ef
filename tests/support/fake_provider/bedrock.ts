/**
 * Wire encoder for Amazon Bedrock's ConverseStream (`bedrock-converse-stream`): answers
 * `POST /model/{modelId}/converse-stream` with binary `application/vnd.amazon.eventstream`
 * frames (prelude, typed headers, JSON payload, both CRC32s) as bedrock-runtime does, and checks
 * each request's credentials first: a bearer token must be {@link FAKE_BEDROCK_TOKEN}; a SigV4
 * `Authorization` is recomputed here (node:crypto, independent of the client's signer) from the
 * signed headers, the raw body and {@link FAKE_AWS_CREDENTIALS}. A wrong key or signature gets
 * the 403 AWS sends.
 *
 * Scripted in-stream errors: a message "throttlingException: …" sends that exception frame
 * (default `modelStreamErrorException`). A "garbage" fault sends a frame whose message CRC is
 * wrong, or whose prelude CRC is wrong when its `event` is "prelude".
 *
 * @module
 */
import { createHash, createHmac } from "node:crypto";
import { crc32 } from "node:zlib";
import { registerEncoder } from "./server.ts";
import { type RecordedRequest, type ScriptedTurn, splitDeltas, stopReasonOf, usageOf } from "./script.ts";

/** The only AWS identity the fake accepts (as AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY). */
export const FAKE_AWS_CREDENTIALS = {
  accessKeyId: "AKIDFAKEBEDROCK0001",
  secretAccessKey: "fakeSecret/K7MDENG+bPxRfiCYFAKEKEY0001",
} as const;

/** The only Bedrock API key (AWS_BEARER_TOKEN_BEDROCK) the fake accepts. */
export const FAKE_BEDROCK_TOKEN = "bedrock-api-key-fake-0001";

const STREAM_PATH = /^\/model\/([^/]+)\/converse-stream$/;

const ERROR_TYPES: Record<number, string> = {
  400: "ValidationException",
  403: "AccessDeniedException",
  404: "ResourceNotFoundException",
  408: "ModelTimeoutException",
  424: "ModelErrorException",
  429: "ThrottlingException",
  500: "InternalServerException",
  503: "ServiceUnavailableException",
};

const encoder = new TextEncoder();

/** One eventstream frame with string headers. */
export function encodeFrame(headers: Record<string, string>, payload: Uint8Array): Uint8Array {
  const headerParts: Uint8Array[] = [];
  for (const [name, value] of Object.entries(headers)) {
    const n = encoder.encode(name);
    const v = encoder.encode(value);
    const part = new Uint8Array(1 + n.length + 1 + 2 + v.length);
    part[0] = n.length;
    part.set(n, 1);
    part[1 + n.length] = 7; // string
    new DataView(part.buffer).setUint16(2 + n.length, v.length);
    part.set(v, 4 + n.length);
    headerParts.push(part);
  }
  const headersLength = headerParts.reduce((t, p) => t + p.length, 0);
  const total = 12 + headersLength + payload.length + 4;
  const frame = new Uint8Array(total);
  const view = new DataView(frame.buffer);
  view.setUint32(0, total);
  view.setUint32(4, headersLength);
  view.setUint32(8, crc32(frame.subarray(0, 8)));
  let at = 12;
  for (const part of headerParts) {
    frame.set(part, at);
    at += part.length;
  }
  frame.set(payload, at);
  view.setUint32(total - 4, crc32(frame.subarray(0, total - 4)));
  return frame;
}

function eventFrame(type: string, payload: unknown): Uint8Array {
  return encodeFrame(
    { ":event-type": type, ":content-type": "application/json", ":message-type": "event" },
    encoder.encode(JSON.stringify(payload)),
  );
}

/** An exception frame, e.g. `throttlingException` with `{"message": …}`. */
export function exceptionFrame(type: string, message: string): Uint8Array {
  return encodeFrame(
    { ":exception-type": type, ":content-type": "application/json", ":message-type": "exception" },
    encoder.encode(JSON.stringify({ message })),
  );
}

const STOP_REASONS = { stop: "end_turn", length: "max_tokens", toolUse: "tool_use" } as const;

function encodeChunks(turn: ScriptedTurn): Uint8Array[] {
  const size = turn.deltaSize ?? 8;
  const frames: Uint8Array[] = [eventFrame("messageStart", { role: "assistant" })];
  (turn.content ?? []).forEach((block, index) => {
    const delta = (d: unknown) =>
      frames.push(eventFrame("contentBlockDelta", { contentBlockIndex: index, delta: d }));
    if (block.type === "text") {
      for (const piece of splitDeltas(block.text, size)) delta({ text: piece });
    } else if (block.type === "thinking") {
      if (block.redacted) {
        // The payload arrives in two blobs (each base64 on the wire), as long ones do.
        const bytes = atob(block.signature ?? btoa("opaque"));
        const half = Math.ceil(bytes.length / 2);
        for (const part of [bytes.slice(0, half), bytes.slice(half)]) {
          if (part) delta({ reasoningContent: { redactedContent: btoa(part) } });
        }
      } else {
        for (const piece of splitDeltas(block.thinking, size)) delta({ reasoningContent: { text: piece } });
        if (block.signature) delta({ reasoningContent: { signature: block.signature } });
      }
    } else {
      const id = block.id ?? `tooluse_fake${String(index).padStart(6, "0")}`;
      frames.push(
        eventFrame("contentBlockStart", {
          contentBlockIndex: index,
          start: { toolUse: { toolUseId: id, name: block.name } },
        }),
      );
      for (const piece of splitDeltas(JSON.stringify(block.arguments), size)) {
        delta({ toolUse: { input: piece } });
      }
    }
    frames.push(eventFrame("contentBlockStop", { contentBlockIndex: index }));
  });
  frames.push(eventFrame("messageStop", { stopReason: STOP_REASONS[stopReasonOf(turn)] }));
  const u = usageOf(turn);
  frames.push(eventFrame("metadata", {
    usage: {
      inputTokens: u.input,
      outputTokens: u.output,
      totalTokens: u.input + u.output + u.cacheRead + u.cacheWrite,
      ...(u.cacheRead ? { cacheReadInputTokens: u.cacheRead } : {}),
      ...(u.cacheWrite ? { cacheWriteInputTokens: u.cacheWrite } : {}),
    },
    metrics: { latencyMs: 42 },
  }));
  return frames;
}

function sha256(data: string): string {
  return createHash("sha256").update(data).digest("hex");
}

function awsEncode(text: string): string {
  return encodeURIComponent(text).replace(
    /[!'()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}

/** The SigV4 signature a request should carry, recomputed from what arrived. */
export function expectedSignature(
  request: RecordedRequest,
  rawBody: string,
  signedHeaders: string[],
  scope: string,
  secret: string,
): string {
  const amzDate = request.headers["x-amz-date"] ?? "";
  const query = new URLSearchParams(request.url.split("?")[1] ?? "");
  const canonicalQuery = [...query].map(([k, v]) => `${awsEncode(k)}=${awsEncode(v)}`).sort().join("&");
  const canonical = [
    request.method,
    request.path.split("/").map(awsEncode).join("/"),
    canonicalQuery,
    signedHeaders.map((h) => `${h}:${(request.headers[h] ?? "").trim().replace(/\s+/g, " ")}\n`).join(""),
    signedHeaders.join(";"),
    sha256(rawBody),
  ].join("\n");
  const toSign = ["AWS4-HMAC-SHA256", amzDate, scope, sha256(canonical)].join("\n");
  const [day, region, service] = scope.split("/");
  let key: Buffer = createHmac("sha256", `AWS4${secret}`).update(day).digest();
  for (const part of [region, service, "aws4_request"]) key = createHmac("sha256", key).update(part).digest();
  return createHmac("sha256", key).update(toSign).digest("hex");
}

function deny(type: string, message: string) {
  return {
    status: 403,
    headers: { "x-amzn-errortype": `${type}:http://internal.amazon.com/coral/com.amazon.coral.service/` },
    body: { message },
  };
}

function authorize(request: RecordedRequest, rawBody: string) {
  const auth = request.headers.authorization ?? "";
  if (auth.startsWith("Bearer ")) {
    return auth.slice(7) === FAKE_BEDROCK_TOKEN
      ? undefined
      : deny("UnrecognizedClientException", "Invalid API Key format: Must start with pre-defined prefix");
  }
  const match =
    /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\S+)\/aws4_request, SignedHeaders=(\S+), Signature=([0-9a-f]+)$/
      .exec(auth);
  if (!match) return deny("MissingAuthenticationTokenException", "Missing Authentication Token");
  const [, keyId, scopeHead, signed, signature] = match;
  if (keyId !== FAKE_AWS_CREDENTIALS.accessKeyId) {
    return deny("UnrecognizedClientException", "The security token included in the request is invalid.");
  }
  const headers = signed.split(";");
  if (!headers.includes("host") || !headers.includes("x-amz-date")) {
    return deny("IncompleteSignatureException", "host and x-amz-date must be signed.");
  }
  const expected = expectedSignature(
    request,
    rawBody,
    headers,
    `${scopeHead}/aws4_request`,
    FAKE_AWS_CREDENTIALS.secretAccessKey,
  );
  if (expected !== signature || !scopeHead.endsWith("/bedrock")) {
    return deny(
      "InvalidSignatureException",
      "The request signature we calculated does not match the signature you provided. Check your AWS Secret Access Key and signing method. Consult the service documentation for details.",
    );
  }
  return undefined;
}

/** What is compared of a request: path, body, the credential scope (date masked), tokens. */
export function bedrockRequestView(request: RecordedRequest | undefined): Record<string, unknown> | null {
  if (!request) return null;
  const auth = request.headers.authorization ?? "";
  const scope = /Credential=(\S+?),/.exec(auth)?.[1]?.replace(/\/\d{8}\//, "/<day>/");
  return {
    url: request.url,
    contentType: request.headers["content-type"],
    auth: auth.startsWith("Bearer ") ? auth : scope,
    sessionToken: request.headers["x-amz-security-token"],
    body: request.body,
  };
}

registerEncoder({
  matches: (method, path) => method === "POST" && STREAM_PATH.test(path),
  chunks: (turn) => encodeChunks(turn),
  contentType: "application/vnd.amazon.eventstream",
  errorChunk: (message) => {
    const typed = /^([a-z]\w*Exception): ([\s\S]*)$/.exec(message);
    return typed ? exceptionFrame(typed[1], typed[2]) : exceptionFrame("modelStreamErrorException", message);
  },
  errorBody: (_status, message) => ({ message }),
  errorHeaders: (status) => ({
    "x-amzn-errortype": `${
      ERROR_TYPES[status] ?? "InternalServerException"
    }:http://internal.amazon.com/coral/com.amazon.bedrock/`,
    "x-amzn-requestid": "fake-request-id-0001",
  }),
  garbageChunk: (data, event) => {
    const frame = eventFrame("contentBlockDelta", { contentBlockIndex: 0, delta: { text: data } });
    // Flip one bit of the prelude CRC or of the message CRC.
    frame[event === "prelude" ? 8 : frame.length - 1] ^= 0x01;
    return frame;
  },
  authorize,
});
