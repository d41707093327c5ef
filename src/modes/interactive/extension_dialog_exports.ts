/**
 * The dialog components of pi 1.6.0's `@earendil-works/pi-coding-agent` with 1.6.0's constructors
 * (`ExtensionSelectorComponent`, `ExtensionInputComponent`, `ExtensionEditorComponent`), for
 * extensions that build the dialogs `ctx.ui.select` / `input` / `editor` show into their own UI.
 * They are the app's dialogs, coloured with the current theme (1.6.0 reads its global theme).
 *
 * @module
 */
import type { KeybindingsLike, TUI } from "../../tui/mod.ts";
import {
  type DialogOptions,
  ExtensionEditorDialog,
  ExtensionInputDialog,
  ExtensionSelector,
} from "./extension_dialogs.ts";
import { currentExportTheme } from "./export_theme.ts";

/** 1.6.0's `ExtensionSelectorComponent`: a titled list; Enter selects, Escape cancels. */
export class ExtensionSelectorComponent extends ExtensionSelector {
  /** A selector of `options` under `title`. */
  constructor(
    title: string,
    options: string[],
    onSelect: (option: string) => void,
    onCancel: () => void,
    opts?: DialogOptions & { onToggleToolsExpanded?: () => void },
  ) {
    super(currentExportTheme(), title, options, onSelect, onCancel, opts);
  }
}

/** 1.6.0's `ExtensionInputComponent`: a titled one-line input; Enter submits, Escape cancels. */
export class ExtensionInputComponent extends ExtensionInputDialog {
  /** An input under `title` (1.6.0 ignores the placeholder too). */
  constructor(
    title: string,
    _placeholder: string | undefined,
    onSubmit: (value: string) => void,
    onCancel: () => void,
    opts?: DialogOptions,
  ) {
    super(currentExportTheme(), title, onSubmit, onCancel, opts);
  }
}

/** 1.6.0's `ExtensionEditorComponent`: a titled multi-line editor; Enter submits, Escape cancels. */
export class ExtensionEditorComponent extends ExtensionEditorDialog {
  /** An editor under `title` holding `prefill`; the keybindings are the app's installed ones. */
  constructor(
    tui: TUI,
    _keybindings: KeybindingsLike,
    title: string,
    prefill: string | undefined,
    onSubmit: (value: string) => void,
    onCancel: () => void,
    options?: { description?: string },
  ) {
    super(currentExportTheme(), tui, title, prefill, onSubmit, onCancel, options);
  }
}
