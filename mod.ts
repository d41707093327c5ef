/**
 * pi for Deno: the SDK. The names match the reference packages (`@mariozechner/pi-ai`,
 * `@mariozechner/pi-agent-core`, `@mariozechner/pi-coding-agent`) so code ports over.
 *
 * @example
 * ```ts
 * import { createAgentSession } from "./mod.ts";
 * const { session } = await createAgentSession({ cwd: Deno.cwd() });
 * await session.prompt("List the files here");
 * console.log(session.getLastAssistantText());
 * ```
 *
 * @module
 */

// ── LLM layer (pi-ai) ─────────────────────────────────────────────────────
export * from "./src/ai/types.ts";
export * from "./src/ai/event_stream.ts";
export {
  clearApiProviders,
  getApiProvider,
  getApiProviders,
  registerApiProvider,
  unregisterApiProviders,
} from "./src/ai/api_registry.ts";
export type { ApiProvider, ApiStreamFunction, ApiStreamSimpleFunction } from "./src/ai/api_provider.ts";
export { complete, completeSimple, stream, streamSimple } from "./src/ai/stream.ts";
export { findEnvKeys, getApiKeyEnvVars, getEnvApiKey } from "./src/ai/env_api_keys.ts";
export { calculateCost, getModel, getModels, getProviders, modelsAreEqual } from "./src/ai/models.ts";
export {
  clampThinkingLevel,
  getSupportedThinkingLevels,
  supportsXhigh,
  THINKING_LEVELS,
} from "./src/ai/thinking.ts";
export { getOverflowPatterns, isContextOverflow } from "./src/ai/overflow.ts";
export { isRetryableError } from "./src/ai/retryable.ts";
export { parseStreamingJson } from "./src/ai/json_parse.ts";
export { transformMessages } from "./src/ai/transform_messages.ts";
export { validateToolArguments, validateToolCall } from "./src/ai/validation.ts";
export { streamAnthropic, streamSimpleAnthropic } from "./src/ai/providers/anthropic.ts";
export type { AnthropicOptions } from "./src/ai/providers/anthropic.ts";
export {
  streamOpenAICompletions,
  streamSimpleOpenAICompletions,
} from "./src/ai/providers/openai_completions.ts";
export type { OpenAICompletionsOptions } from "./src/ai/providers/openai_completions.ts";
export { streamOpenAIResponses, streamSimpleOpenAIResponses } from "./src/ai/providers/openai_responses.ts";
export type { OpenAIResponsesOptions } from "./src/ai/providers/openai_responses.ts";
export { streamGoogle, streamSimpleGoogle } from "./src/ai/providers/google.ts";
export type { GoogleOptions } from "./src/ai/providers/google.ts";

// ── Agent loop (pi-agent-core) ────────────────────────────────────────────
export { Agent } from "./src/agent/agent.ts";
export type { AgentListener, AgentOptions } from "./src/agent/agent.ts";
export { agentLoop, agentLoopContinue, runAgentLoop, runAgentLoopContinue } from "./src/agent/agent_loop.ts";
export type * from "./src/agent/types.ts";

// ── Tools ─────────────────────────────────────────────────────────────────
export {
  DEFAULT_MAX_BYTES,
  DEFAULT_MAX_LINES,
  formatSize,
  GREP_MAX_LINE_LENGTH,
  truncateHead,
  truncateLine,
  truncateTail,
} from "./src/tools/truncate.ts";
export type { TruncationOptions, TruncationResult } from "./src/tools/truncate.ts";
export { withFileMutationQueue } from "./src/tools/file_mutation_queue.ts";
export { createReadTool } from "./src/tools/read.ts";
export { createWriteTool } from "./src/tools/write.ts";
export { createEditTool } from "./src/tools/edit.ts";
export { createBashTool, OutputAccumulator } from "./src/tools/bash.ts";
export type { BashToolDetails, BashToolInput, BashToolOptions } from "./src/tools/bash.ts";
export {
  createLocalBashOperations,
  getShellConfig,
  getShellEnv,
  killProcessTree,
  sanitizeBinaryOutput,
} from "./src/tools/shell.ts";
export type { BashOperations } from "./src/tools/shell.ts";
export { createGrepTool } from "./src/tools/grep.ts";
export { createFindTool } from "./src/tools/find.ts";
export { createLsTool } from "./src/tools/ls.ts";
export {
  allToolNames,
  createAllTools,
  createCodingTools,
  createReadOnlyTools,
  createTool,
} from "./src/tools/index.ts";

// ── Sessions, configuration, resources ───────────────────────────────────
// The SDK's resource functions are synchronous, so their parsers load with the SDK.
import "./src/resources/resource_deps_eager.ts";
export { SessionManager } from "./src/session/session_manager.ts";
export type * from "./src/session/entries.ts";
export { buildSessionContext, getLatestCompactionEntry } from "./src/session/context.ts";
export {
  InvalidSessionFileError,
  loadEntriesFromFile,
  parseSessionEntries,
} from "./src/session/session_file.ts";
export { getDefaultSessionDir } from "./src/session/paths.ts";
export { convertToLlm } from "./src/session/messages.ts";
export type {
  BashExecutionMessage,
  BranchSummaryMessage,
  CompactionSummaryMessage,
  CustomMessage,
} from "./src/session/messages.ts";
export { SettingsManager } from "./src/config/settings_manager.ts";
export type { Settings } from "./src/config/settings_types.ts";
export { AuthStorage } from "./src/config/auth_storage.ts";
export type { AuthCredential } from "./src/config/auth_storage.ts";
export { ModelRegistry } from "./src/config/model_registry.ts";
export { getAgentDir, getAuthPath, getModelsPath, getSettingsPath } from "./src/config/paths.ts";
export { resolveConfigValue } from "./src/config/resolve_value.ts";
export {
  findInitialModel,
  parseModelPattern,
  resolveCliModel,
  resolveModelScope,
  restoreModelFromSession,
} from "./src/config/model_resolver.ts";
export { DefaultResourceLoader } from "./src/resources/resource_loader.ts";
export { formatSkillsForPrompt, loadSkills, loadSkillsFromDir } from "./src/resources/skills.ts";
export type { Skill } from "./src/resources/skills.ts";
export {
  expandPromptTemplate,
  loadPromptTemplates,
  parseCommandArgs,
  substituteArgs,
} from "./src/resources/prompt_templates.ts";
export type { PromptTemplate } from "./src/resources/prompt_templates.ts";
export { loadProjectContextFiles } from "./src/resources/context_files.ts";
export { buildSystemPrompt } from "./src/resources/system_prompt.ts";
export { parseFrontmatter, stripFrontmatter } from "./src/resources/frontmatter.ts";

// ── AgentSession ──────────────────────────────────────────────────────────
export { AgentSession } from "./src/core/agent_session.ts";
export type { AgentSessionConfig } from "./src/core/agent_session.ts";
export type * from "./src/core/agent_session_types.ts";
export { createAgentSession } from "./src/core/sdk.ts";
export type { CreateAgentSessionOptions, CreateAgentSessionResult } from "./src/core/sdk.ts";

export {
  AgentSessionRuntime,
  createAgentSessionFromServices,
  createAgentSessionRuntime,
  createAgentSessionServices,
  SessionImportFileNotFoundError,
} from "./src/core/session_runtime.ts";
export type { AgentSessionServices, CreateAgentSessionRuntimeFactory } from "./src/core/session_runtime.ts";
export { navigateTree } from "./src/core/session_tree.ts";
export { exportToJsonl } from "./src/core/session_export.ts";
export {
  calculateContextTokens,
  collectEntriesForBranchSummary,
  compact,
  DEFAULT_COMPACTION_SETTINGS,
  estimateTokens,
  findCutPoint,
  findTurnStartIndex,
  generateBranchSummary,
  generateSummary,
  getLastAssistantUsage,
  prepareBranchEntries,
  prepareCompaction,
  serializeConversation,
  shouldCompact,
} from "./src/compaction/mod.ts";

// ── Modes ─────────────────────────────────────────────────────────────────
export { runPrintMode } from "./src/modes/print_mode.ts";
export { runRpcMode } from "./src/modes/rpc/rpc_mode.ts";
export { RpcClient } from "./src/modes/rpc/rpc_client.ts";
export type { RpcClientOptions, RpcEvent } from "./src/modes/rpc/rpc_client.ts";
export type * from "./src/modes/rpc/rpc_types.ts";
export { runCli } from "./src/cli/run.ts";

export { VERSION } from "./src/version.ts";
