/**
 * What the terminal told pi about its colours, for the themes: its default foreground and
 * background and its palette (OSC 10/11/4), its light/dark report (mode 2031), and `COLORFGBG`.
 * They decide whether the terminal is light or dark (the half of a `light/dark` setting) and what
 * the `system` theme looks like; until the first answer the `system` theme is grayscale.
 *
 * @module
 */
import { type SystemThemeInput, terminalAppearance } from "../../resources/themes/system_theme.ts";
import type { TerminalAppearance } from "../../resources/themes/theme_setting.ts";
import type { RgbColor, TerminalColors, TerminalColorScheme } from "../../tui/terminal_colors.ts";

/**
 * How long the `system` theme stays grayscale when the terminal answers nothing (ms), as 1.6.0.
 * Terminals answer the DA1 request that ends the query right after the colour replies, so this
 * only matters for those that answer neither; later replies still apply.
 */
export const TERMINAL_QUERY_TIMEOUT_MS = 100;

/** The part of the TUI the colour query needs. */
export interface TerminalColorSource {
  /** Asks the terminal for its colours (pi-tui's `queryTerminalColors`). */
  queryTerminalColors(options: {
    timeoutMs: number;
    onLateReply?: (colors: TerminalColors) => void;
  }): Promise<TerminalColors>;
  /** Turns the terminal's light/dark change reports on or off. */
  setTerminalColorSchemeNotifications(enabled: boolean): void;
  /** Listens for light/dark change reports; returns the unsubscribe. */
  onTerminalColorSchemeChange(listener: (scheme: TerminalColorScheme) => void): () => void;
}

/**
 * Queries the terminal's colours and hands them to `apply` when the query completes or times out,
 * and again should the terminal answer after the timeout. A failed query applies no colours.
 */
export function requestTerminalColors(
  ui: TerminalColorSource,
  apply: (colors: TerminalColors) => void,
): Promise<void> {
  let query: Promise<TerminalColors>;
  try {
    query = ui.queryTerminalColors({ timeoutMs: TERMINAL_QUERY_TIMEOUT_MS, onLateReply: apply });
  } catch {
    query = Promise.resolve({});
  }
  return query.then(apply, () => apply({}));
}

function sameRgb(a: RgbColor | undefined, b: RgbColor | undefined): boolean {
  return a === b || (a !== undefined && b !== undefined && a.r === b.r && a.g === b.g && a.b === b.b);
}

function samePalette(a: RgbColor[] | undefined, b: RgbColor[] | undefined): boolean {
  if (a === b) return true;
  if (!a || !b || a.length !== b.length) return false;
  return a.every((color, index) => sameRgb(color, b[index]));
}

/** The terminal's reports so far. */
export class TerminalColorState {
  #colors?: TerminalColors;
  #pending = false;
  #scheme?: TerminalColorScheme;
  readonly #colorFgBg?: TerminalAppearance;

  /** `colorFgBg` is what `COLORFGBG` says, used while the terminal reported neither background nor scheme. */
  constructor(colorFgBg?: TerminalAppearance) {
    this.#colorFgBg = colorFgBg;
  }

  /** The colours reported so far (undefined before any answer). */
  get colors(): TerminalColors | undefined {
    return this.#colors;
  }

  /** Whether a query is out and no answer came yet (the `system` theme is grayscale then). */
  get pending(): boolean {
    return this.#pending;
  }

  /** Marks a query as sent. */
  markPending(): void {
    this.#pending = true;
  }

  /**
   * Light or dark: from the reported background (as the `system` theme classifies it), else the
   * terminal's light/dark report, else `COLORFGBG`, else dark.
   */
  get appearance(): TerminalAppearance {
    const { background, foreground } = this.#colors ?? {};
    if (background) return terminalAppearance(background, foreground);
    return this.#scheme ?? this.#colorFgBg ?? "dark";
  }

  /** Records a light/dark report; true when the appearance changed. */
  setScheme(scheme: TerminalColorScheme): boolean {
    const before = this.appearance;
    this.#scheme = scheme;
    return this.appearance !== before;
  }

  /**
   * Records an answer; colours it lacks keep their last reported value (a timed-out query erases
   * nothing). True when anything changed — the first answer always counts, as it ends the pending
   * grayscale.
   */
  update(reported: TerminalColors): boolean {
    const previous = this.#colors;
    const next: TerminalColors = {
      foreground: reported.foreground ?? previous?.foreground,
      background: reported.background ?? previous?.background,
      palette: reported.palette ?? previous?.palette,
    };
    if (
      previous && sameRgb(previous.foreground, next.foreground) &&
      sameRgb(previous.background, next.background) && samePalette(previous.palette, next.palette)
    ) {
      return false;
    }
    this.#colors = next;
    this.#pending = false;
    return true;
  }

  /** What the `system` theme is generated from now. */
  systemInput(): SystemThemeInput {
    return { ...this.#colors, saturation: this.#pending ? 0 : 1, appearanceHint: this.appearance };
  }
}
