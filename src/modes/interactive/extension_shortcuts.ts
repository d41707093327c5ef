/**
 * The keys extensions register with `pi.registerShortcut`: asked before the editor's own keys,
 * each runs its handler with a fresh `ctx` (errors become a chat line, as in 1.6.0). Keys of the
 * app's editor-wide actions stay the app's, with a warning naming the extension.
 *
 * @module
 */
import type { ExtensionHost } from "../../core/extension_host.ts";
import { getKeybindings, type Keybinding, type KeyId, matchesKey, type TUI } from "../../tui/mod.ts";
import type { AppEditor } from "./app_editor.ts";
import { APP_KEYS, type AppAction } from "./app_keys.ts";
import type { ChatView } from "./chat_view.ts";

/** What the shortcuts need of the interactive mode. */
export interface ShortcutHost {
  readonly ui: TUI;
  readonly chat: ChatView;
  readonly editor: AppEditor;
  /** The extensions bound to the current session, if any. */
  extensions(): ExtensionHost | undefined;
}

/**
 * Routes the keys the extensions registered (`pi.registerShortcut`) to their handlers before
 * the editor sees them. Keys the app reserves stay the app's (a warning says so).
 */
export function bindExtensionShortcuts(host: ShortcutHost): void {
  const extensions = host.extensions();
  const shortcuts = new Map<string, { handler: (ctx: unknown) => unknown; path: string }>();
  const reserved = reservedKeys();
  for (const ext of extensions?.runner.extensions ?? []) {
    const registered = (ext as { shortcuts?: Map<string, { handler?: unknown }> }).shortcuts;
    for (const [key, options] of registered ?? []) {
      if (typeof options?.handler !== "function") continue;
      const normalized = key.toLowerCase();
      if (reserved.has(normalized)) {
        host.chat.addNotice(
          "warning",
          `Extension shortcut '${key}' from ${ext.path} conflicts with built-in shortcut. Skipping.`,
        );
        continue;
      }
      shortcuts.set(normalized, { handler: options.handler as (ctx: unknown) => unknown, path: ext.path });
    }
  }
  if (shortcuts.size === 0 || !extensions) {
    host.editor.onExtensionShortcut = undefined;
    return;
  }
  host.editor.onExtensionShortcut = (data) => {
    for (const [key, shortcut] of shortcuts) {
      if (!matchesKey(data, key as KeyId)) continue;
      const failed = (error: unknown) =>
        host.chat.addNotice(
          "error",
          `Shortcut handler error: ${error instanceof Error ? error.message : String(error)}`,
        );
      try {
        Promise.resolve(shortcut.handler(extensions.context())).catch(failed).finally(() =>
          host.ui.requestRender()
        );
      } catch (error) {
        failed(error);
      }
      return true;
    }
    return false;
  };
}

/** The app's editor-wide actions, whose keys extensions may not take (1.6.0's reserved list). */
const RESERVED_APP_ACTIONS: readonly AppAction[] = [
  "app.interrupt",
  "app.clear",
  "app.exit",
  "app.suspend",
  "app.thinking.cycle",
  "app.model.cycleForward",
  "app.model.cycleBackward",
  "app.model.select",
  "app.tools.expand",
  "app.thinking.toggle",
  "app.editor.external",
  "app.message.copy",
  "app.message.followUp",
];

/** The kit's bindings on the same list. */
const RESERVED_TUI_BINDINGS: readonly Keybinding[] = [
  "tui.input.submit",
  "tui.select.confirm",
  "tui.select.cancel",
  "tui.input.copy",
  "tui.editor.deleteToLineEnd",
];

/** The reserved keys, lower-cased as shortcuts are compared. */
function reservedKeys(): Set<string> {
  const keys: string[] = RESERVED_APP_ACTIONS.flatMap((action) => [...APP_KEYS[action]]);
  const kb = getKeybindings();
  for (const binding of RESERVED_TUI_BINDINGS) keys.push(...kb.getKeys(binding));
  return new Set(keys.map((k) => k.toLowerCase()));
}
