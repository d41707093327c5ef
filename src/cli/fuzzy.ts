/**
 * Fuzzy matching as pi-tui scores it: query characters must appear in order; consecutive runs and
 * word-boundary hits score better, gaps and late hits worse; lower scores are better. Used by
 * `--list-models <search>` so its order and selection match the reference exactly.
 *
 * @module
 */

/** Whether `query` fuzzy-matches `text`, and how well (lower is better). */
export interface FuzzyMatch {
  matches: boolean;
  score: number;
}

const BOUNDARY = /[\s\-_./:]/;

/** The score of one alignment (query character positions in `text`). */
function scorePositions(text: string, positions: readonly number[]): number {
  let score = 0;
  let lastMatch = -1;
  let run = 0;
  for (const i of positions) {
    if (lastMatch === i - 1) {
      run++;
      score -= run * 5;
    } else {
      run = 0;
      if (lastMatch >= 0) score += (i - lastMatch - 1) * 2;
    }
    if (i === 0 || BOUNDARY.test(text[i - 1])) score -= 10;
    score += i * 0.1;
    lastMatch = i;
  }
  return score;
}

function scoreQuery(query: string, text: string): FuzzyMatch {
  if (query.length === 0) return { matches: true, score: 0 };
  if (query.length > text.length) return { matches: false, score: 0 };
  // Greedy alignment: each query character at its first occurrence after the previous one.
  const positions: number[] = [];
  let last = -1;
  for (const ch of query) {
    const i = text.indexOf(ch, last + 1);
    if (i === -1) return { matches: false, score: 0 };
    positions.push(i);
    last = i;
  }
  let score = scorePositions(text, positions);
  // The greedy alignment can scatter the query over an unrelated earlier part ("opus" in
  // "openrouter …claude-opus"), so every contiguous occurrence is scored too; the best one counts.
  for (let start = text.indexOf(query); start !== -1; start = text.indexOf(query, start + 1)) {
    score = Math.min(score, scorePositions(text, positions.map((_, k) => start + k)));
  }
  if (query === text) score -= 100;
  return { matches: true, score };
}

/**
 * Scores one query against one text, case-insensitively. A query like `gpt4` or `4gpt` that does
 * not match also gets a try with its letter and digit halves swapped, at a small penalty.
 */
export function fuzzyMatch(query: string, text: string): FuzzyMatch {
  const q = query.toLowerCase();
  const t = text.toLowerCase();
  const primary = scoreQuery(q, t);
  if (primary.matches) return primary;
  const letterDigits = q.match(/^([a-z]+)([0-9]+)$/);
  const digitLetters = q.match(/^([0-9]+)([a-z]+)$/);
  const swapped = letterDigits
    ? `${letterDigits[2]}${letterDigits[1]}`
    : digitLetters
    ? `${digitLetters[2]}${digitLetters[1]}`
    : "";
  if (!swapped) return primary;
  const alt = scoreQuery(swapped, t);
  if (!alt.matches) return primary;
  return { matches: true, score: alt.score + 5 };
}

/**
 * Keeps the items whose text matches every whitespace- or slash-separated token of `query`, best total
 * score first (stable for ties). A blank query keeps everything in the original order.
 */
export function fuzzyFilter<T>(items: readonly T[], query: string, getText: (item: T) => string): T[] {
  const tokens = query.trim().split(/[\s/]+/).filter((t) => t.length > 0);
  if (tokens.length === 0) return [...items];
  const scored: { item: T; score: number }[] = [];
  for (const item of items) {
    const text = getText(item);
    let total = 0;
    let all = true;
    for (const token of tokens) {
      const m = fuzzyMatch(token, text);
      if (!m.matches) {
        all = false;
        break;
      }
      total += m.score;
    }
    if (all) scored.push({ item, score: total });
  }
  scored.sort((a, b) => a.score - b.score);
  return scored.map((s) => s.item);
}
