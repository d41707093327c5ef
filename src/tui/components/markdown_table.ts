/**
 * GFM tables drawn with box characters. Columns get their natural width when everything fits; otherwise each
 * column keeps room for its longest word (capped at 30 cells, or shares the room by word length when even that
 * does not fit) and the rest is shared out in proportion to what each column would still grow. Cells wrap. Too
 * narrow for one cell per column, the table falls back to its markdown source.
 *
 * @module
 */
import type { Tokens } from "npm:marked@18.0.11";
import { visibleWidth, wrapTextWithAnsi } from "../utils_text.ts";
import { renderInline } from "./markdown_inline.ts";
import type { InlineStyle, MarkdownContext } from "./markdown_theme.ts";

/** A word longer than this may be broken rather than widen its column further. */
const LONGEST_UNBROKEN_WORD = 30;
/** Resets text attributes after a wrapped cell fragment so the style does not bleed into the padding and border. */
const ATTRIBUTE_RESET = "\x1b[22;23;24;25;27;28;29;39m";

const sum = (values: readonly number[]) => values.reduce((total, value) => total + value, 0);

function longestWord(text: string, cap: number): number {
  let longest = 0;
  for (const word of text.split(/\s+/)) if (word.length > 0) longest = Math.max(longest, visibleWidth(word));
  return Math.min(longest, cap);
}

function wrapCell(text: string, width: number, stylePrefix = ""): string[] {
  const lines = wrapTextWithAnsi(text, Math.max(1, width));
  return lines.map((line, index) => line + (index < lines.length - 1 ? ATTRIBUTE_RESET : "") + stylePrefix);
}

/** Minimum widths when the longest words do not all fit: one cell each, the rest shared by word length. */
function squeezedMinimums(wordWidths: readonly number[], room: number): number[] {
  const columns = wordWidths.length;
  const minimums = new Array<number>(columns).fill(1);
  const spare = room - columns;
  if (spare <= 0) return minimums;
  const weights = wordWidths.map((width) => Math.max(0, width - 1));
  const totalWeight = sum(weights);
  const growth = weights.map((weight) => totalWeight > 0 ? Math.floor((weight / totalWeight) * spare) : 0);
  for (let column = 0; column < columns; column++) minimums[column]! += growth[column] ?? 0;
  let leftover = spare - sum(growth);
  for (let column = 0; leftover > 0 && column < columns; column++, leftover--) minimums[column]!++;
  return minimums;
}

/** Column widths within `room` cells: minimums first, the remaining room shared by how much each would grow. */
function shrunkWidths(natural: readonly number[], minimums: readonly number[], room: number): number[] {
  const potential = sum(natural.map((width, column) => Math.max(0, width - minimums[column]!)));
  const extra = Math.max(0, room - sum(minimums));
  const widths = minimums.map((minimum, column) => {
    const delta = Math.max(0, natural[column]! - minimum);
    return minimum + (potential > 0 ? Math.floor((delta / potential) * extra) : 0);
  });
  // Rounding leaves a few cells over: give them one at a time to columns still below their natural width.
  let remaining = room - sum(widths);
  while (remaining > 0) {
    let grew = false;
    for (let column = 0; column < widths.length && remaining > 0; column++) {
      if (widths[column]! < natural[column]!) {
        widths[column]!++;
        remaining--;
        grew = true;
      }
    }
    if (!grew) break;
  }
  return widths;
}

/** The table's lines within `width` cells, plus a blank line when a non-space block follows. */
export function renderTable(
  ctx: MarkdownContext,
  token: Tokens.Table,
  width: number,
  nextTokenType: string | undefined,
  style?: InlineStyle,
): string[] {
  const columns = token.header.length;
  if (columns === 0) return [];
  const gapAfter = nextTokenType !== undefined && nextTokenType !== "space";
  // "│ " + (n-1) × " │ " + " │"
  const borders = 3 * columns + 1;
  const room = width - borders;
  if (room < columns) {
    const source = token.raw ? wrapTextWithAnsi(token.raw, width) : [];
    if (gapAfter) source.push("");
    return source;
  }
  const cellText = (cell: Tokens.TableCell) => renderInline(ctx, cell.tokens || [], style);
  const natural: number[] = [];
  const words: number[] = [];
  for (let column = 0; column < columns; column++) {
    const text = cellText(token.header[column]!);
    natural[column] = visibleWidth(text);
    words[column] = Math.max(1, longestWord(text, LONGEST_UNBROKEN_WORD));
  }
  for (const row of token.rows) {
    for (let column = 0; column < row.length; column++) {
      const text = cellText(row[column]!);
      natural[column] = Math.max(natural[column] || 0, visibleWidth(text));
      words[column] = Math.max(words[column] || 1, longestWord(text, LONGEST_UNBROKEN_WORD));
    }
  }
  let minimums = words;
  if (sum(minimums) > room) minimums = squeezedMinimums(words, room);
  const widths = sum(natural) + borders <= width
    ? natural.map((value, column) => Math.max(value, minimums[column]!))
    : shrunkWidths(natural, minimums, room);

  const rule = (left: string, join: string, right: string) =>
    `${left}─${widths.map((w) => "─".repeat(w)).join(`─${join}─`)}─${right}`;
  const padCell = (text: string, column: number) =>
    text + " ".repeat(Math.max(0, widths[column]! - visibleWidth(text)));
  const rowLines = (cells: Tokens.TableCell[], header: boolean): string[] => {
    const wrapped = cells.map((cell, column) =>
      wrapCell(cellText(cell), widths[column]!, style?.stylePrefix)
    );
    const height = Math.max(...wrapped.map((lines) => lines.length));
    const lines: string[] = [];
    for (let line = 0; line < height; line++) {
      const parts = wrapped.map((cellLines, column) => {
        const padded = padCell(cellLines[line] || "", column);
        return header ? ctx.theme.bold(padded) : padded;
      });
      lines.push(`│ ${parts.join(" │ ")} │`);
    }
    return lines;
  };

  const separator = rule("├", "┼", "┤");
  const lines = [rule("┌", "┬", "┐"), ...rowLines(token.header, true), separator];
  token.rows.forEach((row, index) => {
    for (const line of rowLines(row, false)) lines.push(line);
    if (index < token.rows.length - 1) lines.push(separator);
  });
  lines.push(rule("└", "┴", "┘"));
  if (gapAfter) lines.push("");
  return lines;
}
