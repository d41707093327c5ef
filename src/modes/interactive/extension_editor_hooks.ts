/**
 * The editor hooks of `ctx.ui` in the interactive mode (pi 1.6.0): `setEditorComponent` puts an
 * extension's editor (a `CustomEditor` subclass) in the prompt editor's place and `undefined` gives
 * the built-in one back, the text carried over both ways; `addAutocompleteProvider` stacks an
 * extension's completions on the built-in ones; `setHiddenThinkingLabel` renames the row shown for
 * hidden thinking. A session change (`/new`, `/resume`, `/reload` …) undoes all three.
 *
 * @module
 */
import {
  type AutocompleteProvider,
  type Container,
  type EditorComponent,
  type EditorTheme,
  getKeybindings,
  type KeybindingsManager,
  type TUI,
} from "../../tui/mod.ts";
import { AppEditor } from "./app_editor.ts";
import type { ChatView } from "./chat_view.ts";
import { setExportTheme } from "./export_theme.ts";
import type { Theme } from "./theme.ts";

/** 1.6.0's `EditorFactory`: builds the editor that replaces the built-in one. */
export type EditorFactory = (
  tui: TUI,
  theme: EditorTheme,
  keybindings: KeybindingsManager,
) => EditorComponent;

/** 1.6.0's `AutocompleteProviderFactory`: wraps the provider below it. */
export type AutocompleteProviderFactory = (current: AutocompleteProvider) => AutocompleteProvider;

/** What the hooks work on: the running interactive mode. */
export interface EditorHooksHost {
  /** The prompt editor shown now (the hooks replace it). */
  editor: AppEditor;
  /** Holds the editor, or the dialog or selector on top of it. */
  readonly editorContainer: Container;
  readonly ui: TUI;
  readonly theme: Theme;
  readonly chat: ChatView;
}

/** `setEditorComponent`, `addAutocompleteProvider` and `setHiddenThinkingLabel` for one app. */
export class ExtensionEditorHooks {
  /** The built-in editor while an extension's editor is shown. */
  #builtIn?: AppEditor;
  #factory?: EditorFactory;
  #wrappers: AutocompleteProviderFactory[] = [];
  /** The app's own completions (commands, files), once the session is bound. */
  #base?: AutocompleteProvider;
  /** `#base` with the extensions' wrappers applied: what every editor completes with. */
  #provider?: AutocompleteProvider;

  /** Hooks over `host`; the theme also colours the helpers extensions import (keyHint …). */
  constructor(private readonly host: EditorHooksHost) {
    setExportTheme(host.theme);
  }

  /** The built-in editor, whichever editor is shown. */
  get builtInEditor(): AppEditor {
    return this.#builtIn ?? this.host.editor;
  }

  /** The factory of the extension's editor shown now (`getEditorComponent`). */
  getEditorComponent(): EditorFactory | undefined {
    return this.#factory;
  }

  /**
   * Shows the editor `factory` builds in place of the prompt editor (undefined: the built-in one
   * again). It takes over the text, the submit and change handlers, the border colour, padding,
   * completions and the app's keys. While a dialog or selector holds the editor's place, the new
   * editor shows when it closes.
   */
  setEditorComponent(factory: EditorFactory | undefined): void {
    const host = this.host;
    const current = host.editor;
    const builtIn = this.builtInEditor;
    const text = current.getExpandedText();
    let next: AppEditor;
    if (factory) {
      const made = factory(host.ui, editorTheme(host.theme), getKeybindings());
      if (!(made instanceof AppEditor)) {
        throw new Error(
          "ctx.ui.setEditorComponent: the factory must return a CustomEditor (from " +
            "@earendil-works/pi-coding-agent); other editor components are not available in this build yet",
        );
      }
      next = made;
      adoptAppHandlers(next, builtIn);
      next.setText(text);
      if (this.#provider) next.setAutocompleteProvider(this.#provider);
    } else {
      if (current === builtIn) return;
      builtIn.setText(text);
      next = builtIn;
    }
    this.#factory = factory;
    this.#builtIn = next === builtIn ? undefined : builtIn;
    host.editor = next;
    const container = host.editorContainer;
    if (container.children.includes(current)) {
      container.clear();
      container.addChild(next);
      host.ui.setFocus(next);
    }
    host.ui.requestRender();
  }

  /** The app's completions, wrapped by every provider extensions added (at each session bind). */
  setBaseAutocomplete(base: AutocompleteProvider): void {
    this.#base = base;
    this.#applyAutocomplete();
  }

  /** `addAutocompleteProvider`: `factory` wraps the completions from now on. */
  addAutocompleteProvider(factory: AutocompleteProviderFactory): void {
    this.#wrappers.push(factory);
    if (this.#base) this.#applyAutocomplete();
  }

  /** `setHiddenThinkingLabel`: the row shown for hidden thinking (undefined: the default). */
  setHiddenThinkingLabel(label?: string): void {
    this.host.chat.setHiddenThinkingLabel(label);
    this.host.ui.requestRender();
  }

  /** A session change: the built-in editor, completions and thinking label come back. */
  reset(): void {
    this.#wrappers = [];
    if (this.#builtIn) this.setEditorComponent(undefined);
    this.#factory = undefined;
    if (this.#base) this.#applyAutocomplete();
    this.setHiddenThinkingLabel(undefined);
  }

  /** Builds the wrapped provider (trigger characters merged, as 1.6.0) and gives it to the editors. */
  #applyAutocomplete(): void {
    let provider = this.#base!;
    const triggers: string[] = [];
    for (const wrap of this.#wrappers) {
      provider = wrap(provider);
      triggers.push(...provider.triggerCharacters ?? []);
    }
    if (triggers.length > 0) provider.triggerCharacters = [...new Set(triggers)];
    this.#provider = provider;
    this.builtInEditor.setAutocompleteProvider(provider);
    if (this.host.editor !== this.builtInEditor) this.host.editor.setAutocompleteProvider(provider);
  }
}

/** The editor theme 1.6.0 hands the factory (`getEditorTheme()`). */
function editorTheme(theme: Theme): EditorTheme {
  return { borderColor: (text) => theme.fg("borderMuted", text), selectList: theme.selectList() };
}

/**
 * Gives `editor` what the built-in one has: submit and change handlers, looks, and the app's keys
 * (Escape, Ctrl+D and the extensions' shortcuts go to the built-in handlers unless it has its own).
 */
function adoptAppHandlers(editor: AppEditor, builtIn: AppEditor): void {
  editor.onSubmit = builtIn.onSubmit;
  editor.onChange = builtIn.onChange;
  editor.borderColor = builtIn.borderColor;
  editor.setPaddingX(builtIn.getPaddingX());
  editor.setAutocompleteMaxVisible(builtIn.getAutocompleteMaxVisible());
  editor.onEscape ??= () => builtIn.onEscape?.();
  editor.onCtrlD ??= () => builtIn.onCtrlD?.();
  editor.onExtensionShortcut ??= (data) => builtIn.onExtensionShortcut?.(data) ?? false;
  for (const [action, handler] of builtIn.actionHandlers) editor.actionHandlers.set(action, handler);
}
