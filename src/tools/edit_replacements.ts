/**
 * Replacements of the edit tool as offsets into text: applying them, widening fuzzy matches to
 * whole lines of the original, and splicing them into the original file so that every byte the
 * edit did not touch (line endings of untouched lines included) stays as it was.
 *
 * @module
 */

/** One replacement in some text: `matchLength` characters at `matchIndex` become `newText`. */
export interface Replacement {
  matchIndex: number;
  matchLength: number;
  newText: string;
}

/** Applies sorted, disjoint replacements to `content` whose first character is at `offset`. */
export function applyReplacements(content: string, replacements: Replacement[], offset = 0): string {
  let result = content;
  for (let i = replacements.length - 1; i >= 0; i--) {
    const r = replacements[i];
    const at = r.matchIndex - offset;
    result = result.substring(0, at) + r.newText + result.substring(at + r.matchLength);
  }
  return result;
}

interface Span {
  start: number;
  end: number;
}

/** Line spans, each including its LF; a last line without one ends at the text's end. */
function lineSpans(content: string): Span[] {
  const spans: Span[] = [];
  let offset = 0;
  for (const line of content.match(/[^\n]*\n|[^\n]+/g) ?? []) {
    spans.push({ start: offset, end: offset + line.length });
    offset += line.length;
  }
  return spans;
}

function lineRange(lines: Span[], r: Replacement): { startLine: number; endLine: number } {
  const start = r.matchIndex;
  const end = r.matchIndex + r.matchLength;
  const startLine = lines.findIndex((l) => start >= l.start && start < l.end);
  if (startLine === -1) throw new Error("Replacement range is outside the base content.");
  let endLine = startLine;
  while (endLine < lines.length && lines[endLine].end < end) endLine++;
  if (endLine >= lines.length) throw new Error("Replacement range is outside the base content.");
  return { startLine, endLine: endLine + 1 };
}

/**
 * Turns replacements matched in `baseContent` (a fuzzy-normalised view with the same lines as
 * `originalContent`) into replacements of the original: each covers the whole lines it touches,
 * rewritten from the normalised text, so every other line keeps its original characters.
 */
export function widenReplacementsToLines(
  originalContent: string,
  baseContent: string,
  replacements: Replacement[],
): Replacement[] {
  const originalLines = lineSpans(originalContent);
  const baseLines = lineSpans(baseContent);
  if (originalLines.length !== baseLines.length) {
    throw new Error("Cannot preserve unchanged lines because the base content has a different line count.");
  }
  const groups: { startLine: number; endLine: number; replacements: Replacement[] }[] = [];
  for (const r of [...replacements].sort((a, b) => a.matchIndex - b.matchIndex)) {
    const range = lineRange(baseLines, r);
    const current = groups[groups.length - 1];
    if (current && range.startLine < current.endLine) {
      current.endLine = Math.max(current.endLine, range.endLine);
      current.replacements.push(r);
      continue;
    }
    groups.push({ ...range, replacements: [r] });
  }
  return groups.map((g) => {
    const baseStart = baseLines[g.startLine].start;
    const baseEnd = baseLines[g.endLine - 1].end;
    const originalStart = originalLines[g.startLine].start;
    return {
      matchIndex: originalStart,
      matchLength: originalLines[g.endLine - 1].end - originalStart,
      newText: applyReplacements(baseContent.slice(baseStart, baseEnd), g.replacements, baseStart),
    };
  });
}

/**
 * The line ending of the line holding `offset` (that of the line before for an unterminated
 * last line). A lone CR counts only in files without any LF (classic Mac endings).
 */
function lineEndingAt(content: string, offset: number): string {
  let lineFeed = content.indexOf("\n", offset);
  if (lineFeed === -1) lineFeed = content.lastIndexOf("\n", offset);
  if (lineFeed === -1) return content.includes("\r") ? "\r" : "\n";
  return content[lineFeed - 1] === "\r" ? "\r\n" : "\n";
}

/**
 * Applies replacements matched in `normalizeToLF(originalContent)` to the original itself. Text
 * outside the replaced ranges keeps its bytes; line breaks of the new text take the ending of the
 * line where the replaced range starts. Normalised to LF, the result equals the replacements
 * applied to the normalised text.
 */
export function applyReplacementsToOriginal(originalContent: string, replacements: Replacement[]): string {
  // Only CRLF changes length when normalising: counting the CRLFs before a normalised offset
  // gives the original offset, and a range covering an LF covers its whole CRLF.
  let crlfBefore = 0;
  let nextCrlf = originalContent.indexOf("\r\n");
  const toOriginal = (offset: number) => {
    while (nextCrlf !== -1 && nextCrlf - crlfBefore < offset) {
      crlfBefore++;
      nextCrlf = originalContent.indexOf("\r\n", nextCrlf + 2);
    }
    return offset + crlfBefore;
  };
  const parts: string[] = [];
  let endsWithCr = false;
  const push = (part: string) => {
    if (part.length === 0) return;
    // A CR before a seam and an LF after it would merge into one CRLF; an extra LF keeps the
    // line breaks the diff shows.
    if (endsWithCr && part[0] === "\n") parts.push("\n");
    parts.push(part);
    endsWithCr = part[part.length - 1] === "\r";
  };
  let position = 0;
  for (const r of replacements) {
    const start = toOriginal(r.matchIndex);
    push(originalContent.slice(position, start));
    const ending = lineEndingAt(originalContent, start);
    push(ending === "\n" ? r.newText : r.newText.replaceAll("\n", ending));
    position = toOriginal(r.matchIndex + r.matchLength);
  }
  push(originalContent.slice(position));
  return parts.join("");
}
