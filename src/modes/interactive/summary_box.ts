/**
 * A summary in the chat as pi 1.6.0 draws compaction and branch summaries: a box in the
 * custom-message colours with a bold label (`[compaction]`, `[branch]`), a one-line note while
 * collapsed and the summary as markdown once the app.tools.expand key (or a click) expands it.
 *
 * @module
 */
import { Box, Container, Markdown, MouseRegion, Spacer, Text } from "../../tui/mod.ts";
import { keyText } from "./app_keys.ts";
import type { Theme } from "./theme.ts";

/** A collapsible summary box. */
export class SummaryBox extends Box {
  #expanded = false;

  /**
   * A box labelled `label`; collapsed it reads "`note` (ctrl+o to expand)", expanded it shows
   * `markdown`.
   */
  constructor(
    protected readonly theme: Theme,
    private readonly label: string,
    private readonly note: string,
    private readonly markdown: string,
  ) {
    super(1, 1, (t) => theme.bg("customMessageBg", t));
    this.#build();
  }

  /** Shows the summary (true) or the one-line note. */
  setExpanded(expanded: boolean): void {
    this.#expanded = expanded;
    this.#build();
  }

  #build(): void {
    const theme = this.theme;
    this.clear();
    const content = new Container();
    content.addChild(new Text(theme.fg("customMessageLabel", theme.bold(this.label)), 0, 0));
    content.addChild(new Spacer(1));
    if (this.#expanded) {
      content.addChild(
        new Markdown(this.markdown, 0, 0, theme.markdown(), {
          color: (t) => theme.fg("customMessageText", t),
        }),
      );
    } else {
      content.addChild(
        new Text(
          theme.fg("customMessageText", `${this.note} (`) + theme.fg("dim", keyText("app.tools.expand")) +
            theme.fg("customMessageText", " to expand)"),
          0,
          0,
        ),
      );
    }
    this.addChild(
      new MouseRegion(content, (event) => {
        if (event.type !== "click" || event.button !== "left") return undefined;
        this.setExpanded(!this.#expanded);
        return { handled: true };
      }),
    );
  }
}
