/**
 * An extension's custom session entry in the chat (`pi.appendEntry`), drawn by the renderer
 * registered for its type (`pi.registerEntryRenderer`), as pi 1.6.0 draws it: the component after
 * a blank row, nothing when the renderer returns nothing, and a `[type] renderer failed: …` line
 * in the custom-message box when it throws.
 *
 * @module
 */
import type { CustomEntry } from "../../session/entries.ts";
import { Box, Container, Spacer, Text } from "../../tui/mod.ts";
import type { EntryRenderer } from "./extension_renderers.ts";
import { keyHint, keyText } from "./key_hints.ts";
import type { Theme } from "./theme.ts";

/** One custom entry; redrawn when tool output is expanded or collapsed. */
export class CustomEntryView extends Container {
  #expanded = false;
  #hasContent = false;

  /** `entry` drawn by `renderer`. */
  constructor(
    private readonly theme: Theme,
    private readonly entry: CustomEntry,
    private readonly renderer: EntryRenderer,
  ) {
    super();
    this.#rebuild();
  }

  /** Whether the renderer drew anything (an empty entry is left out of the chat). */
  get hasContent(): boolean {
    return this.#hasContent;
  }

  /** Passes the expanded state to the renderer. */
  setExpanded(expanded: boolean): void {
    if (this.#expanded === expanded) return;
    this.#expanded = expanded;
    this.#rebuild();
  }

  #rebuild(): void {
    this.clear();
    let component;
    try {
      component = this.renderer(this.entry, { expanded: this.#expanded, keyText, keyHint }, this.theme);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      const box = new Box(1, 1, (t) => this.theme.bg("customMessageBg", t));
      box.addChild(
        new Text(this.theme.fg("error", `[${this.entry.customType}] renderer failed: ${message}`), 0, 0),
      );
      component = box;
    }
    this.#hasContent = component !== undefined;
    if (!component) return;
    this.addChild(new Spacer(1));
    this.addChild(component);
  }
}
