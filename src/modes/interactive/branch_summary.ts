/**
 * A branch summary in the chat (left by /tree when the user asked for one), as pi 1.6.0 draws
 * it: a `[branch]` box reading "Branch summary (ctrl+o to expand)" until expanded, then the
 * summary under a "Branch Summary" heading.
 *
 * @module
 */
import { SummaryBox } from "./summary_box.ts";
import type { Theme } from "./theme.ts";

/** The view of one branch summary. */
export class BranchSummaryView extends SummaryBox {
  /** The summary text `summary`. */
  constructor(theme: Theme, summary: string) {
    super(theme, "[branch]", "Branch summary", `**Branch Summary**\n\n${summary}`);
  }
}
