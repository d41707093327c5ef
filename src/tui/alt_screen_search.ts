/**
 * Find-in-transcript for the fullscreen TUI: matching a query against rendered lines (words may
 * wrap across lines; runs of spaces count as one) and the search box shown as an overlay.
 *
 * @module
 */
import { Input } from "./components/input.ts";
import { getKeybindings } from "./keybindings.ts";
import type { Component, Focusable } from "./tui_component.ts";
import { getGraphemeSegmenter, stripTerminalSequences, truncateToWidth, visibleWidth } from "./utils_text.ts";

/** A run of matched cells on one content row. */
export interface AltScreenSearchSegment {
  /** Content row. */
  row: number;
  /** First column. */
  startCol: number;
  /** Column after the last. */
  endCol: number;
}

/** One match; several segments when it wraps across rows. */
export interface AltScreenSearchMatch {
  /** The match's cells, row by row. */
  segments: AltScreenSearchSegment[];
}

/** What {@link AltScreenSearchIndex.search} found and whether it differs from the previous answer. */
export interface AltScreenSearchResult {
  /** Every match. */
  matches: AltScreenSearchMatch[];
  /** Whether lines or query changed since the last search. */
  changed: boolean;
}

/** A piece of non-blank text in the corpus and the cells it came from. */
interface CorpusSpan {
  textStart: number;
  textEnd: number;
  row: number;
  startCol: number;
  endCol: number;
  /** One code unit per cell (printable ASCII), so a match may start or end inside the span. */
  linearColumns: boolean;
}

/** The transcript as one string: blank runs and line breaks become single spaces. */
interface SearchCorpus {
  text: string;
  spans: CorpusSpan[];
}

const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;
const BLANK = /^\s+$/u;

function buildSearchCorpus(lines: readonly string[]): SearchCorpus {
  const segmenter = getGraphemeSegmenter();
  const chunks: string[] = [];
  const spans: CorpusSpan[] = [];
  let length = 0;
  let separatorPending = false;
  const push = (text: string, row: number, startCol: number, endCol: number, linearColumns: boolean) => {
    if (separatorPending) {
      chunks.push(" ");
      length += 1;
      separatorPending = false;
    }
    chunks.push(text);
    spans.push({ textStart: length, textEnd: length + text.length, row, startCol, endCol, linearColumns });
    length += text.length;
  };
  for (let row = 0; row < lines.length; row++) {
    const line = stripTerminalSequences(lines[row] ?? "");
    let column = 0;
    if (PRINTABLE_ASCII.test(line)) {
      // Transcripts are mostly ASCII: take each run of non-spaces whole instead of per grapheme.
      let index = 0;
      while (index < line.length) {
        if (line.charCodeAt(index) === 0x20) {
          if (length > 0) separatorPending = true;
          column += 1;
          index += 1;
          continue;
        }
        let end = index + 1;
        while (end < line.length && line.charCodeAt(end) !== 0x20) end += 1;
        push(line.slice(index, end), row, column, column + end - index, true);
        column += end - index;
        index = end;
      }
    } else {
      for (const { segment } of segmenter.segment(line)) {
        const width = visibleWidth(segment);
        if (BLANK.test(segment)) {
          if (length > 0) separatorPending = true;
        } else {
          push(segment, row, column, column + width, false);
        }
        column += width;
      }
    }
    if (length > 0) separatorPending = true;
  }
  return { text: chunks.join(""), spans };
}

/** Blank runs become one space, ends trimmed: the corpus has no other blanks. */
function normalizeQuery(query: string): string {
  return query.replace(/\s+/gu, " ").trim();
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** Case-insensitive, non-overlapping matches in corpus order, mapped back to screen cells. */
function findCorpusMatches(corpus: SearchCorpus, query: string): AltScreenSearchMatch[] {
  if (!query) return [];
  const matches: AltScreenSearchMatch[] = [];
  let first = 0;
  for (const found of corpus.text.matchAll(new RegExp(escapeRegExp(query), "giu"))) {
    const start = found.index;
    const end = start + found[0].length;
    while (first < corpus.spans.length && corpus.spans[first].textEnd <= start) first += 1;
    const segments: AltScreenSearchSegment[] = [];
    for (let index = first; index < corpus.spans.length; index++) {
      const span = corpus.spans[index];
      if (span.textStart >= end) break;
      if (span.textEnd <= start) continue;
      const startCol = span.linearColumns
        ? span.startCol + Math.max(start, span.textStart) - span.textStart
        : span.startCol;
      const endCol = span.linearColumns
        ? span.startCol + Math.min(end, span.textEnd) - span.textStart
        : span.endCol;
      const previous = segments[segments.length - 1];
      if (previous && previous.row === span.row && startCol <= previous.endCol) {
        previous.endCol = Math.max(previous.endCol, endCol);
      } else {
        segments.push({ row: span.row, startCol, endCol });
      }
    }
    while (first < corpus.spans.length && corpus.spans[first].textEnd <= end) first += 1;
    if (segments.length > 0) matches.push({ segments });
  }
  return matches;
}

/** Cache the searchable corpus and matches while rendered transcript lines remain unchanged. */
export class AltScreenSearchIndex {
  private sourceLines: string[] | undefined;
  private corpus: SearchCorpus | undefined;
  private normalizedQuery: string | undefined;
  private matches: AltScreenSearchMatch[] = [];

  /** The matches of `query` in `lines`; `changed` says whether the lines or the query changed. */
  search(lines: readonly string[], query: string): AltScreenSearchResult {
    const previous = this.sourceLines;
    let sourceChanged = previous?.length !== lines.length;
    if (!sourceChanged && previous) {
      for (let index = 0; index < lines.length; index++) {
        if (previous[index] !== lines[index]) {
          sourceChanged = true;
          break;
        }
      }
    }
    if (sourceChanged || !this.corpus) {
      this.sourceLines = Array.from(lines);
      this.corpus = buildSearchCorpus(lines);
    }
    const normalizedQuery = normalizeQuery(query);
    const changed = sourceChanged || normalizedQuery !== this.normalizedQuery;
    if (changed) {
      this.normalizedQuery = normalizedQuery;
      this.matches = findCorpusMatches(this.corpus, normalizedQuery);
    }
    return { matches: this.matches, changed };
  }
}

/** Every match of `query` in `lines` (no caching). */
export function findAltScreenSearchMatches(lines: readonly string[], query: string): AltScreenSearchMatch[] {
  const normalizedQuery = normalizeQuery(query);
  return normalizedQuery ? findCorpusMatches(buildSearchCorpus(lines), normalizedQuery) : [];
}

/** An identity for a match that survives re-searching unchanged lines: its first and last cells. */
export function getAltScreenSearchMatchKey(match: AltScreenSearchMatch): string {
  const first = match.segments[0];
  const last = match.segments[match.segments.length - 1];
  return first && last ? `${first.row}:${first.startCol}:${last.row}:${last.endCol}` : "";
}

/** A key id such as `shift+ctrl+g` as shown to people: `Shift+Ctrl+G` (`Option` for alt on macOS). */
function formatKey(key: string | undefined): string {
  if (!key) return "Unbound";
  return key.split("+").map((part) => {
    if (Deno.build.os === "darwin" && part.toLowerCase() === "alt") return "Option";
    return part.charAt(0).toUpperCase() + part.slice(1);
  }).join("+");
}

/**
 * The search box: a framed input with the result count ("2/7", "No matches") and, in the bottom
 * border, previous/next buttons that name their keys (just arrows when narrow).
 */
export class AltScreenSearchComponent implements Component, Focusable {
  private readonly input = new Input({
    prompt: " ",
    placeholder: "Find in transcript",
    placeholderStyle: (text: string) => `\x1b[2m${text}\x1b[22m`,
  });
  private readonly onQueryChange: (query: string) => void;
  private readonly navigationButtonStyle: (text: string, hovered: boolean) => string;
  private resultCount = 0;
  private resultIndex = -1;
  private previousButtonStart = -1;
  private previousButtonEnd = -1;
  private nextButtonStart = -1;
  private nextButtonEnd = -1;
  private hoveredNavigationDirection: -1 | 1 | undefined;
  private _focused = false;

  /** `onQueryChange` hears every edit of the query; `navigationButtonStyle` styles the buttons (hovered or not). */
  constructor(
    onQueryChange: (query: string) => void,
    navigationButtonStyle: (text: string, hovered: boolean) => string = (text) => text,
  ) {
    this.onQueryChange = onQueryChange;
    this.navigationButtonStyle = navigationButtonStyle;
  }

  /** Whether the box has keyboard focus (passed on to its input, which then shows the cursor). */
  get focused(): boolean {
    return this._focused;
  }

  set focused(value: boolean) {
    this._focused = value;
    this.input.focused = value;
  }

  /** The selected match (`index`, -1 for none) and how many there are. */
  setResult(index: number, count: number): void {
    this.resultIndex = index;
    this.resultCount = count;
  }

  /** -1 or 1 when (`row`, `column`) of the last render is on the previous or next button. */
  getNavigationDirectionAt(row: number, column: number): -1 | 1 | undefined {
    if (row !== 2) return undefined;
    if (column >= this.previousButtonStart && column < this.previousButtonEnd) return -1;
    if (column >= this.nextButtonStart && column < this.nextButtonEnd) return 1;
    return undefined;
  }

  /** Sets the hovered button; true when that changed (a frame is due). */
  setHoveredNavigationDirection(direction: -1 | 1 | undefined): boolean {
    if (direction === this.hoveredNavigationDirection) return false;
    this.hoveredNavigationDirection = direction;
    return true;
  }

  /** Edits the query; the callback hears of every change. */
  handleInput(data: string): void {
    const previous = this.input.getValue();
    this.input.handleInput(data);
    const query = this.input.getValue();
    if (query !== previous) this.onQueryChange(query);
  }

  /** Forwards to the input. */
  invalidate(): void {
    this.input.invalidate();
  }

  /** Three lines: top border, input with result, bottom border with the buttons. */
  render(width: number): string[] {
    const safeWidth = Math.max(1, width);
    const innerWidth = Math.max(0, safeWidth - 2);
    const keybindings = getKeybindings();
    const previousKey = formatKey(keybindings.getKeys("tui.altScreen.searchPrevious")[0]);
    const nextKey = formatKey(keybindings.getKeys("tui.altScreen.searchNext")[0]);

    const query = this.input.getValue();
    const result = !query
      ? ""
      : this.resultCount === 0
      ? "No matches"
      : `${this.resultIndex + 1}/${this.resultCount}`;
    const shownResult = truncateToWidth(result, Math.max(0, innerWidth - 3), "");
    const resultText = shownResult ? `\x1b[2m ${shownResult} \x1b[22m` : "";
    const inputWidth = Math.max(0, innerWidth - visibleWidth(resultText));
    const inputLine = truncateToWidth(this.input.render(Math.max(1, inputWidth))[0] ?? "", inputWidth, "");
    const content = inputLine + " ".repeat(Math.max(0, inputWidth - visibleWidth(inputLine))) + resultText;

    // The buttons sit in the bottom border with one rule cell of gap on each side; they fall back
    // to bare arrows, and disappear when even those do not fit.
    const gap = 1;
    const room = Math.max(0, innerWidth - gap * 2 - 1);
    let previousButton = `↑ ${previousKey}`;
    let nextButton = `↓ ${nextKey}`;
    let separator = " · ";
    let controlsWidth = visibleWidth(previousButton) + visibleWidth(separator) + visibleWidth(nextButton);
    if (controlsWidth > room) {
      previousButton = "↑";
      nextButton = "↓";
      separator = " ";
      controlsWidth = 3;
    }
    const showButtons = controlsWidth <= room;
    const buttons = showButtons
      ? this.navigationButtonStyle(previousButton, this.hoveredNavigationDirection === -1) + separator +
        this.navigationButtonStyle(nextButton, this.hoveredNavigationDirection === 1)
      : "";
    const gapsWidth = showButtons ? gap * 2 : 0;
    const rightRule = buttons && innerWidth > controlsWidth + gapsWidth ? 1 : 0;
    const leftRule = Math.max(0, innerWidth - (showButtons ? controlsWidth : 0) - gapsWidth - rightRule);
    const previousStart = 1 + leftRule + gap;
    this.previousButtonStart = showButtons ? previousStart : -1;
    this.previousButtonEnd = showButtons ? previousStart + visibleWidth(previousButton) : -1;
    this.nextButtonStart = showButtons ? this.previousButtonEnd + visibleWidth(separator) : -1;
    this.nextButtonEnd = showButtons ? this.nextButtonStart + visibleWidth(nextButton) : -1;

    if (safeWidth === 1) return ["┌", "│", "└"];
    const pad = buttons ? " " : "";
    return [
      `┌${"─".repeat(innerWidth)}┐`,
      `│${content}│`,
      `└${"─".repeat(leftRule)}${pad}${buttons}${pad}${"─".repeat(rightRule)}┘`,
    ];
  }
}
