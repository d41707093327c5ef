/**
 * Inline markdown to styled text: emphasis, code spans, links (OSC 8 hyperlinks where the terminal supports them,
 * else the URL in brackets when it differs from the text), strike, breaks, inline HTML as text (comments hidden)
 * and inline LaTeX. After every styled span the surrounding style's prefix is re-emitted.
 *
 * @module
 */
import type { Token, Tokens } from "npm:marked@18.0.11";
import { renderLatex } from "../latex.ts";
import { getCapabilities, hyperlink } from "../terminal_image.ts";
import type { LatexToken } from "./markdown_lexer.ts";
import type { InlineStyle, MarkdownContext } from "./markdown_theme.ts";

/** Whether the (already styled) link text needs the URL after it: not when the text is the URL or mail address. */
function showsUrl(link: Tokens.Link): boolean {
  const bare = link.href.startsWith("mailto:") ? link.href.slice(7) : link.href;
  return link.text !== link.href && link.text !== bare;
}

/** Inline tokens as one styled string (it may hold newlines from breaks and multi-line text). */
export function renderInline(ctx: MarkdownContext, tokens: readonly Token[], style?: InlineStyle): string {
  const surrounding = style ?? ctx.defaultInlineStyle();
  const { applyText, stylePrefix } = surrounding;
  const plain = (text: string) => text.split("\n").map((segment) => applyText(segment)).join("\n");
  const inner = (token: Token) => renderInline(ctx, (token as Tokens.Generic).tokens ?? [], surrounding);
  const { theme } = ctx;
  let out = "";
  // After a hidden comment, the next text's leading blank goes when the text before it ended with one:
  // "a <!-- c --> b" reads "a b".
  let dropLeadingBlank = false;
  for (let index = 0; index < tokens.length; index++) {
    let token = tokens[index]!;
    if (dropLeadingBlank && token.type === "text" && !token.tokens?.length && /^[ \t]/.test(token.text)) {
      token = { ...token, text: token.text.replace(/^[ \t]+/, "") };
    }
    dropLeadingBlank = false;
    switch (token.type) {
      case "latex": {
        const latex = token as unknown as LatexToken;
        const rendered = !latex.pending && ctx.options.renderLatex !== false
          ? (renderLatex(latex.text) ?? latex.raw)
          : latex.raw;
        out += plain(rendered);
        break;
      }
      case "escape":
        out += plain(ctx.options.preserveBackslashEscapes ? token.raw : token.text);
        break;
      case "text":
        out += token.tokens && token.tokens.length > 0 ? inner(token) : plain(token.text);
        break;
      case "paragraph":
        out += inner(token);
        break;
      case "strong":
        out += theme.bold(inner(token)) + stylePrefix;
        break;
      case "em":
        out += theme.italic(inner(token)) + stylePrefix;
        break;
      case "codespan":
        out += theme.code(token.text) + stylePrefix;
        break;
      case "link": {
        const link = token as Tokens.Link;
        const styled = theme.link(theme.underline(inner(token)));
        if (getCapabilities().hyperlinks) out += hyperlink(styled, link.href) + stylePrefix;
        else if (showsUrl(link)) out += styled + theme.linkUrl(` (${link.href})`) + stylePrefix;
        else out += styled + stylePrefix;
        break;
      }
      case "br":
        out += "\n";
        break;
      case "del":
        out += theme.strikethrough(inner(token)) + stylePrefix;
        break;
      case "html":
        if (token.raw.startsWith("<!--")) {
          dropLeadingBlank = index === 0 || /[ \t]$/.test(tokens[index - 1]!.raw);
        } else out += plain(token.raw);
        break;
      default:
        // Images and anything else: their text (an image's alt text).
        if ("text" in token && typeof token.text === "string") out += plain(token.text);
    }
  }
  while (stylePrefix && out.endsWith(stylePrefix)) out = out.slice(0, -stylePrefix.length);
  return out;
}
