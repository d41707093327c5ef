/**
 * `@earendil-works/pi-coding-agent` for extensions: the values extensions use at run time (tool
 * factories, truncation helpers, the file mutation queue, paths, `defineTool` and the event type
 * guards). Types are erased when an extension is transpiled, so only values matter here.
 *
 * @module
 */
export * from "../../tools/mod.ts";
export { CONFIG_DIR_NAME, getAgentDir } from "../../config/paths.ts";
export { convertToLlm } from "../../session/messages.ts";
export { serializeConversation } from "../../compaction/serialize.ts";
export {
  calculateContextTokens,
  DEFAULT_COMPACTION_SETTINGS,
  estimateTokens,
  getLastAssistantUsage,
  shouldCompact,
} from "../../compaction/token_estimate.ts";
export { CURRENT_SESSION_VERSION } from "../../session/entries.ts";
// SessionManager's public API is 1.6.0's (statics and methods); the rest are the session-file helpers.
export {
  buildContextEntries,
  buildSessionContext,
  buildSessionProjection,
  getLatestCompactionEntry,
  migrateSessionEntries,
  parseSessionEntries,
  sessionEntryToContextMessages,
  SessionManager,
} from "../../session/mod.ts";
export { createSyntheticSourceInfo } from "../../resources/source_info.ts";
export { loadProjectContextFiles } from "../../resources/context_files.ts";
export { findCutPoint, findTurnStartIndex } from "../../compaction/cut_point.ts";
export {
  collectEntriesForBranchSummary,
  prepareBranchEntries,
} from "../../compaction/branch_summarization.ts";
export { formatSkillsForPrompt, loadSkills, loadSkillsFromDir } from "../../resources/skills.ts";
export { compact, generateSummaryWithUsage } from "../../compaction/compaction.ts";
export { generateBranchSummary } from "../../compaction/branch_summarization.ts";
export { readStoredCredential } from "../../config/stored_credential.ts";
export { hasTrustRequiringProjectResources, ProjectTrustStore } from "../../config/project_trust.ts";
export { CredentialSynchronizationError } from "../../config/model_runtime.ts";
export { parseFrontmatter, stripFrontmatter } from "../../resources/frontmatter.ts";
export { VERSION } from "../../version.ts";
export { defineTool, isToolCallEventType } from "../api_helpers.ts";
export {
  isBashToolResult,
  isEditToolResult,
  isFindToolResult,
  isGrepToolResult,
  isLsToolResult,
  isPowerShellToolResult,
  isReadToolResult,
  isWriteToolResult,
} from "./coding_agent_guards.ts";
export { createEventBus, generateSummary, parseSkillBlock } from "./coding_agent_helpers.ts";
export { generateUnifiedPatch } from "./coding_agent_patch.ts";
export { getDocsPath, getExamplesPath, getPackageDir, getReadmePath } from "./coding_agent_paths.ts";
export { getLanguageFromPath } from "./coding_agent_language.ts";
// 1.6.0's resizeImage takes bytes; this one shadows the read tool's (base64) from tools/mod.ts.
export { convertToPng, resizeImage } from "./coding_agent_image.ts";
export {
  createBashToolDefinition,
  createEditToolDefinition,
  createFindToolDefinition,
  createGrepToolDefinition,
  createLsToolDefinition,
  createReadToolDefinition,
  createWriteToolDefinition,
} from "./coding_agent_tool_definitions.ts";
export { SettingsManager } from "../../config/settings_manager.ts";
