/**
 * The shapes the extension runner works with: a loaded extension's registrations, the error
 * record 1.6.0 reports, and the host hooks the `pi` object and `ctx` call into. Extension authors
 * write against pi 1.6.0's published types; these are the host side.
 *
 * @module
 */
import type { ImageContent, TextContent } from "../ai/types.ts";
import type { AgentToolResult } from "../agent/types.ts";
import type { SourceInfo } from "../resources/source_info.ts";

/** An event handler as an extension registered it. */
export type ExtensionHandler = (event: Record<string, unknown>, ctx: ExtensionContext) => unknown;

/** A tool an extension registered (pi 1.6.0's `ToolDefinition`, the fields we use). */
export interface ExtensionToolDefinition {
  name: string;
  label?: string;
  description: string;
  parameters: unknown;
  promptSnippet?: string;
  promptGuidelines?: string[];
  execute: (
    toolCallId: string,
    params: unknown,
    signal: AbortSignal | undefined,
    onUpdate: ((partial: AgentToolResult) => void) | undefined,
    ctx: ExtensionContext,
  ) => Promise<AgentToolResult> | AgentToolResult;
  [key: string]: unknown;
}

/** A slash command an extension registered. */
export interface ExtensionCommand {
  name: string;
  description?: string;
  handler: (args: string, ctx: ExtensionContext) => unknown;
  extensionPath: string;
  /** Provenance of the extension that registered it. */
  sourceInfo?: SourceInfo;
}

/** A CLI flag an extension registered. */
export interface ExtensionFlag {
  name: string;
  description?: string;
  type: "boolean" | "string";
  default?: boolean | string;
  extensionPath: string;
}

/** One loaded extension and what it registered. */
export interface LoadedExtension {
  /** The path as configured (shown in errors). */
  path: string;
  /** The resolved entry file. */
  resolvedPath: string;
  handlers: Map<string, ExtensionHandler[]>;
  tools: Map<string, ExtensionToolDefinition>;
  commands: Map<string, ExtensionCommand>;
  flags: Map<string, ExtensionFlag>;
  /** Provenance (path, source, scope), as 1.6.0 reports it. */
  sourceInfo?: SourceInfo;
  /** URLs of the extension's built modules (to tell which extension an uncaught error came from). */
  moduleUrls: string[];
}

/** An error from an extension, as 1.6.0's `extension_error` carries it. */
export interface ExtensionError {
  extensionPath: string;
  event: string;
  error: string;
  stack?: string;
}

/** A failed load: the configured path and a message that says what went wrong. */
export interface ExtensionLoadError {
  path: string;
  error: string;
}

/** The UI an extension's `ctx.ui` talks to; modes supply it (dialogs answer undefined without a user). */
export interface ExtensionUIContext {
  select(title: string, options: string[], opts?: { timeout?: number }): Promise<string | undefined>;
  confirm(title: string, message: string, opts?: { timeout?: number }): Promise<boolean>;
  input(title: string, placeholder?: string, opts?: { timeout?: number }): Promise<string | undefined>;
  editor(title: string, prefill?: string): Promise<string | undefined>;
  notify(message: string, type?: "info" | "warning" | "error"): void;
  setStatus(key: string, text: string | undefined): void;
  setWidget(key: string, content: unknown, options?: unknown): void;
  setTitle(title: string): void;
  setEditorText(text: string): void;
  getEditorText(): string;
  [key: string]: unknown;
}

/** The context handed to handlers, tools and commands (`ctx`). */
export interface ExtensionContext {
  ui: ExtensionUIContext;
  hasUI: boolean;
  cwd: string;
  sessionManager: unknown;
  modelRegistry: unknown;
  model: unknown;
  isIdle(): boolean;
  signal: AbortSignal | undefined;
  abort(): void;
  hasPendingMessages(): boolean;
  shutdown(): void;
  getContextUsage(): unknown;
  compact(options?: unknown): void;
  getSystemPrompt(): string;
  [key: string]: unknown;
}

/** A message an extension sends with `pi.sendMessage`. */
export interface ExtensionCustomMessage {
  customType: string;
  content: string | (TextContent | ImageContent)[];
  display?: boolean;
  details?: unknown;
}

/**
 * What the session offers the `pi` object and `ctx`: each hook is bound by src/core when the
 * session exists; before that (during the factory) actions throw 1.6.0's "not initialized" error.
 */
export interface ExtensionHostActions {
  sendMessage(message: ExtensionCustomMessage, options?: { triggerTurn?: boolean; deliverAs?: string }): void;
  sendUserMessage(
    content: string | (TextContent | ImageContent)[],
    options?: { deliverAs?: "steer" | "followUp" },
  ): void;
  appendEntry(customType: string, data?: unknown): void;
  setSessionName(name: string): void;
  getSessionName(): string | undefined;
  getActiveTools(): string[];
  getAllTools(): { name: string; description: string; parameters: unknown }[];
  setActiveTools(names: string[]): void;
  /** Makes a tool registered after start-up available (the session adds and activates it). */
  refreshTools(): void;
  getCommands(): { name: string; description?: string; source: string; sourceInfo?: SourceInfo }[];
  setModel(model: unknown): Promise<boolean>;
  getThinkingLevel(): string;
  setThinkingLevel(level: string): void;
  /** The `ctx` for the current session. */
  context(): ExtensionContext;
}
