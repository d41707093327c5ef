/**
 * Identifiers: short entry ids unique within one session, and time-ordered session ids.
 *
 * @module
 */

/** Something that can tell whether an id is taken (a Map or Set of ids). */
export interface IdSet {
  has(id: string): boolean;
}

/**
 * An 8-hex-digit entry id not in `taken`. Short ids keep files readable; after 100 collisions
 * (practically never) a full UUID is returned instead.
 */
export function generateEntryId(taken: IdSet): string {
  for (let i = 0; i < 100; i++) {
    const id = crypto.randomUUID().slice(0, 8);
    if (!taken.has(id)) return id;
  }
  return crypto.randomUUID();
}

let lastMs = -1;
let lastSeq = 0;

/**
 * A UUIDv7 (RFC 9562): 48-bit millisecond time, then random bits. Ids created in the same
 * millisecond stay ordered through a 12-bit counter in `rand_a`, so file names sort by creation.
 */
export function createSessionId(now: number = Date.now()): string {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  let ms = now;
  if (ms <= lastMs) {
    ms = lastMs;
    lastSeq++;
    if (lastSeq > 0xfff) {
      ms = ++lastMs;
      lastSeq = bytes[6] & 0x07;
    }
  } else {
    lastSeq = ((bytes[6] & 0x07) << 8) | bytes[7];
  }
  lastMs = ms;
  const hi = Math.floor(ms / 0x100000000);
  const lo = ms >>> 0;
  bytes[0] = (hi >>> 8) & 0xff;
  bytes[1] = hi & 0xff;
  bytes[2] = (lo >>> 24) & 0xff;
  bytes[3] = (lo >>> 16) & 0xff;
  bytes[4] = (lo >>> 8) & 0xff;
  bytes[5] = lo & 0xff;
  bytes[6] = 0x70 | ((lastSeq >>> 8) & 0x0f);
  bytes[7] = lastSeq & 0xff;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** Letters, digits, `.`, `_` and `-`, starting and ending with a letter or digit. */
const SESSION_ID_PATTERN = /^[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?$/;

/** Whether `id` may be used as a caller-chosen session id (`--session-id`, SDK `newSession({id})`). */
export function isValidSessionId(id: string): boolean {
  return SESSION_ID_PATTERN.test(id);
}

/** Throws the reference's message when `id` is not a valid session id (it becomes part of a file name). */
export function assertValidSessionId(id: string): void {
  if (!isValidSessionId(id)) {
    throw new Error(
      "Session id must be non-empty, contain only alphanumeric characters, '-', '_', and '.', and start and end with an alphanumeric character",
    );
  }
}
