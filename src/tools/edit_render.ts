/**
 * What an edit shows: the line-numbered diff in `details.diff` (also used for previews) and a
 * standard unified patch in `details.patch`, both computed only around the replaced ranges so
 * time and memory follow the size of the change, not of the file.
 *
 * @module
 */
import type { Replacement } from "./edit_replacements.ts";

type DiffModule = typeof import("npm:diff@8.0.4");
let diffModule: DiffModule | undefined;

/** Loads the differ (npm:diff) — with the first edit, not at start-up. */
export async function loadDiff(): Promise<void> {
  diffModule ??= await import("npm:diff@8.0.4");
}

function differ(): DiffModule {
  if (!diffModule) throw new Error("edit diff: await loadDiff() first");
  return diffModule;
}

/** A rendered diff and the first changed line (1-based, in the new file). */
export interface EditDiffResult {
  /** The diff, with line numbers. */
  diff: string;
  /** First changed line of the new file, if any. */
  firstChangedLine: number | undefined;
}

/** The diff and the unified patch of one edit. */
export interface EditRender extends EditDiffResult {
  patch: string;
}

/** Lines as `text.split("\n").length` counts them. */
function countLines(text: string): number {
  return countLineFeeds(text, 0, text.length) + 1;
}

function countLineFeeds(text: string, start: number, end: number): number {
  let count = 0;
  for (let i = text.indexOf("\n", start); i !== -1 && i < end; i = text.indexOf("\n", i + 1)) count++;
  return count;
}

type DiffPart = { value: string; added?: boolean; removed?: boolean };

/**
 * Formats jsdiff line parts: `+N`/`-N` for changed lines, ` N` for up to `contextLines` lines
 * of context around changes and ` ...` where unchanged lines are skipped, numbering from the
 * given 1-based old and new lines, padded to `width`.
 */
function formatDisplayDiff(
  parts: DiffPart[],
  oldStart: number,
  newStart: number,
  width: number,
  contextLines: number,
): { output: string[]; firstChangedLine: number | undefined } {
  const out: string[] = [];
  const num = (n: number) => String(n).padStart(width, " ");
  const gap = ` ${"".padStart(width, " ")} ...`;
  let oldLine = oldStart;
  let newLine = newStart;
  let afterChange = false;
  let firstChangedLine: number | undefined;
  const context = (lines: string[]) => {
    for (const line of lines) {
      out.push(` ${num(oldLine)} ${line}`);
      oldLine++;
      newLine++;
    }
  };
  const skip = (count: number) => {
    oldLine += count;
    newLine += count;
  };
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i];
    const lines = part.value.split("\n");
    if (lines[lines.length - 1] === "") lines.pop();
    if (part.added || part.removed) {
      firstChangedLine ??= newLine;
      for (const line of lines) {
        if (part.added) out.push(`+${num(newLine++)} ${line}`);
        else out.push(`-${num(oldLine++)} ${line}`);
      }
      afterChange = true;
      continue;
    }
    const beforeChange = i < parts.length - 1 && Boolean(parts[i + 1].added || parts[i + 1].removed);
    if (afterChange && beforeChange) {
      if (lines.length <= contextLines * 2) {
        context(lines);
      } else {
        context(lines.slice(0, contextLines));
        out.push(gap);
        skip(lines.length - 2 * contextLines);
        context(lines.slice(lines.length - contextLines));
      }
    } else if (afterChange) {
      const shown = lines.slice(0, contextLines);
      context(shown);
      if (lines.length > shown.length) {
        out.push(gap);
        skip(lines.length - shown.length);
      }
    } else if (beforeChange) {
      const hidden = Math.max(0, lines.length - contextLines);
      if (hidden > 0) {
        out.push(gap);
        skip(hidden);
      }
      context(lines.slice(hidden));
    } else {
      skip(lines.length);
    }
    afterChange = false;
  }
  return { output: out, firstChangedLine };
}

/** The numbered diff of two whole texts (see {@link generateEditDiff} for edits). */
export function generateDiffString(oldContent: string, newContent: string, contextLines = 4): EditDiffResult {
  const width = String(Math.max(countLines(oldContent), countLines(newContent))).length;
  const { output, firstChangedLine } = formatDisplayDiff(
    differ().diffLines(oldContent, newContent),
    1,
    1,
    width,
    contextLines,
  );
  return { diff: output.join("\n"), firstChangedLine };
}

/** Unchanged lines diffed on each side of a replacement: enough for jsdiff to align as over the file. */
const DIFF_WINDOW_MARGIN_LINES = 32;

interface DiffWindow {
  oldStart: number;
  oldEnd: number;
  oldLine: number;
  newStart: number;
  newEnd: number;
  newLine: number;
}

/** Start of the line holding `offset`. */
function lineStartBefore(text: string, offset: number): number {
  return offset === 0 ? 0 : text.lastIndexOf("\n", offset - 1) + 1;
}

/** Whole-line windows with margins around sorted, disjoint replacements; overlapping ones merge. */
function diffWindows(base: string, replacements: Replacement[]): DiffWindow[] {
  const windows: DiffWindow[] = [];
  let offsetDelta = 0;
  let lineDelta = 0;
  let cursorOffset = 0;
  let cursorLine = 0;
  for (const r of replacements) {
    const matchEnd = r.matchIndex + r.matchLength;
    let start = lineStartBefore(base, r.matchIndex);
    for (let i = 0; i < DIFF_WINDOW_MARGIN_LINES && start > 0; i++) start = lineStartBefore(base, start - 1);
    let end = matchEnd;
    for (let i = 0; i <= DIFF_WINDOW_MARGIN_LINES && end < base.length; i++) {
      const lineFeed = base.indexOf("\n", i === 0 ? Math.max(matchEnd - 1, r.matchIndex) : end);
      end = lineFeed === -1 ? base.length : lineFeed + 1;
    }
    const rOffsetDelta = r.newText.length - r.matchLength;
    const rLineDelta = countLineFeeds(r.newText, 0, r.newText.length) -
      countLineFeeds(base, r.matchIndex, matchEnd);
    const previous = windows.at(-1);
    if (previous && start <= previous.oldEnd) {
      previous.oldEnd = Math.max(previous.oldEnd, end);
      previous.newEnd = previous.oldEnd + offsetDelta + rOffsetDelta;
    } else {
      cursorLine += countLineFeeds(base, cursorOffset, start);
      cursorOffset = start;
      windows.push({
        oldStart: start,
        oldEnd: end,
        oldLine: cursorLine,
        newStart: start + offsetDelta,
        newEnd: end + offsetDelta + rOffsetDelta,
        newLine: cursorLine + lineDelta,
      });
    }
    offsetDelta += rOffsetDelta;
    lineDelta += rLineDelta;
  }
  return windows;
}

/**
 * The numbered diff and unified patch of an edit, diffing only windows around its replacements
 * (sorted, disjoint, in `baseContent` offsets). Equal to whole-file diffs except that jsdiff may
 * align runs of repeated lines differently inside a window.
 */
export function generateEditDiff(
  path: string,
  baseContent: string,
  newContent: string,
  replacements: Replacement[],
  contextLines = 4,
): EditRender {
  const Diff = differ();
  const width = String(Math.max(countLines(baseContent), countLines(newContent))).length;
  const skipMarker = ` ${"".padStart(width, " ")} ...`;
  const output: string[] = [];
  const hunks: ReturnType<DiffModule["structuredPatch"]>["hunks"] = [];
  let firstChangedLine: number | undefined;
  for (const w of diffWindows(baseContent, replacements)) {
    const oldText = baseContent.slice(w.oldStart, w.oldEnd);
    const newText = newContent.slice(w.newStart, w.newEnd);
    const shown = formatDisplayDiff(
      Diff.diffLines(oldText, newText),
      w.oldLine + 1,
      w.newLine + 1,
      width,
      contextLines,
    );
    firstChangedLine ??= shown.firstChangedLine;
    // Both windows around a run of unchanged lines mark it skipped; a whole-file diff shows one marker.
    if (output.at(-1) === skipMarker && shown.output[0] === skipMarker) shown.output.shift();
    for (const line of shown.output) output.push(line);
    const patch = Diff.structuredPatch(path, path, oldText, newText, undefined, undefined, {
      context: contextLines,
    });
    for (const hunk of patch.hunks) {
      hunks.push({ ...hunk, oldStart: hunk.oldStart + w.oldLine, newStart: hunk.newStart + w.newLine });
    }
  }
  const patch = Diff.formatPatch(
    { oldFileName: path, newFileName: path, oldHeader: undefined, newHeader: undefined, hunks },
    Diff.FILE_HEADERS_ONLY,
  );
  return { diff: output.join("\n"), patch, firstChangedLine };
}
