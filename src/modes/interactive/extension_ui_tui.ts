/**
 * `ctx.ui` of pi 1.6.0 in the interactive mode: dialogs (`select`, `confirm`, `input`, `editor`,
 * `custom`) in the editor's place, stacked so each one stays answerable; `notify` in the chat;
 * footer statuses; widgets above and below the editor; the terminal title; the editor's text;
 * the working message; and the shortcuts extensions register. An error an extension's component
 * or shortcut throws is shown in the chat; pi goes on.
 *
 * @module
 */
import type { AgentSession } from "../../core/agent_session.ts";
import type { ExtensionHost } from "../../core/extension_host.ts";
import type { ExtensionError, ExtensionUIContext } from "../../extensions/types.ts";
import {
  type Component,
  type Container,
  getKeybindings,
  type OverlayHandle,
  type OverlayOptions,
  Text,
  type TUI,
} from "../../tui/mod.ts";
import type { AppEditor } from "./app_editor.ts";
import type { ChatView } from "./chat_view.ts";
import { type ExtensionComponent, GuardedComponent } from "./extension_component_guard.ts";
import { ExtensionEditorDialog, ExtensionInputDialog, ExtensionSelector } from "./extension_dialogs.ts";
import {
  type AutocompleteProviderFactory,
  type EditorFactory,
  ExtensionEditorHooks,
} from "./extension_editor_hooks.ts";
import { bindExtensionShortcuts } from "./extension_shortcuts.ts";
import {
  type ExtensionTheme,
  extensionTheme,
  extensionThemeByName,
  setExtensionTheme,
} from "./extension_theme.ts";
import {
  ExtensionFrame,
  type FooterFactory,
  type WidgetFactory,
  type WidgetOptions,
} from "./extension_frame.ts";
import type { Theme } from "./theme.ts";
import type { ThemeController } from "./theme_controller.ts";

/** What the extension UI works on: the running interactive mode. */
export interface ExtensionUIHost {
  readonly session: AgentSession;
  readonly ui: TUI;
  readonly theme: Theme;
  /** The run's themes (`getAllThemes`, `getTheme`, `setTheme`), once loaded. */
  readonly themes?: ThemeController;
  readonly chat: ChatView;
  /** The prompt editor shown now (an extension's editor may replace it: setEditorComponent). */
  editor: AppEditor;
  /** Holds the editor, or the dialog on top. */
  readonly editorContainer: Container;
  /** Holds the start-up header (which `setHeader` replaces). */
  readonly headerContainer: Container;
  /** Starts the screen if it is not running yet (a dialog opened by a `session_start` handler). */
  startScreen(): void;
  /** Toggles collapsed / expanded tool output (Ctrl+O in a selector, `setToolsExpanded`). */
  toggleToolsExpanded?(): void;
  /** The extensions bound to the current session, for shortcuts and error attribution. */
  extensions(): ExtensionHost | undefined;
}

/** Dialog timeouts and cancellation (1.6.0's `ExtensionUIDialogOptions`). */
interface DialogOpts {
  timeout?: number;
  signal?: AbortSignal;
}

/** `custom()`'s options. */
interface CustomOptions {
  overlay?: boolean;
  overlayOptions?: OverlayOptions | (() => OverlayOptions);
  onHandle?: (handle: OverlayHandle) => void;
}

/** The component factory `custom` takes. */
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
  readonly #dialogs: Component[] = [];
  readonly #overlays = new Set<() => void>();
  readonly #theme: ExtensionTheme;
  /** Removers of the extensions' terminal input listeners. */
  readonly #inputListeners = new Set<() => void>();
  /** `setEditorComponent`, `addAutocompleteProvider`, `setHiddenThinkingLabel`. */
  readonly editorHooks: ExtensionEditorHooks;
  /** Widgets, footer and header. */
  readonly #frame: ExtensionFrame;

  /** The UI over `host` (nothing is shown until an extension asks). */
  constructor(private readonly host: ExtensionUIHost) {
    this.#theme = extensionTheme(host.theme);
    this.#frame = new ExtensionFrame(host, this.#theme, this.statuses, (c) => this.#guard(c));
    this.editorHooks = new ExtensionEditorHooks(host);
  }

  /** Widgets above the editor (a blank row while there are none, as 1.6.0 keeps). */
  get widgetsAbove(): Container {
    return this.#frame.widgetsAbove;
  }

  /** Widgets below the editor. */
  get widgetsBelow(): Container {
    return this.#frame.widgetsBelow;
  }

  /** The slot the footer sits in, holding `builtIn` until an extension replaces it. */
  footerSlot(builtIn: Component): Container {
    return this.#frame.footerSlot(builtIn);
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
        this.#addInputListener(handler),
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
      setHiddenThinkingLabel: (label?: string) => this.editorHooks.setHiddenThinkingLabel(label),
      setWidget: (key: string, content: unknown, options?: WidgetOptions) =>
        this.#frame.setWidget(key, content, options),
      setFooter: (factory?: FooterFactory) => this.#frame.setFooter(factory),
      setHeader: (factory?: WidgetFactory) => this.#frame.setHeader(factory),
      setTitle: (title: string) => host.ui.terminal.setTitle(title),
      custom: (factory: CustomFactory, options?: CustomOptions) => this.#custom(factory, options),
      pasteToEditor: (text: string) => host.editor.handleInput(`\x1b[200~${text}\x1b[201~`),
      setEditorText: (text: string) => {
        host.editor.setText(text);
        host.ui.requestRender();
      },
      getEditorText: () => host.editor.getExpandedText(),
      addAutocompleteProvider: (factory: AutocompleteProviderFactory) =>
        this.editorHooks.addAutocompleteProvider(factory),
      setEditorComponent: (factory: EditorFactory | undefined) =>
        this.editorHooks.setEditorComponent(factory),
      getEditorComponent: () => this.editorHooks.getEditorComponent(),
      theme: this.#theme,
      getAllThemes: () =>
        host.themes?.availableThemesWithPaths() ?? [{ name: host.theme.name, path: undefined }],
      getTheme: (name: string) => extensionThemeByName(host.themes, name),
      setTheme: (themeOrName: unknown) =>
        setExtensionTheme(host.themes, host.session.settingsManager, themeOrName),
      getToolsExpanded: () => host.chat.toolsExpanded,
      setToolsExpanded: (expanded: boolean) => {
        if (expanded !== host.chat.toolsExpanded) host.toggleToolsExpanded?.();
      },
    };
  }

  /**
   * `onTerminalInput`: `handler` sees keys before the focused component (an error it throws is that
   * extension's error, and the key goes on); removed by the returned function or a session change.
   */
  #addInputListener(handler: (data: string) => { consume?: boolean; data?: string } | undefined): () => void {
    const remove = this.host.ui.addInputListener((data) => {
      try {
        return handler(data);
      } catch (error) {
        this.#componentError(error, "onTerminalInput");
        return undefined;
      }
    });
    const unsubscribe = () => {
      remove();
      this.#inputListeners.delete(unsubscribe);
    };
    this.#inputListeners.add(unsubscribe);
    return unsubscribe;
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

  /** Routes the keys the extensions registered (`pi.registerShortcut`) to their handlers. */
  bindShortcuts(): void {
    bindExtensionShortcuts(this.host);
  }

  /**
   * Clears what the extensions of a replaced session put on screen (1.6.0's resetExtensionUI):
   * dialogs and overlays go (their promises stay pending), widgets, statuses and the working
   * message too.
   */
  reset(): void {
    if (this.#dialogs.length > 0) {
      for (const dialog of this.#dialogs) (dialog as { dispose?(): void }).dispose?.();
      this.#dialogs.length = 0;
      this.#showTopDialog();
    }
    for (const remove of [...this.#overlays].reverse()) remove();
    this.#frame.reset();
    for (const remove of [...this.#inputListeners]) remove();
    this.statuses.clear();
    // The built-in editor, completions and thinking label first: the shortcuts belong to it.
    this.editorHooks.reset();
    this.host.editor.onExtensionShortcut = undefined;
    this.workingMessage = undefined;
    this.workingIndicator = undefined;
    this.workingVisible = true;
    this.onWorkingChange?.();
  }
}
