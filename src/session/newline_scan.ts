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
  I32Store = 0x36,
  Call = 0x10,
  I32Shl = 0x74,
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
const V128_ANY_TRUE = 0x53;

/** any_true of (b[k] == '\n' | b[k] == '{') over from[0..63]; locals 3 and 4 hold the needles. */
function anyOf64(): number[] {
  const out: number[] = [];
  for (let k = 0; k < 4; k++) {
    out.push(Op.LocalGet, 0, Op.Simd, V128_LOAD, 0x00, 16 * k, Op.LocalGet, 3, Op.Simd, I8X16_EQ);
    out.push(
      Op.LocalGet,
      0,
      Op.Simd,
      V128_LOAD,
      0x00,
      16 * k,
      Op.LocalGet,
      4,
      Op.Simd,
      I8X16_EQ,
      Op.Simd,
      V128_OR,
    );
    if (k > 0) out.push(Op.Simd, V128_OR);
  }
  out.push(Op.Simd, V128_ANY_TRUE);
  return out;
}

/** `{"ty` as a little-endian i32: the start of a `{"type":` key. */
const TYPE_KEY_I32 = 0x7974227b;

/**
 * `next(from, end) -> i32`: the offset of the first `\n` or `{"ty` in memory[from, end) (a `{"ty`
 * only when its four bytes are before `end`), or `end`. Locals: 0 = from (cursor), 1 = end,
 * 2 = mask, 3 = `\n` splatted, 4..7 = `{`, `"`, `t`, `y` splatted, 8 = limit of the 16-byte steps.
 */
// deno-fmt-ignore
const NEXT_BODY = [
  0x03, 0x01, 0x7f, 0x05, 0x7b, 0x01, 0x7f,
  Op.I32Const, 0x0a, Op.Simd, I8X16_SPLAT, Op.LocalSet, 3,
  Op.I32Const, 0xfb, 0x00, Op.Simd, I8X16_SPLAT, Op.LocalSet, 4, // '{' (0x7b as a signed LEB)
  Op.I32Const, 0x22, Op.Simd, I8X16_SPLAT, Op.LocalSet, 5, // '"'
  Op.I32Const, 0xf4, 0x00, Op.Simd, I8X16_SPLAT, Op.LocalSet, 6, // 't'
  Op.I32Const, 0xf9, 0x00, Op.Simd, I8X16_SPLAT, Op.LocalSet, 7, // 'y'
  Op.Block, Op.Void, // A: to the byte-at-a-time tail
  Op.Loop, Op.Void, // B
  // Skip 64 bytes at a time while they hold neither '\n' nor '{' (most of a tool result).
  Op.Block, Op.Void, // C
  Op.Loop, Op.Void, // D
  Op.LocalGet, 0, Op.I32Const, 0xc0, 0x00, Op.I32Add, Op.LocalGet, 1, Op.I32GtU, Op.BrIf, 1,
  ...anyOf64(),
  Op.BrIf, 1,
  Op.LocalGet, 0, Op.I32Const, 0xc0, 0x00, Op.I32Add, Op.LocalSet, 0,
  Op.Br, 0,
  Op.End,
  Op.End,
  // Then up to 64 bytes 16 at a time: limit = from + 64.
  Op.LocalGet, 0, Op.I32Const, 0xc0, 0x00, Op.I32Add, Op.LocalSet, 8,
  Op.Block, Op.Void, // E
  Op.Loop, Op.Void, // F
  // if (from + 19 > end) to the tail: the loads below read from[0..18]
  Op.LocalGet, 0, Op.I32Const, 19, Op.I32Add, Op.LocalGet, 1, Op.I32GtU, Op.BrIf, 3,
  Op.LocalGet, 0, Op.LocalGet, 8, Op.I32GeU, Op.BrIf, 1,
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

/**
 * `scan(from, end, out, max) -> count`: the offsets `next` stops at from `from` on, written as
 * i32s at `out` (at most `max`), so the caller makes one call per chunk instead of one per stop.
 * Locals: 0 = from, 1 = end, 2 = out, 3 = max, 4 = count, 5 = at.
 */
// deno-fmt-ignore
const SCAN_BODY = [
  0x01, 0x02, 0x7f,
  Op.Block, Op.Void,
  Op.Loop, Op.Void,
  Op.LocalGet, 4, Op.LocalGet, 3, Op.I32GeU, Op.BrIf, 1,
  Op.LocalGet, 0, Op.LocalGet, 1, Op.Call, 0, Op.LocalTee, 5,
  Op.LocalGet, 1, Op.I32GeU, Op.BrIf, 1,
  Op.LocalGet, 2, Op.LocalGet, 4, Op.I32Const, 2, Op.I32Shl, Op.I32Add, Op.LocalGet, 5, Op.I32Store, 0x02, 0x00,
  Op.LocalGet, 4, Op.I32Const, 1, Op.I32Add, Op.LocalSet, 4,
  Op.LocalGet, 5, Op.I32Const, 1, Op.I32Add, Op.LocalSet, 0,
  Op.Br, 0,
  Op.End,
  Op.End,
  Op.LocalGet, 4,
  Op.End,
];

/** Stops one `scan` call reports at most. */
export const MAX_STOPS = 16384;

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

/** The module: one memory of `pages` 64 KiB pages (exported as "mem"), `next` and `scan`. */
function moduleBytes(pages: number): Uint8Array<ArrayBuffer> {
  const bodies = [NEXT_BODY, SCAN_BODY].flatMap((b) => [...uleb(b.length), ...b]);
  return new Uint8Array([
    0x00,
    0x61,
    0x73,
    0x6d,
    0x01,
    0x00,
    0x00,
    0x00,
    // type 0: (i32, i32) -> i32; type 1: (i32, i32, i32, i32) -> i32
    ...section(1, [0x02, 0x60, 0x02, 0x7f, 0x7f, 0x01, 0x7f, 0x60, 0x04, 0x7f, 0x7f, 0x7f, 0x7f, 0x01, 0x7f]),
    ...section(3, [0x02, 0x00, 0x01]), // next: type 0, scan: type 1
    ...section(5, [0x01, 0x00, ...uleb(pages)]), // memory 0: `pages`, no maximum
    ...section(7, [
      0x03,
      ...name("next"),
      0x00,
      0x00,
      ...name("scan"),
      0x00,
      0x01,
      ...name("mem"),
      0x02,
      0x00,
    ]),
    ...section(10, [0x02, ...bodies]),
  ]);
}

/** Compiled modules by memory size: each buffer gets its own instance (and memory) of one. */
const modules = new Map<number, WebAssembly.Module>();

/**
 * A buffer to read file bytes into and search for line ends (and `{"type":"` keys) in. `bytes` is
 * a view of WebAssembly memory when SIMD is available, else a plain array; its size never changes.
 */
export class LineBuffer {
  /** The buffer (read into it, then call {@link next} or {@link newline}). */
  readonly bytes: Uint8Array<ArrayBuffer>;
  /** Where {@link scan} writes the stops it found. */
  readonly stops: Int32Array<ArrayBuffer>;
  readonly #next: (from: number, end: number) => number;
  readonly #scan: (from: number, end: number) => number;
  readonly #accelerated: boolean;

  /** A buffer of `size` bytes (rounded up to 64 KiB when WebAssembly is used). */
  constructor(size: number, useWasm = true) {
    let next: ((from: number, end: number) => number) | null = null;
    let scan: ((from: number, end: number) => number) | null = null;
    let bytes: Uint8Array<ArrayBuffer> | null = null;
    let stops: Int32Array<ArrayBuffer> | null = null;
    if (useWasm) {
      try {
        // The buffer, then the stops (4-byte aligned).
        const out = Math.ceil(size / 4) * 4;
        const pages = Math.ceil((out + 4 * MAX_STOPS) / 65536);
        let module = modules.get(pages);
        if (!module) modules.set(pages, module = new WebAssembly.Module(moduleBytes(pages)));
        const instance = new WebAssembly.Instance(module);
        const memory = (instance.exports.mem as WebAssembly.Memory).buffer as ArrayBuffer;
        next = instance.exports.next as (from: number, end: number) => number;
        const wasmScan = instance.exports.scan as (
          from: number,
          end: number,
          out: number,
          max: number,
        ) => number;
        scan = (from, end) => wasmScan(from, end, out, MAX_STOPS);
        bytes = new Uint8Array(memory, 0, size);
        stops = new Int32Array(memory, out, MAX_STOPS);
      } catch {
        // No WebAssembly SIMD here: the plain search below gives the same answers.
      }
    }
    this.#accelerated = next !== null;
    const b = this.bytes = bytes ?? new Uint8Array(size);
    const st = this.stops = stops ?? new Int32Array(MAX_STOPS);
    this.#next = next ?? ((from, end) => plainNext(b, from, end));
    this.#scan = scan ?? ((from, end) => {
      let count = 0;
      for (let at = plainNext(b, from, end); at < end && count < MAX_STOPS; at = plainNext(b, at + 1, end)) {
        st[count++] = at;
      }
      return count;
    });
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

  /**
   * Writes to {@link stops} the offsets {@link next} stops at in bytes[from, end), in order, at
   * most {@link MAX_STOPS}; returns how many.
   */
  scan(from: number, end: number): number {
    return this.#scan(from, end);
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
