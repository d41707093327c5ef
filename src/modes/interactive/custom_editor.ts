/**
 * `CustomEditor` of pi 1.6.0's `@earendil-works/pi-coding-agent`: the prompt editor extensions
 * subclass for `ctx.ui.setEditorComponent` (modal editors, decorated borders). It is the app's own
 * editor class, so a subclass keeps every app key (Escape, Ctrl+D, model cycling …) by calling
 * `super.handleInput(data)` for the keys it does not take.
 *
 * @module
 */
import {
  type EditorOptions,
  type EditorTheme,
  getKeybindings,
  type KeybindingsLike,
  type TUI,
} from "../../tui/mod.ts";
import { AppEditor } from "./app_editor.ts";

/** 1.6.0's constructor options (the kit's editor options). */
export type CustomEditorOptions = EditorOptions;

/** The prompt editor with the app's key actions, as extensions construct it. */
export class CustomEditor extends AppEditor {
  /** The keybindings the editor was made with (1.6.0 exposes them to subclasses). */
  readonly keybindings: KeybindingsLike;
  /** The image-paste key; the app's handler is copied in when the editor replaces the built-in one. */
  onPasteImage?: () => void;

  /** An editor in `tui` drawn with `theme`; `keybindings` defaults to the app's. */
  constructor(
    tui: TUI,
    theme: EditorTheme,
    keybindings: KeybindingsLike = getKeybindings(),
    options?: CustomEditorOptions,
  ) {
    super(tui, theme);
    this.keybindings = keybindings;
    if (options?.paddingX !== undefined) this.setPaddingX(options.paddingX);
    if (options?.autocompleteMaxVisible !== undefined) {
      this.setAutocompleteMaxVisible(options.autocompleteMaxVisible);
    }
  }
}
