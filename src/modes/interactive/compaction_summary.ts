/**
 * A compaction's summary in the chat, as pi 1.6.0 draws it: a box in the custom-message colours
 * with a `[compaction]` label, collapsed to "Compacted from N tokens (ctrl+o to expand)" until
 * the app.tools.expand key shows the summary as markdown (or a click toggles it).
 *
 * @module
 */
import { SummaryBox } from "./summary_box.ts";
import type { Theme } from "./theme.ts";

/** The summary view of one compaction. */
export class CompactionSummaryView extends SummaryBox {
  /** The summary `summary` of a context of `tokensBefore` tokens. */
  constructor(theme: Theme, summary: string, tokensBefore: number) {
    // Thousands separated by commas whatever the machine's locale (1.6.0 under en-US).
    const tokens = tokensBefore.toLocaleString("en-US");
    super(
      theme,
      "[compaction]",
      `Compacted from ${tokens} tokens`,
      `**Compacted from ${tokens} tokens**\n\n${summary}`,
    );
  }
}
