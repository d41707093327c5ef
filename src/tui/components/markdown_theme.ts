/**
 * The Markdown component's styling inputs (theme, default text style, options) and the context its renderers
 * share: how plain text is styled, and the style prefix to restore after a styled span resets the terminal.
 *
 * @module
 */

/**
 * Default text styling for markdown content.
 * Applied to all text unless overridden by markdown formatting.
 */
export interface DefaultTextStyle {
  /** Foreground color function */
  color?: (text: string) => string;
  /** Background color function */
  bgColor?: (text: string) => string;
  /** Bold text */
  bold?: boolean;
  /** Italic text */
  italic?: boolean;
  /** Strikethrough text */
  strikethrough?: boolean;
  /** Underline text */
  underline?: boolean;
}

/**
 * Theme functions for markdown elements.
 * Each function takes text and returns styled text with ANSI codes.
 */
export interface MarkdownTheme {
  /** Headings (level 1 is also bold and underlined, others bold). */
  heading: (text: string) => string;
  /** Link text (inside underline). */
  link: (text: string) => string;
  /** The ` (url)` shown after a link without hyperlink support. */
  linkUrl: (text: string) => string;
  /** Inline code spans. */
  code: (text: string) => string;
  /** Each line of a code block without a highlighter. */
  codeBlock: (text: string) => string;
  /** The ``` lines around a code block. */
  codeBlockBorder: (text: string) => string;
  /** Blockquote text (inside italic). */
  quote: (text: string) => string;
  /** The `│ ` border of blockquote lines. */
  quoteBorder: (text: string) => string;
  /** Horizontal rules. */
  hr: (text: string) => string;
  /** List markers (`- `, `1. `, task boxes). */
  listBullet: (text: string) => string;
  /** Strong text, bold defaults and table headers. */
  bold: (text: string) => string;
  /** Emphasis, italic defaults and quotes. */
  italic: (text: string) => string;
  /** `~~struck~~` text. */
  strikethrough: (text: string) => string;
  /** Underlined defaults, links and level-1 headings. */
  underline: (text: string) => string;
  /** Highlighted lines of a code block. A Markdown component reuses the result for the same code until invalidate(). */
  highlightCode?: (code: string, lang?: string) => string[];
  /** Prefix applied to each rendered code block line (default: "  ") */
  codeBlockIndent?: string;
}

/** Options of a Markdown component. */
export interface MarkdownOptions {
  /** Preserve source list markers instead of normalizing them. */
  preserveOrderedListMarkers?: boolean;
  /** Preserve source backslash escapes instead of normalizing escaped punctuation. */
  preserveBackslashEscapes?: boolean;
  /** Transform source Markdown before parsing, with the exact width available for content. */
  transform?: (markdown: string, availableWidth: number) => string;
  /** Render supported LaTeX math expressions as Unicode text (default: true). */
  renderLatex?: boolean;
}

/**
 * How inline text is styled in some surrounding (paragraph, heading, quote): `applyText` styles a plain run, and
 * `stylePrefix` is the opening escape sequence of that style, re-emitted after a bold/code/link span so the text
 * after it goes back to the surrounding style instead of the terminal default.
 */
export interface InlineStyle {
  /** Styles a plain text run. */
  applyText: (text: string) => string;
  /** The escape sequences that open the style. */
  stylePrefix: string;
}

/** What the block and inline renderers need from the component. */
export interface MarkdownContext {
  /** The component's theme. */
  readonly theme: MarkdownTheme;
  /** The component's options. */
  readonly options: MarkdownOptions;
  /** Plain text in the default text style (without its background, which is applied per line). */
  applyDefaultStyle(text: string): string;
  /** The inline style of text outside headings and quotes. */
  defaultInlineStyle(): InlineStyle;
  /** Highlighted code of the block being rendered, by `lang\0code`; set only while a block renders. */
  highlighted: Map<string, string[]> | undefined;
}

const SENTINEL = "\u0000";

/** The escape sequences a style function puts before its text (found by styling a NUL sentinel). */
export function stylePrefixOf(style: (text: string) => string): string {
  const styled = style(SENTINEL);
  const at = styled.indexOf(SENTINEL);
  return at >= 0 ? styled.slice(0, at) : "";
}

/** The default text style as one function: colour, then bold, italic, strikethrough, underline from the theme. */
export function defaultStyleFunction(
  style: DefaultTextStyle,
  theme: MarkdownTheme,
): (text: string) => string {
  return (text) => {
    let styled = text;
    if (style.color) styled = style.color(styled);
    if (style.bold) styled = theme.bold(styled);
    if (style.italic) styled = theme.italic(styled);
    if (style.strikethrough) styled = theme.strikethrough(styled);
    if (style.underline) styled = theme.underline(styled);
    return styled;
  };
}
