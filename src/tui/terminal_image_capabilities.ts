/**
 * What the terminal can show (inline images and which protocol, 24-bit colour, OSC 8 hyperlinks) and
 * how big a cell is in pixels, as pi-tui 1.6.0's `terminal-image.js` detects them: from the
 * environment (TERM, TERM_PROGRAM, COLORTERM, KITTY_WINDOW_ID, TMUX, …), read through `Deno.env` on
 * first use and cached, with `PI_IMAGE_PROTOCOL`, `PI_TRUE_COLOR` and `PI_HYPERLINKS` overriding.
 *
 * @module
 */
import type { TerminalColorMode } from "./colors.ts";
import { readEnv } from "../util/env.ts";

/** The inline image protocol the terminal speaks, or null for none. */
export type ImageProtocol = "kitty" | "iterm2" | null;

/** What the terminal can show. */
export interface TerminalCapabilities {
  /** The inline image protocol, or null when images are shown as text. */
  images: ImageProtocol;
  /** Whether 24-bit colour escapes are drawn as such. */
  trueColor: boolean;
  /** Whether OSC 8 hyperlinks are drawn as links (not swallowed, not shown raw). */
  hyperlinks: boolean;
}

/** The size of one terminal cell in pixels. */
export interface CellDimensions {
  /** Cell width in pixels. */
  widthPx: number;
  /** Cell height in pixels. */
  heightPx: number;
}

let cachedCapabilities: TerminalCapabilities | null = null;
let capabilityOverrides: Partial<TerminalCapabilities> = {};
// A common cell size until the TUI learns the real one from the terminal's reply.
let cellDimensions: CellDimensions = { widthPx: 9, heightPx: 18 };

/** The cell size images are scaled with (9×18 px until the terminal reports its own). */
export function getCellDimensions(): CellDimensions {
  return cellDimensions;
}

/** Records the cell size the terminal reported. */
export function setCellDimensions(dims: CellDimensions): void {
  cellDimensions = dims;
}

/**
 * Whether the attached tmux client passes OSC 8 hyperlinks on to the outer terminal: tmux re-emits
 * them only when `client_termfeatures` lists `hyperlinks`, and strips them otherwise. Any failure
 * (no tmux, no permission to run it) counts as no.
 */
function tmuxForwardsHyperlinks(): boolean {
  try {
    // pi-tui gives tmux 250 ms. A synchronous Deno child has no timeout, so on POSIX a shell runs
    // tmux and kills it when a sleeper fires first (the sleeper writes nowhere, so it cannot hold
    // the output pipe open past tmux's exit).
    const args = ["display-message", "-p", "#{client_termfeatures}"];
    const script = "tmux display-message -p '#{client_termfeatures}' & p=$!; " +
      "(sleep 0.25; kill $p) >/dev/null 2>&1 & w=$!; wait $p; s=$?; kill $w 2>/dev/null; exit $s";
    const windows = Deno.build.os === "windows";
    const command = new Deno.Command(windows ? "tmux" : "sh", {
      args: windows ? args : ["-c", script],
      stdin: "null",
      stdout: "piped",
      stderr: "null",
    });
    const out = command.outputSync();
    if (!out.success) return false;
    return new TextDecoder().decode(out.stdout).split(",").map((feature) => feature.trim()).includes(
      "hyperlinks",
    );
  } catch {
    return false;
  }
}

const KITTY_FULL: TerminalCapabilities = { images: "kitty", trueColor: true, hyperlinks: true };

/** The capabilities the environment's terminal hints add up to, before the PI_* overrides. */
function fromEnvironment(tmuxForwardsHyperlink: () => boolean): TerminalCapabilities {
  const lower = (name: string) => readEnv(name)?.toLowerCase() || "";
  const termProgram = lower("TERM_PROGRAM");
  const term = lower("TERM");
  const colorTerm = lower("COLORTERM");
  const hasTrueColorHint = colorTerm === "truecolor" || colorTerm === "24bit" || term.endsWith("-direct");

  // Multiplexers: images are unreliable through them; tmux forwards hyperlinks only when it says so,
  // screen never does.
  if (readEnv("TMUX") || term.startsWith("tmux")) {
    return { images: null, trueColor: hasTrueColorHint, hyperlinks: tmuxForwardsHyperlink() };
  }
  if (term.startsWith("screen")) return { images: null, trueColor: hasTrueColorHint, hyperlinks: false };
  // Herdr first: outer-terminal variables such as KITTY_WINDOW_ID leak into its panes.
  if (termProgram === "herdr") return { images: "kitty", trueColor: hasTrueColorHint, hyperlinks: true };
  if (termProgram === "rex") return { ...KITTY_FULL };
  // Older Orca releases set TERM_PROGRAM but draw no images; only those advertising the protocol do.
  if (termProgram === "orca" && readEnv("ORCA_IMAGE_PROTOCOL") === "kitty") return { ...KITTY_FULL };
  if (readEnv("KITTY_WINDOW_ID") || termProgram === "kitty") return { ...KITTY_FULL };
  if (termProgram === "ghostty" || term.includes("ghostty") || readEnv("GHOSTTY_RESOURCES_DIR")) {
    return { ...KITTY_FULL };
  }
  if (readEnv("WEZTERM_PANE") || termProgram === "wezterm") return { ...KITTY_FULL };
  if (termProgram === "warpterminal" || readEnv("WARP_SESSION_ID") || readEnv("WARP_TERMINAL_SESSION_UUID")) {
    return { ...KITTY_FULL };
  }
  if (readEnv("ITERM_SESSION_ID") || termProgram === "iterm.app") {
    return { images: "iterm2", trueColor: true, hyperlinks: true };
  }
  if (readEnv("WT_SESSION")) return { images: null, trueColor: true, hyperlinks: true };
  // Alacritty sets no TERM_PROGRAM: TERM=alacritty (with its terminfo) or ALACRITTY_WINDOW_ID.
  const alacritty = termProgram === "alacritty" || term.startsWith("alacritty") ||
    readEnv("ALACRITTY_WINDOW_ID");
  if (alacritty || termProgram === "vscode" || termProgram === "zed") {
    return { images: null, trueColor: true, hyperlinks: true };
  }
  if (lower("TERMINAL_EMULATOR") === "jetbrains-jediterm") {
    return { images: null, trueColor: true, hyperlinks: false };
  }
  // Windows consoles draw truecolor even when Windows Terminal leaves WT_SESSION unset (Win+R cmd.exe).
  if (Deno.build.os === "windows") return { images: null, trueColor: true, hyperlinks: false };
  // Unknown terminal: a terminal that swallows OSC 8 would hide the URL, so no hyperlinks.
  return { images: null, trueColor: hasTrueColorHint, hyperlinks: false };
}

/** "1" is true, "0" false, anything else no override. */
function booleanOverride(value: string | undefined): boolean | undefined {
  return value === "1" ? true : value === "0" ? false : undefined;
}

/**
 * Detects the capabilities from the environment now (uncached). `tmuxForwardsHyperlink` answers
 * whether tmux passes hyperlinks on; by default it asks tmux. PI_HYPERLINKS, PI_IMAGE_PROTOCOL
 * (`kitty`, `iterm2`, `none`/`0`) and PI_TRUE_COLOR override what was detected.
 */
export function detectCapabilities(
  tmuxForwardsHyperlink: () => boolean = tmuxForwardsHyperlinks,
): TerminalCapabilities {
  const hyperlinks = booleanOverride(readEnv("PI_HYPERLINKS"));
  const detected = fromEnvironment(hyperlinks === undefined ? tmuxForwardsHyperlink : () => hyperlinks);
  const protocol = readEnv("PI_IMAGE_PROTOCOL")?.toLowerCase();
  const images = protocol === "kitty" || protocol === "iterm2"
    ? protocol
    : protocol === "none" || protocol === "0"
    ? null
    : undefined;
  const trueColor = booleanOverride(readEnv("PI_TRUE_COLOR"));
  const result: TerminalCapabilities = { ...detected };
  if (images !== undefined) result.images = images;
  if (trueColor !== undefined) result.trueColor = trueColor;
  if (hyperlinks !== undefined) result.hyperlinks = hyperlinks;
  return result;
}

/** The terminal's capabilities: detected once, then cached, with `setCapabilityOverrides` applied. */
export function getCapabilities(): TerminalCapabilities {
  if (!cachedCapabilities) {
    const hyperlinks = capabilityOverrides.hyperlinks;
    cachedCapabilities = {
      // A hyperlinks override spares the tmux probe.
      ...detectCapabilities(hyperlinks === undefined ? undefined : () => hyperlinks),
      ...capabilityOverrides,
    };
  }
  return cachedCapabilities;
}

/** `truecolor` when the capabilities (by default the terminal's) include 24-bit colour, else `256color`. */
export function getTerminalColorMode(
  capabilities: TerminalCapabilities = getCapabilities(),
): TerminalColorMode {
  return capabilities.trueColor ? "truecolor" : "256color";
}

/** Forgets the cached capabilities; the next `getCapabilities()` detects again. */
export function resetCapabilitiesCache(): void {
  cachedCapabilities = null;
}

/** Override selected auto-detected capabilities. */
export function setCapabilityOverrides(overrides: Partial<TerminalCapabilities>): void {
  if (
    capabilityOverrides.images === overrides.images &&
    capabilityOverrides.trueColor === overrides.trueColor &&
    capabilityOverrides.hyperlinks === overrides.hyperlinks
  ) {
    return;
  }
  capabilityOverrides = { ...overrides };
  cachedCapabilities = null;
}

/** Override the cached capabilities. Useful in tests to exercise both code paths. */
export function setCapabilities(caps: TerminalCapabilities): void {
  cachedCapabilities = caps;
}
