/**
 * Entry stubs: session entries that hold only what resuming and the tree need — `type`, `id`,
 * `parentId`, `timestamp`, and a message's `role` — and read everything else from the session
 * file on first use (one parse of the entry's line, found by its offset). A stub is an ordinary
 * object with the line's keys in the line's order: the other keys are accessors that load the
 * line and then become plain data properties, so `JSON.stringify`, spreads and `Object.keys` see
 * exactly what a full parse gives. A message entry's `message` is itself made on first use as a
 * stub holding `role`, so walking a branch for roles reads no line.
 *
 * Which entries stay whole: the header, the small settings, label and name entries (read at
 * start-up anyway), and any entry whose small fields are not plain strings (a hand-edited or odd
 * file) — those are kept as parsed.
 *
 * @module
 */
import type { FileEntry } from "./entries.ts";
import type { DeferredSource } from "./lazy_json.ts";

/**
 * How a key of a stub is held: 0 a value kept in memory (type, id, parentId, timestamp), 1 read
 * from the line on first use, 2 `message`, made on first use as a stub with its `role` (see
 * {@link Shape.message}).
 */
export type KeyKind = 0 | 1 | 2;
const KEPT = 0;
const LAZY = 1;
const MESSAGE = 2;

/** The keys of a stub in line order, with how each is held; shared by all entries of that layout. */
export interface Shape {
  keys: string[];
  kinds: KeyKind[];
  /** The message's keys in order (its `role` is kept), when a key is of kind Message. */
  message?: string[];
  /** The text that identifies the shape (keys and kinds), as stored in the session index. */
  signature: string;
  /** True for pi's own message entry layout, made by a literal. */
  literal: boolean;
}

/** The small values of a stub, as kept in memory. */
export interface KeptValues {
  type: string;
  id: string;
  parentId: string | null | undefined;
  timestamp: string | undefined;
  role: string | undefined;
}

/** Entry types kept whole when their line is at most {@link WHOLE_LINE_BYTES}: start-up reads them. */
const WHOLE_TYPES = new Set(["session", "label", "session_info", "model_change", "thinking_level_change"]);
/** Lines of {@link WHOLE_TYPES} up to this size are kept whole. */
export const WHOLE_LINE_BYTES = 1024;
/** At most this many shapes per file; entries of further layouts are kept whole. */
const MAX_SHAPES = 4096;

/** The keys and kinds of pi's message entry layout (`type`, `id`, `parentId`, `timestamp`, `message`). */
const MESSAGE_LAYOUT = JSON.stringify([["type", "id", "parentId", "timestamp", "message"], [0, 0, 0, 0, 2]]);

/** On the getter of a stub's `message`: the StubFile it belongs to. */
const FILE = Symbol("stub file");

/** The StubFile made last (see {@link messageRole}); weak, so a session switched away is freed. */
let latestFile: WeakRef<StubFile> | undefined;

/**
 * The `role` of a message entry's message, without reading its line or making its stub when it
 * was not asked for yet (walking a long branch for roles then costs nothing per entry);
 * undefined when the entry has no message object.
 */
export function messageRole(entry: { message?: unknown }): string | undefined {
  // The newest file's stubs (a resume's) answer from their slot, without a descriptor lookup.
  const quick = latestFile?.deref()?.quickRole(entry);
  if (quick !== undefined) return quick;
  const descriptor = Object.getOwnPropertyDescriptor(entry, "message");
  const file = descriptor?.get && (descriptor.get as unknown as Record<symbol, unknown>)[FILE];
  if (file instanceof StubFile) return file.roleOf(entry);
  const message = entry.message;
  return isObject(message) && typeof message.role === "string" ? message.role : undefined;
}

function setData(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
}

/**
 * The accessor of a key read on use: the first read calls `fill` (which turns every unread key
 * of the stub into a data property) and returns the value; assigning first just sets it.
 */
function lazyDescriptor(
  key: string,
  fill: (stub: Record<string | symbol, unknown>) => void,
): PropertyDescriptor {
  return {
    enumerable: true,
    configurable: true,
    get(this: Record<string | symbol, unknown>) {
      fill(this);
      return this[key];
    },
    set(this: Record<string, unknown>, value: unknown) {
      setData(this, key, value);
    },
  };
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/**
 * The stubs of one session file: the columns (line offset, length and number, shape, role) of
 * every entry read, and the accessors its stubs share. Stubs of one file share hidden classes.
 */
export class StubFile {
  readonly path: string;
  readonly source: DeferredSource;
  /** Byte offset, byte length (without `\n`) and line number of each entry's line. */
  readonly offsets: number[] = [];
  readonly lengths: number[] = [];
  readonly lines: number[] = [];
  /** Each entry's shape, or null for an entry kept whole. */
  readonly shapes: (Shape | null)[] = [];
  readonly roles: (string | undefined)[] = [];
  /** Every shape met, in order of first use (the session index stores them by number). */
  readonly shapeList: Shape[] = [];
  readonly #shapeBySignature = new Map<string, Shape>();
  readonly #entryAccessors = new Map<string, PropertyDescriptor>();
  readonly #messageAccessors = new Map<string, PropertyDescriptor>();
  /**
   * The hidden (non-enumerable) slot of this file's stubs: its number in the columns. A symbol
   * of its own per file, defined before any accessor, so the stubs of each file get their own
   * hidden classes: two different accessors for one key on one hidden class (two files, or a
   * getter per role) send V8 to slow dictionary objects, about twice the memory.
   */
  readonly #slot = Symbol("entry stub");
  /** The `message` accessor of this file's stubs (its getter names the file, see {@link messageRole}). */
  readonly #messageAccessor: PropertyDescriptor;
  /** Slots whose `message` accessor has been replaced by a value (made or assigned). */
  readonly #messageReplaced = new Set<number>();
  /** The descriptor of a stub's slot, its value set for each stub made. */
  readonly #slotDescriptor = { value: 0, writable: false, enumerable: false, configurable: false };

  constructor(path: string, source: DeferredSource) {
    this.path = path;
    this.source = source;
    const slotKey = this.#slot;
    const replaced = this.#messageReplaced;
    const make = (stub: Record<string | symbol, unknown>) => {
      const slot = stub[slotKey] as number;
      const message = this.#messageStub(slot);
      replaced.add(slot);
      setData(stub as Record<string, unknown>, "message", message);
      return message;
    };
    this.#messageAccessor = {
      enumerable: true,
      configurable: true,
      get(this: Record<string | symbol, unknown>) {
        return make(this);
      },
      set(this: Record<string | symbol, unknown>, value: unknown) {
        replaced.add(this[slotKey] as number);
        setData(this as Record<string, unknown>, "message", value);
      },
    };
    Object.defineProperty(this.#messageAccessor.get, FILE, { value: this });
    latestFile = new WeakRef(this);
  }

  /**
   * The kept role of `entry` when it is a message stub of this file whose `message` was neither
   * made nor assigned yet; undefined when that cannot be told this way (then ask the entry).
   */
  quickRole(entry: object): string | undefined {
    const slot = (entry as Record<symbol, unknown>)[this.#slot];
    if (typeof slot !== "number" || this.#messageReplaced.has(slot)) return undefined;
    return this.shapes[slot]?.message ? this.roles[slot] : undefined;
  }

  /** The role kept for a message stub of this file. */
  roleOf(entry: object): string | undefined {
    const slot = (entry as Record<symbol, unknown>)[this.#slot];
    return typeof slot === "number" ? this.roles[slot] : undefined;
  }

  /** The shape with this signature (from a session index), or null when it is not valid. */
  shapeFromSignature(signature: string): Shape | null {
    const known = this.#shapeBySignature.get(signature);
    if (known) return known;
    let parsed: unknown;
    try {
      parsed = JSON.parse(signature);
    } catch {
      return null;
    }
    if (!Array.isArray(parsed) || parsed.length !== 3) return null;
    const [keys, kinds, message] = parsed as [unknown, unknown, unknown];
    if (!Array.isArray(keys) || !Array.isArray(kinds) || keys.length !== kinds.length) return null;
    if (!keys.every((k) => typeof k === "string" && k !== "__proto__")) return null;
    if (!kinds.every((k) => k === KEPT || k === LAZY || k === MESSAGE)) return null;
    const hasMessage = kinds.includes(MESSAGE);
    if (hasMessage !== Array.isArray(message)) return null;
    if (hasMessage && !(message as unknown[]).every((k) => typeof k === "string" && k !== "__proto__")) {
      return null;
    }
    for (let i = 0; i < keys.length; i++) {
      const k = kinds[i];
      if (k === KEPT && !["type", "id", "parentId", "timestamp"].includes(keys[i])) return null;
      if (k === MESSAGE && keys[i] !== "message") return null;
    }
    if (!keys.includes("type") || !keys.includes("id")) return null;
    return this.#register(keys as string[], kinds as KeyKind[], hasMessage ? message as string[] : undefined);
  }

  #register(keys: string[], kinds: KeyKind[], message: string[] | undefined): Shape {
    const signature = JSON.stringify([keys, kinds, message ?? null]);
    let shape = this.#shapeBySignature.get(signature);
    if (!shape) {
      shape = { keys, kinds, message, signature, literal: JSON.stringify([keys, kinds]) === MESSAGE_LAYOUT };
      this.#shapeBySignature.set(signature, shape);
      this.shapeList.push(shape);
    }
    return shape;
  }

  /**
   * The shape `value` (a parsed line) is stubbed with, or null when it is kept whole. `length`
   * is the line's byte length.
   */
  shapeOf(value: Record<string, unknown>, length: number, keepWhole: boolean): Shape | null {
    const type = value.type;
    if (typeof type !== "string" || typeof value.id !== "string") return null;
    if (keepWhole && WHOLE_TYPES.has(type) && length <= WHOLE_LINE_BYTES) return null;
    const keys = Object.keys(value);
    const kinds: KeyKind[] = new Array(keys.length);
    let message: string[] | undefined;
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i];
      const v = value[key];
      let kind: KeyKind = LAZY;
      if (key === "__proto__") return null;
      if (key === "type" || key === "id") kind = KEPT;
      else if (key === "parentId") kind = typeof v === "string" || v === null ? KEPT : LAZY;
      else if (key === "timestamp") kind = typeof v === "string" ? KEPT : LAZY;
      else if (key === "message" && isObject(v) && typeof v.role === "string") {
        const inner = Object.keys(v);
        if (!inner.includes("__proto__")) {
          kind = MESSAGE;
          message = inner;
        }
      }
      kinds[i] = kind;
    }
    if (this.shapeList.length >= MAX_SHAPES) {
      const signature = JSON.stringify([keys, kinds, message ?? null]);
      return this.#shapeBySignature.get(signature) ?? null;
    }
    return this.#register(keys, kinds, message);
  }

  /**
   * Records the entry parsed from a line (`value`) and returns what the session keeps of it: a
   * stub, or `value` itself when it is kept whole.
   */
  take(
    value: Record<string, unknown>,
    offset: number,
    length: number,
    line: number,
    keepWhole: boolean,
  ): FileEntry {
    const shape = this.shapeOf(value, length, keepWhole);
    if (!shape) {
      this.#push(offset, length, line, null, undefined);
      return value as unknown as FileEntry;
    }
    const message = value.message as Record<string, unknown> | undefined;
    return this.stub(
      offset,
      length,
      line,
      shape,
      value.type as string,
      value.id as string,
      value.parentId as string | null | undefined,
      value.timestamp as string | undefined,
      shape.message ? message!.role as string : undefined,
    );
  }

  /** Records an entry kept whole (from a session index). */
  whole(value: FileEntry, offset: number, length: number, line: number): FileEntry {
    this.#push(offset, length, line, null, undefined);
    return value;
  }

  #push(offset: number, length: number, line: number, shape: Shape | null, role: string | undefined): number {
    const slot = this.offsets.length;
    this.offsets.push(offset);
    this.lengths.push(length);
    this.lines.push(line);
    this.shapes.push(shape);
    this.roles.push(role);
    return slot;
  }

  /**
   * Makes the stub of a line with `shape` and its kept values (positional: a resume makes one per
   * entry, and an object of them each would be garbage at once).
   */
  stub(
    offset: number,
    length: number,
    line: number,
    shape: Shape,
    type: string,
    id: string,
    parentId: string | null | undefined,
    timestamp: string | undefined,
    role: string | undefined,
  ): FileEntry {
    const slot = this.#push(offset, length, line, shape, role);
    // One descriptor object serves every stub's slot (defineProperty reads it at once).
    const slotDescriptor = this.#slotDescriptor;
    slotDescriptor.value = slot;
    let out: Record<string, unknown>;
    if (shape.literal) {
      // pi's own message layout: a literal is the cheapest way to make it (most entries).
      out = { type, id, parentId, timestamp };
      Object.defineProperty(out, this.#slot, slotDescriptor);
      Object.defineProperty(out, "message", this.#messageAccessor);
    } else {
      out = {};
      // The slot first: from here on the hidden classes are this file's own.
      Object.defineProperty(out, this.#slot, slotDescriptor);
      const { keys, kinds } = shape;
      for (let i = 0; i < keys.length; i++) {
        const key = keys[i];
        const kind = kinds[i];
        if (kind === KEPT) {
          out[key] = key === "type" ? type : key === "id" ? id : key === "parentId" ? parentId : timestamp;
        } else if (kind === MESSAGE) Object.defineProperty(out, key, this.#messageAccessor);
        else Object.defineProperty(out, key, this.#entryAccessor(key));
      }
    }
    return out as unknown as FileEntry;
  }

  /** Parses the line of entry `slot`, checked to be the entry the stub was made from. */
  #load(slot: number, id: unknown): Record<string, unknown> {
    const line = this.lines[slot];
    const value = this.source.load(this.offsets[slot], this.lengths[slot], line);
    if (!isObject(value) || value.id !== id) {
      throw new Error(
        `Session file ${this.path} changed on disk since it was loaded (line ${line} is no longer the entry ${
          String(id)
        }); reopen the session.`,
      );
    }
    return value;
  }

  #entryAccessor(key: string): PropertyDescriptor {
    let descriptor = this.#entryAccessors.get(key);
    if (!descriptor) {
      descriptor = lazyDescriptor(key, (stub) => this.#fillEntry(stub));
      this.#entryAccessors.set(key, descriptor);
    }
    return descriptor;
  }

  /** Sets every key of an entry stub still unread from its line. */
  #fillEntry(stub: Record<string | symbol, unknown>): void {
    const slot = stub[this.#slot] as number;
    const value = this.#load(slot, stub.id);
    const { keys, kinds } = this.shapes[slot]!;
    for (let i = 0; i < keys.length; i++) {
      const k = keys[i];
      // A message not asked for yet is set whole (one parse serves both).
      if (kinds[i] !== KEPT && Object.getOwnPropertyDescriptor(stub, k)?.get) {
        setData(stub as Record<string, unknown>, k, value[k]);
      }
    }
  }

  /** The stub of entry `slot`'s message: its `role`, the rest read on first use. */
  #messageStub(slot: number): Record<string, unknown> {
    const keys = this.shapes[slot]!.message!;
    const out: Record<string, unknown> = {};
    Object.defineProperty(out, this.#slot, { value: slot });
    for (const key of keys) {
      if (key === "role") out.role = this.roles[slot];
      else Object.defineProperty(out, key, this.#messageKeyAccessor(key));
    }
    return out;
  }

  #messageKeyAccessor(key: string): PropertyDescriptor {
    let descriptor = this.#messageAccessors.get(key);
    if (!descriptor) {
      descriptor = lazyDescriptor(key, (stub) => this.#fillMessage(stub));
      this.#messageAccessors.set(key, descriptor);
    }
    return descriptor;
  }

  /** Sets every key of a message stub still unread from its entry's line. */
  #fillMessage(stub: Record<string | symbol, unknown>): void {
    const slot = stub[this.#slot] as number;
    // The entry's id is not on the message: check the line by the message's role instead.
    const entry = this.source.load(this.offsets[slot], this.lengths[slot], this.lines[slot]);
    const message = isObject(entry) && isObject(entry.message) ? entry.message : undefined;
    if (!message || message.role !== stub.role) {
      throw new Error(
        `Session file ${this.path} changed on disk since it was loaded (line ${
          this.lines[slot]
        } is no longer the message that was there); reopen the session.`,
      );
    }
    for (const k of this.shapes[slot]!.message!) {
      if (k !== "role" && Object.getOwnPropertyDescriptor(stub, k)?.get) {
        setData(stub as Record<string, unknown>, k, message[k]);
      }
    }
  }

  /**
   * The kept values of `entry` (number `slot`) for the session index: read from the stub's own
   * data properties, never loading its line.
   */
  keptValues(entry: FileEntry, slot: number): KeptValues {
    const e = entry as unknown as Record<string, unknown>;
    const shape = this.shapes[slot]!;
    const kept = (key: string) => {
      const i = shape.keys.indexOf(key);
      return i >= 0 && shape.kinds[i] === KEPT ? e[key] : undefined;
    };
    return {
      type: e.type as string,
      id: e.id as string,
      parentId: kept("parentId") as string | null | undefined,
      timestamp: kept("timestamp") as string | undefined,
      role: this.roles[slot],
    };
  }
}
