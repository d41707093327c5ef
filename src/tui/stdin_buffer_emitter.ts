/**
 * A small typed event emitter with Node's `EventEmitter` methods and semantics (on/once/off,
 * prepend, `newListener`/`removeListener` notices, listeners copied before an emit), so
 * `StdinBuffer` offers pi-tui's API without loading `node:events` on the start-up path.
 *
 * @module
 */

/** Event name → the argument list its listeners receive. */
export type EventArgsMap<M> = { [K in keyof M]: unknown[] };

// deno-lint-ignore no-explicit-any -- listener lists hold listeners of every event; types are per method
type AnyListener = (...args: any[]) => void;

/** A `once` wrapper remembers what it wraps, as Node's does, for off() and listeners(). */
interface OnceWrapper {
  (...args: unknown[]): void;
  listener: AnyListener;
}

function unwrap(listener: AnyListener | OnceWrapper): AnyListener {
  return (listener as Partial<OnceWrapper>).listener ?? listener;
}

/**
 * The listener type of event K, spelled as Deno's bundled Node types spell it (a conditional on K),
 * so listeners() of a StdinBuffer is assignable to pi-tui's `EventEmitter<StdinBufferEventMap>`.
 */
export type ListenerOf<K, M> = K extends keyof M ? (M[K] extends unknown[] ? (...args: M[K]) => void : never)
  : never;

/** Node's default limit before it warns of a leak (kept for getMaxListeners; no warning is printed). */
const DEFAULT_MAX_LISTENERS = 10;

/** Listener-list event emitter typed by an event map (`{ data: [string] }`). */
export class TypedEventEmitter<M extends EventArgsMap<M>> {
  #events = new Map<string | symbol, AnyListener[]>();
  #maxListeners = DEFAULT_MAX_LISTENERS;

  #add(event: string | symbol, listener: AnyListener, prepend: boolean): this {
    if (this.#events.has("newListener")) this.#emitAny("newListener", event, unwrap(listener));
    const list = this.#events.get(event) ?? [];
    if (prepend) list.unshift(listener);
    else list.push(listener);
    this.#events.set(event, list);
    return this;
  }

  #wrapOnce(event: string | symbol, listener: AnyListener): OnceWrapper {
    let fired = false;
    const wrapper = ((...args: unknown[]) => {
      if (fired) return;
      fired = true;
      this.removeListener(event as keyof M & string, wrapper);
      listener.apply(this, args);
    }) as OnceWrapper;
    wrapper.listener = listener;
    return wrapper;
  }

  /** Calls every listener of `event` (a copy of the list, so changes during the call wait); true when there were any. */
  #emitAny(event: string | symbol, ...args: unknown[]): boolean {
    const list = this.#events.get(event);
    if (!list || list.length === 0) {
      if (event === "error") {
        throw args[0] instanceof Error ? args[0] : new Error(`Unhandled error. (${args[0]})`);
      }
      return false;
    }
    for (const listener of [...list]) listener.apply(this, args);
    return true;
  }

  /** Emits `event` with `args` to its listeners in order; true when it had any. */
  emit<K extends keyof M & string>(event: K, ...args: M[K]): boolean {
    return this.#emitAny(event, ...args);
  }

  /** Adds a listener at the end of the event's list. */
  on<K extends keyof M & string>(event: K, listener: (...args: M[K]) => void): this {
    return this.#add(event, listener as AnyListener, false);
  }

  /** Same as on(). */
  addListener<K extends keyof M & string>(event: K, listener: (...args: M[K]) => void): this {
    return this.on(event, listener);
  }

  /** Adds a listener at the front of the event's list. */
  prependListener<K extends keyof M & string>(event: K, listener: (...args: M[K]) => void): this {
    return this.#add(event, listener as AnyListener, true);
  }

  /** Adds a listener that removes itself before its first call. */
  once<K extends keyof M & string>(event: K, listener: (...args: M[K]) => void): this {
    return this.#add(event, this.#wrapOnce(event, listener as AnyListener), false);
  }

  /** once() at the front of the list. */
  prependOnceListener<K extends keyof M & string>(event: K, listener: (...args: M[K]) => void): this {
    return this.#add(event, this.#wrapOnce(event, listener as AnyListener), true);
  }

  /** Removes the most recently added registration of `listener` (or of a once() wrapping it). */
  removeListener<K extends keyof M & string>(event: K, listener: (...args: M[K]) => void): this {
    const list = this.#events.get(event);
    if (!list) return this;
    for (let i = list.length - 1; i >= 0; i--) {
      if (list[i] === listener || unwrap(list[i]) === listener) {
        const [removed] = list.splice(i, 1);
        if (list.length === 0) this.#events.delete(event);
        if (this.#events.has("removeListener")) this.#emitAny("removeListener", event, unwrap(removed));
        break;
      }
    }
    return this;
  }

  /** Same as removeListener(). */
  off<K extends keyof M & string>(event: K, listener: (...args: M[K]) => void): this {
    return this.removeListener(event, listener);
  }

  /** Removes every listener of `event`, or of all events. */
  removeAllListeners<K extends keyof M & string>(event?: K): this {
    const events = event === undefined ? [...this.#events.keys()] : [event];
    for (const name of events) {
      if (event === undefined && name === "removeListener") continue;
      const list = this.#events.get(name) ?? [];
      for (let i = list.length - 1; i >= 0; i--) this.removeListener(name as K, list[i]);
    }
    if (event === undefined) this.#events.clear();
    return this;
  }

  /** Copies of the event's listeners, once() wrappers unwrapped. */
  listeners<K>(event: K | keyof M): Array<ListenerOf<K, M>> {
    return (this.#events.get(event as string) ?? []).map(unwrap) as Array<ListenerOf<K, M>>;
  }

  /** Copies of the event's listeners as registered, once() wrappers included. */
  rawListeners<K>(event: K | keyof M): Array<ListenerOf<K, M>> {
    return [...(this.#events.get(event as string) ?? [])] as Array<ListenerOf<K, M>>;
  }

  /** How many listeners the event has (of `listener` only, when given). */
  listenerCount<K extends keyof M & string>(event: K, listener?: (...args: M[K]) => void): number {
    const list = this.#events.get(event) ?? [];
    return listener === undefined
      ? list.length
      : list.filter((l) => l === listener || unwrap(l) === listener).length;
  }

  /** The events that have listeners, in the order they got their first. */
  eventNames(): Array<(string | symbol) & keyof M> {
    return [...this.#events.keys()] as Array<(string | symbol) & keyof M>;
  }

  /** Sets the leak-warning threshold (stored only). */
  setMaxListeners(n: number): this {
    this.#maxListeners = n;
    return this;
  }

  /** The leak-warning threshold. */
  getMaxListeners(): number {
    return this.#maxListeners;
  }
}
