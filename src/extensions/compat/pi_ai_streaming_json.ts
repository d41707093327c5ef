/**
 * 1.6.0 pi-ai's incremental JSON reader for extensions that write their own providers:
 * `StreamingJsonParser` reads streamed text piece by piece (each character once) and shows the value
 * read so far (`ToolCallArgumentsStream`, in pi_ai_tool_arguments_stream.ts, uses it for a tool
 * call's partial arguments).
 *
 * The reading is lenient the way 1.6.0's is (its `parseStreamingJson()` rules): an open string shows
 * its text so far (an unfinished escape is held back), an open container its members so far, a
 * member without a started value is left out, an unfinished `tru` / `nul` / `12e` shows `true` /
 * `null` / `12`; stray commas, colons and closers, unknown words and values in places that take
 * none are dropped, a missing comma or colon is tolerated, text after the root value is ignored. It
 * never throws.
 *
 * Snapshots are never mutated once returned, so each one copies the containers still open. To keep
 * the total work linear in the text, a snapshot is paid from a budget each `append()` adds to (256 +
 * 8 per character, as in 1.6.0); while a fresh copy costs more, the previous snapshot is returned.
 * `append()` returns what the piece changed (`set` of a new key, item or finished value, `append` to
 * an open string), down to 32 levels; a deeper container is one `set` when it closes.
 *
 * @module
 */

/** A plain JSON value. */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/** A step in a path: an object key or an array index. */
export type JsonPathSegment = string | number;

/** One change a piece of text made to the value. */
export type JsonChange =
  | { readonly kind: "set"; readonly path: readonly JsonPathSegment[]; readonly value: JsonValue }
  | { readonly kind: "append"; readonly path: readonly JsonPathSegment[]; readonly text: string };

type JsonObject = { [key: string]: JsonValue };
type Container = JsonValue[] | JsonObject;

/** Where a value goes: the root, a key of the innermost object, an index of the innermost array. */
type Place = { at: "root" } | { at: "key"; key: string } | { at: "index"; index: number };

/** An open container. `expect` is what an object awaits next (arrays take a value anywhere). */
interface Open {
  container: Container;
  place: Place | undefined;
  /** Path of the container when its changes are reported (undefined past 32 levels or when dropped). */
  path: JsonPathSegment[] | undefined;
  reportsInside: boolean;
  /** Members or items so far: what copying it costs. */
  count: number;
  key: string | undefined;
  expect: "key" | "colon" | "value" | "comma";
}

/** An open string: a key, or a value (placed as it grows). */
interface OpenString {
  isKey: boolean;
  place: Place | undefined;
  path: JsonPathSegment[] | undefined;
  text: string;
  /** Pending escape text (`\`, `\u`, `\u1`, …), or "". */
  escape: string;
  /** This string's latest change in the current piece's list, which later text extends. */
  change: { kind: "set"; path: JsonPathSegment[]; value: JsonValue } | {
    kind: "append";
    path: JsonPathSegment[];
    text: string;
  } | undefined;
}

const REPORT_DEPTH = 32;
const BUDGET_PER_PIECE = 256;
const BUDGET_PER_CHAR = 8;
const LONGEST_SHOWN_PENDING = 64;
const ROOT: Place = { at: "root" };
const FULL_NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;
const NUMBER_BEFORE_EMPTY_EXPONENT = /^(-?(?:0|[1-9]\d*)(?:\.\d+)?)[eE][+-]?$/;
const WORDS: ReadonlyArray<readonly [string, JsonValue]> = [["true", true], ["false", false], ["null", null]];
const ESCAPED: Readonly<Record<string, string>> = {
  '"': '"',
  "\\": "\\",
  "/": "/",
  b: "\b",
  f: "\f",
  n: "\n",
  r: "\r",
  t: "\t",
};
const ENDS_WORD = new Set([" ", "\t", "\n", "\r", ",", ":", "{", "}", "[", "]", '"']);

/** Incremental, lenient JSON reader (see the module comment). */
export class StreamingJsonParser {
  #root: JsonValue | undefined = undefined;
  #finished = false;
  #open: Open[] = [];
  #string: OpenString | undefined = undefined;
  #word = "";
  #wordPlace: Place | undefined = undefined;
  /** What a fresh snapshot copies: the open containers and their members. */
  #copyCost = 0;
  #budget = 0;
  #changed = false;
  #last: JsonValue | undefined = undefined;
  #changes: JsonChange[] = [];

  /** Reads the next piece of text and returns the changes it made, in order. */
  append(text: string): readonly JsonChange[] {
    this.#budget += BUDGET_PER_PIECE + BUDGET_PER_CHAR * text.length;
    this.#changes = [];
    if (this.#string) this.#string.change = undefined;
    let i = 0;
    while (i < text.length && !this.#finished) {
      if (this.#string) i = this.#readString(this.#string, text, i);
      else if (this.#word !== "") i = this.#readWord(text, i);
      else this.#readChar(text[i++]);
    }
    return this.#changes;
  }

  /**
   * The value read so far (undefined before one starts); the previous snapshot when nothing changed
   * or when a fresh copy is not yet paid for.
   */
  snapshot(): JsonValue | undefined {
    if (!this.#changed) return this.#last;
    const pending = this.#pendingWord();
    const cost = this.#copyCost + (pending ? 1 : 0);
    if (cost > this.#budget) return this.#last;
    this.#budget -= cost;
    this.#changed = false;
    this.#last = this.#copy(pending);
    return this.#last;
  }

  #readString(open: OpenString, text: string, from: number): number {
    let run = from;
    for (let i = from; i < text.length; i++) {
      const char = text[i];
      if (open.escape !== "") {
        if (this.#escapeTakes(open, char)) {
          run = i + 1;
          continue;
        }
        run = i;
      }
      if (char === '"' || char === "\\") {
        if (i > run) this.#grow(open, text.slice(run, i));
        if (char === "\\") {
          open.escape = "\\";
          run = i + 1;
          continue;
        }
        this.#string = undefined;
        this.#stringEnded(open);
        return i + 1;
      }
    }
    if (text.length > run) this.#grow(open, text.slice(run));
    return text.length;
  }

  /** Whether `char` continues the pending escape (else the escape is kept as text). */
  #escapeTakes(open: OpenString, char: string): boolean {
    if (open.escape === "\\") {
      if (char in ESCAPED) {
        open.escape = "";
        this.#grow(open, ESCAPED[char]);
        return true;
      }
      if (char === "u") {
        open.escape = "\\u";
        return true;
      }
      open.escape = "";
      this.#grow(open, "\\");
      return false;
    }
    if (/^[0-9a-fA-F]$/.test(char)) {
      open.escape += char;
      if (open.escape.length === 6) {
        const code = parseInt(open.escape.slice(2), 16);
        open.escape = "";
        this.#grow(open, String.fromCharCode(code));
      }
      return true;
    }
    const kept = open.escape;
    open.escape = "";
    this.#grow(open, kept);
    return false;
  }

  #grow(open: OpenString, text: string): void {
    open.text += text;
    if (open.isKey) return;
    this.#put(open.place, open.text);
    if (!open.path) return;
    const change = open.change;
    if (change && this.#changes[this.#changes.length - 1] === change) {
      if (change.kind === "set") change.value = (change.value as string) + text;
      else change.text += text;
      return;
    }
    open.change = { kind: "append", path: open.path, text };
    this.#changes.push(open.change);
  }

  #stringEnded(open: OpenString): void {
    const top = this.#top();
    if (open.isKey) {
      if (top) {
        top.key = open.text;
        top.expect = "colon";
      }
      return;
    }
    this.#valueDone(top);
  }

  #readWord(text: string, from: number): number {
    let end = from;
    while (end < text.length && !ENDS_WORD.has(text[end])) end++;
    if (end > from) {
      this.#word += text.slice(from, end);
      if (this.#wordPlace) this.#changed = true;
    }
    if (end < text.length) this.#wordEnded();
    return end;
  }

  #wordEnded(): void {
    const word = this.#word;
    const place = this.#wordPlace;
    this.#word = "";
    this.#wordPlace = undefined;
    const value = completeWord(word);
    if (value !== undefined) {
      this.#put(place, value);
      const path = this.#pathOf(place);
      if (path) this.#changes.push({ kind: "set", path, value });
    }
    this.#valueDone(this.#top());
  }

  #pendingWord(): { place: Place; value: JsonValue } | undefined {
    const place = this.#wordPlace;
    if (!place || this.#word === "" || this.#word.length > LONGEST_SHOWN_PENDING) return undefined;
    const value = partialWord(this.#word);
    return value === undefined ? undefined : { place, value };
  }

  #readChar(char: string): void {
    const top = this.#top();
    if (char === " " || char === "\t" || char === "\n" || char === "\r") return;
    if (char === '"') return this.#stringStarts(top);
    if (char === "{") return this.#containerStarts({});
    if (char === "[") return this.#containerStarts([]);
    if (char === "}" || char === "]") return this.#containerEnds();
    if (char === ":") {
      if (top && !Array.isArray(top.container) && top.expect === "colon") top.expect = "value";
      return;
    }
    if (char === ",") {
      if (top) top.expect = Array.isArray(top.container) ? "value" : "key";
      return;
    }
    this.#word = char;
    this.#wordPlace = this.#nextPlace();
    if (this.#wordPlace) this.#changed = true;
  }

  #stringStarts(top: Open | undefined): void {
    if (top && !Array.isArray(top.container) && (top.expect === "key" || top.expect === "comma")) {
      this.#string = {
        isKey: true,
        place: undefined,
        path: undefined,
        text: "",
        escape: "",
        change: undefined,
      };
      return;
    }
    const place = this.#nextPlace();
    const path = this.#pathOf(place);
    const open: OpenString = { isKey: false, place, path, text: "", escape: "", change: undefined };
    this.#string = open;
    this.#put(place, "");
    if (path) {
      open.change = { kind: "set", path, value: "" };
      this.#changes.push(open.change);
    }
  }

  #containerStarts(container: Container): void {
    const place = this.#nextPlace();
    const path = this.#pathOf(place);
    this.#put(place, container);
    this.#open.push({
      container,
      place,
      path,
      reportsInside: path !== undefined && path.length < REPORT_DEPTH,
      count: 0,
      key: undefined,
      expect: Array.isArray(container) ? "value" : "key",
    });
    this.#copyCost++;
    this.#changed = true;
    if (path) this.#changes.push({ kind: "set", path, value: Array.isArray(container) ? [] : {} });
  }

  #containerEnds(): void {
    const closed = this.#open.pop();
    if (!closed) return;
    this.#copyCost -= closed.count + 1;
    this.#changed = true;
    if (closed.path && !closed.reportsInside) {
      this.#changes.push({ kind: "set", path: closed.path, value: closed.container });
    }
    this.#valueDone(this.#top());
  }

  #valueDone(top: Open | undefined): void {
    if (top) top.expect = "comma";
    else if (this.#root !== undefined) this.#finished = true;
  }

  #top(): Open | undefined {
    return this.#open[this.#open.length - 1];
  }

  /** Where a value starting now goes; undefined where none is taken. */
  #nextPlace(): Place | undefined {
    const top = this.#top();
    if (!top) return this.#root === undefined ? ROOT : undefined;
    if (Array.isArray(top.container)) return { at: "index", index: top.container.length };
    if (top.key !== undefined && (top.expect === "value" || top.expect === "colon")) {
      return { at: "key", key: top.key };
    }
    return undefined;
  }

  #pathOf(place: Place | undefined): JsonPathSegment[] | undefined {
    if (!place) return undefined;
    if (place.at === "root") return [];
    const top = this.#top()!;
    if (!top.reportsInside) return undefined;
    return [...top.path!, place.at === "key" ? place.key : place.index];
  }

  #put(place: Place | undefined, value: JsonValue): void {
    if (!place) return;
    this.#changed = true;
    if (place.at === "root") {
      this.#root = value;
      return;
    }
    const top = this.#top()!;
    if (place.at === "index") {
      const items = top.container as JsonValue[];
      if (place.index === items.length) {
        top.count++;
        this.#copyCost++;
      }
      items[place.index] = value;
      return;
    }
    const members = top.container as JsonObject;
    if (!Object.hasOwn(members, place.key)) {
      top.count++;
      this.#copyCost++;
    }
    setKey(members, place.key, value);
  }

  /** Copies of the open containers, outermost first, each holding its open child's copy. */
  #copy(pending: { place: Place; value: JsonValue } | undefined): JsonValue | undefined {
    if (this.#open.length === 0) return pending?.place.at === "root" ? pending.value : this.#root;
    let inner: { copy: JsonValue; place: Place | undefined } | undefined;
    for (let depth = this.#open.length - 1; depth >= 0; depth--) {
      const frame = this.#open[depth];
      const copy: Container = Array.isArray(frame.container) ? [...frame.container] : { ...frame.container };
      if (inner === undefined && pending) placeIn(copy, pending.place, pending.value);
      if (inner?.place) placeIn(copy, inner.place, inner.copy);
      inner = { copy, place: frame.place };
    }
    return inner?.place?.at === "root" ? inner.copy : this.#root;
  }
}

function completeWord(word: string): JsonValue | undefined {
  for (const [literal, value] of WORDS) if (word === literal) return value;
  return FULL_NUMBER.test(word) ? Number(word) : undefined;
}

function partialWord(word: string): JsonValue | undefined {
  for (const [literal, value] of WORDS) if (literal.startsWith(word)) return value;
  if (FULL_NUMBER.test(word)) return Number(word);
  const mantissa = NUMBER_BEFORE_EMPTY_EXPONENT.exec(word);
  return mantissa ? Number(mantissa[1]) : undefined;
}

function placeIn(container: Container, place: Place, value: JsonValue): void {
  if (place.at === "index") (container as JsonValue[])[place.index] = value;
  else if (place.at === "key") setKey(container as JsonObject, place.key, value);
}

/** Sets a member; `__proto__` becomes an own member, as `JSON.parse()` makes it. */
function setKey(members: JsonObject, key: string, value: JsonValue): void {
  if (key === "__proto__") {
    Object.defineProperty(members, key, { value, writable: true, enumerable: true, configurable: true });
  } else members[key] = value;
}
