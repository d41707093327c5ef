/**
 * LaTeX environments (`\begin{…}…\end{…}`): equations, aligned rows, cases with a brace, and matrices with
 * their delimiters. Rows split at `\\`, cells at `&`; every cell is rendered by a nested parser.
 *
 * @module
 */
import { KEPT_SPACE, type LayoutNode } from "./latex_layout.ts";
import { visibleWidth } from "./utils_text.ts";

/** What an environment needs from the parser that met it. */
export interface EnvironmentHost {
  /** Renders a cell or row with a nested parser (sharing the layout nodes); `stackFractions` false keeps a/b. */
  renderNested(source: string, stackFractions?: boolean): string;
  /** Records a layout node and gives its marker. */
  addNode(node: LayoutNode): string;
  /** Marks the formula unsupported. */
  fail(): void;
}

const ALIGNED = new Set([
  "aligned",
  "align",
  "align*",
  "alignedat",
  "alignat",
  "alignat*",
  "gather",
  "gathered",
  "multline",
  "multline*",
  "split",
]);
const ALIGNED_AT = new Set(["alignedat", "alignat", "alignat*"]);
const MATRICES = new Set([
  "array",
  "matrix",
  "smallmatrix",
  "pmatrix",
  "bmatrix",
  "Bmatrix",
  "vmatrix",
  "Vmatrix",
]);
/** Delimiter pieces: top-left, top-right, middle-left, middle-right, bottom-left, bottom-right. */
const DELIMITERS: Readonly<Record<string, readonly string[]>> = {
  pmatrix: ["⎛", "⎞", "⎜", "⎟", "⎝", "⎠"],
  bmatrix: ["⎡", "⎤", "⎢", "⎥", "⎣", "⎦"],
  Bmatrix: ["⎧", "⎫", "⎨", "⎬", "⎩", "⎭"],
  vmatrix: ["│", "│", "│", "│", "│", "│"],
  Vmatrix: ["║", "║", "║", "║", "║", "║"],
};
/** A leading `{…}` argument (column spec of array, column count of alignedat). */
const LEADING_ARGUMENT = /^\s*\{[^}]*\}/;

function rowsOf(body: string): string[] {
  return body.split(/\\\\(?:\[[^\]\n]*\])?/);
}

/** Rendered cells of each row, rows with only empty cells left out. */
function cellsOf(parser: EnvironmentHost, body: string): string[][] {
  return rowsOf(body)
    .map((row) => row.split("&").map((cell) => parser.renderNested(cell, false).trim()))
    .filter((row) => row.some(Boolean));
}

/** Renders the environment `name` with its raw `body`; an unknown environment marks the parser unsupported. */
export function renderEnvironment(parser: EnvironmentHost, name: string, body: string): string {
  if (name === "equation" || name === "equation*" || name === "displaymath") {
    return parser.renderNested(body).trim();
  }
  if (ALIGNED.has(name)) return aligned(parser, name, body);
  if (name === "cases" || name === "cases*") return cases(parser, body);
  if (MATRICES.has(name)) {
    return matrix(parser, name, name === "array" ? body.replace(LEADING_ARGUMENT, "") : body);
  }
  parser.fail();
  return body;
}

/** One line per row, alignment points dropped (alignedat pairs its cells two by two with a space between pairs). */
function aligned(parser: EnvironmentHost, name: string, body: string): string {
  const pairs = ALIGNED_AT.has(name);
  const rows = rowsOf(pairs ? body.replace(LEADING_ARGUMENT, "") : body);
  return rows
    .map((row) => {
      const cells = row.split("&");
      let source = cells.join("");
      if (pairs) {
        const joined: string[] = [];
        for (let index = 0; index < cells.length; index += 2) {
          joined.push(cells.slice(index, index + 2).join(""));
        }
        source = joined.join(" ");
      }
      return parser.renderNested(source).trim();
    })
    .filter(Boolean)
    .join("\n");
}

/** Values padded to one column, then `if <condition>` (or the condition itself when it starts with a keyword). */
function cases(parser: EnvironmentHost, body: string): string {
  const rows = cellsOf(parser, body);
  const valueOf = (row: string[]) => (row[0] ?? "").replace(/,\s*$/, "");
  const valueWidth = Math.max(0, ...rows.map((row) => visibleWidth(valueOf(row))));
  const contents = rows.map((row) => {
    const value = valueOf(row);
    const condition = row[1] ?? "";
    if (!condition) return value;
    const joiner = /^(?:if|when|for|otherwise)\b/i.test(condition) ? " " : " if ";
    return value + KEPT_SPACE.repeat(valueWidth - visibleWidth(value)) + joiner + condition;
  });
  if (contents.length <= 1) return contents.length === 0 ? "" : `⎧ ${contents[0]}`;
  // The brace's middle piece sits on the middle row; an even count gets a row of its own for it.
  const middle = Math.floor(contents.length / 2);
  const rowsWithBrace: (string | undefined)[] = [...contents];
  if (contents.length % 2 === 0) rowsWithBrace.splice(middle, 0, undefined);
  const lines = rowsWithBrace.map((content, index) => {
    const piece = index === 0 ? "⎧" : index === rowsWithBrace.length - 1 ? "⎩" : "⎨";
    return content === undefined ? piece : `${piece} ${content}`;
  });
  return parser.addNode({ type: "matrix", lines, baseline: middle });
}

/** Columns padded to their widest cell and joined with `│`, between the matrix kind's delimiters. */
function matrix(parser: EnvironmentHost, name: string, body: string): string {
  const cells = cellsOf(parser, body);
  const columns = Math.max(0, ...cells.map((row) => row.length));
  const widths = Array.from(
    { length: columns },
    (_, column) => Math.max(0, ...cells.map((row) => visibleWidth(row[column] ?? ""))),
  );
  const rows = cells.map((row) =>
    Array.from({ length: columns }, (_, column) => {
      const cell = row[column] ?? "";
      return cell + KEPT_SPACE.repeat(Math.max(0, (widths[column] ?? 0) - visibleWidth(cell)));
    }).join(" │ ")
  );
  let lines = rows;
  if (name !== "array" && name !== "matrix" && name !== "smallmatrix") {
    const pieces = DELIMITERS[name];
    if (!pieces) {
      parser.fail();
      return rows.join("\n");
    }
    const last = rows.length - 1;
    lines = rows.map((row, index) => {
      const left = index === 0 ? pieces[0] : index === last ? pieces[4] : pieces[2];
      const right = index === 0 ? pieces[1] : index === last ? pieces[5] : pieces[3];
      return `${left} ${row} ${right}`;
    });
  }
  if (lines.length <= 1) return lines[0] ?? "";
  return parser.addNode({ type: "matrix", lines, baseline: 0 });
}
