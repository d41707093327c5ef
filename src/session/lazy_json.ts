/**
 * Lazy JSON objects for big session lines. A line is scanned once over its bytes (strings are
 * skipped with `indexOf` of the quote, so the scan never decodes or builds their text); small
 * values are parsed at once, big objects are scanned the same way one level down, and big strings
 * and arrays become accessor properties that read their bytes from the file only when used.
 * The objects keep the file's key order, so `JSON.stringify` of one prints the same line.
 *
 * @module
 */

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const COMMA = 0x2c;
const COLON = 0x3a;

/** Values up to this many bytes are parsed at once by default; bigger ones are deferred or scanned. */
export const INLINE_VALUE_BYTES = 1024;

/** Reads the bytes of a deferred value back from the session file. */
export interface DeferredSource {
  /** Parses the JSON value at `offset` (`length` bytes) of the file; `line` is for error messages. */
  load(offset: number, length: number, line: number): unknown;
}

const decoder = new TextDecoder();

function isSpace(b: number): boolean {
  return b === 0x20 || b === 0x09 || b === 0x0d || b === 0x0a;
}

function skipSpace(b: Uint8Array, i: number): number {
  while (i < b.length && isSpace(b[i])) i++;
  return i;
}

/** 1 for the bytes that may follow a backslash in a JSON string: `"` `\` `/` b f n r t u. */
const ESCAPABLE = new Uint8Array(256);
for (const c of '"\\/bfnrtu') ESCAPABLE[c.charCodeAt(0)] = 1;
/** 1 for hexadecimal digits. */
const HEX = new Uint8Array(256);
for (const c of "0123456789abcdefABCDEF") HEX[c.charCodeAt(0)] = 1;

/**
 * End (exclusive) of the string starting at `b[i] === '"'`, or -1 when it never closes or is not
 * valid JSON (a bad escape, a raw control character), exactly where JSON.parse would fail. A
 * plain byte loop with table lookups: real tool output has so many escaped quotes that indexOf
 * is slower.
 */
function skipString(b: Uint8Array, i: number): number {
  const n = b.length;
  for (let j = i + 1; j < n; j++) {
    const c = b[j];
    if (c > 0x5c) continue;
    if (c === QUOTE) return j + 1;
    if (c < 0x20) return -1;
    if (c === BACKSLASH) {
      const e = b[++j];
      if (j >= n || !ESCAPABLE[e]) return -1;
      if (e === 0x75) {
        if (j + 4 >= n || !(HEX[b[j + 1]] & HEX[b[j + 2]] & HEX[b[j + 3]] & HEX[b[j + 4]])) return -1;
        j += 4;
      }
    }
  }
  return -1;
}

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

/** End of the number at `i` by JSON's grammar, or -1. */
function skipNumber(b: Uint8Array, i: number): number {
  let j = i;
  if (b[j] === 0x2d) j++;
  if (b[j] === 0x30) j++;
  else if (isDigit(b[j])) { while (isDigit(b[j])) j++; }
  else return -1;
  if (b[j] === 0x2e) {
    j++;
    if (!isDigit(b[j])) return -1;
    while (isDigit(b[j])) j++;
  }
  if (b[j] === 0x65 || b[j] === 0x45) {
    j++;
    if (b[j] === 0x2b || b[j] === 0x2d) j++;
    if (!isDigit(b[j])) return -1;
    while (isDigit(b[j])) j++;
  }
  return j;
}

function skipLiteral(b: Uint8Array, i: number, word: string): number {
  for (let k = 0; k < word.length; k++) if (b[i + k] !== word.charCodeAt(k)) return -1;
  return i + word.length;
}

/**
 * End (exclusive) of the JSON value starting at `i`, or -1 when it is not valid JSON (a torn
 * line, a bad scalar, a missing comma): the scan validates the whole grammar, so a line it
 * accepts is one JSON.parse accepts too, and deferring part of it can never fail later.
 */
function skipValue(b: Uint8Array, i: number): number {
  const c = b[i];
  if (c === QUOTE) return skipString(b, i);
  if (c === OPEN_OBJECT) {
    let j = skipSpace(b, i + 1);
    if (b[j] === CLOSE_OBJECT) return j + 1;
    for (;;) {
      if (b[j] !== QUOTE) return -1;
      j = skipString(b, j);
      if (j < 0) return -1;
      j = skipSpace(b, j);
      if (b[j] !== COLON) return -1;
      j = skipValue(b, skipSpace(b, j + 1));
      if (j < 0) return -1;
      j = skipSpace(b, j);
      if (b[j] === CLOSE_OBJECT) return j + 1;
      if (b[j] !== COMMA) return -1;
      j = skipSpace(b, j + 1);
    }
  }
  if (c === OPEN_ARRAY) {
    let j = skipSpace(b, i + 1);
    if (b[j] === CLOSE_ARRAY) return j + 1;
    for (;;) {
      j = skipValue(b, j);
      if (j < 0) return -1;
      j = skipSpace(b, j);
      if (b[j] === CLOSE_ARRAY) return j + 1;
      if (b[j] !== COMMA) return -1;
      j = skipSpace(b, j + 1);
    }
  }
  if (c === 0x74) return skipLiteral(b, i, "true");
  if (c === 0x66) return skipLiteral(b, i, "false");
  if (c === 0x6e) return skipLiteral(b, i, "null");
  return skipNumber(b, i);
}

/** Defines `key` on `target` as a data property (safe for keys such as `__proto__`). */
function setData(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
}

/**
 * Adds `key` to an object being built: a plain assignment (the fast path for a new property),
 * except for `__proto__` (which would set the prototype) and for a key that is already a
 * deferred accessor (a duplicate key in the line: its setter would run instead).
 */
function addData(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === "__proto__" || Object.hasOwn(target, key)) setData(target, key, value);
  else target[key] = value;
}

/** Where an object's deferred values are: `[source, line, key, offset, length, key, …]`. */
type DeferredSlots = unknown[];

/** Hidden (non-enumerable) slot of an object with deferred values; JSON and spreads never see it. */
const SLOTS = Symbol("deferred values");

/**
 * Accessors shared by every object with a deferred `key`, so such objects share their hidden
 * class instead of each getting its own closures and shape (a 500 MB session has ~100,000).
 */
const accessors = new Map<string, PropertyDescriptor>();

function accessorFor(key: string): PropertyDescriptor {
  let descriptor = accessors.get(key);
  if (descriptor) return descriptor;
  descriptor = {
    enumerable: true,
    configurable: true,
    get(this: Record<string | symbol, unknown>) {
      const slots = this[SLOTS] as DeferredSlots;
      for (let i = 2; i < slots.length; i += 3) {
        if (slots[i] !== key) continue;
        const value = (slots[0] as DeferredSource).load(
          slots[i + 1] as number,
          slots[i + 2] as number,
          slots[1] as number,
        );
        setData(this as Record<string, unknown>, key, value);
        return value;
      }
      return undefined;
    },
    set(this: Record<string, unknown>, value: unknown) {
      setData(this, key, value);
    },
  };
  accessors.set(key, descriptor);
  return descriptor;
}

/**
 * Defines `key` as read on use (`length` bytes at `offset` of the file): the first read loads the
 * value and turns the property into a plain one holding it, so it is read once, keeps its
 * identity and can be changed like any value (assigning before a read just sets it). Memory
 * grows only with what is used.
 */
function setDeferred(
  target: Record<string, unknown>,
  key: string,
  place: LinePlace,
  offset: number,
  length: number,
): void {
  let slots = (target as Record<string | symbol, unknown>)[SLOTS] as DeferredSlots | undefined;
  if (!slots) {
    slots = [place.source, place.line];
    Object.defineProperty(target, SLOTS, {
      value: slots,
      enumerable: false,
      writable: false,
      configurable: false,
    });
  }
  // A key repeated in the line: the last value counts, as with JSON.parse.
  const i = slots.indexOf(key, 2);
  if (i >= 0) slots.splice(i, 3);
  slots.push(key, offset, length);
  Object.defineProperty(target, key, accessorFor(key));
}

/** Where a line sits in the file, for deferred reads and messages. */
export interface LinePlace {
  /** Byte offset of the line's first byte in the file. */
  offset: number;
  /** 1-based line number. */
  line: number;
  source: DeferredSource;
  /** Values up to this many bytes are parsed at once (default {@link INLINE_VALUE_BYTES}). */
  inlineBytes?: number;
}

/**
 * Scans the object starting at `b[start] === '{'`; returns it and its end, or null when the
 * bytes are not a well-formed object (the caller then parses the line in full for the warning).
 */
function scanObject(
  b: Uint8Array,
  start: number,
  place: LinePlace,
): { value: Record<string, unknown>; end: number } | null {
  const out: Record<string, unknown> = {};
  const inline = place.inlineBytes ?? INLINE_VALUE_BYTES;
  let i = skipSpace(b, start + 1);
  if (b[i] === CLOSE_OBJECT) return { value: out, end: i + 1 };
  for (;;) {
    if (b[i] !== QUOTE) return null;
    const keyEnd = skipString(b, i);
    if (keyEnd < 0) return null;
    const key = JSON.parse(decoder.decode(b.subarray(i, keyEnd))) as string;
    i = skipSpace(b, keyEnd);
    if (b[i] !== COLON) return null;
    i = skipSpace(b, i + 1);
    const valueEnd = skipValue(b, i);
    if (valueEnd < 0) return null;
    const first = b[i];
    if (valueEnd - i <= inline || (first !== QUOTE && first !== OPEN_OBJECT && first !== OPEN_ARRAY)) {
      addData(out, key, JSON.parse(decoder.decode(b.subarray(i, valueEnd))));
    } else if (first === OPEN_OBJECT) {
      const inner = scanObject(b, i, place);
      if (!inner || inner.end !== valueEnd) return null;
      addData(out, key, inner.value);
    } else {
      const at = place.offset + i;
      const length = valueEnd - i;
      setDeferred(out, key, place, at, length);
    }
    i = skipSpace(b, valueEnd);
    if (b[i] === COMMA) {
      i = skipSpace(b, i + 1);
      continue;
    }
    if (b[i] === CLOSE_OBJECT) return { value: out, end: i + 1 };
    return null;
  }
}

/**
 * The lazy object for one line's bytes (no `\n`), or null when the line is not a well-formed
 * JSON object by this scan: the caller then parses it in full, which yields the exact error.
 * Small values are parsed with JSON.parse, so a bad scalar makes this throw (also caught by
 * the caller's full parse).
 */
export function scanLazyLine(bytes: Uint8Array, place: LinePlace): Record<string, unknown> | null {
  const start = skipSpace(bytes, 0);
  if (bytes[start] !== OPEN_OBJECT) return null;
  try {
    const scanned = scanObject(bytes, start, place);
    if (!scanned || skipSpace(bytes, scanned.end) !== bytes.length) return null;
    return scanned.value;
  } catch {
    return null;
  }
}
