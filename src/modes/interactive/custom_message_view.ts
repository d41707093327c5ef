/**
 * An extension's custom message in the chat (`pi.sendMessage({ customType, display: true, … })`),
 * as pi 1.6.0 draws it: the component of the renderer registered for its type
 * (`pi.registerMessageRenderer`), else (no renderer, it returned nothing, or it threw) a box in
 * the custom-message colours with the bold `[customType]` label and the text as markdown.
 *
 * @module
 */
import type { CustomMessage } from "../../session/messages.ts";
import { Box, type Component, Container, Markdown, Spacer, Text } from "../../tui/mod.ts";
import type { MessageRenderer } from "./extension_renderers.ts";
import { keyHint, keyText } from "./key_hints.ts";
import type { Theme } from "./theme.ts";

/** One custom message; redrawn when tool output is expanded or collapsed. */
export class CustomMessageView extends Container {
  #expanded = false;
  #content?: Component;
  readonly #box: Box;

  /** `message` drawn by `renderer` when there is one. */
  constructor(
    private readonly theme: Theme,
    private readonly message: CustomMessage,
    private readonly renderer: MessageRenderer | undefined,
  ) {
    super();
    this.addChild(new Spacer(1));
    this.#box = new Box(1, 1, (t) => theme.bg("customMessageBg", t));
    this.#rebuild();
  }

  /** Passes the expanded state to the renderer. */
  setExpanded(expanded: boolean): void {
    if (this.#expanded === expanded) return;
    this.#expanded = expanded;
    this.#rebuild();
  }

  #rebuild(): void {
    if (this.#content) this.removeChild(this.#content);
    this.#content = undefined;
    if (this.renderer) {
      try {
        const component = this.renderer(
          this.message,
          { expanded: this.#expanded, outputPad: 1, keyText, keyHint },
          this.theme,
        );
        if (component) {
          this.#content = component;
          this.addChild(component);
          return;
        }
      } catch {
        // A failing renderer leaves the message to the default drawing.
      }
    }
    const theme = this.theme;
    const box = this.#box;
    box.clear();
    box.addChild(new Text(theme.fg("customMessageLabel", theme.bold(`[${this.message.customType}]`)), 0, 0));
    box.addChild(new Spacer(1));
    const content = this.message.content;
    const text = typeof content === "string"
      ? content
      : content.filter((c) => c.type === "text").map((c) => (c as { text: string }).text).join("\n");
    box.addChild(
      new Markdown(text, 0, 0, theme.markdown(), { color: (t) => theme.fg("customMessageText", t) }),
    );
    this.#content = box;
    this.addChild(box);
  }
}
