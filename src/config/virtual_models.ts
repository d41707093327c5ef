/**
 * Virtual models (pi 1.6.0): catalog entries that pick a physical model for each request.
 *
 * The selection (`model_change`, the agent's model, `ctx.model`) may name a virtual model; below
 * the routing step only physical models exist: providers stream them and assistant messages record
 * them. {@link VirtualModels} keeps the registered definitions apart from the physical catalog so a
 * provider can list virtual models next to its physical ones, and {@link VirtualModels.resolve}
 * asks a router for one request's model.
 *
 * @module
 */
import { clampThinkingLevel, THINKING_LEVELS } from "../ai/thinking.ts";
import type { AssistantMessage, Message, Model, ModelThinkingLevel, ThinkingLevelMap } from "../ai/types.ts";

/** API id of virtual catalog entries; no provider streams it, so an unrouted request fails. */
export const VIRTUAL_MODEL_API = "pi-virtual";

/** Custom entry type that keeps router state on the session branch. */
export const VIRTUAL_MODEL_STATE_ENTRY = "pi.virtual-model-state";

/** Data of a `pi.virtual-model-state` custom entry. */
export interface VirtualModelStateData<TState = unknown> {
  /** Provider of the virtual model. */
  provider: string;
  /** Id of the virtual model. */
  modelId: string;
  /** What the router returned. */
  state: TState;
}

/**
 * Why a request is routed: `user` — the first request after a message the user wrote;
 * `continuation` — any other request of the agent loop (after tool results, extension messages);
 * `retry` — an automatic retry after a failed request; `direct` — a request outside the agent
 * loop (a compaction summary, an extension's own call).
 */
export type ModelRouteReason = "user" | "continuation" | "retry" | "direct";

/** What a router is asked for one request. */
export interface ModelRouteRequest<TState = unknown> {
  /** The selected virtual model. */
  model: Model;
  /** The selected thinking level; its meaning is up to the router. */
  thinkingLevel: ModelThinkingLevel;
  /** Why the request is made. */
  reason: ModelRouteReason;
  /** Physical model and thinking level of the latest successful response in `messages`. */
  previous?: { model: Model; thinkingLevel?: ModelThinkingLevel };
  /** For `retry`: the failed request, which `messages` no longer contains. */
  failed?: { model: Model; thinkingLevel?: ModelThinkingLevel; message: AssistantMessage };
  /** Router state last returned on this session branch; undefined before the first and for `direct`. */
  state?: TState;
  /** The conversation of this request. */
  messages: readonly Message[];
  /** Abort signal of the request. */
  signal?: AbortSignal;
}

/** The physical model and thinking level a router picked for one request. */
export interface ModelRoute<TState = unknown> {
  /** A physical catalog model whose provider has credentials. */
  model: Model;
  /** Thinking level for the request; clamped to the model. */
  thinkingLevel: ModelThinkingLevel;
  /** New router state; undefined or `request.state` itself keeps the current one. Must be JSON. */
  state?: TState;
}

/** What `registerVirtualModel` takes (the SDK's `modelRuntime.registerVirtualModel`). */
export interface VirtualModelDefinition<TState = unknown> {
  /** Provider the virtual model is listed under; may be one with physical models. */
  provider: string;
  /** Model id; must not be a physical model's id of `provider`. */
  id: string;
  /** Display name. */
  name: string;
  /** Thinking levels offered for selection; `["off"]` by default. */
  thinkingLevels?: readonly ModelThinkingLevel[];
  /** Context window shown before the first response; unset means unknown (0). */
  contextWindow?: number;
  /** Output limit shown before the first response; unset means unknown (0). */
  maxTokens?: number;
  /** Input types offered for selection; text and images by default. */
  input?: ("text" | "image")[];
  /** Picks the physical model (which must have credentials) and thinking level of one request. */
  route(request: ModelRouteRequest<TState>): ModelRoute<TState> | Promise<ModelRoute<TState>>;
}

/** Options of {@link VirtualModels.resolve}. */
export interface ResolveRouteOptions {
  /** Why the request is made. */
  reason: ModelRouteReason;
  /** The selected thinking level. */
  thinkingLevel: ModelThinkingLevel;
  /** Abort signal of the request. */
  signal?: AbortSignal;
  /** For `retry`: the failed response (its model may be physical or, when routing failed, virtual). */
  failed?: AssistantMessage;
  /** The router state stored on the session branch. */
  state?: unknown;
}

/** Whether a model or message names a virtual model (a failed routing leaves it on its message). */
export function isVirtualModel(model: { api: string }): boolean {
  return model.api === VIRTUAL_MODEL_API;
}

/** The latest successful response; failed and aborted ones (failed routing included) are skipped. */
export function findLatestResponse(messages: readonly { role: string }[]): AssistantMessage | undefined {
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i] as AssistantMessage;
    if (message.role === "assistant" && message.stopReason !== "error" && message.stopReason !== "aborted") {
      return message;
    }
  }
  return undefined;
}

/** The catalog entry of a virtual model, as 1.6.0 builds it. */
export function createVirtualModel(definition: Omit<VirtualModelDefinition, "route">): Model {
  const levels = definition.thinkingLevels ?? ["off"];
  const thinkingLevelMap: ThinkingLevelMap = {};
  for (const level of THINKING_LEVELS) thinkingLevelMap[level] = levels.includes(level) ? level : null;
  return {
    id: definition.id,
    name: definition.name,
    api: VIRTUAL_MODEL_API,
    provider: definition.provider,
    baseUrl: "",
    reasoning: levels.some((level) => level !== "off"),
    thinkingLevelMap,
    input: definition.input ?? ["text", "image"],
    cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
    contextWindow: definition.contextWindow ?? 0,
    maxTokens: definition.maxTokens ?? 0,
  };
}

/** What the registry tells {@link VirtualModels} about the physical catalog. */
export interface PhysicalCatalog {
  /** A physical model of the catalog. */
  find(provider: string, id: string): Model | undefined;
  /** Whether the provider has credentials. */
  hasAuth(provider: string): boolean;
}

interface Registered {
  model: Model;
  route: VirtualModelDefinition["route"];
}

/** The registered virtual models of one model registry. */
export class VirtualModels {
  readonly #byKey = new Map<string, Registered>();
  readonly #catalog: PhysicalCatalog;

  /** Virtual models over `catalog`. */
  constructor(catalog: PhysicalCatalog) {
    this.#catalog = catalog;
  }

  /** Registers or replaces one; throws for an empty provider or id, or a physical model's id. */
  register(definition: VirtualModelDefinition): void {
    const { provider, id } = definition;
    if (!provider.trim() || !id.trim()) throw new Error("Virtual model provider and id must not be empty.");
    if (this.#catalog.find(provider, id)) {
      throw new Error(`Virtual model ${provider}/${id} conflicts with a physical model.`);
    }
    this.#byKey.set(key(provider, id), {
      model: createVirtualModel(definition),
      route: (request) => definition.route(request),
    });
  }

  /** Removes one; nothing happens when it is not registered. */
  unregister(provider: string, id: string): void {
    this.#byKey.delete(key(provider, id));
  }

  /** The catalog entries, in registration order. */
  list(): Model[] {
    return [...this.#byKey.values()].map((entry) => entry.model);
  }

  /** The catalog entry of one. */
  get(provider: string, id: string): Model | undefined {
    return this.#byKey.get(key(provider, id))?.model;
  }

  /**
   * Asks the router of `model` for one request's physical model and thinking level (clamped to
   * that model). Throws when the model is not registered, the router throws, or it picks a
   * model that is not physical or has no credentials.
   */
  async resolve(
    model: Model,
    messages: readonly Message[],
    options: ResolveRouteOptions,
  ): Promise<ModelRoute> {
    const name = `Virtual model ${model.provider}/${model.id}`;
    const registered = this.#byKey.get(key(model.provider, model.id));
    if (!registered) throw new Error(`${name} is not registered.`);
    const { failed, ...request } = options;
    const latest = findLatestResponse(messages);
    const previousModel = latest && this.#catalog.find(latest.provider, latest.model);
    // A failed routing attempt names the virtual model: there is no physical request to report.
    const failedModel = failed && this.#catalog.find(failed.provider, failed.model);
    const route = await registered.route({
      ...request,
      model,
      ...(previousModel ? { previous: { model: previousModel, thinkingLevel: latest?.thinkingLevel } } : {}),
      ...(failedModel && failed
        ? { failed: { model: failedModel, thinkingLevel: failed.thinkingLevel, message: failed } }
        : {}),
      messages,
    });
    const target = route?.model && this.#catalog.find(route.model.provider, route.model.id);
    const routed = `${name} routed to ${route?.model?.provider}/${route?.model?.id}`;
    if (!target) throw new Error(`${routed}, which is not a physical model.`);
    if (!this.#catalog.hasAuth(target.provider)) throw new Error(`${routed}, which has no credentials.`);
    return {
      model: target,
      thinkingLevel: clampThinkingLevel(target, route.thinkingLevel),
      state: route.state,
    };
  }
}

function key(provider: string, id: string): string {
  return `${provider}\u0000${id}`;
}
