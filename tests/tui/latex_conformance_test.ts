/**
 * renderLatex conformance with pi-tui 1.6.0: expressions covering symbols, scripts, fractions, roots, operators
 * with limits, accents, fonts, environments (aligned, cases, matrices), spacing and malformed input, each rendered
 * inline and as display math.
 */
import { compareWithPiTui, js, type TuiCase } from "../support/tui_oracle.ts";

const EXPRESSIONS: string[] = [
  "x^2 + y^2 = z^2",
  "a_1 + a_{n+1} - b_{ij}",
  "x^{2n} + e^{i\\pi} + 1 = 0",
  "x_{max}^{2}",
  "\\alpha\\beta\\gamma\\Delta\\Omega\\varepsilon\\vartheta",
  "\\frac{a}{b}",
  "\\frac{a+b}{c-d}",
  "\\frac{1}{\\frac{2}{3}}",
  "\\dfrac{x}{2} + \\tfrac{1}{2}",
  "\\sqrt{x} + \\sqrt[3]{y} + \\sqrt[4]{z} + \\sqrt[n]{w} + \\sqrt{x^2+1}",
  "\\sum_{i=1}^{n} i = \\frac{n(n+1)}{2}",
  "\\int_0^\\infty e^{-x^2} dx = \\frac{\\sqrt{\\pi}}{2}",
  "\\prod_{k} k \\quad \\bigcup_{i} A_i",
  "\\lim_{x \\to 0} \\frac{\\sin x}{x} = 1",
  "\\max_{a \\in A} f(a) \\nolimits",
  "\\sum\\limits_{i} x_i + \\int\\nolimits_a^b f",
  "\\operatorname{argmax}_x f(x) + \\operatorname*{sup}_{n} a_n",
  "\\sin^2 x + \\cos^2 x = 1",
  "\\log_2 n \\cdot \\ln x \\times 3",
  "a \\leq b \\geq c \\neq d \\approx e \\equiv f",
  "A \\subseteq B \\cup C \\cap D \\setminus E",
  "\\forall x \\exists y : x \\to y \\Rightarrow z \\iff w",
  "\\not= \\not\\in \\not< \\not\\subset \\not{q}",
  "\\hat{x} \\bar{y} \\vec{v} \\dot{a} \\tilde{n} \\overline{AB}",
  "\\mathbb{R}^n \\times \\mathbb{Z} \\mathbb{N} \\mathbb{X}",
  "\\mathbf{v} \\mathrm{d}x \\text{if } x > 0 \\textbf{bold}",
  "\\binom{n}{k} = \\frac{n!}{k!(n-k)!}",
  "\\boxed{E = mc^2}",
  "a \\mod b \\quad a \\bmod b \\quad x \\pmod{p} \\pod{q}",
  "\\overset{def}{=} \\stackrel{?}{=} \\underset{x}{\\min}",
  "\\left( \\frac{a}{b} \\right) \\big( x \\big) \\left. y \\right|",
  "\\begin{aligned} a &= b + c \\\\ d &= e \\end{aligned}",
  "\\begin{align*} x &= 1 \\\\[2pt] y &= 2 \\end{align*}",
  "\\begin{alignedat}{2} a &= b & c &= d \\\\ e &= f & g &= h \\end{alignedat}",
  "f(x) = \\begin{cases} 0 & x < 0 \\\\ 1 & \\text{otherwise} \\end{cases}",
  "|x| = \\begin{cases} x, & x \\geq 0 \\\\ -x, & x < 0 \\\\ 0 & \\text{if } x = 0 \\\\ 1 & y \\end{cases}",
  "\\begin{cases} a \\end{cases}",
  "\\begin{pmatrix} a & b \\\\ c & d \\end{pmatrix}",
  "\\begin{bmatrix} 1 & 0 & 0 \\\\ 0 & 1 & 0 \\\\ 0 & 0 & 1 \\end{bmatrix}.",
  "\\begin{vmatrix} a & b \\\\ c & d \\end{vmatrix} = ad - bc",
  "\\begin{Bmatrix} x \\\\ y \\end{Bmatrix} \\begin{Vmatrix} p \\end{Vmatrix}",
  "\\begin{array}{cc} 1 & 2 \\\\ 3 & 4 \\end{array}",
  "\\begin{matrix} \\frac{1}{2} & x^2 \\\\ y_3 & z \\end{matrix}",
  "\\begin{equation} E = mc^2 \\end{equation}",
  "\\begin{unknown} x \\end{unknown}",
  "\\begin{pmatrix} a",
  "a\\,b\\:c\\;d\\ e\\quad f\\qquad g\\!h",
  "\\sin\\!x \\sin{x} 2\\sin x",
  "\\{ x \\} \\$ \\% \\# \\_ \\& \\| \\\\ y",
  "\\bf x \\it y \\displaystyle z",
  "\\frac{a}",
  "x^",
  "{a",
  "a}",
  "\\unknowncommand{x}",
  "\\",
  "",
  "\\constructor",
  "\\toString",
  "\\not\\hasOwnProperty",
  "e^{\\frac{x}{2}} + x^{y^{z}} + a_{b_{c}}",
  "x^{\\alpha} y_{\\beta} z^{ab} w_{XY} v^{*}",
  "\\ldots \\cdots \\vdots \\ddots \\infty \\partial \\nabla",
  "\\langle x, y \\rangle \\lfloor a \\rfloor \\lceil b \\rceil",
  "\\hbar \\ell \\Re \\Im \\aleph \\emptyset",
  "x \\\\ y \\\\ z",
  "\\frac{\\sum_{i=1}^n x_i}{n}",
  "\\sqrt{\\frac{a}{b}}",
  "中文 x^2 😀",
];

function latexCases(): TuiCase[] {
  const cases: TuiCase[] = [];
  EXPRESSIONS.forEach((expression, index) => {
    cases.push({ name: `latex/${index}/inline`, body: `return T.renderLatex(${js(expression)}) ?? null;` });
    cases.push({
      name: `latex/${index}/display`,
      body: `return T.renderLatex(${js(expression)}, { display: true }) ?? null;`,
    });
  });
  return cases;
}

/** Prototype-named commands: pi-tui prints the inherited function's source; we treat them as unknown commands. */
const DELIBERATE = [
  "latex/57/inline",
  "latex/57/display",
  "latex/58/inline",
  "latex/58/display",
  "latex/59/inline",
  "latex/59/display",
];

Deno.test("renderLatex: renders like pi-tui 1.6.0, inline and display", async () => {
  await compareWithPiTui("latex", latexCases(), DELIBERATE);
});
