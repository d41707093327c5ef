/**
 * `pi.events`: a channel bus shared by all extensions of a runtime, so they can talk to each
 * other. Handlers run asynchronously and their errors are reported, never thrown at the emitter.
 *
 * @module
 */

/** The shared bus. */
export interface EventBus {
  emit(channel: string, data: unknown): void;
  on(channel: string, handler: (data: unknown) => unknown, onError?: (error: unknown) => void): () => void;
}

/** A new, empty bus. */
export function createEventBus(): EventBus {
  const channels = new Map<string, Set<(data: unknown) => void>>();
  return {
    emit(channel, data) {
      for (const listener of [...(channels.get(channel) ?? [])]) listener(data);
    },
    on(channel, handler, onError) {
      const listener = (data: unknown) => {
        void (async () => {
          try {
            await handler(data);
          } catch (error) {
            onError?.(error);
          }
        })();
      };
      const set = channels.get(channel) ?? new Set();
      set.add(listener);
      channels.set(channel, set);
      return () => void set.delete(listener);
    },
  };
}
