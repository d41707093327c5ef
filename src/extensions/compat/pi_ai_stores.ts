/**
 * 1.6.0 pi-ai's in-memory stores for extensions that build their own model collections: a
 * credential store (one credential per provider id, writes serialized per provider) and a model
 * catalog store (entries copied in and out, so callers never share them).
 *
 * @module
 */
import type { AuthOperationOptions, Credential, CredentialInfo } from "./pi_ai_auth_types.ts";

function abortReason(signal: AbortSignal): unknown {
  if (signal.reason !== undefined) return signal.reason;
  const error = new Error("The operation was aborted");
  error.name = "AbortError";
  return error;
}

/** `operation`, or its signal's abort reason when that comes first (a later rejection is still observed). */
function raceWithAbortSignal<T>(operation: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) {
    operation.catch(() => {});
    return Promise.reject(abortReason(signal));
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(abortReason(signal));
    signal.addEventListener("abort", onAbort, { once: true });
    operation.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}

/** Runs `fn` now; its result or throw as a promise (as an async method would). */
function settle<T>(fn: () => T): Promise<T> {
  return new Promise<T>((resolve) => resolve(fn()));
}

/** Credentials held in memory, keyed by provider id; `modify` is the one write path. */
export class InMemoryCredentialStore {
  #credentials = new Map<string, Credential>();
  #chains = new Map<string, Promise<void>>();

  /** Runs `task` after the provider's earlier tasks settled; the wait ends early on abort. */
  #enqueue<T>(providerId: string, task: () => Promise<T>, options?: AuthOperationOptions): Promise<T> {
    const signal = options?.signal ?? new AbortController().signal;
    const previous = this.#chains.get(providerId) ?? Promise.resolve();
    const queued = (async () => {
      await previous.catch(() => {});
      signal.throwIfAborted();
      return await task();
    })();
    const tail = queued.then(() => {}, () => {});
    this.#chains.set(providerId, tail);
    tail.then(() => {
      if (this.#chains.get(providerId) === tail) this.#chains.delete(providerId);
    });
    return raceWithAbortSignal(queued, signal);
  }

  /** The stored credential (possibly expired), or undefined. */
  read(providerId: string, options?: AuthOperationOptions): Promise<Credential | undefined> {
    return settle(() => {
      options?.signal?.throwIfAborted();
      return this.#credentials.get(providerId);
    });
  }

  /** Which providers have a credential, and of which kind. */
  list(options?: AuthOperationOptions): Promise<readonly CredentialInfo[]> {
    return settle(() => {
      options?.signal?.throwIfAborted();
      return [...this.#credentials].map(([providerId, credential]) => ({
        providerId,
        type: credential.type,
      }));
    });
  }

  /**
   * Read-modify-write of one provider's credential, serialized with its other writes: `fn` gets
   * the current credential; what it returns is stored (undefined keeps the current one) and
   * resolved.
   */
  modify(
    providerId: string,
    fn: (current: Credential | undefined) => Promise<Credential | undefined>,
    options?: AuthOperationOptions,
  ): Promise<Credential | undefined> {
    return this.#enqueue(providerId, async () => {
      const current = this.#credentials.get(providerId);
      const next = await fn(current);
      options?.signal?.throwIfAborted();
      if (next !== undefined) this.#credentials.set(providerId, next);
      return next ?? current;
    }, options);
  }

  /** Removes the provider's credential (after its pending writes). */
  delete(providerId: string, options?: AuthOperationOptions): Promise<void> {
    return this.#enqueue(providerId, () => {
      this.#credentials.delete(providerId);
      return Promise.resolve();
    }, options);
  }
}

/** One provider's stored model catalog. */
export interface ModelsStoreEntry {
  /** The models, of every type. */
  models: readonly unknown[];
  /** The remote catalog's Last-Modified, Unix ms. */
  lastModified?: number;
  /** When the remote catalog was last checked, Unix ms. */
  checkedAt?: number;
  /** The remote catalog's ETag, verbatim. */
  etag?: string;
}

/** Cancellation for a store operation. */
export interface ModelsStoreOperationOptions {
  /** Aborts the operation. */
  signal?: AbortSignal;
}

/** Model catalogs held in memory, keyed by provider id; entries are copied on the way in and out. */
export class InMemoryModelsStore {
  #entries = new Map<string, ModelsStoreEntry>();

  /** A copy of the provider's entry, or undefined. */
  read(providerId: string, options?: ModelsStoreOperationOptions): Promise<ModelsStoreEntry | undefined> {
    return settle(() => {
      options?.signal?.throwIfAborted();
      const entry = this.#entries.get(providerId);
      return entry ? structuredClone(entry) : undefined;
    });
  }

  /** Stores a copy of `entry` for the provider. */
  write(providerId: string, entry: ModelsStoreEntry, options?: ModelsStoreOperationOptions): Promise<void> {
    return settle(() => {
      options?.signal?.throwIfAborted();
      this.#entries.set(providerId, structuredClone(entry));
    });
  }

  /** Forgets the provider's entry. */
  delete(providerId: string, options?: ModelsStoreOperationOptions): Promise<void> {
    return settle(() => {
      options?.signal?.throwIfAborted();
      this.#entries.delete(providerId);
    });
  }
}
