/**
 * Block markdown to lines (before wrapping to the width): headings, paragraphs, fenced code with the optional
 * highlighter, display LaTeX, nested lists, blockquotes, tables, rules and HTML. A block is followed by a blank
 * line unless a space token (which renders as one) or the end follows.
 *
 * @module
 */
import type { Token, Tokens } from "npm:marked@18.0.11";
import { renderLatex } from "../latex.ts";
import { visibleWidth, wrapTextWithAnsi } from "../utils_text.ts";
import { renderInline } from "./markdown_inline.ts";
import { type LatexBlockToken, stripHtmlComments } from "./markdown_lexer.ts";
import { renderTable } from "./markdown_table.ts";
import { type InlineStyle, type MarkdownContext, stylePrefixOf } from "./markdown_theme.ts";

const FULL_RESET = "\x1b[0m";

/** Whether a block followed by a token of this type gets a blank line after it. */
function gapBefore(nextTokenType: string | undefined): boolean {
  return nextTokenType !== undefined && nextTokenType !== "space";
}

/** One block token as lines, not yet wrapped to `width` (tables, lists and quotes wrap their own content). */
export function renderBlockToken(
  ctx: MarkdownContext,
  token: Token,
  width: number,
  nextTokenType: string | undefined,
  style?: InlineStyle,
): string[] {
  const { theme } = ctx;
  const lines: string[] = [];
  const gap = () => {
    if (gapBefore(nextTokenType)) lines.push("");
  };
  switch (token.type) {
    case "heading": {
      const depth = (token as Tokens.Heading).depth;
      const headingStyle = depth === 1
        ? (text: string) => theme.heading(theme.bold(theme.underline(text)))
        : (text: string) => theme.heading(theme.bold(text));
      // Spans inside a heading return to the heading's style, not the default text style.
      const text = renderInline(ctx, token.tokens || [], {
        applyText: headingStyle,
        stylePrefix: stylePrefixOf(headingStyle),
      });
      lines.push(depth >= 3 ? headingStyle(`${"#".repeat(depth)} `) + text : text);
      gap();
      break;
    }
    case "paragraph":
      lines.push(renderInline(ctx, token.tokens || [], style));
      if (nextTokenType !== "list") gap();
      break;
    case "text":
      lines.push(renderInline(ctx, [token], style));
      break;
    case "latexBlock": {
      const latex = token as unknown as LatexBlockToken;
      let rendered = !latex.pending && ctx.options.renderLatex !== false
        ? renderLatex(latex.text, { display: true })
        : undefined;
      // A 2D layout cannot be wrapped row by row: the source is shown when it does not fit.
      if (rendered === undefined || rendered.split("\n").some((line) => visibleWidth(line) > width)) {
        rendered = latex.raw.trim();
      }
      for (const line of rendered.split("\n")) lines.push(ctx.applyDefaultStyle(line));
      gap();
      break;
    }
    case "code":
      renderCode(ctx, token as Tokens.Code, lines);
      gap();
      break;
    case "list":
      for (const line of renderList(ctx, token as Tokens.List, 0, width, style)) lines.push(line);
      break;
    case "table":
      for (const line of renderTable(ctx, token as Tokens.Table, width, nextTokenType, style)) {
        lines.push(line);
      }
      break;
    case "blockquote":
      renderQuote(ctx, token as Tokens.Blockquote, width, style, lines);
      if (width >= 3) gap();
      break;
    case "hr":
      lines.push(theme.hr("─".repeat(Math.min(width, 80))));
      gap();
      break;
    case "html":
      lines.push(ctx.applyDefaultStyle(stripHtmlComments(token.raw).trim()));
      break;
    case "space":
      lines.push("");
      break;
    default:
      if ("text" in token && typeof token.text === "string") lines.push(token.text);
  }
  return lines;
}

function renderCode(ctx: MarkdownContext, token: Tokens.Code, lines: string[]): void {
  const { theme } = ctx;
  const indent = theme.codeBlockIndent ?? "  ";
  lines.push(theme.codeBlockBorder(`\`\`\`${token.lang || ""}`));
  if (theme.highlightCode) {
    const key = `${token.lang ?? ""}\0${token.text}`;
    let highlighted = ctx.highlighted?.get(key);
    if (!highlighted) {
      highlighted = theme.highlightCode(token.text, token.lang);
      ctx.highlighted?.set(key, highlighted);
    }
    for (const line of highlighted) lines.push(indent + line);
  } else {
    for (const line of token.text.split("\n")) lines.push(indent + theme.codeBlock(line));
  }
  lines.push(theme.codeBlockBorder("```"));
}

/** A quote's children behind a `│ ` border, in the quote style (re-applied after every full reset). */
function renderQuote(
  ctx: MarkdownContext,
  token: Tokens.Blockquote,
  width: number,
  style: InlineStyle | undefined,
  lines: string[],
): void {
  const children = token.tokens || [];
  if (width < 3) {
    // No room for another border plus a column: nest without one, or every level would re-wrap its child lines
    // at width 1 and the output would grow exponentially with the depth.
    children.forEach((child, index) => {
      for (const line of renderBlockToken(ctx, child, width, children[index + 1]?.type, style)) {
        lines.push(line);
      }
    });
    return;
  }
  const { theme } = ctx;
  const quoteStyle = (text: string) => theme.quote(theme.italic(text));
  const prefix = stylePrefixOf(quoteStyle);
  const inner = width - 2;
  // The default text style does not apply inside quotes.
  const childStyle: InlineStyle = { applyText: (text) => text, stylePrefix: prefix };
  const quoted: string[] = [];
  children.forEach((child, index) => {
    for (const line of renderBlockToken(ctx, child, inner, children[index + 1]?.type, childStyle)) {
      quoted.push(line);
    }
  });
  while (quoted.length > 0 && quoted[quoted.length - 1] === "") quoted.pop();
  for (const line of quoted) {
    const styled = prefix ? quoteStyle(line.replaceAll(FULL_RESET, FULL_RESET + prefix)) : quoteStyle(line);
    for (const wrapped of wrapTextWithAnsi(styled, inner)) lines.push(theme.quoteBorder("│ ") + wrapped);
  }
}

function orderedMarker(item: Tokens.ListItem): string | undefined {
  const match = /^(?: {0,3})(\d{1,9}[.)])[ \t]+/.exec(item.raw);
  return match ? `${match[1]} ` : undefined;
}

function bulletMarker(item: Tokens.ListItem): string | undefined {
  const match = /^(?: {0,3})([-+*])(?:[ \t]+|(?=\r?\n|$))/.exec(item.raw);
  return match ? `${match[1]} ` : undefined;
}

/** A list, nested lists indented four columns per level; items' continuation lines align after the marker. */
export function renderList(
  ctx: MarkdownContext,
  token: Tokens.List,
  depth: number,
  width: number,
  style?: InlineStyle,
): string[] {
  const lines: string[] = [];
  const indent = "    ".repeat(depth);
  const start = typeof token.start === "number" ? token.start : 1;
  const preserve = ctx.options.preserveOrderedListMarkers;
  token.items.forEach((item, index) => {
    const bullet = token.ordered
      ? (preserve ? orderedMarker(item) : undefined) ?? `${start + index}. `
      : (preserve ? bulletMarker(item) : undefined) ?? "- ";
    const marker = bullet + (item.task ? `[${item.checked ? "x" : " "}] ` : "");
    const first = indent + ctx.theme.listBullet(marker);
    const continuation = indent + " ".repeat(visibleWidth(marker));
    const itemWidth = Math.max(1, width - visibleWidth(first));
    let started = false;
    for (const child of item.tokens) {
      if (child.type === "list") {
        for (const line of renderList(ctx, child as Tokens.List, depth + 1, width, style)) lines.push(line);
        started = true;
        continue;
      }
      for (const line of renderBlockToken(ctx, child, itemWidth, undefined, style)) {
        for (const wrapped of wrapTextWithAnsi(line, itemWidth)) {
          lines.push((started ? continuation : first) + wrapped);
          started = true;
        }
      }
    }
    if (!started) lines.push(first);
    if (token.loose && index < token.items.length - 1) lines.push("");
  });
  return lines;
}
