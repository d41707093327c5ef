/**
 * Word wrapping of styled text ({@link wrapTextWithAnsi}), as pi-tui 1.6.0 does it: words move to the
 * next line whole, words longer than a line are cut by grapheme, each CJK character is a word of its
 * own, and the styles and hyperlink in force at a break are closed at the line's end and reopened at
 * the next line's start.
 *
 * @module
 */
import { ansiCodeLength, collectAnsiCodes, textRunEnd } from "./utils_ansi.ts";
import { isCjkBreak } from "./utils_chars.ts";
import { StyleState } from "./utils_style.ts";
import { graphemesOf, graphemeWidth, isPrintableAscii, visibleWidth } from "./utils_width.ts";

const UNICODE_SPACE = /\s/;

/**
 * Whether a token shows only whitespace. Codes closing a styled word ride on the following space
 * ("\x1b[22m "), so sequences are skipped; no stripped copy is made, as every styled word passes here.
 */
function isBlankToken(token: string): boolean {
  for (let i = 0; i < token.length;) {
    const c = token.charCodeAt(i);
    if (c === 0x1b) {
      const length = ansiCodeLength(token, i);
      if (length === 0) return false; // a lone ESC is visible
      i += length;
    } else if (c === 0x20 || (c >= 0x09 && c <= 0x0d) || (c >= 0x80 && UNICODE_SPACE.test(token[i]))) {
      i++;
    } else {
      return false;
    }
  }
  return true;
}

/**
 * Cuts a line into tokens: runs of spaces, runs of other text, and single CJK clusters. Escape
 * sequences join the token of the next visible character (trailing ones the last token).
 */
function tokenize(line: string): string[] {
  const tokens: string[] = [];
  let current = "";
  let currentIsSpace = false;
  let pending = "";
  for (let i = 0; i < line.length;) {
    const codeLength = ansiCodeLength(line, i);
    if (codeLength > 0) {
      pending += line.substring(i, i + codeLength);
      i += codeLength;
      continue;
    }
    const end = textRunEnd(line, i + 1);
    const run = line.slice(i, end);
    const ascii = isPrintableAscii(run);
    for (const cluster of ascii ? run : graphemesOf(run)) {
      const isSpace = cluster === " ";
      if (!ascii && !isSpace && isCjkBreak(cluster)) {
        if (current) tokens.push(current);
        current = "";
        tokens.push(pending + cluster);
        pending = "";
        continue;
      }
      if (current && currentIsSpace !== isSpace) {
        tokens.push(current);
        current = "";
      }
      current += pending + cluster;
      pending = "";
      currentIsSpace = isSpace;
    }
    i = end;
  }
  if (pending) {
    if (current || tokens.length === 0) current += pending;
    else tokens[tokens.length - 1] += pending;
  }
  if (current) tokens.push(current);
  return tokens;
}

/**
 * Cuts a word wider than a line into lines of at most `width` cells. The first piece opens with the
 * styles in force; every piece but the last is closed with {@link StyleState.lineEndReset}.
 */
function breakWord(word: string, width: number, state: StyleState): string[] {
  const lines: string[] = [];
  let line = state.activeCodes();
  let lineWidth = 0;
  for (let i = 0; i < word.length;) {
    const codeLength = ansiCodeLength(word, i);
    if (codeLength > 0) {
      const code = word.substring(i, i + codeLength);
      line += code;
      state.process(code);
      i += codeLength;
      continue;
    }
    const end = textRunEnd(word, i);
    for (const cluster of graphemesOf(word.slice(i, end))) {
      const w = graphemeWidth(cluster);
      if (lineWidth + w > width) {
        lines.push(line + state.lineEndReset());
        line = state.activeCodes();
        lineWidth = 0;
      }
      line += cluster;
      lineWidth += w;
    }
    i = end;
  }
  if (line) lines.push(line);
  return lines.length > 0 ? lines : [""];
}

function wrapLine(line: string, width: number): string[] {
  if (!line) return [""];
  if (visibleWidth(line) <= width) return [line];

  const out: string[] = [];
  const state = new StyleState();
  let current = "";
  let currentWidth = 0;
  for (const token of tokenize(line)) {
    const tokenWidth = visibleWidth(token);
    const blank = isBlankToken(token);

    if (tokenWidth > width && !blank) {
      if (current) {
        // Trim first: the reset codes would otherwise shield the spaces from the final trimEnd().
        out.push(current.trimEnd() + state.lineEndReset());
      }
      const pieces = breakWord(token, width, state);
      out.push(...pieces.slice(0, -1));
      current = pieces[pieces.length - 1];
      currentWidth = visibleWidth(current);
      continue;
    }

    if (currentWidth > 0 && currentWidth + tokenWidth > width) {
      let ended = current.trimEnd();
      if (blank) {
        // The dropped spaces may carry codes closing a styled word: keep them on this line so the
        // style ends here instead of being reopened on the next.
        ended += collectAnsiCodes(token);
        state.processText(token);
      }
      out.push(ended + state.lineEndReset());
      if (blank) {
        current = state.activeCodes(); // no line starts with whitespace
        currentWidth = 0;
        continue;
      }
      current = state.activeCodes() + token;
      currentWidth = tokenWidth;
    } else if (blank && currentWidth + tokenWidth > width && token.includes("\x1b")) {
      // Spaces wider than an empty line: trimEnd() would drop plain ones, but codes behind them
      // would shield them and leave the line too wide. Keep only the codes.
      current += collectAnsiCodes(token);
    } else {
      current += token;
      currentWidth += tokenWidth;
    }
    state.processText(token);
  }
  // The last line gets no reset: the caller decides what follows.
  if (current) out.push(current);
  return out.length > 0 ? out.map((l) => l.trimEnd()) : [""];
}

/**
 * Flatten cached lines. V8 keeps a string built by concatenation as a tree of its parts until something reads it
 * whole, and a cached line kept as such a tree retains several times its own size. Converting a string to a number
 * reads it whole, so V8 flattens it in place; the strings' values do not change.
 */
export function flattenLines(lines: readonly string[]): void {
  for (const line of lines) Number(line);
}

/**
 * Wrap text with ANSI codes preserved.
 *
 * ONLY does word wrapping - NO padding, NO background colors.
 * Returns lines where each line is <= width visible chars.
 * Active ANSI codes are preserved across line breaks.
 *
 * @param text - Text to wrap (may contain ANSI codes and newlines)
 * @param width - Maximum visible width per line
 * @returns Array of wrapped lines (NOT padded to width)
 */
export function wrapTextWithAnsi(text: string, width: number): string[] {
  if (!text) return [""];
  const out: string[] = [];
  // Styles carry over literal newlines too: each source line opens with what the previous left on.
  const state = new StyleState();
  for (const source of text.split(/\r\n|\r|\n/)) {
    const prefix = out.length > 0 ? state.activeCodes() : "";
    out.push(...wrapLine(prefix + source, width));
    state.processText(source);
  }
  return out.length > 0 ? out : [""];
}
