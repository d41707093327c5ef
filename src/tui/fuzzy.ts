/**
 * Fuzzy matching for pickers (models, commands, files), pi-tui 1.6.0's `fuzzy.js`: a query matches
 * when its characters appear in the text in order, not necessarily together. Lower score = better
 * match: consecutive characters and word starts earn points, gaps and late positions cost.
 *
 * @module
 */

/** Whether the query matched, and how well (lower is better). */
export interface FuzzyMatch {
  /** Whether every query character was found, in order. */
  matches: boolean;
  /** Lower is better; 0 when there is no match. */
  score: number;
}

const WORD_SEPARATOR = /[\s\-_./:]/;

/** The score of the query's characters found at `positions` (ascending) in `text`. */
function scorePositions(text: string, positions: readonly number[]): number {
  let score = 0;
  let previous = -1;
  let run = 0;
  for (const i of positions) {
    if (previous === i - 1) {
      run++;
      score -= run * 5;
    } else {
      run = 0;
      if (previous >= 0) score += (i - previous - 1) * 2;
    }
    if (i === 0 || WORD_SEPARATOR.test(text[i - 1])) score -= 10;
    score += i * 0.1;
    previous = i;
  }
  return score;
}

/** Matches an already lower-cased query against lower-cased text. */
function matchLower(query: string, text: string): FuzzyMatch {
  if (query.length === 0) return { matches: true, score: 0 };
  if (query.length > text.length) return { matches: false, score: 0 };
  // Greedy: each query character at its first occurrence after the previous one.
  const positions: number[] = [];
  let previous = -1;
  for (let q = 0; q < query.length; q++) {
    const i = text.indexOf(query[q], previous + 1);
    if (i === -1) return { matches: false, score: 0 };
    positions.push(i);
    previous = i;
  }
  let score = scorePositions(text, positions);
  // Greedy matching can scatter the query over an earlier, unrelated part of the text ("opus" in
  // "openrouter openrouter/anthropic/claude-opus" takes o, p, u from "openrouter"), so every
  // contiguous occurrence is scored too and the best alignment counts.
  for (let start = text.indexOf(query); start !== -1; start = text.indexOf(query, start + 1)) {
    for (let k = 0; k < positions.length; k++) positions[k] = start + k;
    score = Math.min(score, scorePositions(text, positions));
  }
  if (query === text) score -= 100;
  return { matches: true, score };
}

/**
 * How well `query` matches `text`, case-insensitively. A query of letters then digits (or digits
 * then letters) that does not match is tried swapped ("gpt4" finds "4-gpt"), 5 points worse.
 */
export function fuzzyMatch(query: string, text: string): FuzzyMatch {
  const queryLower = query.toLowerCase();
  const textLower = text.toLowerCase();
  const direct = matchLower(queryLower, textLower);
  if (direct.matches) return direct;
  const lettersDigits = /^([a-z]+)([0-9]+)$/.exec(queryLower);
  const digitsLetters = /^([0-9]+)([a-z]+)$/.exec(queryLower);
  const swapped = lettersDigits
    ? lettersDigits[2] + lettersDigits[1]
    : digitsLetters
    ? digitsLetters[2] + digitsLetters[1]
    : "";
  if (!swapped) return direct;
  const swappedMatch = matchLower(swapped, textLower);
  if (!swappedMatch.matches) return direct;
  return { matches: true, score: swappedMatch.score + 5 };
}

/**
 * Filter and sort items by fuzzy match quality (best matches first).
 * Supports whitespace- and slash-separated tokens: all tokens must match.
 */
export function fuzzyFilter<T>(items: T[], query: string, getText: (item: T) => string): T[] {
  if (!query.trim()) return items;
  const tokens = query.trim().split(/[\s/]+/).filter((token) => token.length > 0);
  if (tokens.length === 0) return items;
  const scored: { item: T; score: number }[] = [];
  for (const item of items) {
    const text = getText(item);
    let score = 0;
    let all = true;
    for (const token of tokens) {
      const match = fuzzyMatch(token, text);
      if (!match.matches) {
        all = false;
        break;
      }
      score += match.score;
    }
    if (all) scored.push({ item, score });
  }
  // Array.prototype.sort is stable: equal scores keep the items' order.
  scored.sort((a, b) => a.score - b.score);
  return scored.map((entry) => entry.item);
}
