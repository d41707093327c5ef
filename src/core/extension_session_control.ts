/**
 * The session control pi 1.6.0 gives extension commands (`ExtensionCommandContext`): `ctx.newSession()`,
 * `ctx.fork()`, `ctx.switchSession()` (each with a `withSession` callback that receives a fresh context
 * of the replacement session) and `ctx.navigateTree()`, plus the text a captured `ctx` or `pi` throws
 * once its session was replaced. The modes supply how a replacement is done ({@link SessionControl});
 * {@link runtimeSessionControl} builds that from a session runtime.
 *
 * @module
 */
import type { ImageContent } from "../ai/types.ts";
import type { AgentSession } from "./agent_session.ts";
import type { NavigateTreeHooks, NavigateTreeOptions } from "./session_tree.ts";

/** What a `ctx` or `pi` captured before a session replacement throws when used after it (1.6.0's words). */
export const STALE_EXTENSION_CONTEXT =
  "This extension ctx is stale after session replacement or reload. Do not use a captured pi or command ctx after ctx.newSession(), ctx.fork(), ctx.switchSession(), or ctx.reload(). For newSession, fork, and switchSession, move post-replacement work into withSession and use the ctx passed to withSession. For reload, do not use the old ctx after await ctx.reload().";

/** Runs once the replacement session is served (bound, `session_start` done), with that session. */
export type ReplacementCallback = (session: AgentSession) => Promise<void>;

/** How a mode replaces its session for a command; a missing member leaves 1.6.0's unbound default. */
export interface SessionControl {
  /** `ctx.newSession()`. */
  newSession?(options: {
    parentSession?: string;
    setup?: (sessionManager: AgentSession["sessionManager"]) => Promise<void>;
    withSession?: ReplacementCallback;
  }): Promise<{ cancelled: boolean }>;
  /** `ctx.fork()`. */
  fork?(
    entryId: string,
    options: { position?: "before" | "at"; withSession?: ReplacementCallback },
  ): Promise<{ cancelled: boolean }>;
  /** `ctx.switchSession()`. */
  switchSession?(
    sessionPath: string,
    options: { withSession?: ReplacementCallback },
  ): Promise<{ cancelled: boolean }>;
  /** `ctx.navigateTree()` (default: the session's own navigation). */
  navigateTree?(targetId: string, options: TreeOptions): Promise<{ cancelled: boolean }>;
}

/** `ctx.navigateTree()`'s options. */
export type TreeOptions = Pick<
  NavigateTreeOptions,
  "summarize" | "customInstructions" | "replaceInstructions" | "label"
>;

/** The session runtime members {@link runtimeSessionControl} drives (AgentSessionRuntime has them). */
export interface ReplacingRuntime {
  /** Starts a new session (`setup` may append entries; `withSession` runs once it is served). */
  newSession(options?: {
    parentSession?: string;
    setup?: (sessionManager: AgentSession["sessionManager"]) => Promise<void>;
    withSession?: ReplacementCallback;
  }): Promise<{ cancelled: boolean }>;
  /** Continues in a new session file branched at `entryId`. */
  fork(
    entryId: string,
    options?: { position?: "before" | "at"; withSession?: ReplacementCallback },
  ): Promise<{ cancelled: boolean; selectedText?: string }>;
  /** Opens another session file. */
  switchSession(
    sessionPath: string,
    options?: { withSession?: ReplacementCallback },
  ): Promise<{ cancelled: boolean }>;
}

/**
 * Session control over `runtime`. `serve` makes the mode serve the runtime's new session (subscribe to
 * it, bind its extensions); it runs inside the replacement, before the command's `withSession`, as
 * 1.6.0's `rebindSession` does. `afterFork` lets a mode use the fork's result (the TUI's editor text).
 */
export function runtimeSessionControl(
  runtime: ReplacingRuntime,
  serve: () => Promise<void>,
  afterFork?: (result: { selectedText?: string }) => void,
): SessionControl {
  const served = (withSession?: ReplacementCallback): ReplacementCallback => async (session) => {
    await serve();
    await withSession?.(session);
  };
  return {
    newSession: (options) => runtime.newSession({ ...options, withSession: served(options.withSession) }),
    fork: async (entryId, options) => {
      const result = await runtime.fork(entryId, { ...options, withSession: served(options.withSession) });
      if (!result.cancelled) afterFork?.(result);
      return { cancelled: result.cancelled };
    },
    switchSession: (sessionPath, options) =>
      runtime.switchSession(sessionPath, { withSession: served(options.withSession) }),
  };
}

/** A command's `withSession` callback as the extension wrote it: it gets the replacement's context. */
type ExtensionWithSession = (ctx: unknown) => Promise<void>;

/** What {@link commandContextMembers} needs of the extension host. */
export interface CommandContextHost {
  /** Throws {@link STALE_EXTENSION_CONTEXT} once the host's session was replaced. */
  assertActive(): void;
  /** The session the host is bound to. */
  session(): AgentSession;
  /** The mode's session control. */
  control(): SessionControl;
  /** Why a member is unavailable (the mode, for the message). */
  mode(): string;
  /** The replacement session's fresh context, for `withSession`. */
  replacedContext(session: AgentSession): unknown;
  /** `session_before_tree` / `session_tree` for `navigateTree()`. */
  treeHooks(): NavigateTreeHooks;
}

/** The members a command's `ctx` has beyond a handler's (1.6.0's `ExtensionCommandContext`). */
export function commandContextMembers(host: CommandContextHost): Record<string, unknown> {
  const toRuntime = (withSession: unknown): ReplacementCallback | undefined =>
    typeof withSession === "function"
      ? (session) => (withSession as ExtensionWithSession)(host.replacedContext(session))
      : undefined;
  const unavailable = (name: string) =>
    Promise.reject(new Error(`ctx.${name}() is not available in ${host.mode()} mode in this build yet`));
  return {
    waitForIdle: () => {
      host.assertActive();
      return host.session().settle();
    },
    newSession: (options?: { parentSession?: string; setup?: never; withSession?: unknown }) => {
      host.assertActive();
      const control = host.control();
      if (!control.newSession) return unavailable("newSession");
      return control.newSession({
        parentSession: options?.parentSession,
        setup: options?.setup,
        withSession: toRuntime(options?.withSession),
      });
    },
    fork: (entryId: string, options?: { position?: "before" | "at"; withSession?: unknown }) => {
      host.assertActive();
      const control = host.control();
      if (!control.fork) return unavailable("fork");
      return control.fork(entryId, {
        position: options?.position,
        withSession: toRuntime(options?.withSession),
      });
    },
    switchSession: (sessionPath: string, options?: { withSession?: unknown }) => {
      host.assertActive();
      const control = host.control();
      if (!control.switchSession) return unavailable("switchSession");
      return control.switchSession(sessionPath, { withSession: toRuntime(options?.withSession) });
    },
    navigateTree: async (targetId: string, options?: TreeOptions) => {
      host.assertActive();
      const tree: TreeOptions = {
        summarize: options?.summarize,
        customInstructions: options?.customInstructions,
        replaceInstructions: options?.replaceInstructions,
        label: options?.label,
      };
      const navigate = host.control().navigateTree;
      if (navigate) return await navigate(targetId, tree);
      const result = await host.session().navigateTree(targetId, { ...tree, hooks: host.treeHooks() });
      return { cancelled: result.cancelled };
    },
  };
}

/** `sendMessage`/`sendUserMessage` of a replacement context: bound to `session`, awaited (1.6.0). */
export function replacementSenders(session: AgentSession): Record<string, unknown> {
  return {
    sendMessage: (
      message: Parameters<AgentSession["sendCustomMessage"]>[0],
      options?: Parameters<AgentSession["sendCustomMessage"]>[1],
    ) => session.sendCustomMessage(message, options),
    sendUserMessage: (
      content: string | { type: string; text?: string }[],
      options?: { deliverAs?: "steer" | "followUp"; expandPromptTemplates?: boolean },
    ) => {
      let text: string;
      let images: ImageContent[] | undefined;
      if (typeof content === "string") text = content;
      else {
        text = content.flatMap((part) => part.type === "text" ? [part.text ?? ""] : []).join("\n");
        const parts = content.filter((part) => part.type !== "text");
        images = parts.length > 0 ? parts as ImageContent[] : undefined;
      }
      return session.prompt(text, {
        expandPromptTemplates: options?.expandPromptTemplates ?? false,
        streamingBehavior: options?.deliverAs,
        images,
        source: "extension",
      });
    },
  };
}
