/**
 * Incremental lexing of a markdown text that grows at its end, as a streamed reply does. Lexing the whole text
 * on every delta costs time in proportion to the text, so a long stream would cost its length squared. Instead
 * the lexer remembers a stable prefix: leading top-level blocks that nothing appended can change. Only the text
 * after it is lexed again, and the result is the same token list a full lex gives.
 *
 * A block is stable when a later block already follows it and it is closed for good: an ATX or setext heading, or
 * a blank line after a paragraph, fenced code, table, quote, rule or display formula. (A list or indented code
 * may go on after a blank line, and HTML blocks may run past one, so they never end a stable prefix.) The lexer
 * falls back to a full lex when the text is not the last one with more appended, when the rest starts with a
 * blank line (it would merge into the prefix's blank lines), and whenever link definitions appear (a definition
 * anywhere changes how references everywhere render).
 *
 * @module
 */
import type { Token } from "npm:marked@18.0.11";
import { lexMarkdown, removeCommentBlocks, trimPartialClosingFence } from "./markdown_lexer.ts";

/** A lexed text: `stable` tokens (shared, never mutated later) then `rest`, both after clean-ups. */
export interface LexedDocument {
  /** The stable prefix's tokens; the first `stableCount` of them belong to this text. */
  readonly stable: readonly Token[];
  /** How many stable tokens this text uses (one less when a trailing comment took the prefix's last blank line). */
  readonly stableCount: number;
  /** The tokens after the stable prefix. */
  readonly rest: readonly Token[];
  /** Whether the text defines links; then no block may be reused across renders. */
  readonly hasLinks: boolean;
}

function closesForGood(token: Token): boolean {
  switch (token.type) {
    case "paragraph":
    case "table":
    case "blockquote":
    case "hr":
    case "heading":
      return true;
    case "code":
      return token.codeBlockStyle !== "indented";
    case "latexBlock":
      return !(token as { pending?: boolean }).pending;
    default:
      return false;
  }
}

/** Markdown's own normalisation of a text: tabs as three spaces (the component's rule), CR/CRLF as LF (marked's). */
function normalize(text: string): string {
  return text.replace(/\t/g, "   ").replace(/\r\n|\r/g, "\n");
}

/** The length of the prefix of `original` whose normalised form is `normalizedLength` long, if one is. */
function originalLength(original: string, normalizedLength: number): number | undefined {
  let normalized = 0;
  let index = 0;
  while (normalized < normalizedLength && index < original.length) {
    const code = original.charCodeAt(index);
    if (code === 9) normalized += 3;
    else if (code !== 13 || original.charCodeAt(index + 1) !== 10) normalized += 1;
    index++;
  }
  return normalized === normalizedLength ? index : undefined;
}

/**
 * The same characters in a string of their own. A V8 substring is a view that keeps its whole parent alive, and
 * the tokens' sources are substrings of what is lexed: without a copy every stable token would keep the entire
 * text of the delta it was lexed at, and a stream's memory would grow with its length squared.
 */
function detached(text: string): string {
  return (" " + text).slice(1);
}

/** A display-math opener where marked's formula-block extension looks for one. */
const OPENER_AT_LINE_START = /(?:^|\n) {0,3}(?:\$\$|\\\[)/;

/** Whether the token consumed its own display-math openers: a closed formula block or fenced code. */
function closesMath(token: Token): boolean {
  if (token.type === "latexBlock") return !(token as { pending?: boolean }).pending;
  return token.type === "code" && token.codeBlockStyle !== "indented";
}

/**
 * The last index after which the tokens may be cut for good (a later token exists), or -1.
 *
 * Never past two paragraph tokens in a row: marked splits a paragraph where another block seems to start (a row
 * and a false table delimiter) and then joins the two again only when a display-math opener (`$$`, `\[`) stands
 * at a line start anywhere later in the text, so text appended much later can still merge them. Never past a
 * block holding such an opener either (other than a formula block or fenced code, which consumed theirs): a
 * closing delimiter appended later, even after blank lines, makes it a formula block that swallows what follows.
 */
function lastBoundary(tokens: readonly Token[]): number {
  let end = tokens.length - 2;
  for (let index = 0; index < end; index++) {
    const token = tokens[index]!;
    if (
      (token.type === "paragraph" && tokens[index + 1]!.type === "paragraph") ||
      (OPENER_AT_LINE_START.test(token.raw) && !closesMath(token))
    ) {
      end = index - 1;
      break;
    }
  }
  for (let index = end; index >= 0; index--) {
    const token = tokens[index]!;
    if (tokens[index + 1]!.type === "space") continue;
    if (token.type === "heading") return index;
    if (token.type === "space" && index > 0 && closesForGood(tokens[index - 1]!)) return index;
  }
  return -1;
}

/** Comment blocks removed from `tokens` as if `before` stood in front of them; says whether `before` went too. */
function removeCommentsAfter(
  before: Token | undefined,
  tokens: Token[],
): { tokens: Token[]; removedBefore: boolean } {
  if (!before) {
    removeCommentBlocks(tokens);
    return { tokens, removedBefore: false };
  }
  const joined = [before, ...tokens];
  removeCommentBlocks(joined);
  if (joined[0] === before) return { tokens: joined.slice(1), removedBefore: false };
  return { tokens: joined, removedBefore: true };
}

/** Lexes successive versions of one text, re-lexing only what follows its stable prefix. */
export class IncrementalLexer {
  /** The text of the last lex; its first `stableLength` characters are the stable prefix's source. */
  private source = "";
  /** Length in `source` (before normalisation) of the stable prefix. */
  private stableLength = 0;
  private stable: Token[] = [];
  private lastText: string | undefined;
  private lastResult: LexedDocument | undefined;

  /** The tokens of `text`, equal to a full lex with the component's clean-ups. */
  lex(text: string): LexedDocument {
    if (text === this.lastText && this.lastResult) return this.lastResult;
    // The prefix stays only while the text grows at its end: then a display-math opener that made marked join
    // paragraphs in the prefix (see lastBoundary) is still there. Slices compare in place (no copy of a
    // growing prefix string), and V8's === on flat strings is many times faster than its startsWith.
    const previous = this.source;
    if (
      this.stableLength > 0 &&
      (text.length < previous.length || text.slice(0, previous.length) !== previous)
    ) {
      this.reset();
    }
    this.source = text;
    let result = this.lexRest(text);
    if (!result) {
      this.reset();
      result = this.lexRest(text)!;
    }
    this.lastText = text;
    this.lastResult = result;
    return result;
  }

  /** Forgets the stable prefix. */
  reset(): void {
    this.stableLength = 0;
    this.stable = [];
  }

  /** Lexes what follows the stable prefix; undefined when that cannot give a full lex's result. */
  private lexRest(text: string): LexedDocument | undefined {
    const tail = detached(text.slice(this.stableLength));
    const normalizedTail = normalize(tail);
    const tokens: Token[] = lexMarkdown(normalizedTail);
    const hasLinks = Object.keys((tokens as { links?: object }).links ?? {}).length > 0;
    if (this.stable.length > 0 && (hasLinks || tokens.length === 0 || tokens[0]!.type === "space")) {
      return undefined;
    }
    const rest = tokens.slice(hasLinks ? 0 : this.advance(tail, normalizedTail, tokens));
    trimPartialClosingFence(rest);
    const cleaned = removeCommentsAfter(this.stable[this.stable.length - 1], rest);
    return {
      stable: this.stable,
      stableCount: this.stable.length - (cleaned.removedBefore ? 1 : 0),
      rest: cleaned.tokens,
      hasLinks,
    };
  }

  /** Moves the tokens up to the last boundary into the stable prefix; gives how many tokens moved. */
  private advance(tail: string, normalizedTail: string, tokens: Token[]): number {
    const boundary = lastBoundary(tokens);
    if (boundary < 0) return 0;
    const moved = tokens.slice(0, boundary + 1);
    const raw = moved.map((token) => token.raw).join("");
    // The raws must spell the normalised text exactly, or their length cannot be mapped back to the source.
    if (normalizedTail.slice(0, raw.length) !== raw) return 0;
    const sourceLength = originalLength(tail, raw.length);
    if (sourceLength === undefined) return 0;
    for (const token of removeCommentsAfter(this.stable[this.stable.length - 1], moved).tokens) {
      this.stable.push(token);
    }
    this.stableLength += sourceLength;
    return boundary + 1;
  }
}
