/**
 * The /fork picker of pi 1.6.0: the session's user messages, oldest first, each on one row with
 * "Message N of M" below it; up/down (wrapping) and page keys move, Enter forks from the message,
 * Escape or Ctrl+C cancels. Ten messages show at a time, with a position note when some are hidden.
 *
 * @module
 */
import {
  type Component,
  Container,
  getKeybindings,
  getSelectPageIndex,
  Spacer,
  Text,
  truncateToWidth,
} from "../../tui/mod.ts";
import { BorderLine } from "./model_selector.ts";
import type { Theme } from "./theme.ts";

/** Messages shown at a time. */
const VISIBLE = 10;

/** One forkable message. */
export interface ForkMessage {
  id: string;
  text: string;
}

/** The message list (the part that takes keys). */
class ForkMessageList implements Component {
  selected: number;

  constructor(
    private readonly theme: Theme,
    private readonly messages: readonly ForkMessage[],
    private readonly onSelect: (id: string) => void,
    private readonly onCancel: () => void,
    initialId?: string,
  ) {
    const initial = initialId ? messages.findIndex((m) => m.id === initialId) : -1;
    this.selected = initial >= 0 ? initial : Math.max(0, messages.length - 1);
  }

  invalidate(): void {}

  render(width: number): string[] {
    const theme = this.theme;
    const count = this.messages.length;
    if (count === 0) return [theme.fg("muted", "  No user messages found")];
    // The selection sits mid-window where it can.
    const start = Math.max(0, Math.min(this.selected - Math.floor(VISIBLE / 2), count - VISIBLE));
    const end = Math.min(start + VISIBLE, count);
    const lines: string[] = [];
    for (let i = start; i < end; i++) {
      const text = truncateToWidth(this.messages[i].text.replace(/\n/g, " ").trim(), width - 2);
      const selected = i === this.selected;
      lines.push(selected ? theme.fg("accent", "› ") + theme.bold(text) : `  ${text}`);
      lines.push(theme.fg("muted", `  Message ${i + 1} of ${count}`));
      lines.push("");
    }
    if (start > 0 || end < count) lines.push(theme.fg("muted", `  (${this.selected + 1}/${count})`));
    return lines;
  }

  handleInput(data: string): void {
    const kb = getKeybindings();
    const count = this.messages.length;
    const page = getSelectPageIndex(kb, data, this.selected, count, VISIBLE);
    if (kb.matches(data, "tui.select.up")) {
      this.selected = this.selected === 0 ? count - 1 : this.selected - 1;
    } else if (kb.matches(data, "tui.select.down")) {
      this.selected = this.selected === count - 1 ? 0 : this.selected + 1;
    } else if (page !== undefined) {
      if (count > 0) this.selected = page;
    } else if (kb.matches(data, "tui.select.confirm")) {
      const message = this.messages[this.selected];
      if (message) this.onSelect(message.id);
    } else if (kb.matches(data, "tui.select.cancel")) this.onCancel();
  }
}

/** The fork picker: a heading, then the message list between borders. */
export class ForkSelector extends Container {
  readonly #list: ForkMessageList;

  /** A picker over `messages`; `initialId` is selected first (default: the newest). */
  constructor(
    theme: Theme,
    messages: readonly ForkMessage[],
    onSelect: (id: string) => void,
    onCancel: () => void,
    initialId?: string,
  ) {
    super();
    this.#list = new ForkMessageList(theme, messages, onSelect, onCancel, initialId);
    this.addChild(new Spacer(1));
    this.addChild(new Text(theme.bold("Fork from Message"), 1, 0));
    this.addChild(
      new Text(
        theme.fg(
          "muted",
          "Select a user message to copy the active path up to that point into a new session",
        ),
        1,
        0,
      ),
    );
    this.addChild(new Spacer(1));
    this.addChild(new BorderLine(theme));
    this.addChild(new Spacer(1));
    this.addChild(this.#list);
    this.addChild(new Spacer(1));
    this.addChild(new BorderLine(theme));
  }

  /** Keys go to the message list. */
  handleInput(data: string): void {
    this.#list.handleInput(data);
  }
}
