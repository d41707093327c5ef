/**
 * The interactive mode's keybindings as pi 1.6.0 defines them: the kit's `tui.*` actions (with
 * 1.6.0's platform defaults for undo, prompt jumps and transcript search) and the app's `app.*`
 * actions, resolved against the user's `<agentDir>/keybindings.json` and installed as the manager
 * every component consults. `/reload` reads the file again.
 *
 * @module
 */
import { loadKeybindingsFile } from "../../config/keybindings.ts";
import { join } from "../../util/path.ts";
import {
  type KeybindingDefinition,
  type KeybindingDefinitions,
  type KeybindingsConfig,
  KeybindingsManager,
  type KeyId,
  setKeybindings,
  TUI_KEYBINDINGS,
} from "../../tui/mod.ts";

/** Whether 1.6.0's Windows/WSL defaults apply (WSL terminals pass few modified keys through). */
export function useWindowsKeybindings(
  os: string = Deno.build.os,
  env: (name: string) => string | undefined = (name) => Deno.env.get(name),
): boolean {
  return os === "windows" || (os === "linux" && Boolean(env("WSL_DISTRO_NAME") || env("WSL_INTEROP")));
}

/** The `app.*` actions with their default keys and 1.6.0's descriptions. */
export function appKeybindingDefinitions(
  os: string = Deno.build.os,
  windows: boolean = useWindowsKeybindings(os),
): Record<AppAction, KeybindingDefinition> {
  return appDefinitions(os, windows);
}

/** An `app.*` action id of 1.6.0 (`app.session.new`, `app.thinking.save`, …). */
export type AppAction = keyof ReturnType<typeof appDefinitions>;

function appDefinitions(os: string, windows: boolean) {
  const d = (defaultKeys: KeyId | KeyId[], description: string): KeybindingDefinition => ({
    defaultKeys,
    description,
  });
  const treeSide = (side: "left" | "right"): KeyId[] =>
    os === "darwin" ? [`alt+${side}`, `ctrl+${side}`] : [`ctrl+${side}`, `alt+${side}`];
  return {
    "app.interrupt": d("escape", "Cancel or abort"),
    "app.clear": d("ctrl+c", "Clear editor"),
    "app.exit": d("ctrl+d", "Exit when editor is empty"),
    "app.suspend": d(os === "windows" ? [] : "ctrl+z", "Suspend to background"),
    "app.thinking.cycle": d("shift+tab", "Cycle thinking level"),
    "app.thinking.save": d("ctrl+s", "Save thinking level"),
    "app.model.cycleForward": d("ctrl+p", "Cycle to next model"),
    "app.model.cycleBackward": d(windows ? "alt+p" : "shift+ctrl+p", "Cycle to previous model"),
    "app.model.select": d("ctrl+l", "Open model selector"),
    "app.tools.expand": d("ctrl+o", "Toggle tool output"),
    "app.thinking.toggle": d("ctrl+t", "Toggle thinking blocks"),
    "app.session.toggleNamedFilter": d("ctrl+n", "Toggle named session filter"),
    "app.editor.external": d("ctrl+g", "Open external editor"),
    "app.message.copy": d("ctrl+x", "Copy selection or last assistant message"),
    "app.message.followUp": d(windows ? "ctrl+q" : "alt+enter", "Queue follow-up message"),
    "app.message.dequeue": d(windows ? "alt+q" : "alt+up", "Restore queued messages"),
    "app.clipboard.pasteImage": d(
      windows ? ["alt+v", "ctrl+v"] : "ctrl+v",
      "Paste files on macOS, images, or text from clipboard",
    ),
    "app.session.new": d([], "Start a new session"),
    "app.session.tree": d([], "Open session tree"),
    "app.session.fork": d([], "Fork current session"),
    "app.session.resume": d([], "Resume a session"),
    "app.tree.foldOrUp": d(treeSide("left"), "Fold tree branch or move up"),
    "app.tree.unfoldOrDown": d(treeSide("right"), "Unfold tree branch or move down"),
    "app.tree.editLabel": d("shift+l", "Edit tree label"),
    "app.tree.toggleLabelTimestamp": d("shift+t", "Toggle tree label timestamps"),
    "app.session.togglePath": d("ctrl+p", "Toggle session path display"),
    "app.session.toggleSort": d("ctrl+s", "Toggle session sort mode"),
    "app.session.rename": d("ctrl+r", "Rename session"),
    "app.session.delete": d("ctrl+d", "Delete session"),
    "app.session.deleteNoninvasive": d("ctrl+backspace", "Delete session when query is empty"),
    "app.models.save": d("ctrl+s", "Save model selection"),
    "app.models.enableAll": d("ctrl+a", "Enable all models"),
    "app.models.clearAll": d("ctrl+x", "Clear all models"),
    "app.models.toggleProvider": d("ctrl+p", "Toggle all models for provider"),
    "app.models.reorderUp": d("alt+up", "Move model up in order"),
    "app.models.reorderDown": d("alt+down", "Move model down in order"),
    "app.tree.filter.default": d("ctrl+d", "Tree filter: default view"),
    "app.tree.filter.noTools": d("ctrl+t", "Tree filter: hide tool results"),
    "app.tree.filter.userOnly": d("ctrl+u", "Tree filter: user messages only"),
    "app.tree.filter.labeledOnly": d("ctrl+l", "Tree filter: labeled entries only"),
    "app.tree.filter.all": d("ctrl+a", "Tree filter: show all entries"),
    "app.tree.filter.cycleForward": d("ctrl+o", "Tree filter: cycle forward"),
    "app.tree.filter.cycleBackward": d("shift+ctrl+o", "Tree filter: cycle backward"),
  };
}

/** Every action of the interactive mode: the kit's with 1.6.0's platform defaults, then the app's. */
export function interactiveKeybindingDefinitions(
  os: string = Deno.build.os,
  windows: boolean = useWindowsKeybindings(os),
): KeybindingDefinitions {
  const tui = TUI_KEYBINDINGS as unknown as KeybindingDefinitions;
  const with_ = (id: string, defaultKeys: KeyId | KeyId[]) => ({ ...tui[id], defaultKeys });
  return {
    ...tui,
    "tui.editor.undo": with_("tui.editor.undo", os === "windows" ? "ctrl+z" : windows ? "alt+z" : "ctrl+-"),
    "tui.altScreen.previousPrompt": with_(
      "tui.altScreen.previousPrompt",
      windows ? "ctrl+up" : ["ctrl+shift+up", "ctrl+up"],
    ),
    "tui.altScreen.nextPrompt": with_(
      "tui.altScreen.nextPrompt",
      windows ? "ctrl+down" : ["ctrl+shift+down", "ctrl+down"],
    ),
    "tui.altScreen.search": with_("tui.altScreen.search", windows ? "ctrl+f" : "ctrl+shift+f"),
    ...appKeybindingDefinitions(os, windows),
  };
}

/** The keybindings manager of the interactive mode, tied to its keybindings.json. */
export class AppKeybindings extends KeybindingsManager {
  /** A manager over 1.6.0's definitions with `userBindings`; {@link reload} reads `configPath`. */
  constructor(userBindings: KeybindingsConfig = {}, readonly configPath?: string) {
    super(interactiveKeybindingDefinitions(), userBindings);
  }

  /**
   * Reads `<agentDir>/keybindings.json` (a missing file is no overrides). The warnings name what was
   * dropped; 1.6.0 drops it silently.
   */
  static load(agentDir: string): { keybindings: AppKeybindings; warnings: string[] } {
    const path = join(agentDir, "keybindings.json");
    const { bindings, warnings } = loadKeybindingsFile(path);
    return { keybindings: new AppKeybindings(bindings as KeybindingsConfig, path), warnings };
  }

  /** Reads the file again (`/reload`); returns the warnings of this read. */
  reload(): string[] {
    if (!this.configPath) return [];
    const { bindings, warnings } = loadKeybindingsFile(this.configPath);
    this.setUserBindings(bindings as KeybindingsConfig);
    return warnings;
  }
}

/**
 * Loads `<agentDir>/keybindings.json` and makes it the keybindings every component consults
 * (the editor, selectors, the app's own keys); returns the manager and what was dropped.
 */
export function installAppKeybindings(agentDir: string): { keybindings: AppKeybindings; warnings: string[] } {
  const loaded = AppKeybindings.load(agentDir);
  setKeybindings(loaded.keybindings);
  return loaded;
}
