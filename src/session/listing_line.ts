/**
 * The fast path of a session listing: most lines of a session are written by pi in one compact
 * layout (`JSON.stringify` of `{"type":"message","id":…,"message":{"role":…,"content":…,
 * …,"timestamp":N}}`), and what a listing needs of them (the type, the role, the message time)
 * can be read from a few bytes at the line's start and end without decoding or parsing it.
 *
 * {@link quickLine} judges one line from its bytes and answers what a full parse would make of
 * it, or {@link SLOW} when the line is not in that layout (then the caller parses it). It only
 * answers for lines whose start and end both have the expected shape, and never for a line that
 * holds the start of a second entry (a torn write continued by the next append, which a full
 * parse rejects).
 *
 * @module
 */

/** The line needs a full parse. */
export const SLOW = 0;
/** The line carries nothing a listing shows. */
export const IGNORE = 1;
/** A message line that counts and shows nothing else (tool results and other roles). */
export const COUNT = 2;
/** A user/assistant message with content whose time is {@link QuickLine.time}. */
export const TIMED = 3;
/** A message line that is not a complete object (a torn write): a full parse skips it. */
export const TORN = 4;

/** The verdict on one line (one object reused for every line, so judging allocates nothing). */
export interface QuickLine {
  kind: typeof SLOW | typeof IGNORE | typeof COUNT | typeof TIMED | typeof TORN;
  /** For TIMED: the message's time (ms). */
  time: number;
  /** For TIMED: the role. */
  user: boolean;
}

const ascii = (s: string) => Uint8Array.from(s, (c) => c.charCodeAt(0));
const TYPE_KEY = ascii('{"type":"');
const MESSAGE = ascii('message"');
const SESSION_INFO = ascii('session_info"');
const MESSAGE_KEY = ascii('"message":{"role":"');
const USER = ascii('user"');
const ASSISTANT = ascii('assistant"');
const CONTENT_KEY = ascii(',"content":');
const TIMESTAMP_KEY = ascii(',"timestamp":');
/** Block types that may follow `{"type":"` inside a message; any other there means a second entry. */
const BLOCK_TYPES = ["text", "image", "thinking", "redacted_thinking", "toolCall"].map((t) => ascii(`${t}"`));
/** Bytes of a line's start searched for the message's role (the regex path looks at as many). */
const HEAD_BYTES = 320;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const CLOSE = 0x7d;

function startsWith(b: Uint8Array, at: number, end: number, p: Uint8Array): boolean {
  if (at + p.length > end) return false;
  for (let i = 0; i < p.length; i++) if (b[at + i] !== p[i]) return false;
  return true;
}

function isBlank(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0d;
}

/** Index of the last non-blank byte of b[from, end), or from - 1. */
function lastNonBlank(b: Uint8Array, from: number, end: number): number {
  let i = end - 1;
  while (i >= from && isBlank(b[i])) i--;
  return i;
}

/** The message time from a line ending in `,"timestamp":DIGITS}}` (b[last] is the final `}`), or -1. */
function trailingTime(b: Uint8Array, from: number, last: number): number {
  if (b[last - 1] !== CLOSE) return -1;
  let i = last - 2;
  let value = 0;
  let scale = 1;
  while (i > from && b[i] >= 0x30 && b[i] <= 0x39 && scale <= 1e14) {
    value += (b[i] - 0x30) * scale;
    scale *= 10;
    i--;
  }
  // Leading zeros are no JSON number (a full parse rejects the line).
  if (scale === 1 || (scale > 10 && b[i + 1] === 0x30)) return -1;
  if (!endsWithAt(b, i, from, TIMESTAMP_KEY)) return -1;
  return value;
}

/** True when b[.., at] (inclusive) ends with `p`. */
function endsWithAt(b: Uint8Array, at: number, from: number, p: Uint8Array): boolean {
  const start = at - p.length + 1;
  return start >= from && startsWith(b, start, at + 1, p);
}

/** Bytes after a `{"ty` that {@link isEntryKey} may look at. */
export const TYPE_KEY_LOOKAHEAD = 32;

/**
 * For `{"ty` at b[at] (inside a line, not at its start): true when it is a `{"type":"` key whose
 * value is no content block type, i.e. it may start a second entry (a torn write continued by
 * the next append). Inside JSON strings `"` is always escaped, so `{"type":"` there is a key.
 */
export function isEntryKey(b: Uint8Array, at: number, end: number): boolean {
  if (!startsWith(b, at, end, TYPE_KEY)) return false;
  const name = at + TYPE_KEY.length;
  for (const t of BLOCK_TYPES) if (startsWith(b, name, end, t)) return false;
  return true;
}

/**
 * Judges the complete line b[from, end) (no newline, and no second entry start: see
 * {@link isEntryKey}) of a file whose header was read. Sets and
 * returns `out`.
 */
export function quickLine(b: Uint8Array, from: number, end: number, out: QuickLine): QuickLine {
  out.kind = SLOW;
  if (!startsWith(b, from, end, TYPE_KEY)) return out;
  const name = from + TYPE_KEY.length;
  if (startsWith(b, name, end, SESSION_INFO)) return out;
  if (!startsWith(b, name, end, MESSAGE)) {
    // Another entry type: shown by no listing, whatever else the line holds. A name with an
    // escape is left to the full parse (its decoded text could be "message").
    for (let i = name; i < end && i < from + HEAD_BYTES; i++) {
      if (b[i] === BACKSLASH) return out;
      if (b[i] === QUOTE) {
        out.kind = IGNORE;
        return out;
      }
    }
    return out;
  }
  // The role: the first `"message":{"role":"` in the line's head. In pi's layout the message
  // object is the line's first nested object, so its `{` is looked at first.
  const limit = Math.min(end, from + HEAD_BYTES) - MESSAGE_KEY.length;
  let role = -1;
  const brace = b.indexOf(MESSAGE_KEY[10], name);
  if (brace >= 10 && brace - 10 <= limit && startsWith(b, brace - 10, end, MESSAGE_KEY)) {
    role = brace - 10 + MESSAGE_KEY.length;
  } else {
    for (let i = name + MESSAGE.length; i <= limit; i++) {
      if (b[i] === QUOTE && b[i + 1] === MESSAGE_KEY[1] && startsWith(b, i, end, MESSAGE_KEY)) {
        role = i + MESSAGE_KEY.length;
        break;
      }
    }
  }
  if (role < 0) return out;
  const last = lastNonBlank(b, from, end);
  const user = startsWith(b, role, end, USER);
  const assistant = !user && startsWith(b, role, end, ASSISTANT);
  if (!user && !assistant) {
    // Any other role counts when the line is a whole object (a torn write never ends in `}`).
    // A role with an escape is left to the full parse (it could decode to "user").
    for (let i = role;; i++) {
      if (i >= end || b[i] === BACKSLASH) return out;
      if (b[i] === QUOTE) break;
    }
    out.kind = b[last] === CLOSE ? COUNT : TORN;
    return out;
  }
  // Content right after the role, as pi writes it; other layouts are parsed.
  if (!startsWith(b, role + (user ? USER.length : ASSISTANT.length), end, CONTENT_KEY)) return out;
  if (b[last] !== CLOSE) {
    out.kind = TORN;
    return out;
  }
  const time = trailingTime(b, from, last);
  if (time < 0) return out;
  out.kind = TIMED;
  out.time = time;
  out.user = user;
  return out;
}
