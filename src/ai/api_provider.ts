/**
 * The shape of one wire API's implementation. It lives apart from the registry so that the
 * providers and the registry both import it, and neither imports the other (the registry loads
 * providers, so a provider importing the registry would be a cycle). It cannot live in
 * `types.ts` either: the stream class imports `types.ts`.
 *
 * @module
 */
import type { AssistantMessageEventStream } from "./event_stream.ts";
import type { Api, Context, Model, SimpleStreamOptions, StreamOptions } from "./types.ts";

/** Streams one request with API-specific options. Never throws: failures end in an `error` event. */
export type ApiStreamFunction = (
  model: Model,
  context: Context,
  options?: StreamOptions,
) => AssistantMessageEventStream;

/** Streams one request with the unified `reasoning` option. */
export type ApiStreamSimpleFunction = (
  model: Model,
  context: Context,
  options?: SimpleStreamOptions,
) => AssistantMessageEventStream;

/** An implementation of one wire API. */
export interface ApiProvider {
  /** The wire API it speaks, e.g. `anthropic-messages`. */
  api: Api;
  /** Streams with the API's own options. */
  stream: ApiStreamFunction;
  /** Streams with the unified options (`reasoning` instead of API-specific thinking settings). */
  streamSimple: ApiStreamSimpleFunction;
}

/** A built-in provider module exports its implementation as `provider`. */
export interface ApiProviderModule {
  /** The module's implementation. */
  provider: ApiProvider;
}
