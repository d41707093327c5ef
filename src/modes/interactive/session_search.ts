/**
 * The search of pi 1.6.0's session picker. A query is whitespace-separated words (each must
 * match), `"quoted phrases"` (matched exactly, whitespace-insensitive) or `re:<pattern>` (a
 * case-insensitive regular expression). A word matches, best first: inside the session name;
 * inside the id, the messages' text or the cwd; or scattered (fuzzy) in the name or cwd. Messages
 * and ids are never matched fuzzily: scattered letters across a long transcript match anything.
 *
 * @module
 */
import { fuzzyMatch } from "../../tui/mod.ts";
import type { SessionInfo } from "../../core/session_listing.ts";

/** How the picker orders its rows. */
export type SessionSortMode = "threaded" | "recent" | "relevance";

/** Which sessions the picker shows: all, or only named ones. */
export type SessionNameFilter = "all" | "named";

/** One word or phrase of a query. */
interface SearchToken {
  kind: "fuzzy" | "phrase";
  value: string;
}

/** A parsed query. */
export interface ParsedSessionQuery {
  mode: "tokens" | "regex";
  tokens: SearchToken[];
  regex: RegExp | null;
  /** Why a `re:` pattern cannot be used. */
  error?: string;
}

/** Match tiers: a tier always beats any fuzzy score of a worse tier. */
const TIER_NAME = 0;
const TIER_TEXT = 1;
const TIER_FUZZY = 2;
const TIER_WEIGHT = 1_000_000;

const score = (tier: number, fuzzy = 0) => tier * TIER_WEIGHT + fuzzy;

const squash = (text: string) => text.toLowerCase().replace(/\s+/g, " ").trim();

/** Lower-cased message text per session: searching lowers it once, not on every key. */
const lowered = new WeakMap<SessionInfo, { source: string; lower: string; squashed?: string }>();

function messageText(session: SessionInfo): { source: string; lower: string; squashed?: string } {
  const text = session.allMessagesText;
  let cached = lowered.get(session);
  if (!cached || cached.source !== text) {
    cached = { source: text, lower: text.toLowerCase() };
    lowered.set(session, cached);
  }
  return cached;
}

/** Whether the session has a (non-blank) name. */
export function hasSessionName(session: SessionInfo): boolean {
  return Boolean(session.name?.trim());
}

function matchLiteral(session: SessionInfo, value: string): number | undefined {
  const name = session.name?.toLowerCase() ?? "";
  if (name.includes(value)) return score(TIER_NAME, fuzzyMatch(value, name).score);
  if (session.id.toLowerCase().includes(value)) return score(TIER_TEXT);
  if (messageText(session).lower.includes(value)) return score(TIER_TEXT);
  if (session.cwd.toLowerCase().includes(value)) return score(TIER_TEXT);
  return undefined;
}

function matchWord(session: SessionInfo, value: string): number | undefined {
  const literal = matchLiteral(session, value.toLowerCase());
  if (literal !== undefined) return literal;
  let best: number | undefined;
  for (const field of [session.name ?? "", session.cwd]) {
    const m = fuzzyMatch(value, field);
    if (m.matches && (best === undefined || m.score < best)) best = m.score;
  }
  return best === undefined ? undefined : score(TIER_FUZZY, best);
}

function matchPhrase(session: SessionInfo, phrase: string): number | undefined {
  const name = squash(session.name ?? "");
  if (name.includes(phrase)) return score(TIER_NAME, fuzzyMatch(phrase, name).score);
  if (session.id.toLowerCase().includes(phrase)) return score(TIER_TEXT);
  const text = messageText(session);
  text.squashed ??= text.lower.replace(/\s+/g, " ").trim();
  if (text.squashed.includes(phrase)) return score(TIER_TEXT);
  if (squash(session.cwd).includes(phrase)) return score(TIER_TEXT);
  return undefined;
}

function matchRegex(session: SessionInfo, regex: RegExp): number | undefined {
  if (session.name && regex.test(session.name)) return score(TIER_NAME);
  if (regex.test(session.id) || regex.test(session.allMessagesText) || regex.test(session.cwd)) {
    return score(TIER_TEXT);
  }
  return undefined;
}

/** Parses a query: `re:<pattern>`, or words and `"phrases"` (an unclosed quote makes it all words). */
export function parseSessionQuery(query: string): ParsedSessionQuery {
  const trimmed = query.trim();
  if (!trimmed) return { mode: "tokens", tokens: [], regex: null };
  if (trimmed.startsWith("re:")) {
    const pattern = trimmed.slice(3).trim();
    if (!pattern) return { mode: "regex", tokens: [], regex: null, error: "Empty regex" };
    try {
      return { mode: "regex", tokens: [], regex: new RegExp(pattern, "i") };
    } catch (error) {
      return { mode: "regex", tokens: [], regex: null, error: (error as Error).message };
    }
  }
  const tokens: SearchToken[] = [];
  let buffer = "";
  let inQuote = false;
  const flush = (kind: SearchToken["kind"]) => {
    const value = buffer.trim();
    buffer = "";
    if (value) tokens.push({ kind, value });
  };
  for (const ch of trimmed) {
    if (ch === '"') {
      flush(inQuote ? "phrase" : "fuzzy");
      inQuote = !inQuote;
    } else if (!inQuote && /\s/.test(ch)) {
      flush("fuzzy");
    } else {
      buffer += ch;
    }
  }
  if (inQuote) {
    const words = trimmed.split(/\s+/).filter((w) => w.length > 0);
    return { mode: "tokens", tokens: words.map((value) => ({ kind: "fuzzy", value })), regex: null };
  }
  flush("fuzzy");
  return { mode: "tokens", tokens, regex: null };
}

/** Whether `session` matches the query and how well (lower is better). */
export function matchSession(
  session: SessionInfo,
  parsed: ParsedSessionQuery,
): { matches: boolean; score: number } {
  const miss = { matches: false, score: 0 };
  if (parsed.mode === "regex") {
    if (!parsed.regex) return miss;
    const found = matchRegex(session, parsed.regex);
    return found === undefined ? miss : { matches: true, score: found };
  }
  let total = 0;
  for (const token of parsed.tokens) {
    let found: number | undefined;
    if (token.kind === "phrase") {
      const phrase = squash(token.value);
      if (!phrase) continue;
      found = matchPhrase(session, phrase);
    } else {
      found = matchWord(session, token.value);
    }
    if (found === undefined) return miss;
    total += found;
  }
  return { matches: true, score: total };
}

/**
 * The sessions matching `query`: in their given order for "recent", best match first (then
 * newest) otherwise. An unusable `re:` pattern matches nothing.
 */
export function filterAndSortSessions(
  sessions: readonly SessionInfo[],
  query: string,
  sortMode: SessionSortMode,
): SessionInfo[] {
  if (!query.trim()) return [...sessions];
  const parsed = parseSessionQuery(query);
  if (parsed.error) return [];
  if (sortMode === "recent") return sessions.filter((s) => matchSession(s, parsed).matches);
  const scored: { session: SessionInfo; score: number }[] = [];
  for (const session of sessions) {
    const result = matchSession(session, parsed);
    if (result.matches) scored.push({ session, score: result.score });
  }
  scored.sort((a, b) => a.score - b.score || b.session.modified.getTime() - a.session.modified.getTime());
  return scored.map((r) => r.session);
}
