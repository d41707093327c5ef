/**
 * Push-based async event streams. Producers `push` events; one consumer iterates them with
 * `for await`; `result()` resolves with the final value once the terminal event arrives.
 *
 * @module
 */
import type { AssistantMessage, AssistantMessageEvent } from "./types.ts";

/** A single-consumer async queue of events that ends on a terminal event or `end()`. */
export class EventStream<TEvent, TResult> implements AsyncIterable<TEvent> {
  #queue: TEvent[] = [];
  #head = 0;
  #waiting: ((r: IteratorResult<TEvent>) => void)[] = [];
  #done = false;
  #resolve!: (value: TResult) => void;
  #result: Promise<TResult>;
  #sink?: (event: TEvent) => void;
  #drained?: () => void;

  /**
   * Creates a stream; `isComplete` recognises the final event and `extractResult` turns it into the result.
   */
  constructor(
    private readonly isTerminal: (event: TEvent) => boolean,
    private readonly resultOf: (event: TEvent) => TResult,
  ) {
    this.#result = new Promise((resolve) => (this.#resolve = resolve));
  }

  /** Adds an event; ignored once the stream has ended. */
  push(event: TEvent): void {
    if (this.#done) return;
    if (this.isTerminal(event)) {
      this.#done = true;
      this.#resolve(this.resultOf(event));
    }
    if (this.#sink) {
      this.#sink(event);
      if (this.#done) this.#drained?.();
      return;
    }
    const waiter = this.#waiting.shift();
    if (waiter) waiter({ value: event, done: false });
    else this.#queue.push(event);
    if (this.#done) this.#flushWaiters();
  }

  /** Ends the stream, optionally with a result when no terminal event carried one. */
  end(result?: TResult): void {
    this.#done = true;
    if (result !== undefined) this.#resolve(result);
    this.#flushWaiters();
    this.#drained?.();
  }

  /**
   * Hands every event, the queued ones first, to `sink` as it is pushed, instead of to an
   * iterator; resolves once the stream has ended. For forwarding one stream into another without
   * an extra asynchronous hop per event. The stream must not be iterated as well.
   */
  drainInto(sink: (event: TEvent) => void): Promise<void> {
    if (this.#sink) throw new Error("drainInto: the stream already has a sink");
    const queued = this.#queue.slice(this.#head);
    this.#queue = [];
    this.#head = 0;
    for (const event of queued) sink(event);
    if (this.#done) return Promise.resolve();
    this.#sink = sink;
    return new Promise((resolve) => (this.#drained = resolve));
  }

  /**
   * Every event queued so far, waiting for the first when none is; undefined once the stream has
   * ended and all were taken. For a consumer that handles the events of one burst (a network read
   * holds many deltas) in a plain loop: one asynchronous hop per burst instead of one per event.
   * Not to be mixed with the iterator or {@link drainInto}.
   */
  async nextBatch(): Promise<TEvent[] | undefined> {
    if (this.#head >= this.#queue.length) {
      if (this.#done) return undefined;
      const first = await new Promise<IteratorResult<TEvent>>((resolve) => this.#waiting.push(resolve));
      if (first.done) return undefined;
      // Events pushed after the first, while this one was being resumed, come along.
      return [first.value, ...this.#takeQueued()];
    }
    return this.#takeQueued();
  }

  #takeQueued(): TEvent[] {
    const batch = this.#head === 0 ? this.#queue : this.#queue.slice(this.#head);
    this.#queue = [];
    this.#head = 0;
    return batch;
  }

  #flushWaiters(): void {
    if (this.#queue.length > this.#head) return;
    for (const waiter of this.#waiting.splice(0)) waiter({ value: undefined, done: true });
  }

  /**
   * Yields events as they are pushed, until the stream ends. Written out rather than as an
   * async generator: every delta of a reply passes here, and a generator's extra promise and
   * microtask hops per event were a measurable part of a long reply's cost.
   */
  [Symbol.asyncIterator](): AsyncIterator<TEvent> {
    let finished = false;
    const end = (): Promise<IteratorResult<TEvent>> => Promise.resolve({ value: undefined, done: true });
    return {
      next: (): Promise<IteratorResult<TEvent>> => {
        if (finished) return end();
        if (this.#head < this.#queue.length) {
          const event = this.#queue[this.#head++];
          // Compact occasionally so a long stream does not keep every delivered event alive.
          if (this.#head > 1024 && this.#head * 2 > this.#queue.length) {
            this.#queue = this.#queue.slice(this.#head);
            this.#head = 0;
          }
          return Promise.resolve({ value: event, done: false });
        }
        if (this.#done) {
          finished = true;
          return end();
        }
        return new Promise<IteratorResult<TEvent>>((resolve) =>
          this.#waiting.push((next) => {
            if (next.done) finished = true;
            resolve(next);
          })
        );
      },
      return: (): Promise<IteratorResult<TEvent>> => {
        finished = true;
        return end();
      },
    };
  }

  /** The final value: the message of the terminal event. */
  result(): Promise<TResult> {
    return this.#result;
  }
}

/**
 * The stream every provider returns: ends with `done` or `error`, resolves the final message.
 * It also times the response (pi-ai 1.x): the final message gets `durationMs`, measured with a
 * monotonic clock from the stream's creation, unless it already has one or it started before
 * the stream (a response forwarded from elsewhere stays untimed).
 */
export class AssistantMessageEventStream extends EventStream<AssistantMessageEvent, AssistantMessage> {
  #startedAt = Date.now();
  #startedAtMonotonic = performance.now();
  #finished = false;

  /** Queues an event; a `done` or `error` event also settles `result()`. */
  override push(event: AssistantMessageEvent): void {
    if (event.type === "done") this.#time(event.message);
    else if (event.type === "error") this.#time(event.error);
    super.push(event);
  }

  /** Ends the stream; `result()` resolves with the given message if none arrived as an event. */
  override end(result?: AssistantMessage): void {
    if (result !== undefined) this.#time(result);
    this.#finished = true;
    super.end(result);
  }

  #time(message: AssistantMessage): void {
    if (this.#finished || message.durationMs !== undefined || message.timestamp < this.#startedAt) return;
    this.#finished = true;
    message.durationMs = Math.max(0, Math.round(performance.now() - this.#startedAtMonotonic));
  }

  constructor() {
    super(
      (event) => event.type === "done" || event.type === "error",
      (event) => {
        if (event.type === "done") return event.message;
        if (event.type === "error") return event.error;
        throw new Error("Unexpected event type for final result");
      },
    );
  }
}

/** Creates an empty assistant-message stream (for custom providers and extensions). */
export function createAssistantMessageEventStream(): AssistantMessageEventStream {
  return new AssistantMessageEventStream();
}
