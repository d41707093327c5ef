/**
 * Parser for JSON that may be cut off at any point, used to show tool-call arguments while a
 * model is still streaming them.
 *
 * It reproduces, result for result and error message for error message, what the npm package
 * `partial-json` (0.1.7) returns from `parse(text)` with every partial kind allowed. That package
 * is CommonJS, and loading it brings up Deno's Node compatibility layer on every start; this file
 * has no imports. Its quirks are kept on purpose (for example a truncated string is closed where
 * it stops, `tru` reads as `true`, a container that goes wrong keeps what was read before the
 * fault, and text after the first value is ignored) because the streamed tool arguments users see
 * must match the reference agent. tests/ai/partial_json_test.ts checks this against the package.
 *
 * @module
 */

/**
 * Thrown when nothing can be read: `incomplete` tells a value that stopped too early (a lone
 * `-`, no value at all) from one that is not JSON. Plain `SyntaxError`s from `JSON.parse` and an
 * `Error` for blank input are thrown as they are, like the package does.
 */
export class PartialJsonError extends Error {
  /** True when the text ended before a value could start; false when it is malformed. */
  readonly incomplete: boolean;

  constructor(message: string, incomplete: boolean) {
    super(message);
    this.name = "PartialJsonError";
    this.incomplete = incomplete;
  }
}

const BLANK = " \n\r\t";
const NUMBER_END = ",]}";

/**
 * Words read as values, in the order the package tries them, with how many characters must
 * remain for a cut-off beginning to count. A word is taken whole even when more letters follow
 * it (`nullx` reads as null).
 */
const LITERALS: ReadonlyArray<readonly [string, unknown, number]> = [
  ["null", null, 1],
  ["true", true, 1],
  ["false", false, 1],
  ["Infinity", Infinity, 1],
  ["-Infinity", -Infinity, 2],
  ["NaN", NaN, 1],
];

/** Holds the text and the read position; one instance reads one document. */
class PartialJsonReader {
  private pos = 0;
  private readonly length: number;

  constructor(private readonly text: string) {
    this.length = text.length;
  }

  /** Reads the first value of the text; whatever follows it is not looked at. */
  readDocument(): unknown {
    return this.readValue();
  }

  private incomplete(what: string): never {
    throw new PartialJsonError(`${what} at position ${this.pos}`, true);
  }

  private malformed(what: string): never {
    throw new PartialJsonError(`${what} at position ${this.pos}`, false);
  }

  private skipBlank(): void {
    while (this.pos < this.length && BLANK.includes(this.text[this.pos])) this.pos++;
  }

  /**
   * True when `word` is spelled out here, or when the text ends here with a beginning of it
   * (`minRest` is how many characters must remain at least, so a lone `-` is no `-Infinity`).
   */
  private atLiteral(word: string, minRest: number): boolean {
    const { text, pos } = this;
    if (text.substring(pos, pos + word.length) === word) return true;
    const rest = this.length - pos;
    return rest >= minRest && rest < word.length && word.startsWith(text.substring(pos));
  }

  private readValue(): unknown {
    this.skipBlank();
    if (this.pos >= this.length) this.incomplete("Unexpected end of input");
    const char = this.text[this.pos];
    if (char === '"') return this.readString();
    if (char === "{") return this.readObject();
    if (char === "[") return this.readArray();
    for (const [word, value, minRest] of LITERALS) {
      if (this.atLiteral(word, minRest)) {
        this.pos += word.length;
        return value;
      }
    }
    return this.readNumber();
  }

  /**
   * Reads a string literal; the first character is taken as its opening quote without looking
   * (the package does so, which decides how broken object keys fail).
   */
  private readString(): string {
    const { text } = this;
    const start = this.pos;
    let escaped = false;
    this.pos++;
    while (this.pos < this.length && (text[this.pos] !== '"' || escaped)) {
      escaped = text[this.pos] === "\\" ? !escaped : false;
      this.pos++;
    }
    if (this.pos < this.length) {
      this.pos++;
      try {
        return JSON.parse(text.substring(start, this.pos)) as string;
      } catch (error) {
        this.malformed(String(error));
      }
    }
    // Cut off: close the string where it stops, without a dangling escape character.
    try {
      return JSON.parse(text.substring(start, this.pos - (escaped ? 1 : 0)) + '"') as string;
    } catch {
      // An escape cut short (`\u00`): retry before the last backslash of the whole text. The
      // package searches the whole text, and `substring` swaps reversed bounds; both kept.
      return JSON.parse(text.substring(start, text.lastIndexOf("\\")) + '"') as string;
    }
  }

  /** Never throws: on any fault the members read so far are the result. */
  private readObject(): Record<string, unknown> {
    const { text } = this;
    this.pos++;
    this.skipBlank();
    // Written to by plain assignment like the package; Deno removes the `__proto__` accessor,
    // so that key becomes an own member (as JSON.parse makes it) in both.
    const object: Record<string, unknown> = {};
    try {
      while (text[this.pos] !== "}") {
        this.skipBlank();
        if (this.pos >= this.length) return object;
        const key = this.readString();
        this.skipBlank();
        this.pos++; // the colon, whatever character stands there
        try {
          object[key] = this.readValue();
        } catch {
          return object;
        }
        this.skipBlank();
        if (text[this.pos] === ",") this.pos++;
      }
    } catch {
      return object;
    }
    this.pos++;
    return object;
  }

  /** Never throws: on any fault the items read so far are the result. */
  private readArray(): unknown[] {
    const { text } = this;
    this.pos++;
    const array: unknown[] = [];
    try {
      while (text[this.pos] !== "]") {
        array.push(this.readValue());
        this.skipBlank();
        if (text[this.pos] === ",") this.pos++;
      }
    } catch {
      return array;
    }
    this.pos++;
    return array;
  }

  /**
   * Numbers (and anything unrecognised). A cut-off exponent is dropped by retrying before the
   * last `e` of the whole text, the package's way, which can also pick up unrelated text.
   */
  private readNumber(): unknown {
    const { text } = this;
    if (this.pos === 0) {
      // The whole document is this one value.
      if (text === "-") this.malformed("Not sure what '-' is");
      try {
        return JSON.parse(text);
      } catch (error) {
        try {
          return JSON.parse(text.substring(0, text.lastIndexOf("e")));
        } catch {
          // report the first failure
        }
        this.malformed(String(error));
      }
    }
    const start = this.pos;
    if (text[this.pos] === "-") this.pos++;
    while (this.pos < this.length && !NUMBER_END.includes(text[this.pos])) this.pos++;
    const literal = text.substring(start, this.pos);
    try {
      return JSON.parse(literal);
    } catch {
      if (literal === "-") this.incomplete("Not sure what '-' is");
      try {
        return JSON.parse(text.substring(start, text.lastIndexOf("e")));
      } catch (error) {
        this.malformed(String(error));
      }
    }
  }
}

/**
 * Parses JSON that may be truncated anywhere, completing what is open: `{"a": [1, "x` gives
 * `{ a: [1, "x"] }`. Same results and errors as `partial-json`'s `parse` with all partial
 * kinds allowed; the text is trimmed first and blank text throws.
 */
export function parsePartialJson(text: string): unknown {
  if (typeof text !== "string") throw new TypeError(`expecting str, got ${typeof text}`);
  if (!text.trim()) throw new Error(`${text} is empty`);
  return new PartialJsonReader(text.trim()).readDocument();
}
