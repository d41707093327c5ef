/**
 * Text matching and diff rendering for the edit tool: line-ending and BOM handling, the exact
 * then fuzzy search for `oldText`, multi-edit application, and the numbered diff stored in
 * `details.diff` (also used for TUI previews before the edit runs).
 *
 * @module
 */
type DiffLines = typeof import("npm:diff@8.0.4").diffLines;
let diffLines: DiffLines | undefined;

/** Loads the line differ (npm:diff) — with the first edit, not at start-up. */
export async function loadDiff(): Promise<void> {
  diffLines ??= (await import("npm:diff@8.0.4")).diffLines;
}
import { checkAccess, readFileBytes } from "../util/fs.ts";
import { resolveToCwd } from "./path_utils.ts";

/** One replacement: `oldText` must occur exactly once in the original file. */
export interface Edit {
  oldText: string;
  newText: string;
}

/** Where `oldText` was found, and in which text (original or fuzzy-normalised) the index applies. */
export interface FuzzyMatchResult {
  found: boolean;
  index: number;
  matchLength: number;
  usedFuzzyMatch: boolean;
  contentForReplacement: string;
}

/** Content before and after applying edits, both LF-normalised (and fuzzy-normalised if needed). */
export interface AppliedEditsResult {
  baseContent: string;
  newContent: string;
}

/** A rendered diff and the first changed line (1-based, in the new file). */
export interface EditDiffResult {
  diff: string;
  firstChangedLine: number | undefined;
}

/** A preview that could not be computed, with the message the edit itself would fail with. */
export interface EditDiffError {
  error: string;
}

/** The file's dominant line ending, judged by its first line break. */
export function detectLineEnding(content: string): "\r\n" | "\n" {
  const lf = content.indexOf("\n");
  if (lf === -1) return "\n";
  const crlf = content.indexOf("\r\n");
  if (crlf === -1) return "\n";
  return crlf < lf ? "\r\n" : "\n";
}

/** Turns CRLF and lone CR into LF so matching ignores line-ending style. */
export function normalizeToLF(text: string): string {
  return text.replace(/\r\n/g, "\n").replace(/\r/g, "\n");
}

/** Converts LF text back to the file's original line ending. */
export function restoreLineEndings(text: string, ending: "\r\n" | "\n"): string {
  return ending === "\r\n" ? text.replace(/\n/g, "\r\n") : text;
}

/**
 * The forgiving form used when an exact match fails: NFKC, no trailing whitespace per line,
 * ASCII quotes and hyphens, plain spaces. Models often retype typographic characters as ASCII.
 */
export function normalizeForFuzzyMatch(text: string): string {
  return text
    .normalize("NFKC")
    .split("\n")
    .map((line) => line.trimEnd())
    .join("\n")
    .replace(/[\u2018\u2019\u201A\u201B]/g, "'")
    .replace(/[\u201C\u201D\u201E\u201F]/g, '"')
    .replace(/[\u2010\u2011\u2012\u2013\u2014\u2015\u2212]/g, "-")
    .replace(/[\u00A0\u2002-\u200A\u202F\u205F\u3000]/g, " ");
}

/**
 * Looks for `oldText` verbatim, then in fuzzy-normalised space. A fuzzy hit's index refers to
 * the normalised content, which is what replacement must then operate on.
 */
export function fuzzyFindText(content: string, oldText: string): FuzzyMatchResult {
  const exact = content.indexOf(oldText);
  if (exact !== -1) {
    return {
      found: true,
      index: exact,
      matchLength: oldText.length,
      usedFuzzyMatch: false,
      contentForReplacement: content,
    };
  }
  const fuzzyContent = normalizeForFuzzyMatch(content);
  const fuzzyOld = normalizeForFuzzyMatch(oldText);
  const index = fuzzyContent.indexOf(fuzzyOld);
  if (index === -1) {
    return { found: false, index: -1, matchLength: 0, usedFuzzyMatch: false, contentForReplacement: content };
  }
  return {
    found: true,
    index,
    matchLength: fuzzyOld.length,
    usedFuzzyMatch: true,
    contentForReplacement: fuzzyContent,
  };
}

/** Splits off a leading UTF-8 BOM; models never include it in `oldText`. */
export function stripBom(content: string): { bom: string; text: string } {
  return content.startsWith("\uFEFF")
    ? { bom: "\uFEFF", text: content.slice(1) }
    : { bom: "", text: content };
}

function countFuzzyOccurrences(content: string, oldText: string): number {
  return normalizeForFuzzyMatch(content).split(normalizeForFuzzyMatch(oldText)).length - 1;
}

function notFound(path: string, i: number, total: number): Error {
  return new Error(
    total === 1
      ? `Could not find the exact text in ${path}. The old text must match exactly including all whitespace and newlines.`
      : `Could not find edits[${i}] in ${path}. The oldText must match exactly including all whitespace and newlines.`,
  );
}

function duplicate(path: string, i: number, total: number, count: number): Error {
  return new Error(
    total === 1
      ? `Found ${count} occurrences of the text in ${path}. The text must be unique. Please provide more context to make it unique.`
      : `Found ${count} occurrences of edits[${i}] in ${path}. Each oldText must be unique. Please provide more context to make it unique.`,
  );
}

function emptyOldText(path: string, i: number, total: number): Error {
  return new Error(
    total === 1
      ? `oldText must not be empty in ${path}.`
      : `edits[${i}].oldText must not be empty in ${path}.`,
  );
}

function noChange(path: string, total: number): Error {
  return new Error(
    total === 1
      ? `No changes made to ${path}. The replacement produced identical content. This might indicate an issue with special characters or the text not existing as expected.`
      : `No changes made to ${path}. The replacements produced identical content.`,
  );
}

/**
 * Applies all edits to LF content. Every `oldText` is matched against the same original text
 * (not incrementally); if any edit needs the fuzzy form, all of them work in fuzzy space. Throws
 * the tool's error texts for empty, missing, duplicate, overlapping and no-op edits.
 */
export function applyEditsToNormalizedContent(
  normalizedContent: string,
  edits: Edit[],
  path: string,
): AppliedEditsResult {
  const lfEdits = edits.map((e) => ({
    oldText: normalizeToLF(e.oldText),
    newText: normalizeToLF(e.newText),
  }));
  const total = lfEdits.length;
  lfEdits.forEach((e, i) => {
    if (e.oldText.length === 0) throw emptyOldText(path, i, total);
  });
  const needsFuzzy = lfEdits.some((e) => fuzzyFindText(normalizedContent, e.oldText).usedFuzzyMatch);
  const baseContent = needsFuzzy ? normalizeForFuzzyMatch(normalizedContent) : normalizedContent;

  const matches = lfEdits.map((e, i) => {
    const m = fuzzyFindText(baseContent, e.oldText);
    if (!m.found) throw notFound(path, i, total);
    const count = countFuzzyOccurrences(baseContent, e.oldText);
    if (count > 1) throw duplicate(path, i, total, count);
    return { editIndex: i, start: m.index, length: m.matchLength, newText: e.newText };
  });
  matches.sort((a, b) => a.start - b.start);
  for (let i = 1; i < matches.length; i++) {
    const prev = matches[i - 1];
    const cur = matches[i];
    if (prev.start + prev.length > cur.start) {
      throw new Error(
        `edits[${prev.editIndex}] and edits[${cur.editIndex}] overlap in ${path}. Merge them into one edit or target disjoint regions.`,
      );
    }
  }
  let newContent = baseContent;
  for (let i = matches.length - 1; i >= 0; i--) {
    const m = matches[i];
    newContent = newContent.substring(0, m.start) + m.newText + newContent.substring(m.start + m.length);
  }
  if (newContent === baseContent) throw noChange(path, total);
  return { baseContent, newContent };
}

/**
 * Renders a line-numbered diff: `+N`/`-N` for changed lines, ` N` for up to `contextLines`
 * lines of context around changes and ` ...` where unchanged lines are skipped. Numbers are
 * padded to the width of the longer file's line count.
 */
export function generateDiffString(oldContent: string, newContent: string, contextLines = 4): EditDiffResult {
  if (!diffLines) throw new Error("generateDiffString: await loadDiff() first");
  const parts = diffLines(oldContent, newContent);
  const out: string[] = [];
  const width = String(Math.max(oldContent.split("\n").length, newContent.split("\n").length)).length;
  const num = (n: number) => String(n).padStart(width, " ");
  const gap = ` ${"".padStart(width, " ")} ...`;
  let oldLine = 1;
  let newLine = 1;
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
  return { diff: out.join("\n"), firstChangedLine };
}

/**
 * Computes the diff an edit would produce without writing anything (for previews). Failures
 * come back as `{ error }` carrying the message the real edit would throw.
 */
export async function computeEditsDiff(
  path: string,
  edits: Edit[],
  cwd: string,
): Promise<EditDiffResult | EditDiffError> {
  const absolutePath = resolveToCwd(path, cwd);
  try {
    try {
      await checkAccess(absolutePath);
    } catch (error) {
      return { error: `Could not edit file: ${path}. ${describeAccessError(error)}.` };
    }
    const { text } = stripBom(
      new TextDecoder("utf-8", { ignoreBOM: true }).decode(await readFileBytes(absolutePath)),
    );
    const { baseContent, newContent } = applyEditsToNormalizedContent(normalizeToLF(text), edits, path);
    await loadDiff();
    return generateDiffString(baseContent, newContent);
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
}

/** Single-edit convenience form of {@link computeEditsDiff}. */
export function computeEditDiff(
  path: string,
  oldText: string,
  newText: string,
  cwd: string,
): Promise<EditDiffResult | EditDiffError> {
  return computeEditsDiff(path, [{ oldText, newText }], cwd);
}

/** "Error code: ENOENT" for file system errors, the plain text otherwise (as the reference words it). */
export function describeAccessError(error: unknown): string {
  return error instanceof Error && "code" in error
    ? `Error code: ${(error as { code: unknown }).code}`
    : String(error);
}
