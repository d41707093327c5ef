/**
 * Two-dimensional layout of display math. The parser writes a formula as one string in which stacked pieces
 * (fractions, operators with limits, scripts, matrices) stand as markers `\u{f0000}<index>\u{f0001}` pointing into a
 * node list; `layoutFormula` turns that into rows of text, lining the pieces of each source line up on a baseline.
 * Private-use characters also carry operator-name boundaries and non-breaking padding until the end.
 *
 * @module
 */
import { visibleWidth } from "./utils_text.ts";

/** Opens a layout marker. */
export const MARKER_OPEN = "\u{f0000}";
/** Closes a layout marker. */
export const MARKER_CLOSE = "\u{f0001}";
/** A space that output normalisation must keep (column padding in matrices and cases). */
export const KEPT_SPACE = "\u{f0002}";
/** Opens an upright operator name such as `sin`, so spacing can be decided once its neighbours are known. */
export const OPERATOR_OPEN = "\u{f0004}";
/** Closes an upright operator name. */
export const OPERATOR_CLOSE = "\u{f0005}";

const MARKERS = /\u{f0000}(\d+)\u{f0001}/gu;
/** A marker at the very end of a string; group 1 is its node index. */
export const MARKER_AT_END = /\u{f0000}(\d+)\u{f0001}$/u;
// Letter and number classes, built on first use (V8 expands \p{L} into a range table when a regex is created,
// which loading the kit should not pay for).
let operatorSpacing: { afterWord: RegExp; beforeWord: RegExp } | undefined;
const operatorSpacingRegexes = () =>
  operatorSpacing ??= {
    afterWord: /(?<=[\p{L}\p{N})\]}\u{f0001}])\u{f0004}/gu,
    beforeWord: /\u{f0005}(?=[\p{L}\p{N}√\u{f0000}])/gu,
  };

/** A stacked piece of display math that a marker stands for. */
export type LayoutNode =
  | { type: "fraction"; numerator: string; denominator: string }
  | { type: "operator"; operator: string; lower?: string; upper?: string }
  | { type: "script"; lower?: string; upper?: string }
  | { type: "matrix"; lines: string[]; baseline: number };

/** The marker text for the node at `index`. */
export function markerFor(index: number): string {
  return `${MARKER_OPEN}${index}${MARKER_CLOSE}`;
}

/**
 * Final spacing of rendered text: an operator name gets a space from a word, number or closing bracket before it
 * and from a word, number, root or stacked piece after it; runs of blanks shrink to one; each line is trimmed and
 * empty first and last lines dropped.
 */
export function tidyOutput(value: string): string {
  const { afterWord, beforeWord } = operatorSpacingRegexes();
  const spaced = value
    .replace(afterWord, " ")
    .replaceAll(OPERATOR_OPEN, "")
    .replace(beforeWord, " ")
    .replaceAll(OPERATOR_CLOSE, "");
  const lines = spaced.split("\n").map((line) => line.replace(/[ \t]+/g, " ").trim());
  const last = lines.length - 1;
  return lines.filter((line, index) => line.length > 0 || (index > 0 && index < last)).join("\n").trim();
}

/** A block of rows with its width in cells and the row the surrounding text sits on. */
interface Block {
  lines: string[];
  width: number;
  baseline: number;
}

function pad(line: string, width: number, centre = false): string {
  const room = Math.max(0, width - visibleWidth(line));
  const left = centre ? Math.floor(room / 2) : 0;
  return " ".repeat(left) + line + " ".repeat(room - left);
}

function textBlock(text: string): Block {
  return { lines: [text], width: visibleWidth(text), baseline: 0 };
}

/** Blocks side by side, aligned on their baselines; rows are right-trimmed. */
function besideEachOther(blocks: Block[]): Block {
  if (blocks.length === 0) return { lines: [""], width: 0, baseline: 0 };
  let above = 0;
  let below = 0;
  for (const block of blocks) {
    above = Math.max(above, block.baseline);
    below = Math.max(below, block.lines.length - block.baseline - 1);
  }
  const lines: string[] = [];
  for (let row = 0; row <= above + below; row++) {
    let line = "";
    for (const block of blocks) {
      const own = row - above + block.baseline;
      line += own >= 0 && own < block.lines.length
        ? pad(block.lines[own] ?? "", block.width)
        : " ".repeat(block.width);
    }
    lines.push(line.trimEnd());
  }
  let width = 0;
  for (const block of blocks) width += block.width;
  return { lines, width, baseline: above };
}

function nodeBlock(node: LayoutNode, nodes: readonly LayoutNode[]): Block {
  switch (node.type) {
    case "fraction": {
      const top = layoutFormula(node.numerator, nodes);
      const bottom = layoutFormula(node.denominator, nodes);
      const inner = Math.max(top.width, bottom.width, 1);
      const width = inner + 2;
      return {
        lines: [
          ...top.lines.map((line) => pad(line, width, true)),
          ` ${"─".repeat(inner)} `,
          ...bottom.lines.map((line) => pad(line, width, true)),
        ],
        width,
        baseline: top.lines.length,
      };
    }
    case "operator": {
      const inner = Math.max(
        visibleWidth(node.operator),
        node.lower === undefined ? 0 : visibleWidth(node.lower),
        node.upper === undefined ? 0 : visibleWidth(node.upper),
      );
      const rows = [node.upper, node.operator, node.lower].filter((row): row is string => row !== undefined);
      return {
        lines: rows.map((row) => `${pad(row, inner, true)} `),
        width: inner + 1,
        baseline: node.upper === undefined ? 0 : 1,
      };
    }
    case "script": {
      const upper = node.upper === undefined ? undefined : layoutFormula(node.upper, nodes);
      const lower = node.lower === undefined ? undefined : layoutFormula(node.lower, nodes);
      const width = Math.max(upper?.width ?? 0, lower?.width ?? 0);
      return {
        lines: [
          ...(upper?.lines.map((line) => pad(line, width)) ?? []),
          " ".repeat(width),
          ...(lower?.lines.map((line) => pad(line, width)) ?? []),
        ],
        width,
        baseline: upper?.lines.length ?? 0,
      };
    }
    case "matrix": {
      const width = Math.max(0, ...node.lines.map((line) => visibleWidth(line)));
      return { lines: node.lines.map((line) => pad(line, width)), width, baseline: node.baseline };
    }
  }
}

/**
 * Lays out rendered text with markers: each source line becomes a row of blocks (text between markers, trimmed
 * next to a piece except that a matrix keeps one space of separation) joined on a common baseline; the lines'
 * blocks are stacked. The baseline of the whole is that of its first line.
 */
export function layoutFormula(source: string, nodes: readonly LayoutNode[]): Block {
  const rows: string[] = [];
  let firstBaseline = 0;
  for (const sourceLine of source.split("\n")) {
    const blocks: Block[] = [];
    let position = 0;
    let previous: LayoutNode | undefined;
    for (const match of sourceLine.matchAll(MARKERS)) {
      const node = nodes[Number(match[1])];
      if (!node) continue;
      if (match.index > position) {
        const between = sourceLine.slice(position, match.index);
        const trimmed = (previous ? between.trimStart() : between).trimEnd();
        const spaceBefore = previous?.type === "matrix" && /^\s/.test(between);
        const spaceAfter = node.type === "matrix" && /\s$/.test(between);
        let text = "";
        if (trimmed) text = `${spaceBefore ? " " : ""}${trimmed}${spaceAfter ? " " : ""}`;
        else if (spaceBefore || spaceAfter) text = " ";
        blocks.push(textBlock(text));
      }
      blocks.push(nodeBlock(node, nodes));
      position = match.index + match[0].length;
      previous = node;
    }
    if (position < sourceLine.length) {
      const rest = sourceLine.slice(position);
      const trimmed = previous ? rest.trimStart() : rest;
      blocks.push(textBlock(previous?.type === "matrix" && /^\s/.test(rest) ? ` ${trimmed}` : trimmed));
    }
    const line = besideEachOther(blocks);
    if (rows.length === 0) firstBaseline = line.baseline;
    rows.push(...line.lines);
  }
  return {
    lines: rows,
    width: Math.max(0, ...rows.map((row) => visibleWidth(row))),
    baseline: firstBaseline,
  };
}
