/**
 * `createAgentSession`: the SDK's one-call set-up of an AgentSession with settings, credentials,
 * models, resources, tools and a session file — defaults matching what the `pi` CLI does.
 *
 * @module
 */
import { isVirtualModel } from "../config/virtual_models.ts";
import { getBranchSelection } from "./virtual_model_routing.ts";
import { join } from "../util/path.ts";
import { Agent } from "../agent/agent.ts";
import type { AgentMessage, AgentThinkingLevel, StreamFn } from "../agent/types.ts";
import { streamSimple } from "../ai/stream.ts";
import { AssistantMessageEventStream } from "../ai/event_stream.ts";
import { createOutputMessage, errorToMessage } from "../ai/provider_utils.ts";
import { clampThinkingLevel } from "../ai/thinking.ts";
import type { ImageContent, Message, Model, SimpleStreamOptions, TextContent } from "../ai/types.ts";
import { ModelRuntime } from "../config/model_runtime.ts";
import { DEFAULT_THINKING_LEVEL, findInitialModel } from "../config/model_resolver.ts";
import { getAgentDir } from "../config/paths.ts";
import { SettingsManager } from "../config/settings_manager.ts";
import { DEFAULT_HTTP_IDLE_TIMEOUT_MS, DEFAULT_TOOL_NAMES } from "../config/settings_manager_extras.ts";
import { DefaultResourceLoader } from "../resources/resource_loader.ts";
import { convertToLlm } from "../session/messages.ts";
import { getDefaultSessionDir } from "../session/paths.ts";
import { SessionManager } from "../session/session_manager.ts";
import { applyToolModifiers, isToolModifier, toolListError } from "../util/tool_list.ts";
import { AgentSession, type AgentSessionConfig, type SessionTool } from "./agent_session.ts";
import type { ScopedModel } from "./agent_session_types.ts";
import { formatNoModelsAvailableMessage } from "./auth_guidance.ts";
import { transformProviderHeaders } from "./provider_headers_hook.ts";

/** Options of {@link createAgentSession}; everything has the CLI's default. */
export interface CreateAgentSessionOptions {
  /** Working folder (default: the session manager's cwd, else the process's). */
  cwd?: string;
  /** Agent config folder (default: `~/.pi/agent` or `PI_CODING_AGENT_DIR`). */
  agentDir?: string;
  /**
   * Models and their credentials (default: a runtime over the agent dir's auth.json and
   * models.json). Replaces 0.80's `authStorage` and `modelRegistry` options, as in pi 1.6.0.
   */
  modelRuntime?: ModelRuntime;
  /** Settings (default: read from the agent dir and project). */
  settingsManager?: SettingsManager;
  /** Session storage (default: a new session in the default session folder for `cwd`). */
  sessionManager?: SessionManager;
  /** Skills, prompt templates and context files (default: discovered for `cwd`). */
  resourceLoader?: DefaultResourceLoader;
  /** Model to use (default: restored from the session or settings). */
  model?: Model;
  /** Thinking level (default: from the session or settings). */
  thinkingLevel?: AgentThinkingLevel;
  /** Models offered when cycling. */
  scopedModels?: ScopedModel[];
  /**
   * Only these tools exist (`--tools` names); or, when every entry is `+name`/`-name`, a change to
   * the default selection that leaves the other tools available (and, on a resumed session, applies
   * to the tools its transcript declared), as in pi 1.6.0.
   */
  tools?: string[];
  /**
   * Tools (names or `*` patterns) that do not exist in the session, applied after `tools`
   * (`--exclude-tools`): they are neither sent to the model nor can they be activated later.
   */
  excludeTools?: string[];
  /** "all": no tools at all; "builtin": no built-in tools active (`--no-builtin-tools`). */
  noTools?: "all" | "builtin";
  /** Tools added beside the built-in ones. */
  customTools?: SessionTool[];
  /** Replaces the stream function (tests, custom transports). */
  streamFn?: StreamFn;
}

/** What {@link createAgentSession} returns. */
export interface CreateAgentSessionResult {
  /** The session, ready for `prompt()`. */
  session: AgentSession;
  /** Set when the saved model could not be restored or no model is available. */
  modelFallbackMessage?: string;
}

/**
 * Builds an AgentSession the way `pi` does.
 *
 * @example
 * ```ts
 * import { createAgentSession, SessionManager } from "@pi-deno/coding-agent";
 *
 * // Credentials, settings and models come from ~/.pi/agent as for `pi`; this session stays in memory.
 * const { session, modelFallbackMessage } = await createAgentSession({
 *   cwd: Deno.cwd(),
 *   sessionManager: SessionManager.inMemory(),
 * });
 * if (modelFallbackMessage) console.error(modelFallbackMessage);
 *
 * const unsubscribe = session.subscribe((event) => {
 *   if (event.type === "message_update" && event.assistantMessageEvent.type === "text_delta") {
 *     console.log(event.assistantMessageEvent.delta);
 *   }
 * });
 * await session.prompt("Which files are in this folder?");
 * console.log(session.getLastAssistantText());
 * unsubscribe();
 * session.dispose();
 * ```
 */
export async function createAgentSession(
  options: CreateAgentSessionOptions = {},
): Promise<CreateAgentSessionResult> {
  const cwd = options.cwd ?? options.sessionManager?.getCwd() ?? Deno.cwd();
  const agentDir = options.agentDir ?? getAgentDir();
  const modelRuntime = options.modelRuntime ?? await ModelRuntime.create({
    authPath: options.agentDir ? join(agentDir, "auth.json") : undefined,
    modelsPath: options.agentDir ? join(agentDir, "models.json") : undefined,
  });
  const settingsManager = options.settingsManager ?? SettingsManager.create(cwd, agentDir);
  const sessionManager = options.sessionManager ??
    SessionManager.create(cwd, getDefaultSessionDir(cwd, agentDir));
  let resourceLoader = options.resourceLoader;
  if (!resourceLoader) {
    resourceLoader = new DefaultResourceLoader({ cwd, agentDir, settings: settingsManager });
    await resourceLoader.reload();
  }

  const existing = sessionManager.buildSessionContext();
  const hasExisting = existing.messages.length > 0;
  const hasThinkingEntry = sessionManager.getBranch().some((e) => e.type === "thinking_level_change");

  let model = options.model;
  let fallback: string | undefined;
  // With virtual models registered, a virtual selection outlives the responses it routed (1.6.0).
  const selection = existing.model && modelRuntime.getModels().some(isVirtualModel)
    ? getBranchSelection(sessionManager.getBranch(), (p, id) => modelRuntime.getModel(p, id))
    : existing.model;
  if (!model && hasExisting && selection) {
    const restored = modelRuntime.getModel(selection.provider, selection.modelId);
    if (restored && modelRuntime.hasConfiguredAuth(restored.provider)) model = restored;
    else fallback = `Could not restore model ${selection.provider}/${selection.modelId}`;
  }
  if (!model) {
    const initial = await findInitialModel({
      scopedModels: [],
      isContinuing: hasExisting,
      defaultProvider: settingsManager.getDefaultProvider(),
      defaultModelId: settingsManager.getDefaultModel(),
      defaultThinkingLevel: settingsManager.getDefaultThinkingLevel(),
      modelThinkingLevels: settingsManager.getAllModelThinkingLevels(),
      modelRegistry: modelRuntime.modelRegistry,
    });
    model = initial.model;
    if (!model) fallback = formatNoModelsAvailableMessage();
    else if (fallback) fallback += `. Using ${model.provider}/${model.id}`;
  }

  let thinkingLevel = options.thinkingLevel;
  if (thinkingLevel === undefined && hasExisting) {
    thinkingLevel = hasThinkingEntry
      ? existing.thinkingLevel as AgentThinkingLevel
      : (settingsManager.getDefaultThinkingLevel() ?? DEFAULT_THINKING_LEVEL) as AgentThinkingLevel;
  }
  // `modelThinkingLevels` names a level for the chosen model; it comes before the global default.
  if (thinkingLevel === undefined && model) {
    thinkingLevel = settingsManager.getModelThinkingLevel(model.provider, model.id) as
      | AgentThinkingLevel
      | undefined;
  }
  thinkingLevel ??=
    (settingsManager.getDefaultThinkingLevel() ?? DEFAULT_THINKING_LEVEL) as AgentThinkingLevel;
  thinkingLevel = model ? clampThinkingLevel(model, thinkingLevel) as AgentThinkingLevel : "off";

  const blockImages = (messages: AgentMessage[]): Message[] => {
    const converted = convertToLlm(messages as never);
    if (!settingsManager.getBlockImages()) return converted;
    return converted.map((m) =>
      m.role === "assistant" || typeof m.content === "string"
        ? m
        : { ...m, content: withoutImages(m.content) } as Message
    );
  };

  const tools = selectSessionTools(options, settingsManager);

  const baseStream = options.streamFn ?? streamSimple;
  const agent = new Agent({
    initialState: { systemPrompt: "", model, thinkingLevel, tools: [] },
    convertToLlm: blockImages,
    streamFn: async (m, context, streamOptions) => {
      const retry = settingsManager.getProviderRetrySettings();
      // `httpIdleTimeoutMs` bounds both the wait for the response and each silence in its body
      // (pi 1.6.0: undici's header and body timeouts); 0 turns both off.
      const idleTimeoutMs = httpIdleTimeoutMs(settingsManager);
      // Each request resolves its credential anew (rotated OAuth tokens, `!command` keys).
      let withAuth: SimpleStreamOptions;
      try {
        withAuth = await modelRuntime.requestOptions(m, { ...streamOptions, apiKey: undefined });
        // Extensions' `before_provider_headers` see the merged headers (src/core/provider_headers_hook.ts).
        const headers = await transformProviderHeaders(agent, withAuth.headers);
        if (headers) withAuth = { ...withAuth, headers };
      } catch (error) {
        // Aborted before the request (Escape while a tool ran): the run ends with an aborted reply,
        // recorded like any other (pi-ai 1.6.0's lazyStream), not with an unrecorded failure.
        if (streamOptions?.signal?.aborted) return abortedStream(m, error);
        throw error;
      }
      return baseStream(m, context, {
        ...withAuth,
        timeoutMs: streamOptions?.timeoutMs ?? retry.timeoutMs ??
          (idleTimeoutMs === 0 ? MAX_TIMER_MS : idleTimeoutMs),
        idleTimeoutMs: streamOptions?.idleTimeoutMs ?? idleTimeoutMs,
        websocketConnectTimeoutMs: streamOptions?.websocketConnectTimeoutMs ??
          settingsManager.getWebSocketConnectTimeoutMs(),
        maxRetries: streamOptions?.maxRetries ?? retry.maxRetries,
        maxRetryDelayMs: streamOptions?.maxRetryDelayMs ?? retry.maxRetryDelayMs,
      });
    },
    sessionId: sessionManager.getSessionId(),
    steeringMode: settingsManager.getSteeringMode(),
    followUpMode: settingsManager.getFollowUpMode(),
    transport: settingsManager.getTransport() as never,
    thinkingBudgets: settingsManager.getThinkingBudgets(),
    maxRetryDelayMs: settingsManager.getProviderRetrySettings().maxRetryDelayMs,
  });

  if (hasExisting) {
    agent.state.messages = existing.messages as AgentMessage[];
    if (!hasThinkingEntry) sessionManager.appendThinkingLevelChange(thinkingLevel);
  } else {
    if (model) sessionManager.appendModelChange(model.provider, model.id);
    sessionManager.appendThinkingLevelChange(thinkingLevel);
  }

  const session = new AgentSession({
    agent,
    sessionManager,
    settingsManager,
    cwd,
    scopedModels: options.scopedModels,
    resourceLoader,
    modelRuntime,
    customTools: options.customTools,
    ...tools,
    excludedToolNames: options.excludeTools,
  });
  return { session, modelFallbackMessage: fallback };
}

/**
 * The session's tool selection as pi 1.6.0 makes it: a `tools` list of names is an allow-list; a
 * list of `+name`/`-name` entries changes the default tools (the `defaultTools` setting, or none
 * with `noTools`) while every tool stays available — unless `noTools: "all"`, where only the
 * selection exists.
 */
function selectSessionTools(
  options: CreateAgentSessionOptions,
  settings: SettingsManager,
): Pick<
  AgentSessionConfig,
  "initialActiveToolNames" | "allowedToolNames" | "usesDefaultTools" | "defaultToolModifiers"
> {
  const problem = options.tools ? toolListError(options.tools) : undefined;
  if (problem) throw new Error(`Invalid tools option: ${problem}`);
  const modifiers = options.tools?.some(isToolModifier) ? options.tools : undefined;
  const usesDefaultTools = (options.tools === undefined || modifiers !== undefined) && !options.noTools;
  if (!modifiers) {
    return {
      initialActiveToolNames: options.tools ? [...options.tools] : options.noTools ? [] : undefined,
      allowedToolNames: options.tools ?? (options.noTools === "all" ? [] : undefined),
      usesDefaultTools,
    };
  }
  const defaults = options.noTools ? [] : settings.getDefaultTools() ?? DEFAULT_TOOL_NAMES;
  const selected = applyToolModifiers(defaults, modifiers);
  return {
    initialActiveToolNames: selected,
    allowedToolNames: options.noTools === "all" ? selected : undefined,
    usesDefaultTools,
    defaultToolModifiers: [...modifiers],
  };
}

/** `httpIdleTimeoutMs`, or its default when the value is malformed (the CLI reports that at start-up). */
function httpIdleTimeoutMs(settings: SettingsManager): number {
  try {
    return settings.getHttpIdleTimeoutMs();
  } catch {
    return DEFAULT_HTTP_IDLE_TIMEOUT_MS;
  }
}

/** The longest delay a timer takes (2^31 − 1 ms): "no timeout" for a request. */
const MAX_TIMER_MS = 2_147_483_647;

const IMAGES_DISABLED = "Image reading is disabled.";

/** Replaces images with a note (consecutive notes collapse into one) — `images.blockImages`. */
function withoutImages(content: (TextContent | ImageContent)[]): (TextContent | ImageContent)[] {
  if (!content.some((c) => c.type === "image")) return content;
  const replaced = content.map((c): TextContent | ImageContent =>
    c.type === "image" ? { type: "text", text: IMAGES_DISABLED } : c
  );
  return replaced.filter((c, i, all) =>
    !(c.type === "text" && c.text === IMAGES_DISABLED && i > 0 && all[i - 1].type === "text" &&
      (all[i - 1] as TextContent).text === IMAGES_DISABLED)
  );
}

/** A stream that ends at once with an aborted reply to `model` (`error` says why). */
function abortedStream(model: Model, error: unknown): AssistantMessageEventStream {
  const stream = new AssistantMessageEventStream();
  const message = createOutputMessage(model);
  message.stopReason = "aborted";
  // Node's words for an aborted signal, as 1.6.0 records them.
  message.errorMessage = error instanceof Error && error.name === "AbortError"
    ? "This operation was aborted"
    : errorToMessage(error);
  stream.push({ type: "error", reason: "aborted", error: message });
  stream.end(message);
  return stream;
}
