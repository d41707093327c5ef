/**
 * The user and assistant messages of the chat, drawn as pi 1.6.0 draws them: a user message is
 * markdown on the user-message background with a blank row above and below; an assistant reply
 * is its text as markdown and its thinking in italics (or a label when thinking is hidden), then
 * a notice when it was cut short, aborted or failed.
 *
 * @module
 */
import type { AssistantMessage } from "../../ai/types.ts";
import { Container, Markdown, Spacer, Text } from "../../tui/mod.ts";
import type { Theme } from "./theme.ts";

/** One user message. */
export class UserMessageView extends Container {
  /** `text` as markdown, padded by one column and one row. */
  constructor(text: string, theme: Theme) {
    super();
    this.addChild(
      new Markdown(text, 1, 1, theme.markdown(), {
        color: (t) => theme.fg("userMessageText", t),
        bgColor: (t) => theme.bg("userMessageBg", t),
      }, { preserveOrderedListMarkers: true, preserveBackslashEscapes: true }),
    );
  }
}

/** The label shown instead of hidden thinking. */
export const HIDDEN_THINKING_LABEL = "Thinking...";

/** One assistant reply; {@link AssistantMessageView.update} redraws it as it streams. */
export class AssistantMessageView extends Container {
  #body = new Container();
  #message?: AssistantMessage;
  #markdown: { kind: "text" | "thinking"; component: Markdown }[] = [];

  /** An empty reply view; `hideThinking` shows `hiddenLabel` instead of the thinking text. */
  constructor(
    private readonly theme: Theme,
    private hideThinking: boolean,
    private hiddenLabel: string = HIDDEN_THINKING_LABEL,
  ) {
    super();
    this.addChild(this.#body);
  }

  /** The row shown for hidden thinking (an extension's `setHiddenThinkingLabel`). */
  setHiddenThinkingLabel(label: string): void {
    this.hiddenLabel = label;
    if (this.#message) this.update(this.#message);
  }

  /** Whether the reply called tools (their rows follow it). */
  get hasToolCalls(): boolean {
    return this.#message?.content.some((c) => c.type === "toolCall") ?? false;
  }

  /** Shows or hides the thinking text. */
  setHideThinking(hide: boolean): void {
    this.hideThinking = hide;
    if (this.#message) this.update(this.#message);
  }

  /** Redraws from `message` (partial while streaming); markdown components are reused. */
  update(message: AssistantMessage): void {
    this.#message = message;
    const theme = this.theme;
    const previous = this.#markdown;
    this.#markdown = [];
    const markdown = (text: string, kind: "text" | "thinking") => {
      const slot = previous[this.#markdown.length];
      const component = slot?.kind === kind ? slot.component : new Markdown(
        text,
        1,
        0,
        theme.markdown(),
        kind === "thinking" ? { color: (t: string) => theme.fg("thinkingText", t), italic: true } : undefined,
      );
      component.setText(text);
      this.#markdown.push({ kind, component });
      return component;
    };
    this.#body.clear();
    let needsSpacer = true;
    const add = (child: Text | Markdown) => {
      if (needsSpacer) this.#body.addChild(new Spacer(1));
      needsSpacer = false;
      this.#body.addChild(child);
    };
    const content = message.content;
    for (let i = 0; i < content.length; i++) {
      const block = content[i];
      if (block.type === "text" && block.text.trim()) {
        add(markdown(block.text.trim(), "text"));
      } else if (block.type === "thinking") {
        // Consecutive thinking blocks read as one.
        const run: string[] = [];
        for (; i < content.length && content[i].type === "thinking"; i++) {
          const text = (content[i] as { thinking: string }).thinking.trim();
          if (text) run.push(text);
        }
        i--;
        if (run.length === 0) continue;
        add(
          this.hideThinking
            ? new Text(theme.italic(theme.fg("thinkingText", this.hiddenLabel)), 1, 0)
            : markdown(run.join("\n\n"), "thinking"),
        );
        needsSpacer = true;
      }
    }
    if (message.stopReason === "length") {
      this.#body.addChild(new Spacer(1));
      this.#body.addChild(new Text(theme.fg("error", "Response was truncated before completion."), 1, 0));
    } else if (!this.hasToolCalls && message.stopReason === "aborted") {
      const text = message.errorMessage && message.errorMessage !== "Request was aborted"
        ? message.errorMessage
        : "Operation aborted";
      this.#body.addChild(new Spacer(1));
      this.#body.addChild(new Text(theme.fg("error", text), 1, 0));
    } else if (!this.hasToolCalls && message.stopReason === "error") {
      this.#body.addChild(new Spacer(1));
      this.#body.addChild(
        new Text(theme.fg("error", `Error: ${message.errorMessage || "Unknown error"}`), 1, 0),
      );
    }
  }
}
