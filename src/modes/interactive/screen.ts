/**
 * The two screens of pi 1.6.0's interactive mode. Fullscreen (the default) draws on the
 * alternate screen: the transcript scrolls in a view that follows its end while the queued
 * messages, editor and footer stay docked below it. Regular draws on the main screen and leaves
 * the transcript in the terminal's scrollback.
 *
 * @module
 */
import {
  type Component,
  ProcessTerminal,
  ScrollView,
  type Terminal,
  TuiAltScreen,
  TuiMainScreen,
  VStack,
} from "../../tui/mod.ts";
import type { Theme } from "./theme.ts";

/** Which screen the interactive mode draws on. */
export type TuiMode = "fullscreen" | "regular";

/** The parts of the interactive screen, top to bottom. */
export interface ScreenParts {
  /** Header and chat: what scrolls. */
  document: Component;
  /** The docked parts below it: queued messages, status, spacing, editor, footer. */
  dock: Component[];
}

/** A TUI for `mode` with `parts` mounted. */
export function createScreen(
  mode: TuiMode,
  parts: ScreenParts,
  theme: Theme,
  terminal: Terminal = new ProcessTerminal(),
): TuiMainScreen | TuiAltScreen {
  if (mode === "regular") {
    const ui = new TuiMainScreen(terminal);
    for (const part of [parts.document, ...parts.dock]) ui.addChild(part);
    return ui;
  }
  const ui = new TuiAltScreen(terminal, undefined, undefined, {
    scrollToEndIndicator: () => theme.bg("selectedBg", theme.fg("text", " ↓ Jump to latest message ")),
  });
  for (const part of [parts.document, ...parts.dock]) ui.addChild(part);
  const transcript = new ScrollView(parts.document, { follow: "end", primary: true, overscroll: "chain" });
  const dock = new VStack(
    parts.dock.map((component, i) => ({
      component,
      shrink: 1,
      // The editor (second to last) keeps its borders and a line.
      minSize: i === parts.dock.length - 2 ? 3 : 0,
    })),
  );
  ui.setLayoutRoot(
    new VStack([
      { component: transcript, basis: 0, grow: 1, shrink: 1, minSize: 1 },
      { component: dock, basis: "auto", grow: 0, shrink: 1, minSize: 1 },
    ]),
  );
  return ui;
}
