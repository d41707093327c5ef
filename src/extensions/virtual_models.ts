/**
 * `pi.registerVirtualModel()` / `pi.unregisterVirtualModel()` (pi 1.6.0): the virtual models the
 * extensions of one runtime registered. While extensions load there is no model registry to put
 * them in, so they are kept here; src/core binds the registry before the command line's model is
 * resolved (so `--model vprov/vid` finds them), and from then on changes reach it at once.
 *
 * @module
 */
import type { ModelRoute, ModelRouteRequest, VirtualModelDefinition } from "../config/virtual_models.ts";
import type { ExtensionContext, ExtensionError } from "./types.ts";

/** A virtual model as an extension registers it: `route` also gets the extension context. */
export interface ExtensionVirtualModel<TState = unknown>
  extends Omit<VirtualModelDefinition<TState>, "route"> {
  /** Like {@link VirtualModelDefinition.route}, with the extension context. */
  route(
    request: ModelRouteRequest<TState>,
    ctx: ExtensionContext,
  ): ModelRoute<TState> | Promise<ModelRoute<TState>>;
}

/** Where the virtual models go: the model registry (src/config/model_registry.ts). */
export interface VirtualModelTarget {
  registerVirtualModel(definition: VirtualModelDefinition): void;
  unregisterVirtualModel(provider: string, id: string): void;
}

interface Registration {
  definition: VirtualModelDefinition;
  extensionPath: string;
}

/** The registrations of one extension runtime, queued until {@link ExtensionVirtualModels.bind}. */
export class ExtensionVirtualModels {
  readonly #registrations = new Map<string, Registration>();
  #target: VirtualModelTarget | undefined;

  /**
   * Records a registration (replacing one with the same provider and id); `context` gives the
   * `ctx` of each route call, which happens only once a session exists.
   */
  register(model: ExtensionVirtualModel, extensionPath: string, context: () => ExtensionContext): void {
    const definition: VirtualModelDefinition = {
      ...model,
      route: (request) => model.route(request, context()),
    };
    // Once bound, a conflict (the id of a physical model) throws to the extension, as in 1.6.0.
    this.#target?.registerVirtualModel(definition);
    this.#registrations.set(key(model.provider, model.id), { definition, extensionPath });
  }

  /** Removes a registration; nothing happens when there is none. */
  unregister(provider: string, id: string): void {
    this.#registrations.delete(key(provider, id));
    this.#target?.unregisterVirtualModel(provider, id);
  }

  /**
   * Puts the queued registrations into `target` and sends later ones there directly. Returns the
   * ones `target` refused (the id of a physical model), which are dropped.
   */
  bind(target: VirtualModelTarget): ExtensionError[] {
    this.#target = target;
    const errors: ExtensionError[] = [];
    for (const [name, { definition, extensionPath }] of this.#registrations) {
      try {
        target.registerVirtualModel(definition);
      } catch (error) {
        this.#registrations.delete(name);
        errors.push({
          extensionPath,
          event: "registerVirtualModel",
          error: error instanceof Error ? error.message : String(error),
        });
      }
    }
    return errors;
  }
}

function key(provider: string, id: string): string {
  return `${provider}\u0000${id}`;
}
