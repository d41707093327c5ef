/**
 * pi for Deno: the SDK. The names follow pi 1.6.0's packages (`@earendil-works/pi-ai`,
 * `@earendil-works/pi-agent-core`, `@earendil-works/pi-coding-agent`) so code ports over.
 *
 * This entry point has everything. The layers are also entry points of their own, for scripts
 * that need less: `@pi-deno/coding-agent/ai` (models and streaming), `/agent` (the agent loop),
 * `/tools` (the built-in tools) and `/session` (session files).
 *
 * @example
 * ```ts
 * import { createAgentSession } from "@pi-deno/coding-agent";
 *
 * const { session } = await createAgentSession({ cwd: Deno.cwd() });
 * await session.prompt("List the files here");
 * console.log(session.getLastAssistantText());
 * ```
 *
 * @module
 */

// ── LLM layer (pi-ai) ─────────────────────────────────────────────────────
export * from "./src/ai/mod.ts";

// ── Agent loop (pi-agent-core) ────────────────────────────────────────────
export * from "./src/agent/mod.ts";

// ── Tools ─────────────────────────────────────────────────────────────────
export * from "./src/tools/mod.ts";

// ── Sessions ──────────────────────────────────────────────────────────────
export * from "./src/session/mod.ts";

// ── Configuration, resources ─────────────────────────────────────────────
// The SDK's resource functions are synchronous, so their parsers load with the SDK.
import "./src/resources/resource_deps_eager.ts";
export { SettingsManager } from "./src/config/settings_manager.ts";
export type {
  SettingsManagerOptions,
  SettingsManagerOptions as SettingsManagerCreateOptions,
} from "./src/config/settings_manager.ts";
export type {
  BranchSummarySettings,
  CacheWarmingMode,
  CompactionSettings,
  ImageSettings,
  MarkdownSettings,
  PackageSource,
  ProviderRetrySettings,
  RetrySettings,
  Settings,
  SettingsError,
  SettingsScope,
  SettingsStorage,
  SettingsThinkingLevel,
  TerminalSettings,
  ThinkingBudgetsSettings,
  TransportSetting,
  WarningSettings,
} from "./src/config/settings_types.ts";
export type { SettingsManagerExtras } from "./src/config/settings_manager_extras.ts";
export type { CompactionTokenField, ModelKey } from "./src/config/settings_manager_extras.ts";
export type { SettingsManagerCore } from "./src/config/settings_manager_core.ts";
export type { TreeFilterMode } from "./src/config/settings_manager.ts";
// pi 1.6.0 exports no credential store: ModelRuntime owns credentials, readStoredCredential reads them.
export type {
  ApiKeyCredential,
  AuthCredential,
  AuthCredential as Credential,
  AuthStatus,
  OAuthCredential,
} from "./src/config/auth_storage.ts";
export { readStoredCredential } from "./src/config/stored_credential.ts";
export { CredentialSynchronizationError, ModelRuntime } from "./src/config/model_runtime.ts";
export type {
  AuthResult,
  CreateModelRuntimeOptions,
  CredentialInfo,
  CredentialSynchronizationOperation,
  ModelAuth,
  ModelRuntimeAuthOverrides,
} from "./src/config/model_runtime.ts";
// Virtual models (pi 1.6.0): catalog entries whose route picks a physical model for each request.
export { VIRTUAL_MODEL_STATE_ENTRY } from "./src/config/virtual_models.ts";
export type {
  ModelRoute,
  ModelRouteReason,
  ModelRouteRequest,
  ResolveRouteOptions,
  VirtualModelDefinition,
  VirtualModelStateData,
} from "./src/config/virtual_models.ts";
export type {
  OAuthAuthInfo,
  OAuthCredentials,
  OAuthDeviceCodeInfo,
  OAuthLoginCallbacks,
  OAuthLoginOptions,
  OAuthPrompt,
  OAuthProviderInterface,
  OAuthSelectOption,
} from "./src/config/oauth_registry.ts";
export type { AuthEvent, AuthInteraction, AuthPrompt } from "./src/config/oauth/auth_interaction.ts";
// A theme file's contents: what `AgentSession.exportToHtml(path, { theme })` colours the page with.
export type { ThemeColorValue, ThemeJson } from "./src/resources/themes/theme_schema.ts";
export { THEME_TOKENS, type ThemeTokenName } from "./src/resources/themes/theme_tokens.ts";
export { ModelRegistry } from "./src/config/model_registry.ts";
export type {
  ProviderConfigInput,
  ProviderConfigInput as ProviderConfig,
  ResolvedRequestAuth,
} from "./src/config/model_registry.ts";
export {
  CONFIG_DIR_NAME,
  getAgentDir,
  getAuthPath,
  getModelsPath,
  getSettingsPath,
} from "./src/config/paths.ts";
export type { EnvSource } from "./src/util/os.ts";
export { resolveConfigValue } from "./src/config/resolve_value.ts";
export type { ConfigValueEnv } from "./src/config/resolve_value.ts";
export {
  findInitialModel,
  parseModelPattern,
  resolveCliModel,
  resolveModelScope,
  resolveModelScopeWithDiagnostics,
  restoreModelFromSession,
} from "./src/config/model_resolver.ts";
export type {
  CliModelResolution,
  CliModelResolution as ResolveCliModelResult,
  InitialModelOptions,
  InitialModelResult,
  ModelScopeDiagnostic,
  ParsedModelPattern,
  ScopedModel,
} from "./src/config/model_resolver.ts";
export { hasTrustRequiringProjectResources, ProjectTrustStore } from "./src/config/project_trust.ts";
export type {
  DefaultProjectTrust,
  TrustDecision,
  TrustDecision as ProjectTrustDecision,
} from "./src/config/project_trust.ts";
export { DefaultResourceLoader } from "./src/resources/resource_loader.ts";
export type {
  ExtensionResourcePath,
  ExtensionResourcePaths,
  ResourceLoaderOptions,
  ResourceSettingsSource,
} from "./src/resources/resource_loader.ts";
export { formatSkillsForPrompt, loadSkills, loadSkillsFromDir } from "./src/resources/skills.ts";
export type {
  LoadSkillsOptions,
  LoadSkillsResult,
  ResourceDiagnostic,
  Skill,
  SkillFileReadTool,
  SkillSource,
} from "./src/resources/skills.ts";
export { createSyntheticSourceInfo } from "./src/resources/source_info.ts";
export type { ResourceScope, SourceInfo } from "./src/resources/source_info.ts";
export type {
  ResolvedResource,
  ResourceMetadata,
  ResourceSettings,
} from "./src/resources/resource_discovery.ts";
export {
  expandPromptTemplate,
  loadPromptTemplates,
  parseCommandArgs,
  substituteArgs,
} from "./src/resources/prompt_templates.ts";
export type {
  LoadPromptTemplatesOptions,
  LoadPromptTemplatesResult,
  PromptTemplate,
  PromptTemplateDiagnostic,
} from "./src/resources/prompt_templates.ts";
export { loadProjectContextFiles } from "./src/resources/context_files.ts";
export type { ContextFile } from "./src/resources/context_files.ts";
export { buildSystemPrompt } from "./src/resources/system_prompt.ts";
export type { BuildSystemPromptOptions, DocumentationPaths } from "./src/resources/system_prompt.ts";
export { parseFrontmatter, stripFrontmatter } from "./src/resources/frontmatter.ts";
export type { ParsedFrontmatter } from "./src/resources/frontmatter.ts";
export { getPackageDir } from "./src/resources/documentation.ts";

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
export type {
  AgentSessionRuntimeDiagnostic,
  AgentSessionRuntimeHooks,
  AgentSessionServices,
  CreateAgentSessionFromServicesOptions,
  CreateAgentSessionRuntimeFactory,
  CreateAgentSessionRuntimeOptions,
  CreateAgentSessionRuntimeResult,
  CreateAgentSessionServicesOptions,
  SessionStartEvent,
  WithSession,
} from "./src/core/session_runtime.ts";
export type { SessionRuntimeHost } from "./src/core/runtime_host.ts";
export type { SessionTool } from "./src/core/session_tools.ts";
export type {
  BeforeTreeResult,
  NavigateTreeHooks,
  NavigateTreeOptions,
  NavigateTreeResult,
  TreeNavigatedEvent,
  TreePreparation,
} from "./src/core/session_tree.ts";
export { exportToJsonl } from "./src/core/session_export.ts";
export type { ExportableSession } from "./src/core/session_export.ts";
export {
  calculateContextTokens,
  collectEntriesForBranchSummary,
  compact,
  DEFAULT_COMPACTION_SETTINGS,
  estimateProjectedContextTokens,
  estimateTokens,
  findCutPoint,
  findTurnStartIndex,
  generateBranchSummary,
  generateSummary,
  generateSummaryWithUsage,
  getLastAssistantUsage,
  prepareBranchEntries,
  prepareCompaction,
  serializeConversation,
  shouldCompact,
} from "./src/compaction/mod.ts";
export type { ContextUsageEstimate } from "./src/compaction/token_estimate.ts";
export type {
  BranchPreparation,
  BranchSummaryResult,
  CollectEntriesResult,
  GenerateBranchSummaryOptions,
} from "./src/compaction/branch_summarization.ts";
export type {
  CompactionDetails,
  CompactionPreparation,
  CompactionResult,
} from "./src/compaction/compaction.ts";
export type { CutPointResult } from "./src/compaction/cut_point.ts";
export { getSummarizationFailure } from "./src/compaction/summary_request.ts";
export type { SummaryRetryCallbacks, SummaryRetryPolicy } from "./src/compaction/summary_request.ts";
export type { FileOperations } from "./src/compaction/file_tracking.ts";
export type {
  /** Compaction settings with every default resolved, as the compaction functions take them. */
  CompactionSettings as ResolvedCompactionSettings,
} from "./src/compaction/token_estimate.ts";

// ── Modes ─────────────────────────────────────────────────────────────────
export { runPrintMode } from "./src/modes/print_mode.ts";
export type { PrintModeOptions } from "./src/modes/print_mode.ts";
export type {
  JsonAgentSessionEvent,
  JsonAssistantMessageEvent,
  WithoutPartial,
} from "./src/modes/json_event.ts";
export { runRpcMode } from "./src/modes/rpc/rpc_mode.ts";
export type { RpcModeOptions } from "./src/modes/rpc/rpc_mode.ts";
export type { RpcDialogOptions, RpcExtensionUI } from "./src/modes/rpc/extension_ui.ts";
export { RpcClient } from "./src/modes/rpc/rpc_client.ts";
export type {
  CommandBody,
  RpcClientOptions,
  RpcEvent,
  RpcEventListener,
} from "./src/modes/rpc/rpc_client.ts";
export type * from "./src/modes/rpc/rpc_types.ts";
export { runCli } from "./src/cli/run.ts";
export { parseArgs } from "./src/cli/args.ts";
export type { CliArgs, CliArgs as Args, CliDiagnostic, CliMode } from "./src/cli/args.ts";

export { VERSION } from "./src/version.ts";
