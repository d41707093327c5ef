/**
 * Native platform helpers (clipboard text, images and file paths; Windows virtual-terminal input;
 * modifier-key state), pi-tui 1.6.0's `native-platform.js`.
 *
 * pi-tui loads a prebuilt Node addon (`.node`) for these. Deno cannot load Node addons into a
 * compiled binary, so no helper is ever available here: both functions answer what pi-tui answers
 * when its addon is missing (`undefined`), and callers use their command-line fallbacks (pbpaste,
 * xclip, wl-paste, PowerShell), as pi does on platforms without a prebuild.
 *
 * @module
 */

/** A modifier key whose pressed state the native helper can report. */
export type ModifierKey = "shift" | "command" | "control" | "option";

/** Clipboard access through a native helper. */
export interface NativeClipboard {
  /** Undefined means unavailable, null means no text; transfer failures reject. */
  getText(): Promise<string | null | undefined>;
  /** Undefined means unavailable, null means no image; transfer failures reject. */
  getImage(): Promise<Uint8Array | null | undefined>;
  /** POSIX paths of file URLs on the clipboard. Undefined means unsupported, null means no files. */
  getFilePaths?(): Promise<string[] | null | undefined>;
  /** Linux uses command-line tools to retain clipboard ownership instead. */
  setText?(text: string): Promise<void>;
}

/** The native helper's whole surface: the clipboard plus platform extras. */
type NativePlatformHelper = NativeClipboard & {
  enableVirtualTerminalInput?: () => boolean;
  isModifierPressed?: (name: ModifierKey) => boolean;
};

/** The macOS/Windows native helper: never available under Deno (see the module note). */
export function getNativePlatformHelper(): NativePlatformHelper | undefined {
  return undefined;
}

/** Load a clipboard helper without opening the display until a read is requested. */
export function getNativeClipboard(): NativeClipboard | undefined {
  return undefined;
}
