/**
 * The reading half of the LaTeX parser: position, arguments (`{…}` groups, single characters, commands, `[…]`
 * options) and raw groups. `LatexParser` supplies what an argument is made of (sequences and commands).
 *
 * @module
 */

/** Whether the character is whitespace (as LaTeX arguments skip it). */
export const isSpace = (character: string | undefined): boolean =>
  character !== undefined && /\s/.test(character);
/** Whether the character is a space or tab (what optional arguments and operator limits skip). */
export const isBlank = (character: string | undefined): boolean => character === " " || character === "\t";

/** Position and argument reading over one LaTeX source. */
export abstract class LatexReader {
  /** Index of the next character to read. */
  protected position = 0;
  /** False once anything unsupported or malformed was met. */
  protected supported = true;
  /** False inside the arguments of a one-line fraction, whose nested fractions must stay on one line too. */
  protected stackFractions = true;

  /** @param source the LaTeX text */
  constructor(protected readonly source: string) {}

  /** Reads until `end` (consumed) or the end of the source. */
  protected abstract sequence(end?: string): string;
  /** Reads a backslash command at the position. */
  protected abstract command(): string;
  /** Renders `source` with a nested parser. */
  abstract renderNested(source: string, stackFractions?: boolean): string;

  /** The character at the position. */
  protected get current(): string | undefined {
    return this.source[this.position];
  }

  /** The first index from `from` where `test` fails. */
  protected skipWhile(test: (character: string | undefined) => boolean, from = this.position): number {
    let at = from;
    while (at < this.source.length && test(this.source[at])) at++;
    return at;
  }

  /** A required argument: a group, a command, or one character; `stackFractions` false keeps fractions inline. */
  argument(stackFractions = true): string {
    const saved = this.stackFractions;
    this.stackFractions = saved && stackFractions;
    try {
      return this.argumentValue();
    } finally {
      this.stackFractions = saved;
    }
  }

  /** The argument itself, without the fraction-stacking bookkeeping. */
  private argumentValue(): string {
    this.position = this.skipWhile(isSpace);
    if (this.position >= this.source.length) {
      this.supported = false;
      return "";
    }
    if (this.current === "{") {
      this.position++;
      return this.sequence("}");
    }
    if (this.current === "\\") return this.command();
    return this.source[this.position++] ?? "";
  }

  /** An optional `[…]` argument, rendered; undefined when absent. */
  protected optionalArgument(): string | undefined {
    this.position = this.skipWhile(isBlank);
    if (this.current !== "[") return undefined;
    const end = this.source.indexOf("]", this.position + 1);
    if (end < 0) {
      this.supported = false;
      return undefined;
    }
    const value = this.source.slice(this.position + 1, end);
    this.position = end + 1;
    return this.renderNested(value);
  }

  /** The raw text of a `{…}` group (nesting and escapes respected), or undefined when there is none. */
  protected rawGroup(): string | undefined {
    this.position = this.skipWhile(isBlank);
    if (this.current !== "{") {
      this.supported = false;
      return undefined;
    }
    const start = ++this.position;
    let depth = 1;
    while (this.position < this.source.length) {
      const character = this.source[this.position];
      if (character === "\\") {
        this.position += 2;
        continue;
      }
      if (character === "{") depth++;
      if (character === "}") depth--;
      if (depth === 0) {
        const value = this.source.slice(start, this.position);
        this.position++;
        return value;
      }
      this.position++;
    }
    this.supported = false;
    return undefined;
  }
}
