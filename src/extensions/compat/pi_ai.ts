/**
 * `@earendil-works/pi-ai` as extensions see it: pi 1.6.0's "extension view" (pi-ai's compat entry,
 * TypeBox's `Type` — the host's copy — and `StringEnum`), limited to the names 1.6.0's view
 * exports; a name outside it is a SyntaxError, as in 1.6.0. Each name comes from the file that
 * defines it, so host_parts.ts can load only the files an extension's names need (the catalog and
 * argument validation stay unloaded unless the extension imports `getModel` or `validateToolCall`).
 *
 * @module
 */
export { Type } from "npm:typebox@1.4.3";
export { StringEnum, type StringEnumOptions } from "./pi_ai_string_enum.ts";
export type * from "../../ai/types.ts";
export {
  AssistantMessageEventStream,
  createAssistantMessageEventStream,
  EventStream,
} from "../../ai/event_stream.ts";
export {
  getApiProvider,
  getApiProviders,
  registerApiProvider,
  unregisterApiProviders,
} from "../../ai/api_registry.ts";
export { complete, completeSimple, stream, streamSimple } from "../../ai/stream.ts";
export { findEnvKeys, getEnvApiKey } from "../../ai/env_api_keys.ts";
export { calculateCost, getModel, getModels, getProviders, modelsAreEqual } from "../../ai/models.ts";
export { clampThinkingLevel, getSupportedThinkingLevels } from "../../ai/thinking.ts";
export { getOverflowPatterns, isContextOverflow } from "../../ai/overflow.ts";
export { parseJsonWithRepair, parseStreamingJson, repairJson } from "../../ai/json_parse.ts";
export { contentText } from "../../ai/content_text.ts";
export { uuidv7 } from "./pi_ai_uuid.ts";
export { DEFAULT_MAX_AGENT_RETRY_DELAY_MS } from "../../config/settings_manager_extras.ts";
export { cleanupSessionResources, registerSessionResourceCleanup } from "../../ai/session_resources.ts";
export {
  declarationsEqual,
  getCurrentSystemMessage,
  getCurrentSystemPrompt,
  getCurrentTools,
  getSystemMessageText,
  getToolStateChanges,
  toToolDeclaration,
} from "../../session/system_message.ts";
export { validateToolArguments, validateToolCall } from "../../ai/validation.ts";
export { streamAnthropic, streamSimpleAnthropic } from "../../ai/providers/anthropic.ts";
export {
  streamOpenAICompletions,
  streamSimpleOpenAICompletions,
} from "../../ai/providers/openai_completions.ts";
export { streamOpenAIResponses, streamSimpleOpenAIResponses } from "../../ai/providers/openai_responses.ts";
export { streamGoogle, streamSimpleGoogle } from "../../ai/providers/google.ts";
export {
  streamAzureOpenAIResponses,
  streamSimpleAzureOpenAIResponses,
} from "../../ai/providers/azure_openai_responses.ts";
export { streamGoogleVertex, streamSimpleGoogleVertex } from "../../ai/providers/google_vertex.ts";
export { streamMistral, streamSimpleMistral } from "../../ai/providers/mistral.ts";
export {
  streamOpenAICodexResponses,
  streamSimpleOpenAICodexResponses,
} from "../../ai/providers/openai_codex_responses.ts";
export {
  ANTHROPIC_API_KEY_ENV,
  ANTHROPIC_AUTH_TOKEN_ENV,
  ANTHROPIC_FEDERATION_RULE_ID_ENV,
  ANTHROPIC_IDENTITY_TOKEN_FILE_ENV,
  ANTHROPIC_OAUTH_TOKEN_ENV,
  ANTHROPIC_ORGANIZATION_ID_ENV,
  ANTHROPIC_SERVICE_ACCOUNT_ID_ENV,
  ANTHROPIC_WORKSPACE_ID_ENV,
  PI_AI_VERSION,
} from "./pi_ai_constants.ts";
export {
  CACHE_WARMING_IDLE_CONTINUATION_PROBABILITY,
  CACHE_WARMING_MAX_AGE_MS,
  CACHE_WARMING_MAX_IDLE_AGE_MS,
  CACHE_WARMING_MINIMUM_EXPECTED_SAVINGS,
  type CacheWarmingAction,
  type CacheWarmingDecision,
  type CacheWarmingPhase,
  evaluateCacheWarming,
  getCacheWarmingDelayMs,
  getCacheWarmingRequestOptions,
  getPromptCacheTtlMs,
  isCacheWarmingReplayable,
} from "./pi_ai_cache_warming.ts";
export {
  appendAssistantMessageDiagnostic,
  createAssistantMessageDiagnostic,
  type DiagnosticError,
  extractDiagnosticError,
  formatThrownValue,
  ModelsError,
  type ModelsErrorCode,
} from "./pi_ai_diagnostics.ts";
export {
  type AnyModel,
  getModelType,
  hasApi,
  isModelType,
  type ModelType,
  type ModelTypeMap,
} from "./pi_ai_model_type.ts";
export {
  type ClientAttribution,
  type ClientIdentity,
  type ClientIdentityTarget,
  formatUserAgent,
  getAttributionHeaders,
  getClientVersion,
  getIdentityHeaders,
  getOpenCodeSessionHeaders,
  mergeClientIdentity,
  PI_ATTRIBUTION,
  type UserAgentMode,
} from "./pi_ai_identity.ts";
export type * from "./pi_ai_auth_types.ts";
export {
  InMemoryCredentialStore,
  InMemoryModelsStore,
  type ModelsStoreEntry,
  type ModelsStoreOperationOptions,
} from "./pi_ai_stores.ts";
export { defaultProviderAuthContext, envApiKeyAuth, lazyOAuth } from "./pi_ai_auth.ts";
export {
  isRecoverableLength,
  isRetryableAssistantError,
  retryAssistantCall,
  type RetryCallbacks,
  retryDelayMs,
  type RetryPolicy,
} from "./pi_ai_retry.ts";
export {
  collapseSystemMessages,
  createInitialSystemMessage,
  getDeclaredTools,
  getInitialSystemMessage,
  hasNonAdditiveToolChanges,
  hasToolRedefinitions,
  normalizeContext,
  renderSystemMessageUpdate,
  resolveTranscript,
  resolveTranscriptTools,
  type TranscriptContext,
  type TranscriptMessage,
  type TranscriptToolSupport,
  withoutInitialSystemMessage,
} from "./pi_ai_transcript.ts";
export {
  anthropicMessagesApi,
  azureOpenAIResponsesApi,
  bedrockConverseStreamApi,
  googleGenerativeAIApi,
  googleVertexApi,
  lazyApi,
  type LazyApiCapabilities,
  lazyStream,
  type LazyStreamObserver,
  mistralConversationsApi,
  openAICodexResponsesApi,
  openAICompletionsApi,
  openAIResponsesApi,
  piMessagesApi,
  type ProviderStreams,
  type StreamContext,
} from "./pi_ai_lazy_api.ts";
export {
  fauxAssistantMessage,
  type FauxAssistantMessageOptions,
  type FauxContentBlock,
  fauxText,
  fauxThinking,
  fauxToolCall,
} from "./pi_ai_faux_messages.ts";
export { registerBuiltInApiProviders, resetApiProviders } from "./pi_ai_api_registry.ts";
export { parseToolCallArguments } from "./pi_ai_tool_arguments.ts";
export {
  type JsonChange,
  type JsonPathSegment,
  type JsonValue,
  StreamingJsonParser,
} from "./pi_ai_streaming_json.ts";
export { ToolCallArgumentsStream } from "./pi_ai_tool_arguments_stream.ts";
export {
  createFauxCore,
  type FauxModelDefinition,
  type FauxProviderOptions,
  type FauxResponseStep,
  type FauxState,
  registerFauxProvider,
} from "./pi_ai_faux_provider.ts";
