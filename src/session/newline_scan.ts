/**
 * Finding line ends fast: listing 2 GB of sessions is mostly looking for `\n` in big tool results,
 * and `Uint8Array.prototype.indexOf` does that at about 2 GB/s. A 16-bytes-at-a-time WebAssembly
 * search (SIMD compare, bitmask, count trailing zeros) runs several times faster; the module is
 * hand-assembled below (under 200 bytes, no build step) and reads straight from the memory the
 * file is read into, so no byte is copied.
 *
 * When WebAssembly SIMD is unavailable, the same interface works on a plain buffer with `indexOf`.
 *
 * @module
 */

/** Opcodes used below (WebAssembly core + SIMD proposal, both standard). */
enum Op {
  Block = 0x02,
  Loop = 0x03,
  If = 0x04,
  End = 0x0b,
  Br = 0x0c,
  BrIf = 0x0d,
  Return = 0x0f,
  LocalGet = 0x20,
  LocalSet = 0x21,
  LocalTee = 0x22,
  I32Load = 0x28,
  I32Load8U = 0x2d,
  I32Const = 0x41,
  I32Eq = 0x46,
  I32GtU = 0x4b,
  I32LeU = 0x4d,
  I32GeU = 0x4f,
  I32Ctz = 0x68,
  I32Add = 0x6a,
  Simd = 0xfd,
  Void = 0x40,
}

/** SIMD sub-opcodes (after 0xfd). */
const V128_LOAD = 0x00;
const I8X16_SPLAT = 0x0f;
const I8X16_EQ = 0x23;
const I8X16_BITMASK = 0x64;
const V128_AND = 0x4e;
const V128_OR = 0x50;

/** `{"ty` as a little-endian i32: the start of a `{"type":` key. */
const TYPE_KEY_I32 = 0x7974227b;

/**
 * `next(from, end) -> i32`: the offset of the first `\n` or `{"ty` in memory[from, end) (a `{"ty`
 * only when its four bytes are before `end`), or `end`. Locals: 0 = from (cursor), 1 = end,
 * 2 = mask, 3 = `\n` splatted, 4..7 = `{`, `"`, `t`, `y` splatted.
 */
// deno-fmt-ignore
const NEXT_BODY = [
  0x02, 0x01, 0x7f, 0x05, 0x7b,
  Op.I32Const, 0x0a, Op.Simd, I8X16_SPLAT, Op.LocalSet, 3,
  Op.I32Const, 0xfb, 0x00, Op.Simd, I8X16_SPLAT, Op.LocalSet, 4, // '{' (0x7b as a signed LEB)
  Op.I32Const, 0x22, Op.Simd, I8X16_SPLAT, Op.LocalSet, 5, // '"'
  Op.I32Const, 0xf4, 0x00, Op.Simd, I8X16_SPLAT, Op.LocalSet, 6, // 't'
  Op.I32Const, 0xf9, 0x00, Op.Simd, I8X16_SPLAT, Op.LocalSet, 7, // 'y'
  Op.Block, Op.Void,
  Op.Loop, Op.Void,
  // if (from + 19 > end) break: the loads below read from[0..18]
  Op.LocalGet, 0, Op.I32Const, 19, Op.I32Add, Op.LocalGet, 1, Op.I32GtU, Op.BrIf, 1,
  // mask = bitmask((b[0..15] == '{') & (b[1..16] == '"') & (b[2..17] == 't') & (b[3..18] == 'y')
  //                | (b[0..15] == '\n'))
  Op.LocalGet, 0, Op.Simd, V128_LOAD, 0x00, 0x00, Op.LocalGet, 4, Op.Simd, I8X16_EQ,
  Op.LocalGet, 0, Op.Simd, V128_LOAD, 0x00, 0x01, Op.LocalGet, 5, Op.Simd, I8X16_EQ, Op.Simd, V128_AND,
  Op.LocalGet, 0, Op.Simd, V128_LOAD, 0x00, 0x02, Op.LocalGet, 6, Op.Simd, I8X16_EQ, Op.Simd, V128_AND,
  Op.LocalGet, 0, Op.Simd, V128_LOAD, 0x00, 0x03, Op.LocalGet, 7, Op.Simd, I8X16_EQ, Op.Simd, V128_AND,
  Op.LocalGet, 0, Op.Simd, V128_LOAD, 0x00, 0x00, Op.LocalGet, 3, Op.Simd, I8X16_EQ, Op.Simd, V128_OR,
  Op.Simd, I8X16_BITMASK, 0x01, Op.LocalTee, 2,
  Op.If, Op.Void, Op.LocalGet, 0, Op.LocalGet, 2, Op.I32Ctz, Op.I32Add, Op.Return, Op.End,
  Op.LocalGet, 0, Op.I32Const, 16, Op.I32Add, Op.LocalSet, 0,
  Op.Br, 0,
  Op.End,
  Op.End,
  // The last bytes one at a time.
  Op.Block, Op.Void,
  Op.Loop, Op.Void,
  Op.LocalGet, 0, Op.LocalGet, 1, Op.I32GeU, Op.BrIf, 1,
  Op.LocalGet, 0, Op.I32Load8U, 0x00, 0x00, Op.I32Const, 0x0a, Op.I32Eq,
  Op.If, Op.Void, Op.LocalGet, 0, Op.Return, Op.End,
  // if (from + 4 <= end && i32(b[from..from+3]) == '{"ty') return from
  Op.LocalGet, 0, Op.I32Const, 4, Op.I32Add, Op.LocalGet, 1, Op.I32LeU,
  Op.If, Op.Void,
  Op.LocalGet, 0, Op.I32Load, 0x00, 0x00, Op.I32Const, ...sleb(TYPE_KEY_I32), Op.I32Eq,
  Op.If, Op.Void, Op.LocalGet, 0, Op.Return, Op.End,
  Op.End,
  Op.LocalGet, 0, Op.I32Const, 1, Op.I32Add, Op.LocalSet, 0,
  Op.Br, 0,
  Op.End,
  Op.End,
  Op.LocalGet, 1,
  Op.End,
];

function sleb(n: number): number[] {
  const out: number[] = [];
  for (;;) {
    const b = n & 0x7f;
    n >>= 7;
    if ((n === 0 && (b & 0x40) === 0) || (n === -1 && (b & 0x40) !== 0)) {
      out.push(b);
      return out;
    }
    out.push(b | 0x80);
  }
}

function section(id: number, body: number[]): number[] {
  return [id, ...uleb(body.length), ...body];
}

function uleb(n: number): number[] {
  const out: number[] = [];
  do {
    let b = n & 0x7f;
    n >>>= 7;
    if (n) b |= 0x80;
    out.push(b);
  } while (n);
  return out;
}

function name(s: string): number[] {
  return [s.length, ...Array.from(s, (c) => c.charCodeAt(0))];
}

/** The module: one memory of `pages` 64 KiB pages (exported as "mem") and `next` (exported). */
function moduleBytes(pages: number): Uint8Array<ArrayBuffer> {
  const body = [...uleb(NEXT_BODY.length), ...NEXT_BODY];
  return new Uint8Array([
    0x00,
    0x61,
    0x73,
    0x6d,
    0x01,
    0x00,
    0x00,
    0x00,
    ...section(1, [0x01, 0x60, 0x02, 0x7f, 0x7f, 0x01, 0x7f]), // type 0: (i32, i32) -> i32
    ...section(3, [0x01, 0x00]), // function 0 has type 0
    ...section(5, [0x01, 0x00, ...uleb(pages)]), // memory 0: `pages`, no maximum
    ...section(7, [0x02, ...name("next"), 0x00, 0x00, ...name("mem"), 0x02, 0x00]),
    ...section(10, [0x01, ...body]),
  ]);
}

/**
 * A buffer to read file bytes into and search for line ends (and `{"type":"` keys) in. `bytes` is
 * a view of WebAssembly memory when SIMD is available, else a plain array; its size never changes.
 */
export class LineBuffer {
  /** The buffer (read into it, then call {@link next} or {@link newline}). */
  readonly bytes: Uint8Array<ArrayBuffer>;
  readonly #next: (from: number, end: number) => number;
  readonly #accelerated: boolean;

  /** A buffer of `size` bytes (rounded up to 64 KiB when WebAssembly is used). */
  constructor(size: number, useWasm = true) {
    let next: ((from: number, end: number) => number) | null = null;
    let bytes: Uint8Array<ArrayBuffer> | null = null;
    if (useWasm) {
      try {
        const module = new WebAssembly.Module(moduleBytes(Math.ceil(size / 65536)));
        const instance = new WebAssembly.Instance(module);
        next = instance.exports.next as (from: number, end: number) => number;
        bytes = new Uint8Array((instance.exports.mem as WebAssembly.Memory).buffer as ArrayBuffer, 0, size);
      } catch {
        // No WebAssembly SIMD here: the plain search below gives the same answers.
      }
    }
    this.#accelerated = next !== null;
    const b = this.bytes = bytes ?? new Uint8Array(size);
    this.#next = next ?? ((from, end) => plainNext(b, from, end));
  }

  /** True when the fast search is in use. */
  get accelerated(): boolean {
    return this.#accelerated;
  }

  /**
   * The index of the first `\n` or `{"ty` (the start of a `{"type"` key, when its four bytes
   * are before `end`) in bytes[from, end), or `end`. Tell them apart by the byte there.
   */
  next(from: number, end: number): number {
    return this.#next(from, end);
  }

  /** The index of the first `\n` in bytes[from, end), or -1. */
  newline(from: number, end: number): number {
    for (;;) {
      const at = this.#next(from, end);
      if (at >= end) return -1;
      if (this.bytes[at] === 0x0a) return at;
      from = at + 1;
    }
  }
}

/** `next` without WebAssembly. */
function plainNext(b: Uint8Array, from: number, end: number): number {
  for (let i = from; i < end; i++) {
    const c = b[i];
    if (c === 0x0a) return i;
    if (c === 0x7b && i + 4 <= end && b[i + 1] === 0x22 && b[i + 2] === 0x74 && b[i + 3] === 0x79) return i;
  }
  return end;
}
