/**
 * Writing base64 to a file piece by piece: bytes (or text, as UTF-8) go in, base64 comes out in
 * a few-megabyte steps. Base64 of a concatenation is the concatenation of the base64 of its parts
 * when every part but the last is a multiple of 3 bytes long, so the output equals encoding
 * everything at once, without ever holding all of it (an export of a 500 MB session would
 * otherwise hold the JSON, its UTF-8 and its base64 at the same time).
 *
 * @module
 */
import { writeAllSync } from "../../util/fs.ts";
import { toBase64 } from "../../util/bytes.ts";

/** Input bytes per step: a multiple of 3, so only the last step may need padding. */
const STEP = 3 << 20;
/** Text is encoded at most this many UTF-16 units at a time (≤ 3 bytes each: fits a step). */
const TEXT_STEP = STEP >> 2;

type NativeBase64 = Uint8Array & { toBase64?: () => string };

/** Base64 of `bytes`: V8's native encoder where the runtime has one. */
export function base64Of(bytes: Uint8Array): string {
  const native = (bytes as NativeBase64).toBase64;
  return typeof native === "function" ? native.call(bytes) : toBase64(bytes);
}

/** Streams the base64 of everything written to it into an open file. */
export class Base64Sink {
  readonly #file: Deno.FsFile;
  readonly #stage = new Uint8Array(STEP);
  #filled = 0;
  readonly #out = new Uint8Array((STEP / 3) * 4);
  readonly #encoder = new TextEncoder();

  /** Writes into `file` (from its current position); the caller opens and closes it. */
  constructor(file: Deno.FsFile) {
    this.#file = file;
  }

  /** Adds `bytes` (copied: the caller may reuse its buffer). */
  write(bytes: Uint8Array): void {
    let at = 0;
    while (at < bytes.length) {
      const n = Math.min(bytes.length - at, STEP - this.#filled);
      this.#stage.set(bytes.subarray(at, at + n), this.#filled);
      this.#filled += n;
      at += n;
      if (this.#filled === STEP) this.#flush();
    }
  }

  /** Adds the UTF-8 of `text`, a step at a time (a surrogate pair is never split). */
  writeText(text: string): void {
    let at = 0;
    while (at < text.length) {
      let end = Math.min(text.length, at + TEXT_STEP);
      const last = text.charCodeAt(end - 1);
      if (end < text.length && last >= 0xd800 && last <= 0xdbff) end--;
      if (STEP - this.#filled < (end - at) * 3) this.#flush();
      const { written } = this.#encoder.encodeInto(
        end - at === text.length ? text : text.slice(at, end),
        this.#stage.subarray(this.#filled),
      );
      this.#filled += written;
      at = end;
    }
  }

  /** Writes what is left, with padding; the sink must not be used afterwards. */
  finish(): void {
    this.#flush(true);
  }

  /** Encodes the staged bytes (all when `last`, else the longest multiple of 3) and writes them. */
  #flush(last = false): void {
    const n = last ? this.#filled : this.#filled - (this.#filled % 3);
    if (n === 0) return;
    const text = base64Of(this.#stage.subarray(0, n));
    const { written } = this.#encoder.encodeInto(text, this.#out);
    writeAllSync(this.#file, this.#out.subarray(0, written));
    this.#stage.copyWithin(0, n, this.#filled);
    this.#filled -= n;
  }
}
