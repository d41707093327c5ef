/**
 * `ctx.ui` of pi 1.6.0 in the interactive mode: dialogs (`select`, `confirm`, `input`, `editor`,
 * `custom`) in the editor's place, stacked so each one stays answerable; `notify` in the chat;
 * footer statuses; widgets above and below the editor; the terminal title; the editor's text;
 * the working message; and the shortcuts extensions register. An error an extension's component
 * or shortcut throws is shown in the chat; pi goes on.
 *
 * @module
 */
import type { ExtensionHost } from "../../core/extension_host.ts";
import type { ExtensionError, ExtensionUIContext } from "../../extensions/types.ts";
import {
  type Component,
  Container,
  getKeybindings,
  type Keybinding,
  type KeyId,
  matchesKey,
  type OverlayHandle,
  type OverlayOptions,
  Spacer,
  Text,
  type TUI,
} from "../../tui/mod.ts";
import type { AppEditor } from "./app_editor.ts";
import { APP_KEYS, type AppAction } from "./app_keys.ts";
import type { ChatView } from "./chat_view.ts";
import { type ExtensionComponent, GuardedComponent } from "./extension_component_guard.ts";
import { ExtensionEditorDialog, ExtensionInputDialog, ExtensionSelector } from "./extension_dialogs.ts";
import { type ExtensionTheme, extensionTheme } from "./extension_theme.ts";
import type { Theme } from "./theme.ts";

/** What the extension UI works on: the running interactive mode. */
export interface ExtensionUIHost {
  readonly ui: TUI;
  readonly theme: Theme;
  readonly chat: ChatView;
  readonly editor: AppEditor;
  /** Holds the editor, or the dialog on top. */
  readonly editorContainer: Container;
  /** Starts the screen if it is not running yet (a dialog opened by a `session_start` handler). */
  startScreen(): void;
  /** Toggles collapsed / expanded tool output (Ctrl+O in a selector, `setToolsExpanded`). */
  toggleToolsExpanded?(): void;
  /** The extensions bound to the current session, for shortcuts and error attribution. */
  extensions(): ExtensionHost | undefined;
}

/** Rows a string-array widget shows at most (1.6.0's MAX_WIDGET_LINES). */
const MAX_WIDGET_LINES = 10;

/** Dialog timeouts and cancellation (1.6.0's `ExtensionUIDialogOptions`). */
interface DialogOpts {
  timeout?: number;
  signal?: AbortSignal;
}

/** `setWidget`'s options. */
interface WidgetOptions {
  placement?: "aboveEditor" | "belowEditor";
}

/** `custom()`'s options. */
interface CustomOptions {
  overlay?: boolean;
  overlayOptions?: OverlayOptions | (() => OverlayOptions);
  onHandle?: (handle: OverlayHandle) => void;
}

/** A component factory as `setWidget` and `custom` take them. */
type WidgetFactory = (tui: TUI, theme: ExtensionTheme) => ExtensionComponent;
type CustomFactory = (
  tui: TUI,
  theme: ExtensionTheme,
  keybindings: unknown,
  done: (result: unknown) => void,
) => ExtensionComponent | Promise<ExtensionComponent>;

/** `setWorkingIndicator`'s options. */
export interface WorkingIndicatorOptions {
  frames?: string[];
  intervalMs?: number;
}

/** The interactive mode's extension UI: its containers, the footer statuses and the dialogs. */
export class TuiExtensionUI {
  /** Widgets above the editor (a blank row while there are none, as 1.6.0 keeps). */
  readonly widgetsAbove = new Container();
  /** Widgets below the editor. */
  readonly widgetsBelow = new Container();
  /** Footer statuses by key (the footer shows them sorted by key). */
  readonly statuses = new Map<string, string>();
  /** `setWorkingMessage`'s text (undefined: the default). */
  workingMessage?: string;
  /** `setWorkingIndicator`'s frames. */
  workingIndicator?: WorkingIndicatorOptions;
  /** `setWorkingVisible`. */
  workingVisible = true;
  /** Called when the working message, indicator or visibility changes. */
  onWorkingChange?: () => void;
  readonly #above = new Map<string, GuardedComponent | Container>();
  readonly #below = new Map<string, GuardedComponent | Container>();
  readonly #dialogs: Component[] = [];
  readonly #overlays = new Set<() => void>();
  readonly #theme: ExtensionTheme;

  /** The UI over `host` (nothing is shown until an extension asks). */
  constructor(private readonly host: ExtensionUIHost) {
    this.#theme = extensionTheme(host.theme);
    // The blank row above the editor that 1.6.0 keeps while there are no widgets.
    this.widgetsAbove.addChild(new Spacer(1));
  }

  /** `ctx.ui` for the extensions. */
  context(): ExtensionUIContext {
    const host = this.host;
    return {
      select: (title: string, options: string[], opts?: DialogOpts) => this.#select(title, options, opts),
      confirm: async (title: string, message: string, opts?: DialogOpts) =>
        await this.#select(`${title}\n${message}`, ["Yes", "No"], opts) === "Yes",
      input: (title: string, _placeholder?: string, opts?: DialogOpts) => this.#input(title, opts),
      editor: (title: string, prefill?: string) => this.#editor(title, prefill),
      notify: (message: string, type?: "info" | "warning" | "error") => {
        host.chat.addNotice(type === "error" ? "error" : type === "warning" ? "warning" : "status", message);
        host.ui.requestRender();
      },
      onTerminalInput: (handler: (data: string) => { consume?: boolean; data?: string } | undefined) =>
        host.ui.addInputListener(handler),
      setStatus: (key: string, text: string | undefined) => {
        if (text === undefined) this.statuses.delete(key);
        else this.statuses.set(key, text);
        host.ui.requestRender();
      },
      setWorkingMessage: (message?: string) => {
        this.workingMessage = message;
        this.onWorkingChange?.();
      },
      setWorkingVisible: (visible: boolean) => {
        this.workingVisible = visible;
        this.onWorkingChange?.();
      },
      setWorkingIndicator: (options?: WorkingIndicatorOptions) => {
        this.workingIndicator = options;
        this.onWorkingChange?.();
      },
      setHiddenThinkingLabel: () => {},
      setWidget: (key: string, content: unknown, options?: WidgetOptions) =>
        this.#setWidget(key, content, options),
      setFooter: () => this.#notAvailable("ctx.ui.setFooter"),
      setHeader: () => this.#notAvailable("ctx.ui.setHeader"),
      setTitle: (title: string) => host.ui.terminal.setTitle(title),
      custom: (factory: CustomFactory, options?: CustomOptions) => this.#custom(factory, options),
      pasteToEditor: (text: string) => host.editor.handleInput(`\x1b[200~${text}\x1b[201~`),
      setEditorText: (text: string) => {
        host.editor.setText(text);
        host.ui.requestRender();
      },
      getEditorText: () => host.editor.getExpandedText(),
      addAutocompleteProvider: () => this.#notAvailable("ctx.ui.addAutocompleteProvider"),
      setEditorComponent: (factory: unknown) => {
        if (factory !== undefined) this.#notAvailable("ctx.ui.setEditorComponent");
      },
      getEditorComponent: () => undefined,
      theme: this.#theme,
      getAllThemes: () => [{ name: host.theme.name, path: undefined }],
      getTheme: (name: string) => (name === host.theme.name ? this.#theme : undefined),
      setTheme: () => ({ success: false, error: "Switching themes is not available in this build yet" }),
      getToolsExpanded: () => host.chat.toolsExpanded,
      setToolsExpanded: (expanded: boolean) => {
        if (expanded !== host.chat.toolsExpanded) host.toggleToolsExpanded?.();
      },
    };
  }

  /** A hook this build does not have yet: said once in the chat, never silently ignored. */
  #notAvailable(what: string): void {
    this.host.chat.addNotice("warning", `${what} is not available in this build yet`);
    this.host.ui.requestRender();
  }

  /** Shows an extension's error in the chat, as 1.6.0 does. */
  showError(error: ExtensionError): void {
    const theme = this.host.theme;
    this.host.chat.chat.addChild(
      new Text(theme.fg("error", `Extension "${error.extensionPath}" error: ${error.error}`), 1, 0),
    );
    this.host.ui.requestRender();
  }

  /** An error thrown by an extension's component: that extension's error (found by the stack). */
  #componentError(error: unknown, method: string): void {
    const stack = error instanceof Error ? error.stack ?? "" : "";
    const owner = this.host.extensions()?.runner.extensions.find((ext) =>
      ext.moduleUrls.some((url) => stack.includes(url))
    );
    this.showError({
      extensionPath: owner?.path ?? "extension",
      event: `component.${method}`,
      error: error instanceof Error ? error.message : String(error),
    });
  }

  #guard(component: ExtensionComponent): GuardedComponent {
    return new GuardedComponent(component, (error, method) => this.#componentError(error, method));
  }

  // --- dialogs -------------------------------------------------------------------------------

  /** Puts `component` in the editor's place, above any dialog already open. */
  #pushDialog(component: Component): void {
    this.host.startScreen();
    this.#dialogs.push(component);
    this.#showTopDialog();
  }

  /** Takes `component` away; if it was on top, the one below it (or the editor) comes back. */
  #removeDialog(component: Component): void {
    const index = this.#dialogs.indexOf(component);
    if (index === -1) return;
    this.#dialogs.splice(index, 1);
    if (index === this.#dialogs.length) this.#showTopDialog();
  }

  #showTopDialog(): void {
    const host = this.host;
    const top = this.#dialogs.at(-1) ?? host.editor;
    host.editorContainer.clear();
    host.editorContainer.addChild(top);
    host.ui.setFocus(top);
    host.ui.requestRender();
  }

  /** Runs a dialog until it answers, the timeout passes or the signal aborts (undefined then). */
  #dialog<T>(
    opts: DialogOpts | undefined,
    build: (finish: (value: T | undefined) => void) => Component & { dispose?(): void },
  ): Promise<T | undefined> {
    return new Promise((resolve) => {
      if (opts?.signal?.aborted) {
        resolve(undefined);
        return;
      }
      let done = false;
      const finish = (value: T | undefined) => {
        if (done) return;
        done = true;
        opts?.signal?.removeEventListener("abort", onAbort);
        dialog.dispose?.();
        this.#removeDialog(dialog);
        resolve(value);
      };
      const onAbort = () => finish(undefined);
      opts?.signal?.addEventListener("abort", onAbort, { once: true });
      const dialog = build(finish);
      this.#pushDialog(dialog);
    });
  }

  #select(title: string, options: string[], opts?: DialogOpts): Promise<string | undefined> {
    return this.#dialog<string>(
      opts,
      (finish) =>
        new ExtensionSelector(this.host.theme, title, options, finish, () => finish(undefined), {
          tui: this.host.ui,
          timeout: opts?.timeout,
          onToggleToolsExpanded: () => this.host.toggleToolsExpanded?.(),
        }),
    );
  }

  #input(title: string, opts?: DialogOpts): Promise<string | undefined> {
    return this.#dialog<string>(
      opts,
      (finish) =>
        new ExtensionInputDialog(this.host.theme, title, finish, () => finish(undefined), {
          tui: this.host.ui,
          timeout: opts?.timeout,
        }),
    );
  }

  #editor(title: string, prefill?: string): Promise<string | undefined> {
    return this.#dialog<string>(
      undefined,
      (finish) =>
        new ExtensionEditorDialog(
          this.host.theme,
          this.host.ui,
          title,
          prefill,
          finish,
          () => finish(undefined),
        ),
    );
  }

  /**
   * `custom()`: the extension's component takes the editor's place (or, with `overlay`, shows above
   * the screen) with the keys until it calls `done(result)`; the editor's text is kept.
   */
  #custom(factory: CustomFactory, options?: CustomOptions): Promise<unknown> {
    const host = this.host;
    const savedText = host.editor.getExpandedText();
    return new Promise((resolve, reject) => {
      let closed = false;
      let component: GuardedComponent | undefined;
      let removeOverlay: (() => void) | undefined;
      const close = (result: unknown) => {
        if (closed) return;
        closed = true;
        if (removeOverlay) {
          removeOverlay();
        } else if (component) {
          this.#removeDialog(component);
          host.editor.setText(savedText);
          host.ui.requestRender();
        }
        component?.dispose();
        resolve(result);
      };
      let built: ExtensionComponent | Promise<ExtensionComponent>;
      try {
        built = factory(host.ui, this.#theme, getKeybindings(), close);
      } catch (error) {
        reject(error);
        return;
      }
      Promise.resolve(built).then((inner) => {
        if (closed) return;
        component = this.#guard(inner);
        if (!options?.overlay) {
          this.#pushDialog(component);
          return;
        }
        host.startScreen();
        const overlayOptions = typeof options.overlayOptions === "function"
          ? options.overlayOptions()
          : options.overlayOptions ??
            ((inner as { width?: number }).width
              ? { width: (inner as { width?: number }).width }
              : undefined);
        const handle = host.ui.showOverlay(component, overlayOptions as OverlayOptions | undefined);
        removeOverlay = () => {
          this.#overlays.delete(removeOverlay!);
          handle.hide();
        };
        this.#overlays.add(removeOverlay);
        options.onHandle?.(handle);
      }, (error) => {
        if (!closed) reject(error);
      });
    });
  }

  // --- widgets -------------------------------------------------------------------------------

  #setWidget(key: string, content: unknown, options?: WidgetOptions): void {
    for (const map of [this.#above, this.#below]) {
      const existing = map.get(key);
      if (existing instanceof GuardedComponent) existing.dispose();
      map.delete(key);
    }
    if (content === undefined) {
      this.#renderWidgets();
      return;
    }
    let component: GuardedComponent | Container;
    if (Array.isArray(content)) {
      const lines = content.map(String);
      component = new Container();
      for (const line of lines.slice(0, MAX_WIDGET_LINES)) component.addChild(new Text(line, 1, 0));
      if (lines.length > MAX_WIDGET_LINES) {
        component.addChild(new Text(this.host.theme.fg("muted", "... (widget truncated)"), 1, 0));
      }
    } else if (typeof content === "function") {
      // A throwing factory throws to the extension (its command or handler reports it).
      component = this.#guard((content as WidgetFactory)(this.host.ui, this.#theme));
    } else {
      throw new TypeError("setWidget() takes an array of strings, a component factory or undefined");
    }
    (options?.placement === "belowEditor" ? this.#below : this.#above).set(key, component);
    this.#renderWidgets();
  }

  #renderWidgets(): void {
    const fill = (container: Container, widgets: Map<string, Component>, above: boolean) => {
      container.clear();
      // Above the editor: one blank row, then the widgets (the blank row alone when none).
      if (above) container.addChild(new Spacer(1));
      for (const widget of widgets.values()) container.addChild(widget);
    };
    fill(this.widgetsAbove, this.#above, true);
    fill(this.widgetsBelow, this.#below, false);
    this.host.ui.requestRender();
  }

  // --- shortcuts -----------------------------------------------------------------------------

  /**
   * Routes the keys the extensions registered (`pi.registerShortcut`) to their handlers before
   * the editor sees them. Keys the app reserves stay the app's (a warning says so).
   */
  bindShortcuts(): void {
    const extensions = this.host.extensions();
    const shortcuts = new Map<string, { handler: (ctx: unknown) => unknown; path: string }>();
    const reserved = reservedKeys();
    for (const ext of extensions?.runner.extensions ?? []) {
      const registered = (ext as { shortcuts?: Map<string, { handler?: unknown }> }).shortcuts;
      for (const [key, options] of registered ?? []) {
        if (typeof options?.handler !== "function") continue;
        const normalized = key.toLowerCase();
        if (reserved.has(normalized)) {
          this.host.chat.addNotice(
            "warning",
            `Extension shortcut '${key}' from ${ext.path} conflicts with built-in shortcut. Skipping.`,
          );
          continue;
        }
        shortcuts.set(normalized, { handler: options.handler as (ctx: unknown) => unknown, path: ext.path });
      }
    }
    if (shortcuts.size === 0 || !extensions) {
      this.host.editor.onExtensionShortcut = undefined;
      return;
    }
    this.host.editor.onExtensionShortcut = (data) => {
      for (const [key, shortcut] of shortcuts) {
        if (!matchesKey(data, key as KeyId)) continue;
        const failed = (error: unknown) =>
          this.host.chat.addNotice(
            "error",
            `Shortcut handler error: ${error instanceof Error ? error.message : String(error)}`,
          );
        try {
          Promise.resolve(shortcut.handler(extensions.context())).catch(failed).finally(() =>
            this.host.ui.requestRender()
          );
        } catch (error) {
          failed(error);
        }
        return true;
      }
      return false;
    };
  }

  /**
   * Clears what the extensions of a replaced session put on screen (1.6.0's resetExtensionUI):
   * dialogs and overlays go (their promises stay pending), widgets, statuses and the working
   * message too.
   */
  reset(): void {
    for (const dialog of this.#dialogs) (dialog as { dispose?(): void }).dispose?.();
    this.#dialogs.length = 0;
    this.#showTopDialog();
    for (const remove of [...this.#overlays].reverse()) remove();
    for (const widget of [...this.#above.values(), ...this.#below.values()]) {
      if (widget instanceof GuardedComponent) widget.dispose();
    }
    this.#above.clear();
    this.#below.clear();
    this.#renderWidgets();
    this.statuses.clear();
    this.host.editor.onExtensionShortcut = undefined;
    this.workingMessage = undefined;
    this.workingIndicator = undefined;
    this.workingVisible = true;
    this.onWorkingChange?.();
  }
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
