/**
 * Paste markers of the Editor: a large paste is stored aside and stands in the text as
 * `[paste #n +x lines]` or `[paste #n y chars]`. These helpers find, merge and renumber markers.
 *
 * @module
 */

/** Every paste marker in a text, with its id (group 1) and optional size suffix (group 2). */
export const PASTE_MARKER_REGEX = /\[paste #(\d+)( (\+\d+ lines|\d+ chars))?\]/g;

/** One whole segment that is exactly a paste marker. */
export const PASTE_MARKER_SINGLE = /^\[paste #(\d+)( (\+\d+ lines|\d+ chars))?\]$/;

/** Whether a segment is a paste marker (merged into one unit by {@link segmentWithMarkers}). */
export function isPasteMarker(segment: string): boolean {
  // "[paste #1]" is the shortest marker: anything shorter cannot be one.
  return segment.length >= 10 && PASTE_MARKER_SINGLE.test(segment);
}

/**
 * Segments `text` with `base`, merging the graphemes (or words) inside a marker whose id is in
 * `validIds` into one segment, so cursor moves, deletes and wrapping treat the marker as a unit.
 * Markers with unknown ids (typed by hand, or whose paste was dropped) stay ordinary text.
 */
export function segmentWithMarkers(
  text: string,
  base: Intl.Segmenter,
  validIds: ReadonlySet<number>,
): Iterable<Intl.SegmentData> {
  if (validIds.size === 0 || !text.includes("[paste #")) return base.segment(text);
  const spans: Array<{ start: number; end: number }> = [];
  for (const m of text.matchAll(PASTE_MARKER_REGEX)) {
    if (validIds.has(Number.parseInt(m[1], 10))) spans.push({ start: m.index, end: m.index + m[0].length });
  }
  if (spans.length === 0) return base.segment(text);
  const merged: Intl.SegmentData[] = [];
  let next = 0;
  for (const seg of base.segment(text)) {
    while (next < spans.length && spans[next].end <= seg.index) next++;
    const span = spans[next];
    if (span && seg.index >= span.start && seg.index < span.end) {
      // The first piece of a marker stands for all of it; the rest are swallowed.
      if (seg.index === span.start) {
        merged.push({ segment: text.slice(span.start, span.end), index: span.start, input: text });
      }
      continue;
    }
    merged.push(seg);
  }
  return merged;
}

/** Replaces each marker of a stored paste with that paste's content. */
export function expandPasteMarkers(text: string, pastes: ReadonlyMap<number, string>): string {
  let result = text;
  for (const [id, content] of pastes) {
    const marker = new RegExp(`\\[paste #${id}( (\\+\\d+ lines|\\d+ chars))?\\]`, "g");
    result = result.replace(marker, () => content);
  }
  return result;
}

/**
 * Forgets paste `removedId` and closes the gap: higher ids move down by one, both in the store and
 * in the markers of `lines` (ascending id order, whatever order the markers stand in the text).
 */
export function removePasteAndRenumber(
  lines: string[],
  pastes: Map<number, string>,
  removedId: number,
): string[] {
  pastes.delete(removedId);
  const higher = [...pastes.keys()].filter((id) => id > removedId).sort((a, b) => a - b);
  for (const id of higher) {
    pastes.set(id - 1, pastes.get(id)!);
    pastes.delete(id);
  }
  return lines.map((line) =>
    line.replace(PASTE_MARKER_REGEX, (whole: string, id: string, suffix: string | undefined) => {
      const n = Number(id);
      return n <= removedId ? whole : `[paste #${n - 1}${suffix ?? ""}]`;
    })
  );
}

/** The marker text for a paste of `text` stored under `id`: lines win over characters. */
export function pasteMarkerFor(id: number, text: string): string {
  const lineCount = text.split("\n").length;
  return lineCount > 10 ? `[paste #${id} +${lineCount} lines]` : `[paste #${id} ${text.length} chars]`;
}

/** Whether a paste is large enough to be stored aside behind a marker (> 10 lines or > 1000 chars). */
export function isLargePaste(text: string): boolean {
  return text.split("\n").length > 10 || text.length > 1000;
}
