/**
 * The Markdown component: pi-tui 1.6.0's `Markdown`. Renders markdown (GFM, CJK-friendly emphasis, LaTeX) to
 * styled terminal lines through a theme, with horizontal/vertical padding and an optional background.
 *
 * Rendering is cached at three levels: the whole output for the same text and width; each top-level block's lines
 * by its source (while a message streams only its last block changes); and, for a text that grows at its end, the
 * tokens and lines of its stable leading blocks (`markdown_document.ts`), so a streamed delta costs about the size
 * of the last block instead of the whole text.
 *
 * @module
 */
import type { Token } from "npm:marked@18.0.11";
import { isImageLine } from "../terminal_image.ts";
import type { Component } from "../tui_component.ts";
import { applyBackgroundToLine, flattenLines, visibleWidth, wrapTextWithAnsi } from "../utils_text.ts";
import { renderBlockToken } from "./markdown_blocks.ts";
import { IncrementalLexer, type LexedDocument } from "./markdown_document.ts";
import {
  defaultStyleFunction,
  type DefaultTextStyle,
  type InlineStyle,
  type MarkdownContext,
  type MarkdownOptions,
  type MarkdownTheme,
  stylePrefixOf,
} from "./markdown_theme.ts";

export type { DefaultTextStyle, MarkdownOptions, MarkdownTheme } from "./markdown_theme.ts";

/** One top-level block's rendered lines, valid for a width and the type of the token after it. */
interface Block {
  width: number;
  nextTokenType: string | undefined;
  lines: string[];
  highlightedCode: Map<string, string[]>;
}

function newBlock(): Block {
  return { width: -1, nextTokenType: undefined, lines: [], highlightedCode: new Map() };
}

/** The lines of the first `count` stable blocks at one width, all in one array; `ends[i]` ends block i's lines. */
interface StableLines {
  width: number;
  tokens: readonly Token[];
  lines: string[];
  ends: number[];
}

/**
 * What a component keeps between renders of a changing text: the lexer with its stable prefix, the stable blocks
 * by source, the last render's other blocks, and the stable lines. Held weakly by the component (a token tree is
 * about ten times its source and every message of a transcript has a component) and strongly only while among
 * the few most recently rendered, which keeps a streaming message's state alive.
 */
class RenderState {
  readonly lexer = new IncrementalLexer();
  stableBlocks = new Map<string, Block>();
  restBlocks = new Map<string, Block>();
  stableLines: StableLines | undefined;
  /**
   * Output rows of each source line (wrapped, framed, padded) at `framedWidth`, from this render and the last.
   * A block that grows, like a code block or list while it streams, renders anew on every delta, but most of
   * its lines are the same as before: their rows are looked up instead of wrapped and measured again.
   */
  framedWidth = -1;
  framed = new Map<string, string[]>();
  framedBefore = new Map<string, string[]>();

  /** Forgets rendered lines (theme or emptiness changed); keeps tokens. */
  dropLines(): void {
    this.stableBlocks = new Map();
    this.restBlocks = new Map();
    this.stableLines = undefined;
    this.framedWidth = -1;
  }

  /** Starts a render at `width`: the rows kept are those of the last render at the same width. */
  startFraming(width: number): void {
    this.framedBefore = this.framedWidth === width ? this.framed : new Map();
    this.framed = new Map();
    this.framedWidth = width;
  }
}

const RECENT_LIMIT = 4;
const recentStates: RenderState[] = [];

function keepRecent(state: RenderState): void {
  const index = recentStates.indexOf(state);
  if (index === 0) return;
  if (index > 0) recentStates.splice(index, 1);
  recentStates.unshift(state);
  if (recentStates.length > RECENT_LIMIT) recentStates.pop();
}

/** Padding lines, the content's parts, padding lines again, in one new array. */
function joinLines(padding: string[], parts: string[][]): string[] {
  // concat copies large arrays fastest, but takes its arguments on the stack: many small parts are pushed.
  if (parts.length <= 1024) return padding.concat(...parts, padding);
  const lines = padding.slice();
  for (const part of parts) for (const line of part) lines.push(line);
  for (const line of padding) lines.push(line);
  return lines;
}

/** Renders markdown text as styled, wrapped and padded terminal lines. */
export class Markdown implements Component {
  private text: string;
  private paddingX: number;
  private paddingY: number;
  private defaultTextStyle?: DefaultTextStyle;
  private theme: MarkdownTheme;
  private options: MarkdownOptions;
  private defaultStylePrefix?: string;
  private cachedText?: string;
  private cachedWidth?: number;
  private cachedLines?: string[];
  private state?: WeakRef<RenderState>;
  /** The render state whose row cache `renderBlock` uses, set for the duration of a render. */
  private framing?: RenderState;
  private readonly context: MarkdownContext;

  /**
   * A component showing `text` as rendered markdown.
   *
   * @param text markdown source
   * @param paddingX blank columns left and right
   * @param paddingY blank lines above and below
   * @param theme styling of the markdown elements
   * @param defaultTextStyle style of plain text; its background fills every line to the width
   * @param options list-marker, escape, LaTeX and source-transform options
   */
  constructor(
    text: string,
    paddingX: number,
    paddingY: number,
    theme: MarkdownTheme,
    defaultTextStyle?: DefaultTextStyle,
    options?: MarkdownOptions,
  ) {
    this.text = text;
    this.paddingX = paddingX;
    this.paddingY = paddingY;
    this.theme = theme;
    this.defaultTextStyle = defaultTextStyle;
    this.options = options ? { ...options } : {};
    this.context = {
      theme: this.theme,
      options: this.options,
      applyDefaultStyle: (text) => this.applyDefaultStyle(text),
      defaultInlineStyle: () => this.defaultInlineStyle(),
      highlighted: undefined,
    };
  }

  /** Replaces the markdown source. */
  setText(text: string): void {
    this.text = text;
    this.clearRenderCache();
  }

  /** Drops every rendered line (the theme may have changed); parsed tokens are kept. */
  invalidate(): void {
    this.clearRenderCache();
    this.state?.deref()?.dropLines();
    this.defaultStylePrefix = undefined;
  }

  /** Forgets the rendered output (not the tokens or blocks). */
  private clearRenderCache(): void {
    this.cachedText = undefined;
    this.cachedWidth = undefined;
    this.cachedLines = undefined;
  }

  /** This component's render state, made anew when it was collected, and marked as recently used. */
  private renderState(): RenderState {
    let state = this.state?.deref();
    if (!state) {
      state = new RenderState();
      this.state = new WeakRef(state);
    }
    keepRecent(state);
    return state;
  }

  /** The component's lines at `width` (cached until the text changes or `invalidate()`). */
  render(width: number): readonly string[] {
    if (this.cachedLines && this.cachedText === this.text && this.cachedWidth === width) {
      return this.cachedLines;
    }
    const contentWidth = Math.max(1, width - this.paddingX * 2);
    const text = this.options.transform?.(this.text, contentWidth) ?? this.text;
    const state = this.renderState();
    if (!text || text.trim() === "") {
      state.dropLines();
      return this.remember(width, []);
    }
    const document = state.lexer.lex(text);
    state.startFraming(width);
    this.framing = state;
    const content = document.hasLinks
      ? this.renderFresh(document.rest, width, contentWidth, state)
      : this.renderReusing(document, width, contentWidth, state);
    this.framing = undefined;
    const padding: string[] = [];
    const bg = this.defaultTextStyle?.bgColor;
    const blank = " ".repeat(width);
    for (let row = 0; row < this.paddingY; row++) {
      padding.push(bg ? applyBackgroundToLine(blank, width, bg) : blank);
    }
    flattenLines(padding);
    const result = joinLines(padding, content);
    this.remember(width, result);
    return result.length > 0 ? result : [""];
  }

  /** Caches `lines` as the output for the current text at `width`. */
  private remember(width: number, lines: string[]): string[] {
    this.cachedText = this.text;
    this.cachedWidth = width;
    this.cachedLines = lines;
    return lines;
  }

  /** Renders every block anew: link definitions make equal sources render differently, so nothing is reused. */
  private renderFresh(
    tokens: readonly Token[],
    width: number,
    contentWidth: number,
    state: RenderState,
  ): string[][] {
    state.dropLines();
    return tokens.map((token, index) => {
      const block = newBlock();
      this.renderBlock(block, token, tokens[index + 1]?.type, width, contentWidth);
      return block.lines;
    });
  }

  /**
   * Cached lines of the stable blocks but the last (whose next token is known and fixed), then the last stable
   * block and the rest, each reused from the previous render when its source and surroundings are the same.
   */
  private renderReusing(
    document: LexedDocument,
    width: number,
    contentWidth: number,
    state: RenderState,
  ): string[][] {
    const fixed = Math.max(0, document.stableCount - 1);
    const parts: string[][] = [this.stableLines(document, fixed, width, contentWidth, state)];
    const tail: Token[] = document.stable.slice(fixed, document.stableCount);
    for (const token of document.rest) tail.push(token);
    const previous = state.restBlocks;
    const used = new Map<string, Block>();
    tail.forEach((token, index) => {
      const nextTokenType = tail[index + 1]?.type;
      const block = state.stableBlocks.get(token.raw) ?? used.get(token.raw) ?? previous.get(token.raw) ??
        newBlock();
      if (block.width !== width || block.nextTokenType !== nextTokenType) {
        this.renderBlock(block, token, nextTokenType, width, contentWidth);
      }
      if (!state.stableBlocks.has(token.raw)) used.set(token.raw, block);
      parts.push(block.lines);
    });
    state.restBlocks = used;
    return parts;
  }

  /** The lines of the first `count` stable blocks at `width`, extending the cache as the prefix grows. */
  private stableLines(
    document: LexedDocument,
    count: number,
    width: number,
    contentWidth: number,
    state: RenderState,
  ): string[] {
    let cache = state.stableLines;
    if (!cache || cache.width !== width || cache.tokens !== document.stable) {
      if (cache && cache.tokens !== document.stable) {
        // The text changed before its stable end: its blocks are found again by their source, as the rest's are.
        for (const [raw, block] of state.stableBlocks) {
          if (!state.restBlocks.has(raw)) state.restBlocks.set(raw, block);
        }
        state.stableBlocks = new Map();
      }
      cache = { width, tokens: document.stable, lines: [], ends: [] };
      state.stableLines = cache;
    }
    for (let index = cache.ends.length; index < count; index++) {
      const token = document.stable[index]!;
      const nextTokenType = document.stable[index + 1]?.type;
      const block = state.stableBlocks.get(token.raw) ?? state.restBlocks.get(token.raw) ?? newBlock();
      state.stableBlocks.set(token.raw, block);
      if (block.width !== width || block.nextTokenType !== nextTokenType) {
        this.renderBlock(block, token, nextTokenType, width, contentWidth);
      }
      for (const line of block.lines) cache.lines.push(line);
      cache.ends.push(cache.lines.length);
    }
    if (count === cache.ends.length) return cache.lines;
    return cache.lines.slice(0, count === 0 ? 0 : cache.ends[count - 1]);
  }

  /** Render one top-level block to output lines: wrapped, with margins, and padded or backgrounded to the width. */
  private renderBlock(
    block: Block,
    token: Token,
    nextTokenType: string | undefined,
    width: number,
    contentWidth: number,
  ): void {
    this.context.highlighted = block.highlightedCode;
    const margin = " ".repeat(this.paddingX);
    const bg = this.defaultTextStyle?.bgColor;
    const lines: string[] = [];
    // Image lines are not wrapped, so split them here: breaks after an image must stay separate rows.
    const tokenLines = renderBlockToken(this.context, token, contentWidth, nextTokenType)
      .flatMap((line) => isImageLine(line) ? line.split("\n") : [line]);
    const state = this.framing;
    for (const line of tokenLines) {
      if (isImageLine(line)) {
        lines.push(line);
        continue;
      }
      let rows = state?.framed.get(line) ?? state?.framedBefore.get(line);
      if (!rows) {
        rows = wrapTextWithAnsi(line, contentWidth).map((wrapped) => {
          const framed = margin + wrapped + margin;
          return bg
            ? applyBackgroundToLine(framed, width, bg)
            : framed + " ".repeat(Math.max(0, width - visibleWidth(framed)));
        });
        flattenLines(rows);
      }
      state?.framed.set(line, rows);
      for (const row of rows) lines.push(row);
    }
    this.context.highlighted = undefined;
    flattenLines(lines);
    block.lines = lines;
    block.width = width;
    block.nextTokenType = nextTokenType;
  }

  /**
   * Apply default text style to a string.
   * The background is not applied here but per line at the padding stage, so it reaches the full width.
   */
  private applyDefaultStyle(text: string): string {
    return this.defaultTextStyle ? defaultStyleFunction(this.defaultTextStyle, this.theme)(text) : text;
  }

  /** The escape sequences that open the default text style (computed once until invalidate()). */
  private getDefaultStylePrefix(): string {
    if (!this.defaultTextStyle) return "";
    this.defaultStylePrefix ??= stylePrefixOf(defaultStyleFunction(this.defaultTextStyle, this.theme));
    return this.defaultStylePrefix;
  }

  /** The inline style of ordinary text: the default text style, restored after each styled span. */
  private defaultInlineStyle(): InlineStyle {
    return { applyText: (text) => this.applyDefaultStyle(text), stylePrefix: this.getDefaultStylePrefix() };
  }
}
