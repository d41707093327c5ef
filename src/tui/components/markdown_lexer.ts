/**
 * The markdown lexer of the Markdown component: marked 18 (GFM) with pi-tui 1.6.0's changes — strict `~~` strike
 * (single `~` is text), bare URLs that stop at CJK punctuation, CJK-friendly `*`/`_` emphasis, `$…$`/`\(…\)` inline
 * and `$$…$$`/`\[…\]` display LaTeX (pending while a stream has not closed them) — and the clean-ups applied to
 * a token list: a half-typed closing fence is not shown, and comment-only HTML blocks vanish with their gap.
 *
 * @module
 */
import { Marked, type Token, Tokenizer, type Tokens, type TokensList } from "npm:marked@18.0.11";
import { cjkPunctuationRegex } from "../utils_chars.ts";
import { cjkFriendlyEmStrong } from "./markdown_cjk_emphasis.ts";

/** An inline `$…$`, `$$…$$`, `\(…\)` or `\[…\]` formula; pending while its closing delimiter has not arrived. */
export interface LatexToken {
  type: "latex";
  raw: string;
  text: string;
  pending?: boolean;
}

/** A display `$$…$$` or `\[…\]` formula block; pending while unclosed. */
export interface LatexBlockToken {
  type: "latexBlock";
  raw: string;
  text: string;
  pending?: boolean;
}

const STRICT_STRIKE = /^(~~)(?=[^\s~])((?:\\.|[^\\])*?(?:\\.|[^\s~\\]))\1(?=[^~]|$)/;

class PiTokenizer extends Tokenizer {
  /** Bare URLs end before CJK punctuation (`https://a.b。` links only `https://a.b`). */
  override url(src: string): Tokens.Link | undefined {
    const token = super.url(src);
    if (!token) return undefined;
    const cut = token.raw.search(cjkPunctuationRegex());
    return cut < 0 ? token : super.url(token.raw.slice(0, cut));
  }

  /** Only `~~x~~` strikes through; GFM's single `~x~` stays text. */
  override del(src: string): Tokens.Del | undefined {
    const match = STRICT_STRIKE.exec(src);
    if (!match) return undefined;
    const text = match[2] ?? "";
    return { type: "del", raw: match[0], text, tokens: this.lexer.inlineTokens(text) };
  }
}

function escaped(source: string, index: number): boolean {
  let count = 0;
  for (let at = index - 1; at >= 0 && source[at] === "\\"; at--) count++;
  return count % 2 === 1;
}

function unescapedIndexOf(source: string, needle: string, from: number): number {
  let index = source.indexOf(needle, from);
  while (index >= 0 && escaped(source, index)) index = source.indexOf(needle, index + needle.length);
  return index;
}

/** Whether an unclosed `$` or `$$` already reads like math (a command, operator or bracket), not a price. */
function looksLikeMath(source: string): boolean {
  return /\\[A-Za-z]+|[_^=+*/<>()[\]|±≤≥≠≈∈→⇒∞∫∑√-]/.test(source);
}

const DELIMITER_PAIRS: readonly [string, string][] = [["$$", "$$"], ["\\(", "\\)"], ["\\[", "\\]"]];

function inlineLatex(src: string): LatexToken | undefined {
  let pair = DELIMITER_PAIRS.find(([open]) => src.startsWith(open));
  if (!pair && src.startsWith("$") && !/^\$\s/.test(src)) pair = ["$", "$"];
  if (!pair) return undefined;
  const [open, close] = pair;
  const end = unescapedIndexOf(src, close, open.length);
  if (end >= 0 && open === "$") {
    // Single dollars that read as money, shell variables or code are not math.
    const inner = src.slice(open.length, end);
    const after = src.slice(end + 1);
    if (
      /\s$/.test(inner) || /^\d/.test(after) ||
      (/^[A-Z_][A-Z0-9_]*(?:[^A-Za-z0-9_\s])?$/.test(inner) && /^[A-Za-z_][A-Za-z0-9_]*/.test(after)) ||
      inner.includes("`")
    ) {
      return undefined;
    }
  }
  if (end < 0) {
    const rest = src.slice(open.length);
    if (open.startsWith("\\") || looksLikeMath(rest)) {
      return { type: "latex", raw: src, text: rest, pending: true };
    }
    return undefined;
  }
  const text = src.slice(open.length, end);
  if (!text || text.includes("\n")) return undefined;
  return { type: "latex", raw: src.slice(0, end + close.length), text };
}

const TABLE_DELIMITER_ROW = /^ {0,3}\|?[ \t]*:?-+:?[ \t]*(?:\|[ \t]*:?-+:?[ \t]*)*\|?[ \t]*$/;

/**
 * Whether the text holds a GFM table start: a row followed by a delimiter row, with a pipe in one of them (a
 * pipe-free delimiter under a pipe-free row is a thematic break).
 */
function holdsTableStart(source: string): boolean {
  const lines = source.split("\n");
  for (let index = 0; index + 1 < lines.length; index++) {
    const delimiter = lines[index + 1] ?? "";
    if (
      (delimiter.includes("|") || (lines[index] ?? "").includes("|")) && TABLE_DELIMITER_ROW.test(delimiter)
    ) {
      return true;
    }
  }
  return false;
}

const CLOSED_DOLLAR_BLOCK = /^ {0,3}\$\$[ \t]*(?:\n)?([\s\S]*?)\$\$[ \t]*(?:\n|$)/;
const CLOSED_BRACKET_BLOCK = /^ {0,3}\\\[[ \t]*(?:\n)?([\s\S]*?)\\\][ \t]*(?:\n|$)/;
const OPEN_BRACKET_BLOCK = /^ {0,3}\\\[[ \t]*(?:\n)?([\s\S]*)$/;
const OPEN_DOLLAR_BLOCK = /^ {0,3}\$\$[ \t]*(?:\n)?([\s\S]*)$/;

/** Display math; never across a table, so an unclosed `$$` cannot swallow one (pi issue 11159). */
function blockLatex(src: string): LatexBlockToken | undefined {
  for (const pattern of [CLOSED_DOLLAR_BLOCK, CLOSED_BRACKET_BLOCK]) {
    const match = pattern.exec(src);
    if (match?.[1] && !holdsTableStart(match[1])) {
      return { type: "latexBlock", raw: match[0], text: match[1].trim() };
    }
  }
  const bracket = OPEN_BRACKET_BLOCK.exec(src);
  if (bracket?.[1] && !holdsTableStart(bracket[1])) {
    return { type: "latexBlock", raw: bracket[0], text: bracket[1], pending: true };
  }
  const dollar = OPEN_DOLLAR_BLOCK.exec(src);
  if (dollar?.[1] && looksLikeMath(dollar[1]) && !holdsTableStart(dollar[1])) {
    return { type: "latexBlock", raw: dollar[0], text: dollar[1], pending: true };
  }
  return undefined;
}

function firstIndex(indices: number[]): number | undefined {
  const found = indices.filter((index) => index >= 0);
  return found.length > 0 ? Math.min(...found) : undefined;
}

let parser: Marked | undefined;

/** The configured marked instance, built on first use (keeps loading the kit cheap). */
function markedInstance(): Marked {
  if (parser) return parser;
  const instance = new Marked();
  instance.setOptions({ tokenizer: new PiTokenizer() });
  instance.use({
    tokenizer: { emStrong: cjkFriendlyEmStrong },
    extensions: [
      {
        name: "latexBlock",
        level: "block",
        start(src: string) {
          const match = /(?:^|\n) {0,3}(?:\$\$|\\\[)/.exec(src);
          return match ? match.index + (match[0].startsWith("\n") ? 1 : 0) : undefined;
        },
        tokenizer: blockLatex,
      },
      {
        name: "latex",
        level: "inline",
        start: (src: string) => firstIndex([src.indexOf("$"), src.indexOf("\\("), src.indexOf("\\[")]),
        tokenizer: inlineLatex,
      },
    ],
  });
  parser = instance;
  return instance;
}

/** Lexes markdown with the component's marked configuration (no clean-ups applied). */
export function lexMarkdown(source: string): TokensList {
  return markedInstance().lexer(source);
}

/**
 * While a closing fence streams in (`` ` `` then ``` `` ```), the last code block's text would show the partial
 * fence and then lose it; drop it so the block does not flicker (pi issue 5825).
 */
export function trimPartialClosingFence(tokens: Token[]): void {
  const last = tokens[tokens.length - 1];
  if (last?.type === "list") {
    const items = (last as Tokens.List).items;
    trimPartialClosingFence(items[items.length - 1]?.tokens ?? []);
    return;
  }
  if (last?.type === "blockquote") {
    trimPartialClosingFence((last as Tokens.Blockquote).tokens ?? []);
    return;
  }
  if (last?.type !== "code") return;
  const code = last as Tokens.Code;
  const fence = /^(`{3,}|~{3,})/.exec(code.raw)?.[1];
  const lastLine = code.raw.split("\n").pop();
  if (
    !fence || !lastLine || lastLine.length >= fence.length || lastLine !== fence[0]?.repeat(lastLine.length)
  ) return;
  code.text = code.text.slice(0, -lastLine.length).replace(/\n$/, "");
}

// An unclosed comment runs to the end of an HTML block, as in CommonMark, so a streaming comment stays hidden.
const HTML_COMMENT = /<!--[\s\S]*?(?:-->|$)/g;

/** The HTML without its comments. */
export function stripHtmlComments(html: string): string {
  return html.replace(HTML_COMMENT, "");
}

/**
 * Removes block HTML tokens holding only comments (nested in lists and quotes too). A removed comment between two
 * blank lines, or at the start or end, takes one blank line with it so it leaves no extra gap (pi issue 11710).
 * Works in place on nested lists and on `tokens`.
 */
export function removeCommentBlocks(tokens: Token[]): void {
  for (let index = tokens.length - 1; index >= 0; index--) {
    const token = tokens[index]!;
    if (token.type === "list") {
      for (const item of (token as Tokens.List).items) removeCommentBlocks(item.tokens);
    } else if (token.type === "blockquote") {
      removeCommentBlocks((token as Tokens.Blockquote).tokens ?? []);
    } else if (token.type === "html" && stripHtmlComments(token.raw).trim() === "") {
      tokens.splice(index, 1);
      if (tokens[index]?.type === "space" && (index === 0 || tokens[index - 1]?.type === "space")) {
        tokens.splice(index, 1);
      } else if (index === tokens.length && tokens[index - 1]?.type === "space") {
        tokens.splice(--index, 1);
      }
    }
  }
}
