/**
 * The extension events a session raises outside its agent-event stream (pi 1.6.0): the provider
 * hooks of each request (`before_provider_headers`, `before_provider_request`,
 * `after_provider_response`, `provider_stream_event`) and the dispatch of the two run boundaries
 * (`turn_end`, `agent_before_settle`). src/ai and src/agent know nothing of extensions: they get
 * plain callbacks (`onPayload`, `onResponse`, `onProviderStreamEvent`, the header hook).
 *
 * @module
 */
import type { ExtensionRunner } from "../extensions/runner.ts";
import type { AgentSession } from "./agent_session.ts";
import { setProviderHeadersHook } from "./provider_headers_hook.ts";
import type { BoundaryDispatcher } from "./boundary_types.ts";

/**
 * Installs the provider hooks on `session`'s agent. Each asks the runner per request, so handlers
 * registered later count, and requests without listeners pay one lookup.
 */
export function bindProviderEvents(session: AgentSession, runner: ExtensionRunner): void {
  const agent = session.agent;
  agent.onPayload = (payload) =>
    runner.hasHandlers("before_provider_request") ? runner.emitBeforeProviderRequest(payload) : payload;
  agent.onResponse = async (response) => {
    if (!runner.hasHandlers("after_provider_response")) return;
    await runner.emit({
      type: "after_provider_response",
      status: response.status,
      headers: response.headers,
    });
  };
  agent.onProviderStreamEvent = async (data, model) => {
    if (!runner.hasHandlers("provider_stream_event")) return;
    await runner.emit({
      data,
      type: "provider_stream_event",
      provider: model.provider,
      api: model.api,
      model: model.id,
    });
  };
  setProviderHeadersHook(
    agent,
    (headers) =>
      runner.hasHandlers("before_provider_headers")
        ? runner.emitBeforeProviderHeaders(headers)
        : Promise.resolve(headers),
  );
}

/** The session's boundaries dispatched through `runner`; `turn_end` carries the current turn's index. */
export function boundaryDispatcher(runner: ExtensionRunner, turnIndex: () => number): BoundaryDispatcher {
  return {
    has: (type) => runner.hasHandlers(type),
    emit: (baseEvent, buildContext) =>
      runner.emitBoundary(
        baseEvent.type === "turn_end" ? { ...baseEvent, turnIndex: turnIndex() } : baseEvent,
        buildContext,
      ),
    reportError: (event, error) => runner.emitError({ extensionPath: "<boundary>", event, error }),
  };
}
