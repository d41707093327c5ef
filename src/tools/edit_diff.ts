/**
 * Text matching and diff rendering for the edit tool: line-ending and BOM handling, the exact
 * then fuzzy search for `oldText`, multi-edit application, and the numbered diff stored in
 * `details.diff` (also used for TUI previews before the edit runs).
 *
 * @module
 */
import { checkAccess, readFileBytes } from "../util/fs.ts";
import { resolveToCwd } from "./path_utils.ts";
import { applyReplacements, type Replacement, widenReplacementsToLines } from "./edit_replacements.ts";
import { type EditDiffResult, generateEditDiff, loadDiff } from "./edit_render.ts";

export { type EditDiffResult, generateDiffString, generateEditDiff, loadDiff } from "./edit_render.ts";

/** One replacement: `oldText` must occur exactly once in the original file. */
export interface Edit {
  /** Text to replace; must match exactly once. */
  oldText: string;
  /** Its replacement. */
  newText: string;
}

/** Where `oldText` was found, and in which text (original or fuzzy-normalised) the index applies. */
interface FuzzyMatchResult {
  found: boolean;
  index: number;
  matchLength: number;
  usedFuzzyMatch: boolean;
  contentForReplacement: string;
}

/**
 * Content before and after applying edits, both LF-normalised, and the replacements (sorted,
 * disjoint, in `baseContent` offsets) that turn one into the other.
 */
export interface AppliedEditsResult {
  baseContent: string;
  newContent: string;
  replacements: Replacement[];
}

/** A preview that could not be computed, with the message the edit itself would fail with. */
export interface EditDiffError {
  error: string;
}

/** Turns CRLF and lone CR into LF so matching ignores line-ending style. */
export function normalizeToLF(text: string): string {
  return text.replace(/\r\n/g, "\n").replace(/\r/g, "\n");
}

/**
 * The forgiving form used when an exact match fails: NFKC, no trailing whitespace per line,
 * ASCII quotes and hyphens, plain spaces. Models often retype typographic characters as ASCII.
 */
function normalizeForFuzzyMatch(text: string): string {
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
function fuzzyFindText(content: string, oldText: string): FuzzyMatchResult {
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
  const matchContent = needsFuzzy ? normalizeForFuzzyMatch(normalizedContent) : normalizedContent;

  const matches = lfEdits.map((e, i) => {
    const m = fuzzyFindText(matchContent, e.oldText);
    if (!m.found) throw notFound(path, i, total);
    const count = countFuzzyOccurrences(matchContent, e.oldText);
    if (count > 1) throw duplicate(path, i, total, count);
    return { editIndex: i, matchIndex: m.index, matchLength: m.matchLength, newText: e.newText };
  });
  matches.sort((a, b) => a.matchIndex - b.matchIndex);
  for (let i = 1; i < matches.length; i++) {
    const prev = matches[i - 1];
    const cur = matches[i];
    if (prev.matchIndex + prev.matchLength > cur.matchIndex) {
      throw new Error(
        `edits[${prev.editIndex}] and edits[${cur.editIndex}] overlap in ${path}. Merge them into one edit or target disjoint regions.`,
      );
    }
  }
  // Fuzzy matches rewrite only the lines they touch; every other line keeps its characters.
  const baseContent = normalizedContent;
  const replacements = needsFuzzy
    ? widenReplacementsToLines(normalizedContent, matchContent, matches)
    : matches;
  const newContent = applyReplacements(baseContent, replacements);
  if (newContent === baseContent) throw noChange(path, total);
  return { baseContent, newContent, replacements };
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
    const { baseContent, newContent, replacements } = applyEditsToNormalizedContent(
      normalizeToLF(text),
      edits,
      path,
    );
    await loadDiff();
    const { diff, firstChangedLine } = generateEditDiff(path, baseContent, newContent, replacements);
    return { diff, firstChangedLine };
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
}

/** "Error code: ENOENT" for file system errors, the plain text otherwise (as the reference words it). */
export function describeAccessError(error: unknown): string {
  return error instanceof Error && "code" in error
    ? `Error code: ${(error as { code: unknown }).code}`
    : String(error);
}
