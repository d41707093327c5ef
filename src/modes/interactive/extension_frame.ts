/**
 * What extensions put around the chat and the editor: widgets above and below the editor
 * (`setWidget`), a footer (`setFooter`) and a header (`setHeader`) in place of the built-in ones,
 * laid out as pi 1.6.0 lays them out. Components from factories run guarded.
 *
 * @module
 */
import type { AgentSession } from "../../core/agent_session.ts";
import { type Component, Container, Spacer, Text, type TUI } from "../../tui/mod.ts";
import { type ExtensionComponent, GuardedComponent } from "./extension_component_guard.ts";
import type { ExtensionTheme } from "./extension_theme.ts";
import { readGitBranch } from "./footer.ts";
import { StartupHeader } from "./header.ts";
import type { Theme } from "./theme.ts";

/** What the frame works on. */
export interface FrameHost {
  readonly session: AgentSession;
  readonly ui: TUI;
  readonly theme: Theme;
  /** Holds the start-up header (which `setHeader` replaces). */
  readonly headerContainer: Container;
}

/** Rows a string-array widget shows at most (1.6.0's MAX_WIDGET_LINES). */
const MAX_WIDGET_LINES = 10;

/** `setWidget`'s options. */
export interface WidgetOptions {
  placement?: "aboveEditor" | "belowEditor";
}

/** A component factory as `setWidget` and `setHeader` take them. */
export type WidgetFactory = (tui: TUI, theme: ExtensionTheme) => ExtensionComponent;

/** What a custom footer reads (1.6.0's `ReadonlyFooterDataProvider`). */
export interface FooterDataView {
  getGitBranch(): string | null;
  getExtensionStatuses(): ReadonlyMap<string, string>;
  getAvailableProviderCount(): number;
  onBranchChange(callback: () => void): () => void;
}

/** `setFooter`'s factory. */
export type FooterFactory = (
  tui: TUI,
  theme: ExtensionTheme,
  footerData: FooterDataView,
) => ExtensionComponent;

/** Widgets, footer and header of the extensions. */
export class ExtensionFrame {
  /** Widgets above the editor (a blank row while there are none, as 1.6.0 keeps). */
  readonly widgetsAbove = new Container();
  /** Widgets below the editor. */
  readonly widgetsBelow = new Container();
  readonly #above = new Map<string, GuardedComponent | Container>();
  readonly #below = new Map<string, GuardedComponent | Container>();
  /** Holds the built-in footer, or an extension's. */
  readonly #footerSlot = new Container();
  #builtInFooter?: Component;
  #customFooter?: GuardedComponent;
  #customHeader?: GuardedComponent;
  #savedHeader?: StartupHeader;

  /** A frame over `host`; `statuses` are the footer statuses; `guard` wraps extension components. */
  constructor(
    private readonly host: FrameHost,
    private readonly theme: ExtensionTheme,
    private readonly statuses: ReadonlyMap<string, string>,
    private readonly guard: (component: ExtensionComponent) => GuardedComponent,
  ) {
    this.widgetsAbove.addChild(new Spacer(1));
  }

  /** The slot the footer sits in, holding `builtIn` until an extension replaces it. */
  footerSlot(builtIn: Component): Container {
    this.#builtInFooter = builtIn;
    this.#footerSlot.clear();
    this.#footerSlot.addChild(builtIn);
    return this.#footerSlot;
  }

  /** `setFooter`: the extension's component in the footer's place; undefined brings the built-in back. */
  setFooter(factory: FooterFactory | undefined): void {
    this.#customFooter?.dispose();
    this.#customFooter = undefined;
    this.#footerSlot.clear();
    if (factory) {
      const session = this.host.session;
      const data: FooterDataView = {
        getGitBranch: () => readGitBranch(session.sessionManager.getCwd()) ?? null,
        getExtensionStatuses: () => this.statuses,
        getAvailableProviderCount: () =>
          new Set(session.modelRegistry.getAvailable().map((m) => m.provider)).size,
        // The branch is read when asked; there is no watcher to announce changes.
        onBranchChange: () => () => {},
      };
      this.#customFooter = this.guard(factory(this.host.ui, this.theme, data));
      this.#footerSlot.addChild(this.#customFooter);
    } else if (this.#builtInFooter) {
      this.#footerSlot.addChild(this.#builtInFooter);
    }
    this.host.ui.requestRender();
  }

  /** `setHeader`: the extension's component in the start-up header's place; undefined brings it back. */
  setHeader(factory: WidgetFactory | undefined): void {
    const container = this.host.headerContainer;
    // The start-up header is kept while an extension's header stands in for it.
    this.#savedHeader ??= container.children.find((c): c is StartupHeader => c instanceof StartupHeader);
    const current = this.#customHeader ?? this.#savedHeader;
    const index = current ? container.children.indexOf(current) : -1;
    this.#customHeader?.dispose();
    this.#customHeader = undefined;
    if (factory) {
      this.#customHeader = this.guard(factory(this.host.ui, this.theme));
      if (index !== -1) container.children[index] = this.#customHeader;
      else container.children.unshift(this.#customHeader);
    } else if (index !== -1) {
      if (this.#savedHeader) container.children[index] = this.#savedHeader;
      else container.children.splice(index, 1);
    }
    this.host.ui.requestRender();
  }

  setWidget(key: string, content: unknown, options?: WidgetOptions): void {
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
      component = this.guard((content as WidgetFactory)(this.host.ui, this.theme));
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

  /** Takes every widget, footer and header away (a session replaced). */
  reset(): void {
    for (const widget of [...this.#above.values(), ...this.#below.values()]) {
      if (widget instanceof GuardedComponent) widget.dispose();
    }
    this.#above.clear();
    this.#below.clear();
    this.#renderWidgets();
    if (this.#customFooter) this.setFooter(undefined);
    if (this.#customHeader) this.setHeader(undefined);
  }
}
