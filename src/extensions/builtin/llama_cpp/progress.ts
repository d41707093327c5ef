/**
 * A load's or download's progress in `/llama`, as pi 1.6.0 draws it: a frame with the operation,
 * the model, the router's latest message, a 40-cell bar with the percentage when known, the bytes
 * so far, and `escape/ctrl+c stop`. Escape asks "Stop loading?" (or "Stop download?"); Yes asks the
 * router to drop the model and abandons the operation, No goes back to the progress. Without
 * `ctx.ui.custom` (a UI that cannot draw components) the progress shows in the footer status and
 * cannot be stopped.
 *
 * @module
 */
import type { ExtensionUIContext } from "../../types.ts";
import type { LlamaProgress } from "./client.ts";

/** The theme calls the frame uses (`ctx.ui.custom`'s theme). */
interface FrameTheme {
  fg(color: string, text: string): string;
  bold(text: string): string;
}

/** `ctx.ui.custom`'s factory, as far as this file uses it. */
type CustomFactory = (
  tui: { requestRender(): void },
  theme: FrameTheme,
  keybindings: unknown,
  done: (result: unknown) => void,
) => { render(width: number): string[]; handleInput(data: string): void; invalidate(): void };

/** What the progress needs of `ctx.ui`. */
export type ProgressUi = Pick<ExtensionUIContext, "confirm" | "setStatus"> & {
  custom?: (factory: CustomFactory) => Promise<unknown>;
};

/** One operation to follow. */
export interface ProgressOperation<T> {
  title: string;
  model: string;
  /** The question Escape asks ("Stop loading?"). */
  cancelTitle: string;
  run(signal: AbortSignal, update: (progress: LlamaProgress) => void): Promise<T>;
  /** Asks the router to drop what the operation started. */
  cancel(): Promise<void>;
}

interface ProgressState extends LlamaProgress {
  title: string;
  model: string;
}

const STATUS_KEY = "llama.cpp";
const BAR_CELLS = 40;

function isCancelKey(keybindings: unknown, data: string): boolean {
  const matches = (keybindings as { matches?: (data: string, id: string) => boolean } | undefined)?.matches;
  if (typeof matches === "function") return matches.call(keybindings, data, "tui.select.cancel");
  return data === "\x1b" || data === "\x03";
}

function frameLines(theme: FrameTheme, state: ProgressState, width: number): string[] {
  const border = theme.fg("accent", "─".repeat(Math.max(1, width)));
  const lines = [
    border,
    ` ${theme.fg("accent", theme.bold(state.title))}`,
    ` ${theme.fg("text", state.model)}`,
    "",
    ` ${theme.fg("muted", state.message)}`,
  ];
  if (state.ratio !== undefined) {
    const ratio = Math.max(0, Math.min(1, state.ratio));
    const filled = Math.round(ratio * BAR_CELLS);
    const bar = `${"█".repeat(filled)}${"─".repeat(BAR_CELLS - filled)} ${Math.round(ratio * 100)}%`;
    lines.push(` ${theme.fg("accent", bar)}`);
  }
  if (state.detail) lines.push(` ${theme.fg("dim", state.detail)}`);
  lines.push("", ` ${theme.fg("dim", "escape/ctrl+c stop")}`, border);
  return lines;
}

/** Shows the frame until Escape ("stop") or `close` ("settled"); `bind` receives its controls. */
function showFrame(
  ui: ProgressUi & { custom: NonNullable<ProgressUi["custom"]> },
  state: ProgressState,
  bind: (controls: { update(): void; close(): void }) => void,
): Promise<unknown> {
  return ui.custom((tui, theme, keybindings, done) => {
    bind({ update: () => tui.requestRender(), close: () => done("settled") });
    return {
      render: (width) => frameLines(theme, state, width),
      handleInput: (data) => {
        if (isCancelKey(keybindings, data)) done("stop");
      },
      invalidate: () => {},
    };
  });
}

/**
 * Runs `operation` while its progress shows; resolves `{cancelled: true}` when the user stopped it,
 * else with its value (its error is thrown).
 */
export async function runWithProgress<T>(
  ui: ProgressUi,
  operation: ProgressOperation<T>,
): Promise<{ cancelled: true } | { cancelled: false; value: T }> {
  const controller = new AbortController();
  const state: ProgressState = { title: operation.title, model: operation.model, message: "Starting…" };
  let controls: { update(): void; close(): void } | undefined;
  const custom = ui.custom;
  const statusText = () => {
    const percent = state.ratio === undefined ? "" : ` ${Math.round(state.ratio * 100)}%`;
    return `${state.message}: ${state.model}${percent}${state.detail ? ` (${state.detail})` : ""}`;
  };
  const settled = operation.run(controller.signal, (progress) => {
    state.detail = undefined;
    Object.assign(state, progress);
    if (custom) controls?.update();
    else ui.setStatus(STATUS_KEY, statusText());
  }).then((value) => ({ ok: true as const, value }), (error: unknown) => ({ ok: false as const, error }));
  if (!custom) {
    ui.setStatus(STATUS_KEY, statusText());
    const result = await settled.finally(() => ui.setStatus(STATUS_KEY, undefined));
    if (!result.ok) throw result.error;
    return { cancelled: false, value: result.value };
  }
  let completed = false;
  void settled.finally(() => (completed = true));
  while (!completed) {
    const shown = showFrame({ ...ui, custom }, state, (bound) => (controls = bound));
    const outcome = await Promise.race([settled.then(() => "settled"), shown]);
    controls?.close();
    controls = undefined;
    if (outcome === "settled") break;
    const stop = await ui.confirm(operation.cancelTitle, operation.model);
    if (!stop || completed) continue;
    try {
      await operation.cancel();
    } finally {
      controller.abort(new Error("Cancelled"));
    }
    await settled;
    return { cancelled: true };
  }
  const result = await settled;
  if (!result.ok) throw result.error;
  return { cancelled: false, value: result.value };
}
