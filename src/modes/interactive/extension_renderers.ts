/**
 * The renderers extensions register, as the chat looks them up: a tool's `renderCall`,
 * `renderResult` and `renderShell` (from `pi.registerTool`), and message renderers
 * (`pi.registerMessageRenderer`) and entry renderers (`pi.registerEntryRenderer`). The first extension that registered one wins, as in pi 1.6.0.
 *
 * @module
 */
import type { AgentToolResult } from "../../agent/types.ts";
import type { ExtensionHost } from "../../core/extension_host.ts";
import type { CustomEntry } from "../../session/entries.ts";
import type { CustomMessage } from "../../session/messages.ts";
import type { Component } from "../../tui/mod.ts";
import type { Theme } from "./theme.ts";

/** What `renderCall` and `renderResult` get as their context (1.6.0's `ToolRenderContext`). */
export interface ToolRenderContext {
  args: unknown;
  toolCallId: string;
  /** Redraws the row (for renderers that animate or load something). */
  invalidate: () => void;
  /** The component the same renderer returned last time, to reuse. */
  lastComponent: Component | undefined;
  /** Per-row state the renderers share. */
  state: Record<string, unknown>;
  cwd: string;
  executionStarted: boolean;
  argsComplete: boolean;
  isPartial: boolean;
  expanded: boolean;
  showImages: boolean;
  isError: boolean;
  durationMs: number | undefined;
  outputPad: number;
  keyText: (keybinding: string) => string;
  keyHint: (keybinding: string, description: string) => string;
}

/** A tool's renderers (1.6.0's `ToolRenderers`). */
export interface ToolRenderers {
  renderShell?: "default" | "self";
  renderCall?: (args: unknown, theme: Theme, context: ToolRenderContext) => Component;
  renderResult?: (
    result: AgentToolResult,
    options: { expanded: boolean; isPartial: boolean },
    theme: Theme,
    context: ToolRenderContext,
  ) => Component;
}

/** What a message renderer gets besides the message (1.6.0's `MessageRenderOptions`). */
export interface MessageRenderOptions {
  expanded: boolean;
  outputPad: number;
  keyText: (keybinding: string) => string;
  keyHint: (keybinding: string, description: string) => string;
}

/** A message renderer; undefined keeps the default drawing. */
export type MessageRenderer = (
  message: CustomMessage,
  options: MessageRenderOptions,
  theme: Theme,
) => Component | undefined;

/** An entry renderer; undefined leaves the entry out of the chat. */
export type EntryRenderer = (
  entry: CustomEntry,
  options: {
    expanded: boolean;
    keyText: (keybinding: string) => string;
    keyHint: MessageRenderOptions["keyHint"];
  },
  theme: Theme,
) => Component | undefined;

/** The lookups the chat uses; both answer undefined without extensions. */
export interface ExtensionRenderers {
  /** The renderers of the extension tool `name`, if an extension registered it. */
  tool(name: string): ToolRenderers | undefined;
  /** The renderer of custom messages of `customType`. */
  message(customType: string): MessageRenderer | undefined;
  /** The renderer of custom entries of `customType`. */
  entry(customType: string): EntryRenderer | undefined;
}

/** No renderers (no extensions loaded). */
export const NO_RENDERERS: ExtensionRenderers = {
  tool: () => undefined,
  message: () => undefined,
  entry: () => undefined,
};

/** Lookups over the extensions `host()` returns at the time of each lookup (it changes with the session). */
export function extensionRenderers(host: () => ExtensionHost | undefined): ExtensionRenderers {
  return {
    tool(name) {
      const found = host()?.runner.tools().find(({ tool }) => tool.name === name)?.tool;
      if (!found) return undefined;
      const renderers = found as ToolRenderers;
      return {
        renderShell: renderers.renderShell === "self" ? "self" : "default",
        renderCall: typeof renderers.renderCall === "function" ? renderers.renderCall : undefined,
        renderResult: typeof renderers.renderResult === "function" ? renderers.renderResult : undefined,
      };
    },
    message: (customType) => registered(host, "messageRenderers", customType) as MessageRenderer | undefined,
    entry: (customType) => registered(host, "entryRenderers", customType) as EntryRenderer | undefined,
  };
}

/** The first function registered under `customType` in the extensions' map `key` (api.ts keeps them). */
function registered(
  host: () => ExtensionHost | undefined,
  key: "messageRenderers" | "entryRenderers",
  customType: string,
): unknown {
  for (const ext of host()?.runner.extensions ?? []) {
    const renderer = (ext as { [k in typeof key]?: Map<string, unknown> })[key]?.get(customType);
    if (typeof renderer === "function") return renderer;
  }
  return undefined;
}
