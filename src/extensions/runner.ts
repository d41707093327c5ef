/**
 * Runs loaded extensions' handlers with pi 1.6.0's result semantics, one extension after another
 * in load order. A handler that throws or rejects becomes an {@link ExtensionError} (reported to
 * the error listeners, as 1.6.0's `extension_error`) and the others still run — except
 * `tool_call` and `user_bash`, which fail closed: the error blocks the call or command, as in
 * 1.6.0. Handlers have no
 * timeout (1.6.0 has none either): a handler that never settles holds up what waits for it.
 *
 * @module
 */
import type { ImageContent, TextContent } from "../ai/types.ts";
import type { AgentMessage } from "../agent/types.ts";
import type {
  ExtensionCommand,
  ExtensionContext,
  ExtensionError,
  ExtensionFlag,
  ExtensionHandler,
  ExtensionToolDefinition,
  LoadedExtension,
} from "./types.ts";
import type { BoundaryDraft, BoundaryOutcome, UserBashResult } from "./event_results.ts";
import {
  dispatchBeforeProviderHeaders,
  dispatchBeforeProviderRequest,
  dispatchBoundary,
  dispatchContext,
  dispatchUserBash,
  type HandlerDispatch,
} from "./runner_dispatch.ts";

/** `tool_call`'s combined result: `block` stops the call with `reason`. */
export interface ToolCallResult {
  block?: boolean;
  reason?: string;
}

/** `tool_result`'s combined changes, undefined fields unchanged. */
export interface ToolResultChanges {
  content?: (TextContent | ImageContent)[];
  details?: unknown;
  structuredContent?: unknown;
  isError?: boolean;
}

/** `input`'s outcome. */
export type InputResult =
  | { action: "continue" }
  | { action: "handled" }
  | { action: "transform"; text: string; images?: ImageContent[] };

/** `before_agent_start`'s outcome: extra messages and a replaced system prompt. */
export interface BeforeAgentStartResult {
  messages: { customType: string; content: unknown; display?: boolean; details?: unknown }[];
  systemPrompt?: string;
}

/** The system prompt's inputs as `before_agent_start` hands them out, and how to render them. */
export interface SystemPromptOptionsView {
  /** 1.6.0's `systemPromptOptions`: handlers edit it in place. */
  systemPromptOptions: Record<string, unknown>;
  /** The prompt text the options make now. */
  render(options: Record<string, unknown>): string;
}

/** The paths `resources_discover` handlers returned, each with the extension that returned it. */
export interface DiscoveredResourcePaths {
  skillPaths: { path: string; extensionPath: string }[];
  promptPaths: { path: string; extensionPath: string }[];
  themePaths: { path: string; extensionPath: string }[];
}

/** Runs the handlers of a set of loaded extensions. */
export class ExtensionRunner {
  readonly extensions: readonly LoadedExtension[];
  #errorListeners = new Set<(error: ExtensionError) => void>();
  #context: () => ExtensionContext;

  constructor(extensions: readonly LoadedExtension[], context: () => ExtensionContext) {
    this.extensions = extensions;
    this.#context = context;
  }

  /** Hears every handler error; returns the unsubscribe function. */
  onError(listener: (error: ExtensionError) => void): () => void {
    this.#errorListeners.add(listener);
    return () => this.#errorListeners.delete(listener);
  }

  /** Reports an error to the listeners. */
  emitError(error: ExtensionError): void {
    for (const listener of this.#errorListeners) listener(error);
  }

  #report(ext: LoadedExtension, event: string, error: unknown): void {
    this.emitError({
      extensionPath: ext.path,
      event,
      error: error instanceof Error ? error.message : String(error),
      ...(error instanceof Error && error.stack ? { stack: error.stack } : {}),
    });
  }

  /** Whether any extension listens to `event`. */
  hasHandlers(event: string): boolean {
    return this.extensions.some((ext) => (ext.handlers.get(event)?.length ?? 0) > 0);
  }

  /** The handlers for `event` as they are now (a handler that registers more does not change this run). */
  #handlers(event: string): { ext: LoadedExtension; handler: ExtensionHandler }[] {
    return this.extensions.flatMap((ext) =>
      (ext.handlers.get(event) ?? []).map((handler) => ({ ext, handler }))
    );
  }

  /** Every registered tool, later extensions not replacing earlier ones' names. */
  tools(): { tool: ExtensionToolDefinition; ext: LoadedExtension }[] {
    const seen = new Set<string>();
    const out: { tool: ExtensionToolDefinition; ext: LoadedExtension }[] = [];
    for (const ext of this.extensions) {
      for (const tool of ext.tools.values()) {
        if (seen.has(tool.name)) continue;
        seen.add(tool.name);
        out.push({ tool, ext });
      }
    }
    return out;
  }

  /** The command `name` (first registration wins). */
  command(name: string): ExtensionCommand | undefined {
    for (const ext of this.extensions) {
      const command = ext.commands.get(name);
      if (command) return command;
    }
    return undefined;
  }

  /** Every registered command. */
  commands(): ExtensionCommand[] {
    const seen = new Map<string, ExtensionCommand>();
    for (const ext of this.extensions) {
      for (const command of ext.commands.values()) {
        if (!seen.has(command.name)) seen.set(command.name, command);
      }
    }
    return [...seen.values()];
  }

  /** Every registered flag. */
  flags(): ExtensionFlag[] {
    return this.extensions.flatMap((ext) => [...ext.flags.values()]);
  }

  /**
   * An event whose results are ignored (session, agent, turn, message, tool execution), except
   * the `session_before_*` ones: the last result is returned, and `{ cancel: true }` stops there.
   */
  async emit(event: Record<string, unknown> & { type: string }): Promise<{ cancel?: boolean } | undefined> {
    const ctx = this.#context();
    const cancellable = event.type.startsWith("session_before_");
    let result: { cancel?: boolean } | undefined;
    for (const { ext, handler } of this.#handlers(event.type)) {
      try {
        const returned = await handler(event, ctx) as { cancel?: boolean } | undefined;
        if (cancellable && returned) {
          result = returned;
          if (returned.cancel) return returned;
        }
      } catch (error) {
        this.#report(ext, event.type, error);
      }
    }
    return result;
  }

  /**
   * `tool_call`: handlers may edit `event.input` in place; the first `{ block: true }` stops the
   * chain. A throwing handler is not isolated here: the caller blocks the call with its message.
   */
  async emitToolCall(event: { toolName: string; toolCallId: string; input: unknown }): Promise<
    ToolCallResult | undefined
  > {
    const ctx = this.#context();
    let result: ToolCallResult | undefined;
    for (const { handler } of this.#handlers("tool_call")) {
      const returned = await handler({ type: "tool_call", ...event }, ctx) as ToolCallResult | undefined;
      if (returned) {
        result = returned;
        if (returned.block) return returned;
      }
    }
    return result;
  }

  /**
   * `message_end`: a handler may return `{ message }` with the same role to replace the message;
   * later handlers see the replacement. Undefined when nothing replaced it.
   */
  async emitMessageEnd(message: AgentMessage): Promise<AgentMessage | undefined> {
    const ctx = this.#context();
    let current = message;
    let replaced = false;
    for (const { ext, handler } of this.#handlers("message_end")) {
      try {
        const returned = await handler({ type: "message_end", message: current }, ctx) as
          | { message?: AgentMessage }
          | undefined;
        if (!returned?.message) continue;
        if (returned.message.role !== current.role) {
          this.emitError({
            extensionPath: ext.path,
            event: "message_end",
            error: "message_end handlers must return a message with the same role",
          });
          continue;
        }
        current = returned.message;
        replaced = true;
      } catch (error) {
        this.#report(ext, "message_end", error);
      }
    }
    return replaced ? current : undefined;
  }

  /** `tool_result`: each handler sees the previous one's changes; undefined when nothing changed. */
  async emitToolResult(event: {
    toolName: string;
    toolCallId: string;
    input: unknown;
    content: (TextContent | ImageContent)[];
    details: unknown;
    structuredContent?: unknown;
    isError: boolean;
  }): Promise<ToolResultChanges | undefined> {
    const ctx = this.#context();
    const current: Record<string, unknown> = { type: "tool_result", ...event };
    let modified = false;
    for (const { ext, handler } of this.#handlers("tool_result")) {
      try {
        const returned = await handler(current, ctx) as ToolResultChanges | undefined;
        if (!returned) continue;
        if (returned.content !== undefined) {
          current.content = returned.content;
          // Structured content not replaced together with the content may no longer match it.
          if (returned.structuredContent === undefined) delete current.structuredContent;
          modified = true;
        }
        for (const key of ["details", "structuredContent", "isError"] as const) {
          if (returned[key] !== undefined) {
            current[key] = returned[key];
            modified = true;
          }
        }
      } catch (error) {
        this.#report(ext, "tool_result", error);
      }
    }
    if (!modified) return undefined;
    return {
      content: current.content as (TextContent | ImageContent)[],
      details: current.details,
      structuredContent: current.structuredContent,
      isError: current.isError as boolean,
    };
  }

  /** `input`: transforms chain, `handled` stops everything. */
  async emitInput(text: string, images: ImageContent[] | undefined, source: string): Promise<InputResult> {
    const ctx = this.#context();
    let currentText = text;
    let currentImages = images;
    for (const { ext, handler } of this.#handlers("input")) {
      try {
        const result = await handler(
          { type: "input", text: currentText, images: currentImages, source },
          ctx,
        ) as InputResult | undefined;
        if (result?.action === "handled") return result;
        if (result?.action === "transform") {
          currentText = result.text;
          currentImages = result.images ?? currentImages;
        }
      } catch (error) {
        this.#report(ext, "input", error);
      }
    }
    return currentText !== text || currentImages !== images
      ? { action: "transform", text: currentText, images: currentImages }
      : { action: "continue" };
  }

  /**
   * `before_agent_start`: messages accumulate, the last `systemPrompt` wins. With `prompt`
   * options (1.6.0's `systemPromptOptions`), handlers see and edit that object in place,
   * `event.systemPrompt` renders it as it is now, and a returned `systemPrompt` becomes its
   * `forceSystemPrompt`.
   */
  async emitBeforeAgentStart(
    prompt: string,
    images: ImageContent[] | undefined,
    systemPrompt: string,
    options?: SystemPromptOptionsView,
  ): Promise<BeforeAgentStartResult> {
    const ctx = this.#context();
    const result: BeforeAgentStartResult = { messages: [] };
    let current = systemPrompt;
    const render = () => options ? options.render(options.systemPromptOptions) : current;
    for (const { ext, handler } of this.#handlers("before_agent_start")) {
      try {
        const event: Record<string, unknown> = { type: "before_agent_start", prompt, images };
        Object.defineProperty(event, "systemPrompt", { get: render, enumerable: true });
        if (options) event.systemPromptOptions = options.systemPromptOptions;
        const returned = await handler(event, { ...ctx, getSystemPrompt: render }) as
          | { message?: BeforeAgentStartResult["messages"][number]; systemPrompt?: string }
          | undefined;
        if (returned?.message) result.messages.push(returned.message);
        if (returned?.systemPrompt !== undefined) {
          current = returned.systemPrompt;
          result.systemPrompt = current;
          if (options) options.systemPromptOptions.forceSystemPrompt = current;
        }
      } catch (error) {
        this.#report(ext, "before_agent_start", error);
      }
    }
    return result;
  }

  /**
   * `resources_discover` (`reason` startup or reload): the skill, prompt template and theme
   * paths every handler returned, in load order, each with the extension that named it.
   */
  async emitResourcesDiscover(cwd: string, reason: "startup" | "reload"): Promise<DiscoveredResourcePaths> {
    const ctx = this.#context();
    const found: DiscoveredResourcePaths = { skillPaths: [], promptPaths: [], themePaths: [] };
    for (const { ext, handler } of this.#handlers("resources_discover")) {
      try {
        const returned = await handler({ type: "resources_discover", cwd, reason }, ctx) as
          | Partial<Record<keyof DiscoveredResourcePaths, string[]>>
          | undefined;
        for (const key of ["skillPaths", "promptPaths", "themePaths"] as const) {
          for (const path of returned?.[key] ?? []) found[key].push({ path, extensionPath: ext.path });
        }
      } catch (error) {
        this.#report(ext, "resources_discover", error);
      }
    }
    return found;
  }

  /**
   * `context`: handlers see the conversation without `system` messages, on a copy, and return a
   * new list (or edit theirs in place); `system` messages keep their places. Then
   * `context_with_system` sees the whole transcript.
   */
  emitContext(messages: AgentMessage[]): Promise<AgentMessage[]> {
    if (!this.hasHandlers("context") && !this.hasHandlers("context_with_system")) {
      return Promise.resolve(messages);
    }
    return dispatchContext(this.#dispatch(), messages);
  }

  /**
   * `before_provider_request`: each handler sees the payload as the previous one left it; a
   * returned value other than undefined replaces it for later handlers and for the request.
   */
  emitBeforeProviderRequest(payload: unknown): Promise<unknown> {
    return dispatchBeforeProviderRequest(this.#dispatch(), payload);
  }

  /** `before_provider_headers`: handlers edit `headers` in place (null deletes); results are ignored. */
  emitBeforeProviderHeaders(headers: Record<string, string | null>): Promise<Record<string, string | null>> {
    return dispatchBeforeProviderHeaders(this.#dispatch(), headers);
  }

  /**
   * `user_bash`: the first handler returning a valid result decides. It fails closed, as 1.6.0
   * does: a throwing handler, or one returning something invalid, is reported and its error
   * thrown, so the command does not run.
   */
  emitUserBash(event: { command: string; excludeFromContext: boolean; cwd: string }): Promise<
    UserBashResult | undefined
  > {
    return dispatchUserBash(this.#dispatch(), event);
  }

  /**
   * `turn_end` / `agent_before_settle`: each handler sees the entries and continuation proposed
   * so far and the context rebuilt from them; a returned `entries` or `continue` replaces that
   * field. Entries the context cannot be built from make the whole proposal invalid (reported).
   */
  emitBoundary<C>(
    baseEvent: Record<string, unknown> & { type: "turn_end" | "agent_before_settle" },
    buildContext: (entries: BoundaryDraft[]) => C | Promise<C>,
  ): Promise<BoundaryOutcome<C>> {
    return dispatchBoundary(this.#dispatch(), baseEvent, buildContext);
  }

  /** What the dispatch functions of runner_dispatch.ts need of this runner. */
  #dispatch(): HandlerDispatch {
    return {
      context: this.#context(),
      handlers: (event) => this.#handlers(event),
      report: (ext, event, error) => this.#report(ext, event, error),
      emitError: (error) => this.emitError(error),
    };
  }
}
