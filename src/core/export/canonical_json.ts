/**
 * Recognising session lines that are already in `JSON.stringify`'s form: for such a line,
 * `JSON.stringify(JSON.parse(line))` gives back exactly its bytes, so an exporter can copy the
 * bytes instead of parsing and re-serialising tens of megabytes.
 *
 * The test is strict and one-sided: a line it accepts surely round-trips; a line it refuses may
 * round-trip too (the caller then takes the slow way for that line only). Refused are insignificant
 * whitespace, escapes `JSON.stringify` would not write (`\/`, `\u00e9`, surrogate escapes,
 * upper-case hex), invalid UTF-8 (decoding would put U+FFFD in its place), numbers not in their
 * shortest form (`1.0`, `1e3`, `-0`), duplicate keys (the last value wins, at the first place),
 * keys made of digits only (V8 puts array-index keys first) and `__proto__`.
 *
 * @module
 */

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const MINUS = 0x2d;
const DOT = 0x2e;
const ZERO = 0x30;
const NINE = 0x39;

/** Nesting deeper than this is left to JSON.parse (and keeps the scan's recursion shallow). */
const MAX_DEPTH = 256;
/** Objects with more keys are left to JSON.parse (the duplicate check is quadratic). */
const MAX_KEYS = 128;

/** Byte classes inside a string: plain, quote, backslash, invalid, UTF-8 lead of 2, 3, 4 bytes. */
const PLAIN = 0, END = 1, ESCAPE = 2, INVALID = 3, LEAD2 = 4, LEAD3 = 5, LEAD4 = 6;
const STRING_CLASS = new Uint8Array(256);
for (let c = 0; c < 256; c++) {
  STRING_CLASS[c] = c < 0x20
    ? INVALID
    : c === QUOTE
    ? END
    : c === BACKSLASH
    ? ESCAPE
    : c < 0x80
    ? PLAIN
    : c < 0xc2
    ? INVALID
    : c < 0xe0
    ? LEAD2
    : c < 0xf0
    ? LEAD3
    : c < 0xf5
    ? LEAD4
    : INVALID;
}

/** Short escapes JSON.stringify writes: `\"` `\\` `\b` `\f` `\n` `\r` `\t`. */
const SHORT_ESCAPE = new Uint8Array(256);
for (const c of [QUOTE, BACKSLASH, 0x62, 0x66, 0x6e, 0x72, 0x74]) SHORT_ESCAPE[c] = 1;

const TRUE = [0x74, 0x72, 0x75, 0x65];
const FALSE = [0x66, 0x61, 0x6c, 0x73, 0x65];
const NULL = [0x6e, 0x75, 0x6c, 0x6c];

function isContinuation(c: number): boolean {
  return (c & 0xc0) === 0x80;
}

function lowerHex(c: number): number {
  if (c >= ZERO && c <= NINE) return c - ZERO;
  if (c >= 0x61 && c <= 0x66) return c - 0x61 + 10;
  return -1;
}

/**
 * Scans one line (`b[start..end)`, with `b[end]` being its `\n`) and tells whether it is a JSON
 * object in canonical form. The scan never reads past `b[end]`: no rule accepts a `\n` byte.
 * After an accepted scan, the `*Start`/`*End` fields hold the byte range of the top-level
 * `type`, `id` and `version` values (`-1` when the key is absent).
 */
export class CanonicalLineScanner {
  /** Byte range of the top-level `type` value. */
  typeStart = -1;
  typeEnd = -1;
  /** Byte range of the top-level `id` value. */
  idStart = -1;
  idEnd = -1;
  /** Byte range of the top-level `version` value. */
  versionStart = -1;
  versionEnd = -1;

  /** Hashes of the keys of the objects being scanned, innermost last (the duplicate check). */
  #keyHashes = new Int32Array(MAX_KEYS * 8);
  #keyCount = 0;

  /** True when `b[start..end)` is a canonical JSON object (see the module comment). */
  scan(b: Uint8Array, start: number, end: number): boolean {
    this.typeStart =
      this.typeEnd =
      this.idStart =
      this.idEnd =
      this.versionStart =
      this.versionEnd =
        -1;
    this.#keyCount = 0;
    if (b[start] !== OPEN_OBJECT) return false;
    return this.#object(b, start, 0, true) === end;
  }

  #value(b: Uint8Array, i: number, depth: number): number {
    const c = b[i];
    if (c === QUOTE) return string(b, i);
    if (c === OPEN_OBJECT) return depth >= MAX_DEPTH ? -1 : this.#object(b, i, depth + 1, false);
    if (c === OPEN_ARRAY) return depth >= MAX_DEPTH ? -1 : this.#array(b, i, depth + 1);
    if (c === 0x74) return literal(b, i, TRUE);
    if (c === 0x66) return literal(b, i, FALSE);
    if (c === 0x6e) return literal(b, i, NULL);
    if (c === MINUS || (c >= ZERO && c <= NINE)) return number(b, i);
    return -1;
  }

  #array(b: Uint8Array, i: number, depth: number): number {
    let p = i + 1;
    if (b[p] === CLOSE_ARRAY) return p + 1;
    for (;;) {
      p = this.#value(b, p, depth);
      if (p < 0) return -1;
      const c = b[p];
      if (c === COMMA) p++;
      else if (c === CLOSE_ARRAY) return p + 1;
      else return -1;
    }
  }

  #object(b: Uint8Array, i: number, depth: number, top: boolean): number {
    let p = i + 1;
    if (b[p] === CLOSE_OBJECT) return p + 1;
    const base = this.#keyCount;
    for (;;) {
      if (b[p] !== QUOTE) return -1;
      const keyEnd = string(b, p);
      if (keyEnd < 0 || b[keyEnd] !== COLON || !this.#newKey(b, p + 1, keyEnd - 1, base)) return -1;
      const valueStart = keyEnd + 1;
      const valueEnd = this.#value(b, valueStart, depth);
      if (valueEnd < 0) return -1;
      if (top) this.#noteTopLevel(b, p + 1, keyEnd - 1, valueStart, valueEnd);
      p = valueEnd;
      const c = b[p];
      if (c === COMMA) p++;
      else if (c === CLOSE_OBJECT) {
        this.#keyCount = base;
        return p + 1;
      } else return -1;
    }
  }

  /** Records the key `b[s..e)` of the object whose keys start at `base`; false to refuse the line. */
  #newKey(b: Uint8Array, s: number, e: number, base: number): boolean {
    let digits = e > s;
    let hash = 0x811c9dc5;
    for (let k = s; k < e; k++) {
      const c = b[k];
      if (c < ZERO || c > NINE) digits = false;
      hash = Math.imul(hash ^ c, 0x01000193);
    }
    if (digits) return false;
    if (e - s === 9 && isProto(b, s)) return false;
    return this.#push(hash, base);
  }

  #push(hash: number, base: number): boolean {
    const hashes = this.#keyHashes;
    const count = this.#keyCount;
    // Equal hashes may be different keys: refusing is always safe.
    for (let k = base; k < count; k++) if (hashes[k] === hash) return false;
    if (count - base >= MAX_KEYS || count >= hashes.length) return false;
    hashes[count] = hash;
    this.#keyCount = count + 1;
    return true;
  }

  #noteTopLevel(b: Uint8Array, s: number, e: number, valueStart: number, valueEnd: number): void {
    const length = e - s;
    if (length === 4 && b[s] === 0x74 && b[s + 1] === 0x79 && b[s + 2] === 0x70 && b[s + 3] === 0x65) {
      this.typeStart = valueStart;
      this.typeEnd = valueEnd;
    } else if (length === 2 && b[s] === 0x69 && b[s + 1] === 0x64) {
      this.idStart = valueStart;
      this.idEnd = valueEnd;
    } else if (length === 7 && bytesEqual(b, s, "version")) {
      this.versionStart = valueStart;
      this.versionEnd = valueEnd;
    }
  }
}

function bytesEqual(b: Uint8Array, s: number, ascii: string): boolean {
  for (let k = 0; k < ascii.length; k++) if (b[s + k] !== ascii.charCodeAt(k)) return false;
  return true;
}

function isProto(b: Uint8Array, s: number): boolean {
  return bytesEqual(b, s, "__proto__");
}

/** End of the string starting at the quote `b[i]`, or -1 when it is not in canonical form. */
function string(b: Uint8Array, i: number): number {
  let p = i + 1;
  for (;;) {
    const c = b[p];
    const kind = STRING_CLASS[c];
    if (kind === PLAIN) {
      p++;
      continue;
    }
    if (kind === END) return p + 1;
    if (kind === ESCAPE) {
      const e = b[p + 1];
      if (SHORT_ESCAPE[e] === 1) {
        p += 2;
        continue;
      }
      // Only control characters without a short form are written as \u00xx (lower-case hex).
      if (e !== 0x75 || b[p + 2] !== ZERO || b[p + 3] !== ZERO) return -1;
      const high = b[p + 4];
      if (high !== ZERO && high !== ZERO + 1) return -1;
      const low = lowerHex(b[p + 5]);
      if (low < 0) return -1;
      const code = (high - ZERO) * 16 + low;
      if (code === 8 || code === 9 || code === 10 || code === 12 || code === 13) return -1;
      p += 6;
      continue;
    }
    if (kind === LEAD2) {
      if (!isContinuation(b[p + 1])) return -1;
      p += 2;
      continue;
    }
    if (kind === LEAD3) {
      const c1 = b[p + 1];
      if (!isContinuation(c1) || !isContinuation(b[p + 2])) return -1;
      // Overlong forms and UTF-16 surrogates are not UTF-8.
      if ((c === 0xe0 && c1 < 0xa0) || (c === 0xed && c1 >= 0xa0)) return -1;
      p += 3;
      continue;
    }
    if (kind === LEAD4) {
      const c1 = b[p + 1];
      if (!isContinuation(c1) || !isContinuation(b[p + 2]) || !isContinuation(b[p + 3])) return -1;
      if ((c === 0xf0 && c1 < 0x90) || (c === 0xf4 && c1 >= 0x90)) return -1;
      p += 4;
      continue;
    }
    return -1; // A raw control character or a byte that cannot start a UTF-8 sequence.
  }
}

function literal(b: Uint8Array, i: number, word: number[]): number {
  for (let k = 0; k < word.length; k++) if (b[i + k] !== word[k]) return -1;
  return i + word.length;
}

function isDigit(c: number): boolean {
  return c >= ZERO && c <= NINE;
}

/** End of the number at `b[i]`, or -1 when JSON.stringify would write its value differently. */
function number(b: Uint8Array, i: number): number {
  let p = i;
  if (b[p] === MINUS) p++;
  const first = p;
  if (b[p] === ZERO) p++;
  else if (isDigit(b[p])) { while (isDigit(b[p])) p++; }
  else return -1;
  const integerDigits = p - first;
  let plain = true;
  if (b[p] === DOT) {
    plain = false;
    p++;
    if (!isDigit(b[p])) return -1;
    while (isDigit(b[p])) p++;
  }
  if (b[p] === 0x65 || b[p] === 0x45) {
    plain = false;
    p++;
    if (b[p] === MINUS || b[p] === 0x2b) p++;
    if (!isDigit(b[p])) return -1;
    while (isDigit(b[p])) p++;
  }
  // Integers of up to 15 digits are exact doubles written back digit for digit ("-0" is not).
  if (plain && integerDigits <= 15 && !(p - i === 2 && b[i] === MINUS && b[first] === ZERO)) return p;
  const text = String.fromCharCode(...b.subarray(i, p));
  return String(Number(text)) === text ? p : -1;
}
