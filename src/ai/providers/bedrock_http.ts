/**
 * The HTTP side of a Bedrock request: the headers (caller headers never replace the signed or
 * authenticating ones), the SigV4 signature or bearer token, the AWS SDK's standard retries that
 * pi-ai 1.6.0 inherits, and error answers turned into named service errors worded as 1.6.0 words
 * them ("Throttling error: …", "Validation error: …"), which the retry and overflow
 * classification rely on.
 *
 * @module
 */
import { redactSecrets } from "../provider_utils.ts";
import type { Model } from "../types.ts";
import type { BedrockAuth } from "./bedrock_credentials.ts";
import type { BedrockStreamOptions } from "./bedrock_request.ts";
import { signRequest } from "./bedrock_sigv4.ts";

/** The readable prefixes of Bedrock's modelled exceptions (the retry logic matches them). */
const ERROR_PREFIXES: Record<string, string> = {
  InternalServerException: "Internal server error",
  ModelStreamErrorException: "Model stream error",
  ValidationException: "Validation error",
  ThrottlingException: "Throttling error",
  ServiceUnavailableException: "Service unavailable",
};

const DATA_RETENTION_DOCS_URL = "https://docs.aws.amazon.com/bedrock/latest/userguide/data-retention.html";

/** A Bedrock service exception (HTTP error or exception frame), named by its AWS error code. */
export class BedrockServiceError extends Error {
  constructor(readonly code: string, message: string, readonly status?: number, readonly requestId?: string) {
    super(message);
  }
}

export function formatBedrockError(error: unknown): string {
  const core = error instanceof Error ? error.message : String(error);
  const hint = /data retention mode/i.test(core)
    ? ` See ${DATA_RETENTION_DOCS_URL} for supported data retention modes.`
    : "";
  if (error instanceof BedrockServiceError) {
    return `${ERROR_PREFIXES[error.code] ?? error.code}: ${core}${hint}`;
  }
  return `${core}${hint}`;
}

/** Headers the caller may not set: they are part of the signature or the authentication. */
function isReservedHeader(name: string): boolean {
  const lower = name.toLowerCase();
  return lower.startsWith("x-amz-") || lower === "authorization" || lower === "host";
}

async function sendRequest(
  url: URL,
  body: string,
  auth: BedrockAuth,
  region: string,
  model: Model,
  options: BedrockStreamOptions,
): Promise<Response> {
  const headers: Record<string, string> = { "content-type": "application/json" };
  for (const [key, value] of Object.entries({ ...model.headers, ...options.headers })) {
    if (isReservedHeader(key)) continue;
    if (value === null) delete headers[key.toLowerCase()]; // 1.6.0: null drops a default header
    else headers[key.toLowerCase()] = value;
  }
  let sendHeaders: Record<string, string>;
  if (auth.kind === "bearer") sendHeaders = { ...headers, authorization: `Bearer ${auth.token}` };
  else {
    const signed = await signRequest(
      { method: "POST", url, headers, body },
      auth.credentials,
      region,
      "bedrock",
      new Date(),
      true,
    );
    sendHeaders = signed.headers;
    delete sendHeaders.host;
  }
  return await fetch(url, { method: "POST", headers: sendHeaders, body, signal: options.signal });
}

/** Error codes the AWS SDK's standard retry strategy treats as throttling. */
const THROTTLING_CODES = new Set([
  "ThrottlingException",
  "Throttling",
  "TooManyRequestsException",
  "RequestLimitExceeded",
  "ProvisionedThroughputExceededException",
  "RequestThrottled",
  "SlowDown",
]);
const TRANSIENT_STATUSES = new Set([500, 502, 503, 504]);
/** Attempts per request, as the AWS SDK's default (`maxAttempts` 3), which pi-ai 1.6.0 keeps. */
const MAX_ATTEMPTS = 3;

function abortableSleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new DOMException("This operation was aborted", "AbortError"));
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(new DOMException("This operation was aborted", "AbortError"));
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/**
 * Sends with the AWS SDK's standard retries, which pi-ai 1.6.0 inherits: throttling answers,
 * HTTP 500/502/503/504 and connection failures are tried up to three times in all, waiting a
 * random part of 100 ms (500 ms after throttling) doubled per attempt. The last answer, good
 * or bad, is returned; the last connection failure is thrown.
 */
export async function sendWithRetries(
  url: URL,
  body: string,
  auth: BedrockAuth,
  region: string,
  model: Model,
  options: BedrockStreamOptions,
): Promise<Response> {
  for (let attempt = 1;; attempt++) {
    let retryBase: number | undefined;
    let response: Response | undefined;
    try {
      response = await sendRequest(url, body, auth, region, model, options);
      const code = response.headers.get("x-amzn-errortype")?.split(":")[0] ?? "";
      if (response.status === 429 || THROTTLING_CODES.has(code)) retryBase = 500;
      else if (TRANSIENT_STATUSES.has(response.status)) retryBase = 100;
    } catch (error) {
      if (options.signal?.aborted || attempt >= MAX_ATTEMPTS || !(error instanceof TypeError)) throw error;
      retryBase = 100;
    }
    if (response && (retryBase === undefined || attempt >= MAX_ATTEMPTS)) return response;
    await response?.body?.cancel();
    await abortableSleep(
      Math.floor(Math.random() * Math.min(20_000, 2 ** attempt * retryBase!)),
      options.signal,
    );
  }
}

export async function httpError(
  response: Response,
  secrets: (string | undefined)[],
): Promise<BedrockServiceError> {
  const text = await response.text().catch(() => "");
  const headerType = response.headers.get("x-amzn-errortype")?.split(":")[0];
  let parsed: Record<string, unknown> | undefined;
  try {
    parsed = JSON.parse(text);
  } catch { /* not JSON */ }
  const code = headerType ||
    (typeof parsed?.__type === "string" ? parsed.__type.split("#").pop()! : undefined) ||
    "UnknownError";
  const message = typeof parsed?.message === "string"
    ? parsed.message
    : typeof parsed?.Message === "string"
    ? parsed.Message
    : `${response.status}: ${text || response.statusText}`;
  return new BedrockServiceError(
    code,
    redactSecrets(message, secrets),
    response.status,
    response.headers.get("x-amzn-requestid") ?? undefined,
  );
}
