/**
 * The LaTeX math parser: a recursive-descent reader over the source that writes terminal text as it goes. Plain
 * one-line forms come out directly (`α²`, `a/b`, `√x`); in display math the stacked forms (fractions, limits,
 * scripts that have no Unicode form, matrices and cases) are recorded as layout nodes and left as markers for
 * `layoutFormula`. Anything it does not understand marks the whole source unsupported.
 *
 * @module
 */
import {
  DISPLAY_LIMIT_SYMBOLS,
  FONT_SWITCH_COMMANDS,
  IGNORED_COMMANDS,
  LIMIT_OPERATORS,
  NAMED_OPERATORS,
  NEGATIVE_SPACE,
  NEGATIVE_SPACING_COMMANDS,
  PLAIN_WRAPPERS,
  RELATION_COMMANDS,
  SIZE_COMMANDS,
  SPACING_COMMANDS,
} from "./latex_commands.ts";
import { inlineFraction, rootText, type ScriptKind, scriptText, unicodeScript } from "./latex_format.ts";
import {
  type LayoutNode,
  MARKER_AT_END,
  MARKER_OPEN,
  markerFor,
  OPERATOR_CLOSE,
  OPERATOR_OPEN,
  tidyOutput,
} from "./latex_layout.ts";
import { ACCENTS, BLACKBOARD, lookup, NEGATED_SYMBOLS, SYMBOLS } from "./latex_symbols.ts";
import { renderEnvironment } from "./latex_environments.ts";
import { isBlank, isSpace, LatexReader } from "./latex_reader.ts";

/** Characters printed as themselves after a backslash. */
const ESCAPED_LITERALS = new Set(["{", "}", "$", "%", "#", "_", "&"]);

/** Parses one LaTeX source into text with layout markers; `render()` gives undefined when unsupported. */
export class LatexParser extends LatexReader {
  /** How many scripts deep the parser is: a script inside a script needs the 2D layout in display math. */
  private scriptDepth = 0;

  /**
   * @param source the LaTeX text
   * @param nodes the layout node list shared by every nested parser of one formula
   * @param display whether stacked layout is allowed
   */
  constructor(
    source: string,
    private readonly nodes: LayoutNode[],
    private readonly display: boolean,
  ) {
    super(source);
  }

  /** The whole source rendered, or undefined when it uses anything unsupported or does not parse to its end. */
  render(): string | undefined {
    const text = this.sequence();
    if (!this.supported || this.position !== this.source.length) return undefined;
    return tidyOutput(text);
  }

  /** Renders `source` with a new parser sharing this one's node list; marks this parser unsupported on failure. */
  renderNested(source: string, stackFractions = true): string {
    const rendered = new LatexParser(source, this.nodes, this.display && stackFractions).render();
    if (rendered === undefined) {
      this.supported = false;
      return source;
    }
    return rendered;
  }

  /** Records a layout node and gives its marker. */
  addNode(node: LayoutNode): string {
    return markerFor(this.nodes.push(node) - 1);
  }

  /** Marks the source unsupported. */
  fail(): void {
    this.supported = false;
  }

  /** Reads until `end` (consumed) or the end of the source; a stray `}` or a missing `end` is unsupported. */
  protected sequence(end?: string): string {
    let out = "";
    while (this.position < this.source.length) {
      const character = this.source[this.position];
      if (end && character === end) {
        this.position++;
        return out;
      }
      if (character === "}") {
        this.supported = false;
        return out;
      }
      if (character === "{") {
        this.position++;
        out += this.sequence("}");
      } else if (character === "\\") {
        const command = this.command();
        if (command === NEGATIVE_SPACE) {
          out = out.trimEnd();
          if (out.endsWith(OPERATOR_CLOSE)) out = out.slice(0, -OPERATOR_CLOSE.length);
        } else {
          out += command;
        }
      } else if (character === "^" || character === "_") {
        this.position++;
        out = out.trimEnd();
        const scripts = this.scripts(character);
        // Scripts of an operator name go inside its boundary, so `\sin^2 x` spaces as `sin² x`.
        out = out.endsWith(OPERATOR_CLOSE)
          ? out.slice(0, -OPERATOR_CLOSE.length) + scripts + OPERATOR_CLOSE
          : out + scripts;
      } else if (isSpace(character)) {
        this.position = this.skipWhile(isSpace);
        out += " ";
      } else if (character === "=" || character === "<" || character === ">") {
        out = `${out.trimEnd()} ${character} `;
        this.position++;
      } else if (character === "&") {
        this.position++;
      } else if (character === "~") {
        this.position++;
        out += " ";
      } else if (character === "." && this.appendToMatrix(out, character)) {
        this.position++;
      } else {
        out += character;
        this.position++;
      }
    }
    if (end) this.supported = false;
    return out;
  }

  /** A `.` right after a matrix ends its last row (`\begin{pmatrix}…\end{pmatrix}.`). */
  private appendToMatrix(out: string, character: string): boolean {
    const marker = MARKER_AT_END.exec(out);
    const node = marker ? this.nodes[Number(marker[1])] : undefined;
    if (node?.type !== "matrix") return false;
    const last = node.lines.length - 1;
    node.lines[last] = (node.lines[last] ?? "") + character;
    return true;
  }

  /** A subscript and/or superscript after `_`/`^`, in the order written. */
  private scripts(first: string): string {
    const values: Partial<Record<ScriptKind, string>> = {};
    const order: ScriptKind[] = [];
    const read = (marker: string) => {
      const kind: ScriptKind = marker === "_" ? "sub" : "sup";
      this.scriptDepth++;
      try {
        values[kind] = this.argument(false);
      } finally {
        this.scriptDepth--;
      }
      order.push(kind);
    };
    read(first);
    const next = this.skipWhile(isSpace);
    const other = this.source[next];
    if ((other === "^" || other === "_") && other !== first) {
      this.position = next + 1;
      read(other);
    }
    const sub = values.sub === undefined ? undefined : unicodeScript(values.sub, "sub");
    const sup = values.sup === undefined ? undefined : unicodeScript(values.sup, "sup");
    const layoutFits = ![values.sub, values.sup].some((value) =>
      value !== undefined &&
      (value.includes("/") ||
        (!value.includes(MARKER_OPEN) && Array.from(value).length > 1 && !/[A-Z*∗]/.test(value)))
    );
    const stacked = this.display && layoutFits &&
      (this.scriptDepth > 0 || (values.sub !== undefined && sub === undefined) ||
        (values.sup !== undefined && sup === undefined));
    if (stacked) {
      return this.addNode({
        type: "script",
        lower: values.sub === undefined ? undefined : tidyOutput(values.sub),
        upper: values.sup === undefined ? undefined : tidyOutput(values.sup),
      });
    }
    return order.map((kind) =>
      kind === "sub"
        ? (sub ?? scriptText(values.sub ?? "", kind))
        : (sup ?? scriptText(values.sup ?? "", kind))
    ).join("");
  }

  /** Reads the name after a backslash (letters, or one other character). */
  private commandName(): string {
    const first = this.source[this.position] ?? "";
    if (/[A-Za-z]/.test(first)) {
      const start = this.position;
      this.position = this.skipWhile((character) => character !== undefined && /[A-Za-z]/.test(character));
      return this.source.slice(start, this.position);
    }
    this.position++;
    return first;
  }

  /** A backslash command at the position. */
  protected command(): string {
    this.position++;
    if (this.position >= this.source.length) {
      this.supported = false;
      return "";
    }
    const first = this.current;
    if (first === "\n" || first === "\r") {
      // A backslash before a line break is a control space.
      this.position++;
      if (first === "\r" && this.current === "\n") this.position++;
      return " ";
    }
    const name = this.commandName();
    if (name === "\\") return "\n";
    if (SPACING_COMMANDS.has(name)) return " ";
    if (NEGATIVE_SPACING_COMMANDS.has(name)) return NEGATIVE_SPACE;
    if (FONT_SWITCH_COMMANDS.has(name)) {
      this.position = this.skipWhile(isSpace);
      return "";
    }
    if (IGNORED_COMMANDS.has(name)) return "";
    if (ESCAPED_LITERALS.has(name)) return name;
    if (name === "|") return "‖";
    if (name === "not") return this.negation();
    if (LIMIT_OPERATORS.has(name)) return this.operator(name, "bracket", true, true);
    const symbol = lookup(SYMBOLS, name);
    if (symbol !== undefined) {
      if (DISPLAY_LIMIT_SYMBOLS.has(name)) return this.operator(symbol, "script", true);
      return name === "cdot" || name === "times" || RELATION_COMMANDS.has(name) ? ` ${symbol} ` : symbol;
    }
    if (NAMED_OPERATORS.has(name)) return OPERATOR_OPEN + name + OPERATOR_CLOSE;
    if (SIZE_COMMANDS.has(name)) return "";
    if (name === "left" || name === "middle" || name === "right") {
      if (this.current === ".") this.position++;
      return "";
    }
    return this.argumentCommand(name);
  }

  /** `\not x`: the precomposed negation, else x with a combining long solidus. */
  private negation(): string {
    const value = this.argument(false).trim();
    const negated = lookup(NEGATED_SYMBOLS, value);
    if (negated !== undefined) return ` ${negated} `;
    const characters = Array.from(value);
    if (characters.length === 0) {
      this.supported = false;
      return "";
    }
    return ` ${characters[0]}\u0338${characters.slice(1).join("")} `;
  }

  /** Commands that take arguments: fractions, roots, accents, fonts, environments and the like. */
  private argumentCommand(name: string): string {
    switch (name) {
      case "frac":
      case "dfrac":
      case "tfrac": {
        const stack = this.display && this.stackFractions && name !== "tfrac";
        const numerator = this.argument(!stack);
        const denominator = this.argument(!stack);
        if (!stack) return inlineFraction(numerator, denominator);
        return this.addNode({
          type: "fraction",
          numerator: tidyOutput(numerator),
          denominator: tidyOutput(denominator),
        });
      }
      case "sqrt": {
        const degree = this.optionalArgument()?.trim();
        const value = this.argument();
        if (degree === undefined || degree === "2") return rootText(value);
        if (degree === "3") return rootText(value, "∛");
        if (degree === "4") return rootText(value, "∜");
        return scriptText(degree, "sup") + rootText(value);
      }
      case "boxed":
      case "fbox":
        return `[${this.argument().trim()}]`;
      case "binom":
      case "dbinom":
      case "tbinom":
        return `(${this.argument()} choose ${this.argument()})`;
      case "mathbb":
        return Array.from(this.argument(), (character) => lookup(BLACKBOARD, character) ?? character).join(
          "",
        );
      case "operatorname": {
        const starred = this.current === "*";
        if (starred) this.position++;
        const operator = tidyOutput(this.argument()).trim();
        return this.operator(operator, "bracket", starred, true);
      }
      case "mod":
      case "bmod":
        return " mod ";
      case "pmod":
      case "pod": {
        const value = this.argument().trim();
        return name === "pmod" ? ` (mod ${value})` : ` (${value})`;
      }
      case "overset":
      case "stackrel":
      case "underset": {
        const script = this.argument();
        const base = this.argument().trim();
        return base + scriptText(script, name === "underset" ? "sub" : "sup");
      }
      case "begin":
        return this.environment();
      case "end":
        this.supported = false;
        return "";
    }
    const accent = lookup(ACCENTS, name);
    if (accent !== undefined) {
      const value = this.argument();
      return Array.from(value).length === 1 ? value + accent : `${name}(${value})`;
    }
    if (PLAIN_WRAPPERS.has(name)) {
      const value = this.argument();
      return name.startsWith("text") || name === "mbox" ? value : value.trim();
    }
    this.supported = false;
    return `\\${name}`;
  }

  /**
   * An operator with optional `\limits`/`\nolimits` and `_`/`^` limits: stacked in display math when limits apply,
   * else inline with the lower limit in brackets (`lim[x→0]`) or as a subscript.
   */
  private operator(
    operator: string,
    inlineLower: "bracket" | "script",
    limits: boolean,
    spaced = false,
  ): string {
    let displayLimits = limits;
    const modifierAt = this.skipWhile(isBlank);
    const modifier = /^\\(limits|nolimits)(?![A-Za-z])/.exec(this.source.slice(modifierAt));
    if (modifier) {
      displayLimits = modifier[1] === "limits";
      this.position = modifierAt + modifier[0].length;
    }
    let lower: string | undefined;
    let upper: string | undefined;
    for (;;) {
      const at = this.skipWhile(isBlank);
      const kind = this.source[at];
      if (kind !== "_" && kind !== "^") break;
      this.position = at + 1;
      const value = tidyOutput(this.argument(false)).replaceAll(" ", "");
      if (kind === "_") {
        if (lower !== undefined) this.supported = false;
        lower = value;
      } else {
        if (upper !== undefined) this.supported = false;
        upper = value;
      }
    }
    if (this.display && displayLimits && (lower !== undefined || upper !== undefined)) {
      return this.addNode({ type: "operator", operator, lower, upper });
    }
    let text = operator;
    if (lower !== undefined) text += inlineLower === "bracket" ? `[${lower}]` : scriptText(lower, "sub");
    if (upper !== undefined) text += scriptText(upper, "sup");
    return spaced ? ` ${text} ` : text;
  }

  /** `\begin{name}…\end{name}`: the body up to the first matching end, rendered by the environment's kind. */
  private environment(): string {
    const name = this.rawGroup();
    if (!name) return "";
    const endMarker = `\\end{${name}}`;
    const end = this.source.indexOf(endMarker, this.position);
    if (end < 0) {
      this.supported = false;
      return "";
    }
    const body = this.source.slice(this.position, end);
    this.position = end + endMarker.length;
    return renderEnvironment(this, name, body);
  }
}
