/**
 * A tool row drawn by the tool's own renderers (`renderCall`, `renderResult` of
 * `pi.registerTool`), as pi 1.6.0's ToolExecutionComponent draws it: the call component, then
 * the result component, inside the row's box (or bare, with `renderShell: "self"`). A renderer
 * the tool lacks, or one that throws, gives way to the default text of that part, so a broken
 * renderer never breaks the chat.
 *
 * @module
 */
import type { AgentToolResult } from "../../agent/types.ts";
import { type Component, Text } from "../../tui/mod.ts";
import { keyHint, keyText } from "./key_hints.ts";
import type { ToolRenderContext, ToolRenderers } from "./extension_renderers.ts";
import type { Theme } from "./theme.ts";

const FALLBACK_PREVIEW_LINES = 10;

/** The state of the row the renderers see. */
export interface ToolRowState {
  args: unknown;
  result?: AgentToolResult;
  isError: boolean;
  isPartial: boolean;
  expanded: boolean;
  executionStarted: boolean;
  argsComplete: boolean;
  durationMs?: number;
}

/** The default text of the parts a renderer does not draw. */
export interface ToolRowFallbacks {
  /** The call line (`name key=value…`). */
  call(): string;
  /** The result's text lines, unstyled (empty: none). */
  output(): string[];
}

/** The renderers of one tool row and what they keep between draws. */
export class CustomToolRendering {
  #lastCall?: Component;
  #lastResult?: Component;
  readonly #state: Record<string, unknown> = {};

  /** Renderers for the call `toolCallId`; `invalidate` redraws the row. */
  constructor(
    readonly renderers: ToolRenderers,
    private readonly theme: Theme,
    private readonly toolCallId: string,
    private readonly cwd: string,
    private readonly invalidate: () => void,
  ) {}

  /** Whether the tool draws its own frame (no box, no background). */
  get selfShell(): boolean {
    return this.renderers.renderShell === "self";
  }

  #context(row: ToolRowState, last: Component | undefined): ToolRenderContext {
    return {
      args: row.args,
      toolCallId: this.toolCallId,
      invalidate: this.invalidate,
      lastComponent: last,
      state: this.#state,
      cwd: this.cwd,
      executionStarted: row.executionStarted,
      argsComplete: row.argsComplete,
      isPartial: row.isPartial,
      expanded: row.expanded,
      showImages: false,
      isError: row.result ? row.isError : false,
      durationMs: row.isPartial ? undefined : row.durationMs,
      outputPad: 1,
      keyText,
      keyHint,
    };
  }

  /** Fills `into` with the call and result components for `row`. */
  fill(into: { addChild(component: Component): void }, row: ToolRowState, fallbacks: ToolRowFallbacks): void {
    const theme = this.theme;
    const callFallback = () => new Text(fallbacks.call(), 0, 0);
    const { renderCall, renderResult } = this.renderers;
    if (!renderCall) into.addChild(callFallback());
    else {
      try {
        const component = renderCall(row.args, theme, this.#context(row, this.#lastCall));
        this.#lastCall = component;
        into.addChild(component);
      } catch {
        this.#lastCall = undefined;
        into.addChild(callFallback());
      }
    }
    if (!row.result) return;
    const resultFallback = () => {
      const lines = fallbacks.output();
      if (lines.length === 0) return;
      const shown = row.expanded ? lines : lines.slice(0, FALLBACK_PREVIEW_LINES);
      let text = shown.map((line) => theme.fg("toolOutput", line)).join("\n");
      const remaining = lines.length - shown.length;
      if (remaining > 0) {
        text += `${theme.fg("muted", `\n... (${remaining} more lines,`)} ${
          keyHint("app.tools.expand", "to expand")
        }${theme.fg("muted", ")")}`;
      }
      into.addChild(new Text(text, 0, 0));
    };
    if (!renderResult) {
      resultFallback();
      return;
    }
    try {
      const component = renderResult(
        { content: row.result.content, details: row.result.details },
        { expanded: row.expanded, isPartial: row.isPartial },
        theme,
        this.#context(row, this.#lastResult),
      );
      this.#lastResult = component;
      into.addChild(component);
    } catch {
      this.#lastResult = undefined;
      resultFallback();
    }
  }
}
