/**
 * The dialogs an extension opens with `ctx.ui.select`, `confirm`, `input` and `editor`, in pi
 * 1.6.0's layout: border, title (with a countdown while a timeout runs), the list, field or
 * editor, a key hint, border. They take the editor's place until answered.
 *
 * @module
 */
import {
  Container,
  Editor,
  type Focusable,
  getKeybindings,
  Input,
  type Keybinding,
  Spacer,
  Text,
  type TUI,
} from "../../tui/mod.ts";
import { keyText as appKeyText, matchesAction } from "./app_keys.ts";
import { BorderLine } from "./model_selector.ts";
import type { Theme } from "./theme.ts";

/** Options shared by the dialogs. */
export interface DialogOptions {
  /** Milliseconds until the dialog cancels itself; its title counts down the seconds. */
  timeout?: number;
  /** For the countdown's frames. */
  tui?: TUI;
  /** Text under the title (1.6.0's `description`, used by /bug). */
  description?: string;
}

/** Ticks each second from `timeoutMs` (rounded up) down to 0, then calls `onExpire` (1.6.0's CountdownTimer). */
export class CountdownTimer {
  #interval?: ReturnType<typeof setInterval>;
  #remaining: number;

  /** Starts counting; `onTick` gets the seconds left right away and after each second. */
  constructor(timeoutMs: number, tui: TUI, onTick: (seconds: number) => void, onExpire: () => void) {
    this.#remaining = Math.ceil(timeoutMs / 1000);
    onTick(this.#remaining);
    this.#interval = setInterval(() => {
      this.#remaining--;
      onTick(this.#remaining);
      tui.requestRender();
      if (this.#remaining <= 0) {
        this.dispose();
        onExpire();
      }
    }, 1000);
  }

  /** Stops the clock. */
  dispose(): void {
    if (this.#interval !== undefined) clearInterval(this.#interval);
    this.#interval = undefined;
  }
}

/** A key binding's keys as 1.6.0's hints spell them: `enter`, `escape/ctrl+c`. */
function tuiKeyText(binding: Keybinding): string {
  return getKeybindings().getKeys(binding).join("/");
}

/** `key description`, the key dim and the description muted. */
function hint(theme: Theme, key: string, description: string): string {
  return theme.fg("dim", key) + theme.fg("muted", ` ${description}`);
}

/** The top of every dialog: border, blank row, title, an optional description, blank row. */
function addHeading(dialog: Container, theme: Theme, title: Text, description?: string): void {
  dialog.addChild(new BorderLine(theme));
  dialog.addChild(new Spacer(1));
  dialog.addChild(title);
  if (description) {
    dialog.addChild(new Spacer(1));
    dialog.addChild(new Text(theme.fg("text", description), 1, 0));
  }
  dialog.addChild(new Spacer(1));
}

/** The bottom of every dialog: blank row, the key hint, blank row, border. */
function addFooter(dialog: Container, theme: Theme, hintText: string): void {
  dialog.addChild(new Spacer(1));
  dialog.addChild(new Text(hintText, 1, 0));
  dialog.addChild(new Spacer(1));
  dialog.addChild(new BorderLine(theme));
}

/** Options shown at a time. */
const MAX_VISIBLE = 10;

/** `ctx.ui.select` (and `confirm`, with Yes / No): a list of strings; ↑↓ or j/k move, Enter picks. */
export class ExtensionSelector extends Container {
  #selected = 0;
  readonly #list = new Container();
  readonly #title: Text;
  readonly #countdown?: CountdownTimer;

  /** A selector over `options`; `onCancel` on Escape, Ctrl+C or the timeout. */
  constructor(
    private readonly theme: Theme,
    title: string,
    private readonly options: readonly string[],
    private readonly onSelect: (option: string) => void,
    private readonly onCancel: () => void,
    opts: DialogOptions & { onToggleToolsExpanded?: () => void } = {},
  ) {
    super();
    this.#onToggleTools = opts.onToggleToolsExpanded;
    const titled = (text: string) => theme.fg("accent", theme.bold(text));
    this.#title = new Text(titled(title), 1, 0);
    addHeading(this, theme, this.#title, opts.description);
    if (opts.timeout && opts.timeout > 0 && opts.tui) {
      this.#countdown = new CountdownTimer(
        opts.timeout,
        opts.tui,
        (s) => this.#title.setText(titled(`${title} (${s}s)`)),
        () => this.onCancel(),
      );
    }
    this.addChild(this.#list);
    addFooter(
      this,
      theme,
      `${hint(theme, "↑↓", "navigate")}  ${hint(theme, tuiKeyText("tui.select.confirm"), "select")}  ${
        hint(theme, tuiKeyText("tui.select.cancel"), "cancel")
      }`,
    );
    this.#updateList();
  }

  readonly #onToggleTools?: () => void;

  #updateList(): void {
    const theme = this.theme;
    const count = this.options.length;
    this.#list.clear();
    // The selection sits mid-window where it can.
    const start = Math.max(0, Math.min(this.#selected - Math.floor(MAX_VISIBLE / 2), count - MAX_VISIBLE));
    const end = Math.min(start + MAX_VISIBLE, count);
    for (let i = start; i < end; i++) {
      const text = i === this.#selected
        ? theme.fg("accent", "→ ") + theme.fg("accent", this.options[i])
        : `  ${theme.fg("text", this.options[i])}`;
      this.#list.addChild(new Text(text, 1, 0));
    }
    if (start > 0 || end < count) {
      this.#list.addChild(new Text(theme.fg("muted", `  (${this.#selected + 1}/${count})`), 0, 0));
    }
  }

  /** ↑↓ (or k/j) move, Enter picks, Escape / Ctrl+C cancel, the tools key toggles tool output. */
  handleInput(data: string): void {
    const kb = getKeybindings();
    if (matchesAction(data, "app.tools.expand") && this.#onToggleTools) {
      this.#onToggleTools();
    } else if (kb.matches(data, "tui.select.up") || data === "k") {
      this.#selected = Math.max(0, this.#selected - 1);
      this.#updateList();
    } else if (kb.matches(data, "tui.select.down") || data === "j") {
      this.#selected = Math.min(this.options.length - 1, this.#selected + 1);
      this.#updateList();
    } else if (kb.matches(data, "tui.select.confirm") || data === "\n") {
      const option = this.options[this.#selected];
      if (option !== undefined) this.onSelect(option);
    } else if (kb.matches(data, "tui.select.cancel")) {
      this.onCancel();
    }
  }

  /** Stops the countdown. */
  dispose(): void {
    this.#countdown?.dispose();
  }
}

/** `ctx.ui.input`: a one-line field; Enter submits its text. */
export class ExtensionInputDialog extends Container implements Focusable {
  readonly #input = new Input();
  readonly #title: Text;
  readonly #countdown?: CountdownTimer;
  #focused = false;

  /** An input under `title` (1.6.0 shows no placeholder). */
  constructor(
    theme: Theme,
    title: string,
    private readonly onSubmit: (value: string) => void,
    private readonly onCancel: () => void,
    opts: DialogOptions = {},
  ) {
    super();
    this.#title = new Text(theme.fg("accent", title), 1, 0);
    addHeading(this, theme, this.#title);
    if (opts.timeout && opts.timeout > 0 && opts.tui) {
      this.#countdown = new CountdownTimer(
        opts.timeout,
        opts.tui,
        (s) => this.#title.setText(theme.fg("accent", `${title} (${s}s)`)),
        () => this.onCancel(),
      );
    }
    this.addChild(this.#input);
    addFooter(
      this,
      theme,
      `${hint(theme, tuiKeyText("tui.select.confirm"), "submit")}  ${
        hint(theme, tuiKeyText("tui.select.cancel"), "cancel")
      }`,
    );
  }

  /** Focus passes to the field (its cursor). */
  get focused(): boolean {
    return this.#focused;
  }
  set focused(value: boolean) {
    this.#focused = value;
    this.#input.focused = value;
  }

  /** Enter submits, Escape / Ctrl+C cancel, the rest edits the field. */
  handleInput(data: string): void {
    const kb = getKeybindings();
    if (kb.matches(data, "tui.select.confirm") || data === "\n") this.onSubmit(this.#input.getValue());
    else if (kb.matches(data, "tui.select.cancel")) this.onCancel();
    else this.#input.handleInput(data);
  }

  /** Stops the countdown. */
  dispose(): void {
    this.#countdown?.dispose();
  }
}

/** `ctx.ui.editor`: a multi-line editor with optional prefilled text; Enter submits. */
export class ExtensionEditorDialog extends Container implements Focusable {
  readonly #editor: Editor;
  /** Says why the external editor did not open; empty (no row) otherwise. */
  readonly #status = new Text("", 1, 0);
  #focused = false;

  readonly #tui: TUI;
  /** The external editor's command (the `externalEditor` setting where the caller has it). */
  readonly #externalEditor?: string;

  /** An editor under `title`, holding `prefill`. */
  constructor(
    private readonly theme: Theme,
    tui: TUI,
    title: string,
    prefill: string | undefined,
    onSubmit: (value: string) => void,
    private readonly onCancel: () => void,
    options: { description?: string; externalEditor?: string } = {},
  ) {
    super();
    this.#tui = tui;
    this.#externalEditor = options.externalEditor;
    addHeading(this, theme, new Text(theme.fg("accent", title), 1, 0), options.description);
    this.#editor = new Editor(tui, {
      borderColor: (t) => theme.fg("borderMuted", t),
      selectList: theme.selectList(),
    }, { paddingX: 0 });
    if (prefill) this.#editor.setText(prefill);
    this.#editor.onSubmit = (text) => onSubmit(text);
    this.addChild(this.#editor);
    this.addChild(this.#status);
    addFooter(
      this,
      theme,
      [
        hint(theme, tuiKeyText("tui.select.confirm"), "submit"),
        hint(theme, tuiKeyText("tui.input.newLine"), "newline"),
        hint(theme, tuiKeyText("tui.select.cancel"), "cancel"),
        hint(theme, appKeyText("app.editor.external"), "external editor"),
      ].join("  "),
    );
  }

  /** Focus passes to the editor (its cursor). */
  get focused(): boolean {
    return this.#focused;
  }
  set focused(value: boolean) {
    this.#focused = value;
    this.#editor.focused = value;
  }

  /** Escape / Ctrl+C cancel; the external editor key edits the text there (1.6.0); the rest edits. */
  handleInput(data: string): void {
    if (getKeybindings().matches(data, "tui.select.cancel")) {
      this.onCancel();
      return;
    }
    if (matchesAction(data, "app.editor.external")) {
      void this.#openExternalEditor();
      return;
    }
    this.#editor.handleInput(data);
  }

  async #openExternalEditor(): Promise<void> {
    // Loads on first use: start-up does not pay for it.
    const { editWithTerminal, environmentEditorCommand } = await import("./external_editor.ts");
    const command = this.#externalEditor || environmentEditorCommand();
    const result = await editWithTerminal(this.#tui, command, this.#editor.getText());
    this.#status.setText(result.status === "failed" ? this.theme.fg("warning", result.message) : "");
    if (result.status === "complete") this.#editor.setText(result.content);
    this.#tui.requestRender();
  }
}
