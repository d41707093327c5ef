/**
 * Conformance of the colour API (parseColor, the constructors, conversions, mixColors,
 * foregroundAnsi/backgroundAnsi in truecolor and 256-colour modes, styleText) and of the Oklab
 * maths under it with pi-tui 1.6.0: the same case bodies run against both
 * (tests/support/tui_oracle.ts), over grids of inputs wide enough that every 256-colour choice and
 * every gamut-mapping branch is exercised.
 */
import { assertEquals } from "../support/assert.ts";
import { compareWithPiTui, js, type TuiCase } from "../support/tui_oracle.ts";
import { loadInternal } from "./colors_internal_modules.ts";
import {
  backgroundAnsi,
  foregroundAnsi,
  indexedColor,
  mixColors,
  parseColor,
  rgbColor,
  styleText,
} from "../../src/tui/colors.ts";

/** Values parseColor gets: every syntax it accepts and near misses it must reject. */
const PARSE_INPUTS: Record<string, string | number> = {
  "hex3": "#abc",
  "hex3-upper": "#ABC",
  "hex6": "#20242a",
  "hex6-mixed": "#FfA07a",
  "hex-black": "#000000",
  "hex-white": "#fff",
  "hex-bad-len2": "#12",
  "hex-bad-len5": "#12345",
  "hex-bad-digit": "#ggg",
  "hex-no-hash": "20242a",
  "hex-alpha": "#20242aff",
  "oklch-fraction": "oklch(0.7 0.12 220)",
  "oklch-percent": "oklch(70% 0.12 220)",
  "oklch-deg": "oklch(55% 0.2 30deg)",
  "oklch-upper": "OKLCH(50% 0.1 120DEG)",
  "oklch-spaces": "oklch(  0.5   0.05   300  )",
  "oklch-exponent": "oklch(5e-1 1.2e-1 2.2e2)",
  "oklch-negative-hue": "oklch(0.6 0.1 -90)",
  "oklch-big-hue": "oklch(0.6 0.1 725)",
  "oklch-leading-dot": "oklch(.5 .1 .5)",
  "oklch-out-of-gamut": "oklch(100% 0.3 150)",
  "oklch-wide": "oklch(0.65 0.4 25)",
  "oklch-zero": "oklch(0 0 0)",
  "oklch-l-too-big": "oklch(1.2 0.1 10)",
  "oklch-l-percent-too-big": "oklch(120% 0.1 10)",
  "oklch-c-negative": "oklch(0.5 -0.1 10)",
  "oklch-commas": "oklch(0.5, 0.1, 10)",
  "oklch-missing": "oklch(0.5 0.1)",
  "okhsl-percent": "okhsl(250 60% 55%)",
  "okhsl-fraction": "okhsl(250 0.6 0.55)",
  "okhsl-deg": "okhsl(30deg 100% 50%)",
  "okhsl-gray": "okhsl(0 0% 50%)",
  "okhsl-black": "okhsl(120 80% 0%)",
  "okhsl-white": "okhsl(120 80% 100%)",
  "okhsl-negative-hue": "okhsl(-45 50% 40%)",
  "okhsl-s-too-big": "okhsl(10 150% 50%)",
  "okhsl-l-too-big": "okhsl(10 50% 1.5)",
  "okhsl-mixed-units": "okhsl(200 0.3 70%)",
  "named-red": "red",
  "rgb-function": "rgb(1, 2, 3)",
  "empty": "",
  "spaces": "  #abc  ",
  "index-0": 0,
  "index-7": 7,
  "index-15": 15,
  "index-16": 16,
  "index-100": 100,
  "index-231": 231,
  "index-232": 232,
  "index-255": 255,
  "index-256": 256,
  "index-negative": -1,
  "index-fraction": 1.5,
};

/**
 * Case source defining `R(value)`: every fractional number in `value` cut to 10 significant digits,
 * numbers under 1e-12 (a gray's chroma) to 0, and the hue of such a gray (the angle of rounding
 * noise) to "gray". Node 22's V8 computes `**` and `Math.cbrt` with fdlibm, Deno's V8 correctly
 * rounded, so OKLCH and OKHSL channel values can differ in their last bit (docs/differences.md);
 * sRGB channels, hex strings and escape sequences are compared exactly.
 */
const ROUNDING = `const R = (v) => JSON.parse(JSON.stringify(v, (_, x) => {
  if (x && typeof x === "object" && typeof x.c === "number" && Math.abs(x.c) < 1e-12) return { ...x, c: 0, h: "gray" };
  if (typeof x !== "number" || Number.isInteger(x)) return x;
  return Math.abs(x) < 1e-12 ? 0 : Number(x.toPrecision(10));
}));
`;

/** Everything a parsed colour converts to, as a case body's expression over `c`. */
const DESCRIBE = `({
  color: c,
  hex: T.colorToHex(c),
  rgb: T.colorToRgb(c),
  oklch: R(T.colorToOklch(c)),
  okhsl: R(T.colorToOkhsl(c)),
  fg256: T.foregroundAnsi(c, "256color"),
  fgTrue: T.foregroundAnsi(c, "truecolor"),
  bg256: T.backgroundAnsi(c, "256color"),
  bgTrue: T.backgroundAnsi(c, "truecolor"),
})`;

const LEVELS_17 = Array.from({ length: 16 }, (_, i) => i * 17);

const MIX_COLORS: Record<string, string> = {
  red: "T.rgbColor(255, 0, 0)",
  blue: "T.parseColor('#0000ff')",
  gray: "T.rgbColor(128, 128, 128)",
  black: "T.rgbColor(0, 0, 0)",
  white: "T.indexedColor(15)",
  cube: "T.indexedColor(173)",
  ramp: "T.indexedColor(240)",
  accent: "T.parseColor('oklch(70% 0.12 220)')",
  warm: "T.oklchColor(0.6, 0.15, 350)",
  okhsl: "T.okhslColor(120, 0.7, 0.4)",
};
const MIX_PAIRS: [string, string][] = [
  ["red", "blue"],
  ["blue", "red"],
  ["gray", "red"],
  ["red", "gray"],
  ["black", "white"],
  ["accent", "black"],
  ["accent", "warm"],
  ["warm", "accent"],
  ["cube", "ramp"],
  ["okhsl", "accent"],
  ["gray", "white"],
  ["warm", "okhsl"],
];

const STYLE_OPTIONS: Record<string, string> = {
  none: "{}",
  bold: "{ bold: true }",
  dim: "{ dim: true }",
  "bold-dim": "{ bold: true, dim: true }",
  italic: "{ italic: true }",
  underline: "{ underline: true }",
  inverse: "{ inverse: true }",
  strike: "{ strikethrough: true }",
  all: "{ bold: true, dim: true, italic: true, underline: true, inverse: true, strikethrough: true }",
  fg: "{ fg: T.parseColor('#ff8800') }",
  bg: "{ bg: T.indexedColor(4) }",
  "fg-bg": "{ fg: T.parseColor('oklch(0.8 0.1 100)'), bg: T.parseColor('#101820') }",
  "fg-bg-bold-italic": "{ fg: T.indexedColor(9), bg: T.rgbColor(1, 2, 3), bold: true, italic: true }",
  "everything":
    "{ fg: T.parseColor('okhsl(300 80% 60%)'), bg: T.parseColor('#fff'), bold: true, dim: true, " +
    "italic: true, underline: true, inverse: true, strikethrough: true }",
  "false-flags": "{ bold: false, italic: false, fg: undefined }",
};

function parseCases(): TuiCase[] {
  return Object.entries(PARSE_INPUTS).map(([label, value]) => ({
    name: `parse/${label}`,
    body: `${ROUNDING}const c = T.parseColor(${js(value)}); return ${DESCRIBE};`,
  }));
}

function quantiseCases(): TuiCase[] {
  const out: TuiCase[] = [];
  for (const r of LEVELS_17) {
    out.push({
      name: `ansi256/grid/r${r}`,
      body: `const levels = ${js(LEVELS_17)}; const out = [];
        for (const g of levels) for (const b of levels) {
          const c = T.rgbColor(${r}, g, b);
          out.push(T.foregroundAnsi(c, "256color").slice(7, -1));
        }
        return out.join(" ");`,
    });
  }
  // Near-neutral colours, where the gray ramp competes with the cube (channel spread < 10 or not).
  for (let start = 0; start < 256; start += 64) {
    out.push({
      name: `ansi256/near-gray/${start}`,
      body: `const out = [];
        for (let v = ${start}; v < ${Math.min(start + 64, 256)}; v++) {
          for (const [dg, db] of [[0, 0], [3, 0], [0, 9], [9, 9], [10, 0], [5, -4]]) {
            const g = Math.min(255, Math.max(0, v + dg)); const b = Math.min(255, Math.max(0, v + db));
            out.push(T.foregroundAnsi(T.rgbColor(v, g, b), "256color").slice(7, -1));
          }
        }
        return out.join(" ");`,
    });
  }
  out.push({
    name: "ansi256/fractional-channels",
    body: `return [[12.5, 100.49, 200.5], [47.5, 47.5, 47.5], [114.999, 115, 115.001], [0.5, 254.5, 127.5],
      [242.5, 243, 243.5]].map(([r, g, b]) => { const c = T.rgbColor(r, g, b);
      return [T.foregroundAnsi(c, "256color"), T.foregroundAnsi(c, "truecolor"), T.colorToHex(c)]; });`,
  });
  out.push({
    name: "ansi256/unknown-mode",
    body:
      `const c = T.rgbColor(10, 200, 30); return [T.foregroundAnsi(c, "16color"), T.backgroundAnsi(c, undefined)];`,
  });
  out.push({
    name: "palette/all-256",
    body: `return Array.from({ length: 256 }, (_, i) => { const c = T.indexedColor(i);
      return [T.colorToHex(c), T.foregroundAnsi(c, "256color"), T.backgroundAnsi(c, "truecolor")]; });`,
  });
  out.push({
    name: "palette/oklch-okhsl",
    body: `${ROUNDING}return R(Array.from({ length: 256 }, (_, i) => i).filter((i) => i % 5 === 0 || i < 16)
      .map((i) => [T.colorToOklch(T.indexedColor(i)), T.colorToOkhsl(T.indexedColor(i))]));`,
  });
  return out;
}

function oklchCases(): TuiCase[] {
  const out: TuiCase[] = [];
  for (const l of [0, 0.05, 0.1, 0.25, 0.4, 0.5, 0.6, 0.75, 0.9, 0.97, 1]) {
    out.push({
      name: `oklch/grid/l${l}`,
      body: `const out = [];
        for (const c of [0, 0.02, 0.05, 0.1, 0.15, 0.2, 0.3, 0.4]) for (let h = 0; h < 360; h += 30) {
          const color = T.oklchColor(${l}, c, h);
          out.push(T.colorToHex(color) + T.foregroundAnsi(color, "256color").slice(7, -1));
        }
        return out.join(" ");`,
    });
  }
  out.push({
    name: "oklch/hue-wrap",
    body: `return [-720, -30, 0, 359.999, 360, 725.5].map((h) => T.oklchColor(0.5, 0.1, h));`,
  });
  out.push({
    name: "okhsl/lightness",
    body:
      `return [0, 0.001, 0.1, 0.2, 0.5, 0.8, 0.999, 1, 1.2, -0.1].map((x) => T.oklabToOkhslLightness(x));`,
  });
  return out;
}

function okhslCases(): TuiCase[] {
  const out: TuiCase[] = [];
  for (let h = 0; h < 360; h += 30) {
    out.push({
      name: `okhsl/grid/h${h}`,
      body: `${ROUNDING}const out = [];
        for (const s of [0, 0.1, 0.3, 0.5, 0.79, 0.8, 0.9, 1]) for (const l of [0, 0.05, 0.2, 0.4, 0.5, 0.65, 0.8, 0.95, 1]) {
          const color = T.okhslColor(${h + 7.5}, s, l);
          out.push([T.colorToHex(color), R(T.colorToOkhsl(color))]);
        }
        return out;`,
    });
  }
  return out;
}

function mixCases(): TuiCase[] {
  const out: TuiCase[] = [];
  for (const [a, b] of MIX_PAIRS) {
    for (const space of ["oklch", "srgb"]) {
      out.push({
        name: `mix/${space}/${a}-${b}`,
        body: `${ROUNDING}const a = ${MIX_COLORS[a]}; const b = ${MIX_COLORS[b]};
          return [0, 0.1, 0.25, 0.5, 0.75, 0.9, 1].map((t) => { const m = T.mixColors(a, b, t, ${js(space)});
          return [R(m), T.colorToHex(m), T.foregroundAnsi(m, "256color")]; });`,
      });
    }
  }
  out.push({
    name: "mix/default-space",
    body:
      `${ROUNDING}const m = T.mixColors(T.parseColor("#20242a"), T.parseColor("oklch(70% 0.12 220)"), 0.2);
      return [R(m), T.colorToHex(m)];`,
  });
  return out;
}

function errorCases(): TuiCase[] {
  const calls: Record<string, string> = {
    "indexed-256": "T.indexedColor(256)",
    "indexed-fraction": "T.indexedColor(3.5)",
    "indexed-nan": "T.indexedColor(NaN)",
    "rgb-negative": "T.rgbColor(-1, 0, 0)",
    "rgb-too-big": "T.rgbColor(0, 256, 0)",
    "rgb-nan": "T.rgbColor(0, 0, NaN)",
    "rgb-infinite": "T.rgbColor(Infinity, 0, 0)",
    "oklch-l": "T.oklchColor(-0.1, 0, 0)",
    "oklch-c": "T.oklchColor(0.5, -1, 0)",
    "oklch-h-nan": "T.oklchColor(0.5, 0.1, NaN)",
    "okhsl-s": "T.okhslColor(0, 1.1, 0.5)",
    "okhsl-l": "T.okhslColor(0, 0.5, -0.5)",
    "okhsl-h-infinite": "T.okhslColor(Infinity, 0.5, 0.5)",
    "mix-amount": "T.mixColors(T.indexedColor(1), T.indexedColor(2), 1.5)",
    "mix-amount-nan": "T.mixColors(T.indexedColor(1), T.indexedColor(2), NaN, 'srgb')",
    "frozen":
      "(() => { const c = T.rgbColor(1, 2, 3); return [Object.isFrozen(c), Object.isFrozen(T.indexedColor(1)), " +
      "Object.isFrozen(T.oklchColor(0.5, 0.1, 3))]; })()",
  };
  return Object.entries(calls).map(([label, call]) => ({ name: `errors/${label}`, body: `return ${call};` }));
}

function styleCases(): TuiCase[] {
  const out: TuiCase[] = [];
  for (const [label, options] of Object.entries(STYLE_OPTIONS)) {
    out.push({
      name: `style/${label}`,
      body: `const o = ${options};
        return [T.styleText("Ready", o, "truecolor"), T.styleText("Ready", o, "256color"), T.styleText("", o, "truecolor")];`,
    });
  }
  out.push({
    name: "style/with-ansi",
    body: `return [
      T.styleTextWithAnsi("x", "\\x1b[31m", undefined, {}),
      T.styleTextWithAnsi("x", undefined, "\\x1b[44m", { bold: true }),
      T.styleTextWithAnsi("x", "\\x1b[38;5;1m", "\\x1b[48;5;2m", { fg: T.indexedColor(3), underline: true, dim: true }),
      T.styleTextWithAnsi("x", "", "", { inverse: true }),
    ];`,
  });
  return out;
}

function oklabCases(): TuiCase[] {
  const load = loadInternal("O", "oklab.js", "oklab.ts");
  const out: TuiCase[] = [];
  for (const r of [0, 51, 102, 153, 204, 255]) {
    out.push({
      name: `oklab/rgb-roundtrip/r${r}`,
      body: `${ROUNDING}${load}const out = [];
        for (const g of [0, 1, 51, 128, 204, 255]) for (const b of [0, 10, 128, 250, 255]) {
          const rgb = { r: ${r}, g, b };
          const lab = O.rgbToOklab(rgb);
          out.push([R(lab), O.linearSrgbToRgb(O.oklabToLinearSrgb(lab)), R(O.rgbToOkhsl(rgb))]);
        }
        return out;`,
    });
  }
  out.push({
    name: "oklab/okhsl-to-rgb",
    body: `${load}const out = [];
      for (const h of [-30, 0, 45, 90, 135, 180, 225, 270, 315, 400]) for (const s of [0, 0.5, 0.8, 1]) for (const l of [0.1, 0.5, 0.9]) {
        out.push(O.okhslToRgb(h, s, l));
      }
      return out;`,
  });
  out.push({
    name: "oklab/linear-clip",
    body:
      `${load}return [[-0.1, 0.5, 1.2], [0, 0.0031308, 0.0031309], [1, 1, 1], [0.2, 0.4, 0.6]].map((v) => O.linearSrgbToRgb(v));`,
  });
  return out;
}

// Separate suites keep each side's JSON answer small (the Node runner's output is cut past 64 KiB).
Deno.test("colour parsing, errors and styleText match pi-tui 1.6.0", async () => {
  await compareWithPiTui("colors", [...parseCases(), ...errorCases(), ...styleCases()]);
});

Deno.test("256-colour quantisation matches pi-tui 1.6.0 byte for byte", async () => {
  await compareWithPiTui("colors_ansi256", quantiseCases());
});

Deno.test("OKLCH gamut mapping matches pi-tui 1.6.0", async () => {
  await compareWithPiTui("colors_oklch", oklchCases());
});

Deno.test("OKHSL conversions match pi-tui 1.6.0", async () => {
  await compareWithPiTui("colors_okhsl", okhslCases());
});

Deno.test("colour mixing and the Oklab maths match pi-tui 1.6.0", async () => {
  await compareWithPiTui("colors_mix", [...mixCases(), ...oklabCases()]);
});

Deno.test("256-colour mode picks the cube corner or the gray ramp by luma distance", () => {
  // Pure primaries land on cube corners; a near-neutral mid gray on the ramp.
  assertEquals(foregroundAnsi(rgbColor(255, 0, 0), "256color"), "\x1b[38;5;196m");
  assertEquals(backgroundAnsi(rgbColor(0, 0, 255), "256color"), "\x1b[48;5;21m");
  assertEquals(foregroundAnsi(rgbColor(128, 128, 128), "256color"), "\x1b[38;5;244m");
  // A spread of 10 is no longer neutral: the cube wins even though a gray is close.
  assertEquals(foregroundAnsi(rgbColor(128, 138, 128), "256color"), "\x1b[38;5;102m");
  // Palette colours are kept as they are in both modes.
  assertEquals(foregroundAnsi(indexedColor(3), "truecolor"), "\x1b[38;5;3m");
});

Deno.test("parseColor rejects names and CSS rgb() with pi-tui's message", () => {
  for (const value of ["red", "rgb(1, 2, 3)", "#12"]) {
    let message = "";
    try {
      parseColor(value);
    } catch (error) {
      message = (error as Error).message;
    }
    assertEquals(message, `Invalid color value: ${value}`);
  }
});

Deno.test("styleText closes attributes in reverse order with their own resets", () => {
  const text = styleText(
    "x",
    { fg: rgbColor(1, 2, 3), bg: indexedColor(4), bold: true, italic: true },
    "truecolor",
  );
  assertEquals(text, "\x1b[38;2;1;2;3m\x1b[48;5;4m\x1b[1m\x1b[3mx\x1b[23m\x1b[22m\x1b[49m\x1b[39m");
  assertEquals(
    mixColors(rgbColor(0, 0, 0), rgbColor(255, 255, 255), 0.5, "srgb"),
    rgbColor(127.5, 127.5, 127.5),
  );
});
