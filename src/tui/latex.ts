/**
 * LaTeX math as terminal text: pi-tui 1.6.0's `renderLatex`. Inline math comes out on one line with Unicode
 * symbols, sub/superscripts and `a/b` fractions; display math may stack fractions, limits and matrices over
 * several lines. Parsing lives in `latex_parser.ts`, the 2D layout in `latex_layout.ts`.
 *
 * @module
 */
import { KEPT_SPACE, layoutFormula, type LayoutNode } from "./latex_layout.ts";
import { LatexParser } from "./latex_parser.ts";

/** Options of {@link renderLatex}. */
export interface RenderLatexOptions {
  /** Stack fractions and operator limits vertically for display math (default: false). */
  display?: boolean;
}

/**
 * Render a basic LaTeX math expression as terminal-friendly Unicode text.
 * Returns undefined when the expression contains unsupported or malformed syntax.
 */
export function renderLatex(source: string, options: RenderLatexOptions = {}): string | undefined {
  const nodes: LayoutNode[] = [];
  const rendered = new LatexParser(source, nodes, options.display === true).render();
  if (rendered === undefined) return undefined;
  if (nodes.length === 0) return rendered.replaceAll(KEPT_SPACE, " ");
  const lines = layoutFormula(rendered, nodes).lines;
  // Drop the indentation every non-blank row shares (a stacked piece may leave the whole formula indented).
  const indents = lines.filter((line) => line.trim()).map((line) => line.length - line.trimStart().length);
  const shared = Math.min(...indents);
  return lines.map((line) => line.slice(shared).trimEnd()).join("\n").trimEnd().replaceAll(KEPT_SPACE, " ");
}
