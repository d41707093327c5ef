/**
 * A bare extension context for tests that drive an {@link ExtensionRunner} directly (no session
 * behind it): no UI, no session manager, idle, and a fixed system prompt. Override what a test needs.
 *
 * @module
 */
import type { ExtensionContext } from "../../src/extensions/types.ts";

/** The context with `cwd`; `overrides` replace single fields. */
export function bareExtensionContext(
  cwd: string,
  overrides: Partial<ExtensionContext> = {},
): ExtensionContext {
  return {
    ui: {} as ExtensionContext["ui"],
    hasUI: false,
    cwd,
    sessionManager: undefined,
    modelRegistry: undefined,
    model: undefined,
    isIdle: () => true,
    signal: undefined,
    abort: () => {},
    hasPendingMessages: () => false,
    shutdown: () => {},
    getContextUsage: () => undefined,
    compact: () => {},
    getSystemPrompt: () => "base",
    ...overrides,
  };
}
