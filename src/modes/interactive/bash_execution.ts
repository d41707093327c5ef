/**
 * A user shell command run from the editor (`!cmd`, `!!cmd`) in the chat, as pi 1.6.0 draws it:
 * between two borders (bash-mode colour, dim for `!!` whose output stays out of the model's
 * context), `$ command` in bold, the output (the last 20 rows until the app.tools.expand key
 * expands it), a spinner while it runs, then the exit status and any truncation note.
 *
 * @module
 */
import { DEFAULT_MAX_BYTES, DEFAULT_MAX_LINES, stripAnsi, truncateTail } from "../../core/tool_display.ts";
import { type Component, Container, Loader, Spacer, Text, truncateToWidth, type TUI } from "../../tui/mod.ts";
import { keyText } from "./app_keys.ts";
import type { Theme } from "./theme.ts";

/** Output rows shown while collapsed. */
const PREVIEW_ROWS = 20;

/** The cancel key of 1.6.0's spinner text (tui.select.cancel's default keys). */
const CANCEL_KEYS = "escape/ctrl+c";

/**
 * The last `rows` screen rows of `text` drawn as a Text with `paddingX` (a long line counts the
 * rows it wraps to), cached per width; `hint(hidden)` heads them when rows were cut.
 */
export class TailRows implements Component {
  #width?: number;
  #lines?: string[];
  constructor(
    private readonly text: string,
    private readonly rows: number,
    private readonly paddingX: number,
    private readonly hint?: (hidden: number) => string,
  ) {}
  invalidate(): void {
    this.#width = undefined;
  }
  render(width: number): string[] {
    if (this.#lines === undefined || this.#width !== width) {
      const all = new Text(this.text, this.paddingX, 0).render(width);
      const kept = all.slice(-this.rows);
      const hidden = all.length - kept.length;
      this.#lines = hidden > 0 && this.hint
        ? [truncateToWidth(this.hint(hidden), width, "..."), ...kept]
        : kept;
      this.#width = width;
    }
    return this.#lines;
  }
}

/** A full-width rule in a colour that may change. */
class Rule implements Component {
  constructor(private readonly color: () => (text: string) => string) {}
  invalidate(): void {}
  render(width: number): string[] {
    return [this.color()("─".repeat(Math.max(1, width)))];
  }
}

/** How a user command ended. */
type BashStatus = "running" | "complete" | "cancelled" | "error";

/** One `!` command with its (streaming) output. */
export class BashExecutionView extends Container {
  #lines: string[] = [];
  #status: BashStatus = "running";
  #exitCode?: number;
  #truncated = false;
  #fullOutputPath?: string;
  #expanded = false;
  readonly #content = new Container();
  readonly #loader: Loader;
  readonly #color: "dim" | "bashMode";

  /** A running `command` in `ui`; `excludeFromContext` for `!!`. */
  constructor(
    private readonly theme: Theme,
    readonly command: string,
    ui: TUI,
    excludeFromContext = false,
  ) {
    super();
    this.#color = excludeFromContext ? "dim" : "bashMode";
    const border = () => (t: string) => this.theme.fg(this.#color, t);
    this.addChild(new Spacer(1));
    this.addChild(new Rule(border));
    this.addChild(this.#content);
    this.addChild(new Rule(border));
    this.#loader = new Loader(
      ui,
      (t) => theme.fg(this.#color, t),
      (t) => theme.fg("muted", t),
      `Running... (${CANCEL_KEYS} to cancel)`,
    );
    this.#update();
  }

  /** Shows every row (true) or the last ones. */
  setExpanded(expanded: boolean): void {
    this.#expanded = expanded;
    this.#update();
  }

  /** Adds a chunk of output (escape sequences removed, line ends normalised). */
  appendOutput(chunk: string): void {
    const pieces = stripAnsi(chunk).replace(/\r\n?/g, "\n").split("\n");
    // A chunk may end mid-line: its first piece continues the last row.
    if (this.#lines.length > 0) this.#lines[this.#lines.length - 1] += pieces.shift() ?? "";
    this.#lines.push(...pieces);
    this.#update();
  }

  /** The command ended (`exitCode` undefined when it could not run). */
  setComplete(
    exitCode: number | undefined,
    cancelled: boolean,
    truncated = false,
    fullOutputPath?: string,
  ): void {
    this.#exitCode = exitCode;
    this.#status = cancelled ? "cancelled" : exitCode !== undefined && exitCode !== 0 ? "error" : "complete";
    this.#truncated = truncated;
    this.#fullOutputPath = fullOutputPath;
    this.#loader.stop();
    this.#update();
  }

  /** Stops the spinner (the app is leaving). */
  dispose(): void {
    this.#loader.stop();
  }

  #update(): void {
    const theme = this.theme;
    // The rows kept are those the model would get (the bash tool's limits).
    const kept = truncateTail(this.#lines.join("\n"), {
      maxLines: DEFAULT_MAX_LINES,
      maxBytes: DEFAULT_MAX_BYTES,
    });
    const rows = kept.content ? kept.content.split("\n") : [];
    const tail = rows.slice(-PREVIEW_ROWS);
    const hidden = rows.length - tail.length;
    this.#content.clear();
    this.#content.addChild(new Text(theme.fg(this.#color, theme.bold(`$ ${this.command}`)), 1, 0));
    if (rows.length > 0) {
      if (this.#expanded) {
        this.#content.addChild(new Text(`\n${rows.map((r) => theme.fg("muted", r)).join("\n")}`, 1, 0));
      } else {
        this.#content.addChild(
          new TailRows(`\n${tail.map((r) => theme.fg("muted", r)).join("\n")}`, PREVIEW_ROWS, 1),
        );
      }
    }
    if (this.#status === "running") {
      this.#content.addChild(this.#loader);
      return;
    }
    const notes: string[] = [];
    const hint = (what: string) =>
      `${theme.fg("dim", keyText("app.tools.expand"))}${theme.fg("muted", ` ${what}`)}`;
    if (hidden > 0) {
      notes.push(
        this.#expanded
          ? `${theme.fg("muted", "(")}${hint("to collapse")}${theme.fg("muted", ")")}`
          : `${theme.fg("muted", `... ${hidden} more lines (`)}${hint("to expand")}${theme.fg("muted", ")")}`,
      );
    }
    if (this.#status === "cancelled") notes.push(theme.fg("warning", "(cancelled)"));
    else if (this.#status === "error") notes.push(theme.fg("error", `(exit ${this.#exitCode})`));
    if ((this.#truncated || kept.truncated) && this.#fullOutputPath) {
      notes.push(theme.fg("warning", `Output truncated. Full output: ${this.#fullOutputPath}`));
    }
    if (notes.length > 0) this.#content.addChild(new Text(`\n${notes.join("\n")}`, 1, 0));
  }
}
