/**
 * `pi.registerProvider()` / `pi.unregisterProvider()` (pi 1.6.0): while extensions load there is no model
 * registry to write to, so registrations wait in a queue; src/core applies them when it has the run's models
 * (before `--model` and `--list-models` are resolved) and from then on each call reaches the registry at once.
 *
 * @module
 */
import type { ProviderConfigInput } from "../config/model_registry.ts";
import type { ExtensionError } from "./types.ts";
import { normalizeContext } from "./transcript_context.ts";

/** Where registrations go once the run's models exist (src/core binds the model registry, or a session). */
export interface ProviderRegistrationTarget {
  registerProvider(name: string, config: ProviderConfigInput): void;
  unregisterProvider(name: string): void;
}

interface PendingRegistration {
  name: string;
  config: ProviderConfigInput;
  extensionPath: string;
}

/** The extensions' provider registrations of one runtime: queued until bound, then passed straight on. */
export class ExtensionProviderRegistrations {
  #pending: PendingRegistration[] = [];
  #target: ProviderRegistrationTarget | undefined;

  /** Registers now when bound (a bad config throws to the caller, as in 1.6.0), else queues. */
  register(name: string, config: ProviderConfigInput, extensionPath: string): void {
    if (this.#target) this.#target.registerProvider(name, config);
    else this.#pending.push({ name, config, extensionPath });
  }

  /** Unregisters now when bound; before that it drops the queued registrations of `name`. */
  unregister(name: string): void {
    if (this.#target) this.#target.unregisterProvider(name);
    else this.#pending = this.#pending.filter((entry) => entry.name !== name);
  }

  /**
   * Sends later calls to `target`. The first binding applies the queue in order; a registration the target
   * refuses is returned as an error of the extension that made it (1.6.0's `register_provider` event), and
   * the others still apply.
   */
  bind(target: ProviderRegistrationTarget): ExtensionError[] {
    this.#target = target;
    const errors: ExtensionError[] = [];
    const pending = this.#pending;
    this.#pending = [];
    for (const { name, config, extensionPath } of pending) {
      try {
        target.registerProvider(name, config);
      } catch (error) {
        errors.push({
          extensionPath,
          event: "register_provider",
          error: error instanceof Error ? error.message : String(error),
          ...(error instanceof Error && error.stack ? { stack: error.stack } : {}),
        });
      }
    }
    return errors;
  }
}

/**
 * `pi.registerProvider(name, config)` / `pi.registerProvider(provider)` for the extension at `extensionPath`.
 * Only the name-and-config form exists in this build: 1.6.0's provider objects (pi-ai's `Provider`, with auth
 * methods and catalogs of their own) have no counterpart in our model registry yet, so that form throws.
 */
export function registerExtensionProvider(
  registrations: ExtensionProviderRegistrations,
  extensionPath: string,
  providerOrName: unknown,
  config: ProviderConfigInput | undefined,
): void {
  if (typeof providerOrName !== "string") {
    throw new Error(
      "pi.registerProvider(provider) with a provider object is not available in this build yet; use pi.registerProvider(name, config)",
    );
  }
  if (!config) throw new Error("Provider config is required when registering by name");
  const custom = config.streamSimple;
  // 1.6.0 hands a custom stream a transcript: the prompt and tools travel as a leading system message.
  const streamSimple: ProviderConfigInput["streamSimple"] = custom &&
    ((model, context, options) => custom(model, normalizeContext(context) as typeof context, options));
  registrations.register(providerOrName, custom ? { ...config, streamSimple } : config, extensionPath);
}
