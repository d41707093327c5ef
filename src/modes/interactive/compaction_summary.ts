/**
 * A compaction's summary in the chat, as pi 1.6.0 draws it: a box in the custom-message colours
 * with a `[compaction]` label, collapsed to "Compacted from N tokens (ctrl+o to expand)" until
 * the app.tools.expand key shows the summary as markdown (or a click toggles it).
 *
 * @module
 */
import { Box, Container, Markdown, MouseRegion, Spacer, Text } from "../../tui/mod.ts";
import { keyText } from "./app_keys.ts";
import type { Theme } from "./theme.ts";

/** The summary view of one compaction. */
export class CompactionSummaryView extends Box {
  #expanded = false;

  /** The summary `summary` of a context of `tokensBefore` tokens. */
  constructor(
    private readonly theme: Theme,
    private readonly summary: string,
    private readonly tokensBefore: number,
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
    // Thousands separated by commas whatever the machine's locale (1.6.0 under en-US).
    const tokens = this.tokensBefore.toLocaleString("en-US");
    content.addChild(new Text(theme.fg("customMessageLabel", theme.bold("[compaction]")), 0, 0));
    content.addChild(new Spacer(1));
    if (this.#expanded) {
      content.addChild(
        new Markdown(`**Compacted from ${tokens} tokens**\n\n${this.summary}`, 0, 0, theme.markdown(), {
          color: (t) => theme.fg("customMessageText", t),
        }),
      );
    } else {
      content.addChild(
        new Text(
          theme.fg("customMessageText", `Compacted from ${tokens} tokens (`) +
            theme.fg("dim", keyText("app.tools.expand")) + theme.fg("customMessageText", " to expand)"),
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
