/**
 * The `bedrock-converse-stream` wire API (Amazon Bedrock's ConverseStream) with plain fetch: the
 * request body of pi-ai 1.6.0, a SigV4 signature of our own (or a Bedrock API key as bearer
 * token), region and endpoint resolution as 1.6.0, and the binary event stream decoded with its
 * checksums checked. Failures read as 1.6.0 words them ("Throttling error: …", "Validation
 * error: …"), which the retry and overflow classification rely on. Never throws to the caller.
 *
 * @module
 */
import type { ApiProvider } from "../api_provider.ts";
import { providerEnvValue } from "../env_api_keys.ts";
import type { AssistantMessageEventStream } from "../event_stream.ts";
import { runProviderStream } from "../provider_utils.ts";
import {
  adjustMaxTokensForThinking,
  buildBaseOptions,
  clampMaxTokensToContext,
  clampReasoning,
} from "../simple_options.ts";
import type {
  AssistantMessage,
  CacheRetention,
  Context,
  JsonObject,
  Model,
  SimpleStreamOptions,
} from "../types.ts";
import { profileRegion, resolveBedrockAuth } from "./bedrock_credentials.ts";
import { readEventStream } from "./bedrock_eventstream.ts";
import { bodyChunks, flushRedacted, handleEvent, type OpenBlock } from "./bedrock_events.ts";
import { BedrockServiceError, formatBedrockError, httpError, sendWithRetries } from "./bedrock_http.ts";
import {
  type BedrockStreamOptions,
  buildAdditionalModelRequestFields,
  buildBedrockSystem,
  buildBedrockToolConfig,
  configuredBedrockRegion,
  convertBedrockMessages,
  isClaudeModel,
  supportsAdaptiveThinking,
} from "./bedrock_request.ts";
import { uriEncode } from "./bedrock_sigv4.ts";
import {
  hasExceededStrictToolLimits,
  isStrictToolLimitError,
  markStrictToolLimitsExceeded,
} from "./strict_tools.ts";

export type { BedrockOptions, BedrockStreamOptions } from "./bedrock_request.ts";

type Json = Record<string, unknown>;

/** `bedrock-runtime.<region>.amazonaws.com` hosts name their region. */
function standardEndpointRegion(baseUrl: string | undefined): string | undefined {
  if (!baseUrl) return undefined;
  try {
    const host = new URL(baseUrl).hostname.toLowerCase();
    return /^bedrock-runtime(?:-fips)?\.([a-z0-9-]+)\.amazonaws\.com(?:\.cn)?$/.exec(host)?.[1];
  } catch {
    return undefined;
  }
}

/** Region and endpoint of a request, resolved as pi-ai 1.6.0 does. */
export function resolveBedrockTarget(
  model: Model,
  options: BedrockStreamOptions,
): { region: string; endpoint: string } {
  const configured = configuredBedrockRegion(options);
  // Read from the process only: a profile in the user's shell, not one scoped to the request.
  const ambientProfile = providerEnvValue("AWS_PROFILE");
  const endpointRegion = standardEndpointRegion(model.baseUrl);
  // Custom endpoints (VPC, proxies) are kept; a catalog endpoint yields to a configured region.
  const explicitEndpoint = !endpointRegion || (!configured && !ambientProfile);
  const arnRegion = /^arn:aws(?:-[a-z0-9-]+)?:bedrock:([a-z0-9-]+):/.exec(model.id)?.[1];
  let region = arnRegion ?? configured ?? (explicitEndpoint ? endpointRegion : undefined);
  if (!region) {
    const profile = options.profile || options.env?.AWS_PROFILE || ambientProfile;
    region = ambientProfile ? profileRegion(profile ?? "default", options.env) : "us-east-1";
  }
  if (!region) {
    throw new Error(
      `No AWS region for Amazon Bedrock: set AWS_REGION, or "region" for profile "${ambientProfile}" in ~/.aws/config`,
    );
  }
  const endpoint = explicitEndpoint && model.baseUrl
    ? model.baseUrl.replace(/\/+$/, "")
    : `https://bedrock-runtime.${region}.amazonaws.com${region.startsWith("cn-") ? ".cn" : ""}`;
  return { region, endpoint };
}

function resolveCacheRetention(
  retention: CacheRetention | undefined,
  env?: Record<string, string>,
): CacheRetention {
  if (retention) return retention;
  return providerEnvValue("PI_CACHE_RETENTION", env) === "long" ? "long" : "short";
}

/** Builds the ConverseStream body (the SDK's command input, minus `modelId`, which goes in the path). */
export function buildBedrockBody(
  model: Model,
  context: Context,
  options: BedrockStreamOptions,
  disablePreferredStrict: boolean,
): { body: Json; hasPreferredStrictTools: boolean } {
  const cacheRetention = resolveCacheRetention(options.cacheRetention, options.env);
  const maxTokens = options.maxTokens ?? (isClaudeModel(model) ? model.maxTokens : undefined);
  const supportsStrict = (model.compat as { supportsStrictMode?: boolean } | undefined)?.supportsStrictMode ??
    false;
  const tools = buildBedrockToolConfig(
    context.tools,
    options.toolChoice,
    supportsStrict,
    disablePreferredStrict,
  );
  const body: Json = {
    messages: convertBedrockMessages(context, model, cacheRetention, options.env),
    system: buildBedrockSystem(context.systemPrompt, model, cacheRetention, options.env),
    inferenceConfig: {
      ...(maxTokens !== undefined ? { maxTokens } : {}),
      ...(options.temperature !== undefined ? { temperature: options.temperature } : {}),
    },
    toolConfig: tools.toolConfig,
    additionalModelRequestFields: buildAdditionalModelRequestFields(model, options),
    ...(options.requestMetadata !== undefined ? { requestMetadata: options.requestMetadata } : {}),
  };
  return { body, hasPreferredStrictTools: tools.hasPreferredStrictTools };
}

async function run(
  stream: AssistantMessageEventStream,
  output: AssistantMessage,
  model: Model,
  context: Context,
  options: BedrockStreamOptions,
): Promise<void> {
  const open = new Map<number, OpenBlock>();
  try {
    const auth = await resolveBedrockAuth(options);
    const secrets = auth.kind === "bearer"
      ? [auth.token]
      : [auth.credentials.secretAccessKey, auth.credentials.sessionToken];
    const { region, endpoint } = resolveBedrockTarget(model, options);
    const url = new URL(`${endpoint}/model/${uriEncode(model.id)}/converse-stream`);
    let disablePreferredStrict = hasExceededStrictToolLimits(options.sessionId);
    let response: Response;
    for (;;) {
      const built = buildBedrockBody(model, context, options, disablePreferredStrict);
      let payload: unknown = { modelId: model.id, ...built.body };
      const replaced = await options.onPayload?.(payload, model);
      if (replaced !== undefined) payload = replaced;
      const { modelId: _modelId, ...wire } = payload as Json;
      response = await sendWithRetries(url, JSON.stringify(wire), auth, region, model, options);
      if (response.ok) break;
      const error = await httpError(response, secrets);
      // Bedrock checks tool schemas before streaming: a retry without preferred-strict tools repeats nothing.
      if (
        options.signal?.aborted || disablePreferredStrict || !built.hasPreferredStrictTools ||
        error.code !== "ValidationException" || !isStrictToolLimitError(error.message)
      ) {
        throw error;
      }
      disablePreferredStrict = true;
      markStrictToolLimitsExceeded(options.sessionId);
      output.diagnostics = [...(output.diagnostics ?? []), {
        type: "bedrock_strict_tools_fallback",
        timestamp: Date.now(),
        error: { message: error.message },
        details: { reason: "strict_tool_limits_exceeded" },
      }];
    }
    const headers: Record<string, string> = {};
    response.headers.forEach((value, key) => (headers[key] = value));
    await options.onResponse?.({ status: response.status, headers }, model);
    if (!response.body) throw new Error("Bedrock answered without a body");
    for await (const message of readEventStream(bodyChunks(response.body, options.signal))) {
      const event = handleEvent(message, open, output, stream, model);
      if (event) await options.onProviderStreamEvent?.(event, model);
    }
    if (options.signal?.aborted) throw new Error("Request was aborted");
    if (output.stopReason === "pending") throw new Error("Bedrock stream ended without a stop reason");
    if (output.stopReason === "error" || output.stopReason === "aborted") {
      throw new Error(output.errorMessage || "An unknown error occurred");
    }
    for (const block of open.values()) flushRedacted(block, output);
    stream.push({ type: "done", reason: output.stopReason, message: output });
    stream.end();
  } catch (error) {
    for (const block of open.values()) flushRedacted(block, output);
    const message = options.signal?.aborted && error instanceof Error && error.name === "AbortError"
      ? "Request was aborted"
      : formatBedrockError(error);
    if (!options.signal?.aborted && error instanceof BedrockServiceError) {
      const details: JsonObject = {};
      if (error.status !== undefined) details.status = error.status;
      details.errorCode = error.code;
      if (error.requestId) details.requestId = error.requestId;
      output.diagnostics = [...(output.diagnostics ?? []), {
        type: "bedrock_response_failure",
        timestamp: Date.now(),
        details,
      }];
    }
    throw new Error(message);
  }
}

/** Streams one ConverseStream request. Never throws: failures end in an `error` event. */
export function streamBedrock(
  model: Model,
  context: Context,
  options?: BedrockStreamOptions,
): AssistantMessageEventStream {
  const opts = options ?? {};
  return runProviderStream(
    model,
    opts.signal,
    (stream, output) => run(stream, output, model, context, opts),
    {
      prepare: (output) => (output.api = "bedrock-converse-stream"),
    },
  );
}

/** Streams with the unified options: budgets for older Claude models, effort for adaptive ones. */
export function streamSimpleBedrock(
  model: Model,
  context: Context,
  options?: SimpleStreamOptions,
): AssistantMessageEventStream {
  const base: BedrockStreamOptions = {
    ...buildBaseOptions(model, context, options),
    toolChoice: options?.toolChoice,
  };
  const level = options?.reasoning;
  if (!level) return streamBedrock(model, context, { ...base, reasoning: undefined });
  if (isClaudeModel(model) && !supportsAdaptiveThinking(model)) {
    const adjusted = adjustMaxTokensForThinking(
      base.maxTokens ?? model.maxTokens,
      model.maxTokens,
      level,
      options.thinkingBudgets,
    );
    const maxTokens = clampMaxTokensToContext(model, context, adjusted.maxTokens);
    return streamBedrock(model, context, {
      ...base,
      maxTokens,
      reasoning: level,
      thinkingBudgets: {
        ...options.thinkingBudgets,
        [clampReasoning(level)]: Math.min(adjusted.thinkingBudget, Math.max(0, maxTokens - 1024)),
      },
    });
  }
  return streamBedrock(model, context, {
    ...base,
    reasoning: level,
    thinkingBudgets: options.thinkingBudgets,
  });
}

/** The built-in implementation registered for "bedrock-converse-stream". */
export const provider: ApiProvider = {
  api: "bedrock-converse-stream",
  stream: streamBedrock,
  streamSimple: streamSimpleBedrock,
};
