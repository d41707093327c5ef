/**
 * What sits at a terminal column of a rendered line (the grapheme's cells, the hyperlink), for
 * mouse selection and clicks, and the last rewrite of a line before it is written to the terminal.
 *
 * @module
 */
import { walkRuns } from "./utils_ansi.ts";
import { graphemesOf, graphemeWidth, isPrintableAscii, walkLine } from "./utils_width.ts";

/** The cells a grapheme takes: columns `start` (inclusive) to `end` (exclusive). */
export interface GraphemeCellRange {
  start: number;
  end: number;
}

/** Return the terminal-cell range occupied by the grapheme at a visible column. */
export function getGraphemeCellRange(line: string, column: number): GraphemeCellRange | undefined {
  let col = 0;
  let found: GraphemeCellRange | undefined;
  walkRuns(line, () => {}, (run) => {
    if (isPrintableAscii(run)) {
      if (column >= col && column < col + run.length) found = { start: column, end: column + 1 };
      col += run.length;
      return !found;
    }
    for (const cluster of graphemesOf(run)) {
      const w = graphemeWidth(cluster);
      // Zero-width clusters own no cell; the column belongs to a neighbour.
      if (w > 0 && column >= col && column < col + w) {
        found = { start: col, end: col + w };
        return false;
      }
      col += w;
    }
  });
  return found;
}

// deno-lint-ignore no-control-regex -- an escape sequence is made of control characters
const OSC8 = /^\x1b\]8;[^;]*;([^\x07\x1b]*)(?:\x07|\x1b\\)$/;

/** Return the OSC 8 hyperlink covering a visible terminal column. */
export function getOsc8LinkAtColumn(line: string, column: number): string | undefined {
  let url: string | undefined;
  let found: string | undefined;
  let col = 0;
  walkLine(line, (code) => {
    const link = OSC8.exec(code);
    if (link) url = link[1] || undefined;
  }, (_cluster, w) => {
    if (column >= col && column < col + w) {
      found = url;
      return false;
    }
    col += w;
  });
  return found;
}

const THAI_LAO_AM = /[\u0e33\u0eb3]/g;

/**
 * Normalize text for terminal output without changing logical editor content.
 * Some terminals render precomposed Thai/Lao AM vowels inconsistently during differential repaint;
 * their compatibility decompositions (NIKHAHIT + SARA AA) take the same cells without the stale-cell
 * artifacts. Visible tabs become the 3 spaces layout counted, so terminal tab stops cannot wrap a
 * line, while tabs inside escape sequences stay.
 */
export function normalizeTerminalOutput(str: string): string {
  const text = str.replace(THAI_LAO_AM, (am) => am === "\u0e33" ? "\u0e4d\u0e32" : "\u0ecd\u0eb2");
  if (!text.includes("\t")) return text;
  let out = "";
  walkRuns(text, (code) => {
    out += code;
  }, (run) => {
    out += run.replaceAll("\t", "   ");
  });
  return out;
}
