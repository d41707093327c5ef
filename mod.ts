/**
 * pi for Deno: the SDK. The names match the reference packages (`@mariozechner/pi-ai`,
 * `@mariozechner/pi-agent-core`, `@mariozechner/pi-coding-agent`) so code ports over.
 *
 * @module
 */
export * from "./src/ai/types.ts";
export * from "./src/ai/event_stream.ts";
export { VERSION } from "./src/version.ts";
