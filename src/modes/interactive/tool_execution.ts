/**
 * A tool call in the chat, in the simple built-in rendering: a box (pending, success or error
 * background) with the call on top and the output below, collapsed to a preview until the
 * app.tools.expand key expands every tool row. `bash` shows `$ command`, the last lines of its
 * output and how long it took, as pi 1.6.0 does; read, write and edit use 1.6.0's renderers
 * (tool_renderers.ts); other tools show `name key=value…` and the first lines of their output.
 * An extension tool with `renderCall`/`renderResult` is drawn by them (tool_custom_render.ts).
 *
 * @module
 */
import type { AgentToolResult } from "../../agent/types.ts";
import { Box, Container, Spacer, Text } from "../../tui/mod.ts";
import { keyText } from "./app_keys.ts";
import { TailRows } from "./bash_execution.ts";
import { formatSize, previewEditsDiff } from "../../core/tool_display.ts";
import type { Theme } from "./theme.ts";
import type { ToolRenderers } from "./extension_renderers.ts";
import { CustomToolRendering } from "./tool_custom_render.ts";
import {
  editCall,
  editResultError,
  readCall,
  readResult,
  renderDiff,
  type RenderPaths,
  writeCall,
  writeResult,
} from "./tool_renderers.ts";

const COLLAPSED_ARGS_CHARS = 100;
const PREVIEW_LINES = 10;
const BASH_PREVIEW_LINES = 5;

/** A duration as 1.6.0 prints it: `4.2s`, `1m 30s`, `2h 3m 4s`. */
export function formatToolDuration(ms: number): string {
  const seconds = ms / 1000;
  if (seconds < 60) return `${seconds.toFixed(1)}s`;
  const total = Math.floor(seconds);
  const minutes = Math.floor(total / 60);
  if (minutes < 60) return `${minutes}m ${total % 60}s`;
  return `${Math.floor(minutes / 60)}h ${minutes % 60}m ${total % 60}s`;
}

/** The generic call line: the bold title, then `key=value` pairs (collapsed) or one per line. */
export function formatToolCall(theme: Theme, title: string, args: unknown, expanded: boolean): string {
  const header = theme.fg("toolTitle", theme.bold(title));
  if (args == null) return header;
  const entries = typeof args === "object" && !Array.isArray(args)
    ? Object.entries(args as Record<string, unknown>)
    : [["args", args] as [string, unknown]];
  if (entries.length === 0) return header;
  if (expanded) {
    const lines = entries.map(([key, value]) => {
      const text = typeof value === "string" ? value : (JSON.stringify(value, null, 2) ?? String(value));
      return `  ${key}: ${text.replace(/\t/g, "   ").replace(/\r/g, "").split("\n").join("\n    ")}`;
    });
    return `${header}\n${theme.fg("muted", lines.join("\n"))}`;
  }
  const pairs = entries.map(([key, value]) => `${key}=${JSON.stringify(value) ?? String(value)}`).join(" ");
  const preview = pairs.length > COLLAPSED_ARGS_CHARS
    ? `${pairs.slice(0, COLLAPSED_ARGS_CHARS - 3)}...`
    : pairs;
  return `${header} ${theme.fg("muted", preview)}`;
}

function textOutput(result: AgentToolResult | undefined): string {
  if (!result) return "";
  // Escape sequences in a command's output would fight the frame; strip them.
  // deno-lint-ignore no-control-regex
  const ansi = /\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07]*(\x07|\x1b\\)/g;
  return result.content
    .map((c) => c.type === "text" ? c.text.replace(ansi, "").replace(/\r/g, "") : `[image: ${c.mimeType}]`)
    .join("\n");
}

/** The hint after a cut preview: `... (3 earlier lines, ctrl+o to expand)`. */
function expandHint(theme: Theme, count: number, where: "earlier" | "more"): string {
  return theme.fg("muted", `... (${count} ${where} lines,`) +
    ` ${theme.fg("dim", keyText("app.tools.expand"))}${theme.fg("muted", " to expand")}${
      theme.fg("muted", ")")
    }`;
}

/** One tool call row; updated as arguments stream and the result arrives. */
export class ToolExecutionView extends Container {
  #box: Box;
  #args: unknown;
  #result?: AgentToolResult;
  #isError = false;
  #partial = true;
  #expanded = false;
  #startedAt?: number;
  #durationMs?: number;
  #argsComplete = false;
  /** The tool's own renderers, when its extension gave any. */
  #custom?: CustomToolRendering;
  /** With `renderShell: "self"`: the tool's components, bare. */
  #self?: Container;

  #preview?: { diff: string } | { error: string };
  #ticker?: ReturnType<typeof setInterval>;
  /** Asks for a frame (the running time changed); the chat sets it. */
  onTick: () => void = () => {};
  #previewRequested = false;
  readonly #editFailure = new Container();

  /**
   * A row for a call of `toolName` with `args` so far; paths show relative to `paths`. `custom`:
   * the tool's own renderers (an extension tool) and the call's id.
   */
  constructor(
    private readonly theme: Theme,
    readonly toolName: string,
    args: unknown,
    private readonly paths: RenderPaths = { cwd: Deno.cwd() },
    custom?: { renderers: ToolRenderers; toolCallId: string },
  ) {
    super();
    this.#args = args;
    this.addChild(new Spacer(1));
    this.#box = new Box(1, 1, (t) => this.theme.bg(this.#background(), t));
    if (custom && (custom.renderers.renderCall || custom.renderers.renderResult)) {
      this.#custom = new CustomToolRendering(custom.renderers, theme, custom.toolCallId, paths.cwd, () => {
        this.#rebuild();
        this.onTick();
      });
      if (this.#custom.selfShell) this.#self = new Container();
    }
    this.addChild(this.#self ?? this.#box);
    // edit draws its own box (1.6.0's "self" shell); a failure its preview did not tell goes below.
    if (toolName === "edit") this.addChild(this.#editFailure);
    this.#rebuild();
  }

  #background(): "toolPendingBg" | "toolSuccessBg" | "toolErrorBg" {
    if (this.toolName === "edit") {
      // The edit box follows its preview: success for a diff, error for a failure.
      const preview = this.#editPreview();
      if (preview) return "error" in preview ? "toolErrorBg" : "toolSuccessBg";
      return this.#isError && !this.#partial ? "toolErrorBg" : "toolPendingBg";
    }
    if (this.#partial) return "toolPendingBg";
    return this.#isError ? "toolErrorBg" : "toolSuccessBg";
  }

  /** New (streamed) arguments. */
  updateArgs(args: unknown): void {
    this.#args = args;
    this.#rebuild();
  }

  /** The tool started running. */
  markStarted(now = performance.now()): void {
    this.#startedAt ??= now;
    if (this.#custom) this.#rebuild();
  }

  /** The call's arguments are final (its message ended). */
  setArgsComplete(): void {
    this.#argsComplete = true;
    if (this.#custom) this.#rebuild();
  }

  /** A self-drawn row the tool left empty takes no rows, not even the blank one above it. */
  override render(width: number): readonly string[] {
    if (this.#self && this.#self.render(width).length === 0) return [];
    return super.render(width);
  }

  /** A partial (`partial`) or final result; `durationMs` from the agent when known. */
  updateResult(result: AgentToolResult, isError: boolean, partial = false, durationMs?: number): void {
    this.#result = result;
    this.#isError = isError;
    this.#partial = partial;
    if (!partial) {
      this.#durationMs = durationMs ??
        (this.#startedAt !== undefined ? performance.now() - this.#startedAt : undefined);
    }
    this.#rebuild();
  }

  /** Shows the whole output (true) or a preview. */
  setExpanded(expanded: boolean): void {
    this.#expanded = expanded;
    this.#rebuild();
  }

  /** The edit's diff from its result, else the preview computed before it ran. */
  #editPreview(): { diff: string } | { error: string } | undefined {
    if (this.#result && !this.#partial && !this.#isError) {
      const diff = (this.#result.details as { diff?: unknown } | undefined)?.diff;
      if (typeof diff === "string") return { diff };
    }
    return this.#preview;
  }

  /**
   * Once an edit call's arguments are final (its message ended): computes the diff it would
   * make (or the error it would fail with), shown while it runs, as 1.6.0 does. `onReady` asks
   * for a frame.
   */
  previewEdit(onReady: () => void): void {
    if (this.toolName !== "edit" || this.#previewRequested) return;
    const args = this.#args as Record<string, unknown> | undefined;
    const path = typeof args?.path === "string"
      ? args.path
      : typeof args?.file_path === "string"
      ? args.file_path
      : "";
    const list = Array.isArray(args?.edits)
      ? args.edits as { oldText?: unknown; newText?: unknown }[]
      : [{ oldText: args?.oldText, newText: args?.newText }];
    if (!path || list.length === 0) return;
    if (!list.every((e) => typeof e?.oldText === "string" && typeof e?.newText === "string")) return;
    this.#previewRequested = true;
    const edits = list as { oldText: string; newText: string }[];
    // The diff code loads with the first edit shown, not at start-up.
    void previewEditsDiff(path, edits, this.paths.cwd)
      .then((preview) => {
        // After a successful run the file has changed: a late preview would be wrong (1.6.0 lets
        // it replace the diff). After a failure it tells the same error, in the box.
        if (this.#result && !this.#partial && !this.#isError) return;
        this.#preview = "error" in preview ? { error: preview.error } : { diff: preview.diff };
        this.#rebuild();
        onReady();
      }, () => {});
  }

  /** The read, write and edit rows; false for other tools. */
  #rebuildBuiltin(): boolean {
    const theme = this.theme;
    const args = this.#args as Record<string, unknown> | undefined;
    const result = this.#result;
    if (this.toolName === "read") {
      this.#box.addChild(new Text(readCall(theme, args, this.#expanded, this.paths), 0, 0));
      if (result) {
        this.#box.addChild(new Text(readResult(theme, result, this.#expanded, this.#isError), 0, 0));
      }
      return true;
    }
    if (this.toolName === "write") {
      this.#box.addChild(new Text(writeCall(theme, args, this.#expanded, this.paths), 0, 0));
      const failure = result && writeResult(theme, result, this.#isError);
      if (failure) this.#box.addChild(new Text(failure, 0, 0));
      return true;
    }
    if (this.toolName === "edit") {
      this.#box.addChild(new Text(editCall(theme, args, this.paths), 0, 0));
      const preview = this.#editPreview();
      if (preview) {
        this.#box.addChild(new Spacer(1));
        const body = "error" in preview ? theme.fg("error", preview.error) : renderDiff(theme, preview.diff);
        this.#box.addChild(new Text(body, 0, 0));
      }
      // A failure the preview did not already tell goes below the box.
      this.#editFailure.clear();
      const failure = result && !this.#partial && editResultError(theme, result, this.#isError);
      if (failure && !(preview && "error" in preview && theme.fg("error", preview.error) === failure)) {
        this.#editFailure.addChild(new Spacer(1));
        this.#editFailure.addChild(new Text(failure, 1, 0));
      }
      return true;
    }
    return false;
  }

  /**
   * bash as 1.6.0 shows it: `$ command`, the output's last 5 screen rows (all when expanded), the
   * full-output and truncation note, and `Elapsed 3.0s` (redrawn each second) while it runs,
   * `Took 4.2s` once done.
   */
  #rebuildBash(): void {
    const theme = this.theme;
    const args = (this.#args ?? {}) as { command?: unknown; timeout?: unknown };
    const command = typeof args.command === "string" && args.command
      ? args.command
      : theme.fg("toolOutput", "...");
    const timeout = args.timeout ? theme.fg("muted", ` (timeout ${args.timeout}s)`) : "";
    this.#box.addChild(new Text(theme.fg("toolTitle", theme.bold(`$ ${command}`)) + timeout, 0, 0));
    if (!this.#result) return;
    const details = this.#result.details as
      | {
        fullOutputPath?: string;
        truncation?: {
          truncated?: boolean;
          truncatedBy?: string;
          outputLines?: number;
          totalLines?: number;
          maxBytes?: number;
        };
      }
      | undefined;
    const truncation = details?.truncation;
    const fullOutputPath = details?.fullOutputPath;
    let output = textOutput(this.#result).trim();
    // The tool's own "[… Full output: …]" footer gives way to the note below.
    if (!this.#partial && truncation?.truncated && fullOutputPath && output.endsWith("]")) {
      const footer = output.lastIndexOf("\n\n[");
      if (footer !== -1 && output.slice(footer).includes(fullOutputPath)) {
        output = output.slice(0, footer).trimEnd();
      }
    }
    if (output) {
      const styled = output.split("\n").map((line) => theme.fg("toolOutput", line)).join("\n");
      if (this.#expanded) this.#box.addChild(new Text(`\n${styled}`, 0, 0));
      else {
        this.#box.addChild(new Spacer(1));
        this.#box.addChild(
          new TailRows(styled, BASH_PREVIEW_LINES, 0, (hidden) => expandHint(theme, hidden, "earlier")),
        );
      }
    }
    if (truncation?.truncated || fullOutputPath) {
      const notes: string[] = [];
      if (fullOutputPath) notes.push(`Full output: ${fullOutputPath}`);
      if (truncation?.truncated) {
        notes.push(
          truncation.truncatedBy === "lines"
            ? `Truncated: showing ${truncation.outputLines} of ${truncation.totalLines} lines`
            : `Truncated: ${truncation.outputLines} lines shown (${
              formatSize(truncation.maxBytes ?? 50 * 1024)
            } limit)`,
        );
      }
      this.#box.addChild(new Text(`\n${theme.fg("warning", `[${notes.join(". ")}]`)}`, 0, 0));
    }
    const timer = this.#timerText();
    if (timer) this.#box.addChild(new Text(`\n${theme.fg("muted", timer)}`, 0, 0));
  }

  /** `Elapsed …` while a started call streams output (ticking each second), `Took …` when done. */
  #timerText(): string | undefined {
    const running = this.#partial && !this.#isError;
    if (running && this.#startedAt !== undefined && this.#ticker === undefined) {
      this.#ticker = setInterval(() => {
        this.#rebuild();
        this.onTick();
      }, 1000);
    }
    if (!running && this.#ticker !== undefined) {
      clearInterval(this.#ticker);
      this.#ticker = undefined;
    }
    if (!this.#partial && this.#durationMs !== undefined) {
      return `Took ${formatToolDuration(this.#durationMs)}`;
    }
    if (this.#startedAt === undefined || !this.#partial) return undefined;
    return `Elapsed ${formatToolDuration(performance.now() - this.#startedAt)}`;
  }

  /** Stops the running-time ticker (the row is gone). */
  dispose(): void {
    if (this.#ticker !== undefined) clearInterval(this.#ticker);
    this.#ticker = undefined;
  }

  #rebuild(): void {
    const theme = this.theme;
    this.#box.clear();
    if (this.#custom) {
      const into = this.#self ?? this.#box;
      into.clear();
      this.#custom.fill(into, {
        args: this.#args,
        result: this.#result,
        isError: this.#isError,
        isPartial: this.#partial,
        expanded: this.#expanded,
        executionStarted: this.#startedAt !== undefined,
        argsComplete: this.#argsComplete,
        durationMs: this.#durationMs,
      }, {
        call: () => formatToolCall(theme, this.toolName, this.#args, this.#expanded),
        output: () => {
          const output = textOutput(this.#result).trim();
          return output ? output.split("\n") : [];
        },
      });
      return;
    }
    if (this.#rebuildBuiltin()) return;
    const output = textOutput(this.#result).trim();
    const styled = output ? output.split("\n").map((line) => theme.fg("toolOutput", line)) : [];
    if (this.toolName === "bash") {
      this.#rebuildBash();
      return;
    }
    this.#box.addChild(new Text(formatToolCall(theme, this.toolName, this.#args, this.#expanded), 0, 0));
    if (styled.length > 0) {
      const shown = this.#expanded ? styled : styled.slice(0, PREVIEW_LINES);
      let text = shown.join("\n");
      if (styled.length > shown.length) {
        text += `\n${expandHint(theme, styled.length - shown.length, "more")}`;
      }
      this.#box.addChild(new Text(`\n${text}`, 0, 0));
    }
  }
}
