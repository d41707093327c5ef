/**
 * Conformance of terminal capabilities and inline images with pi-tui 1.6.0: capability detection
 * from the environment (each case sets the variables in the process running it, on both sides),
 * the cache and overrides, header dimensions of PNG/JPEG/GIF/WebP data built in the case, the kitty
 * and iTerm2 encoders, cell sizing, renderImage, the text fallback and hyperlinks, and the kitty
 * image-line helpers the renderer uses (placement, cropping, extents).
 */
import { assertEquals } from "../support/assert.ts";
import { compareWithPiTui, js, type TuiCase } from "../support/tui_oracle.ts";
import { loadInternal, SET_ENV } from "./colors_internal_modules.ts";
import { IMAGE_BYTES } from "./terminal_image_bytes.ts";
import {
  detectCapabilities,
  getJpegDimensions,
  getPngDimensions,
  resetCapabilitiesCache,
  setCapabilities,
  stripImageSequences,
} from "../../src/tui/terminal_image.ts";
import { imageFallback } from "../../src/tui/terminal_image_render.ts";

/** Every variable detection reads; each environment case starts from none of them set. */
const DETECTION_VARS = [
  "TERM_PROGRAM",
  "TERMINAL_EMULATOR",
  "TERM",
  "COLORTERM",
  "TMUX",
  "ORCA_IMAGE_PROTOCOL",
  "KITTY_WINDOW_ID",
  "GHOSTTY_RESOURCES_DIR",
  "WEZTERM_PANE",
  "WARP_SESSION_ID",
  "WARP_TERMINAL_SESSION_UUID",
  "ITERM_SESSION_ID",
  "WT_SESSION",
  "ALACRITTY_WINDOW_ID",
  "PI_HYPERLINKS",
  "PI_IMAGE_PROTOCOL",
  "PI_TRUE_COLOR",
];

const ENVIRONMENTS: Record<string, Record<string, string>> = {
  "bare": {},
  "xterm-256color": { TERM: "xterm-256color" },
  "xterm-truecolor": { TERM: "xterm-256color", COLORTERM: "truecolor" },
  "colorterm-24bit-upper": { COLORTERM: "24BIT" },
  "colorterm-other": { COLORTERM: "yes" },
  "term-direct": { TERM: "xterm-direct" },
  "tmux-var": { TMUX: "/tmp/tmux-0/default,1,0", TERM: "screen-256color" },
  "tmux-term": { TERM: "tmux-256color", COLORTERM: "truecolor" },
  "tmux-inside-kitty": { TMUX: "x", KITTY_WINDOW_ID: "1", TERM: "xterm-kitty" },
  "screen": { TERM: "screen.xterm-256color", COLORTERM: "truecolor" },
  "herdr": { TERM_PROGRAM: "herdr", KITTY_WINDOW_ID: "3" },
  "herdr-truecolor": { TERM_PROGRAM: "Herdr", COLORTERM: "truecolor" },
  "rex": { TERM_PROGRAM: "rex" },
  "orca-advertised": { TERM_PROGRAM: "orca", ORCA_IMAGE_PROTOCOL: "kitty" },
  "orca-old": { TERM_PROGRAM: "orca" },
  "orca-upper-protocol": { TERM_PROGRAM: "orca", ORCA_IMAGE_PROTOCOL: "KITTY" },
  "kitty-window": { KITTY_WINDOW_ID: "7" },
  "kitty-program": { TERM_PROGRAM: "kitty" },
  "ghostty-program": { TERM_PROGRAM: "ghostty" },
  "ghostty-term": { TERM: "xterm-ghostty" },
  "ghostty-resources": { GHOSTTY_RESOURCES_DIR: "/usr/share/ghostty" },
  "wezterm-pane": { WEZTERM_PANE: "0" },
  "wezterm-program": { TERM_PROGRAM: "WezTerm" },
  "warp-program": { TERM_PROGRAM: "WarpTerminal" },
  "warp-session": { WARP_SESSION_ID: "abc" },
  "warp-uuid": { WARP_TERMINAL_SESSION_UUID: "u" },
  "iterm-session": { ITERM_SESSION_ID: "w0t0p0" },
  "iterm-program": { TERM_PROGRAM: "iTerm.app" },
  "windows-terminal": { WT_SESSION: "guid" },
  "alacritty-term": { TERM: "alacritty" },
  "alacritty-window": { ALACRITTY_WINDOW_ID: "1" },
  "alacritty-program": { TERM_PROGRAM: "alacritty" },
  "vscode": { TERM_PROGRAM: "vscode" },
  "zed": { TERM_PROGRAM: "zed" },
  "jetbrains": { TERMINAL_EMULATOR: "JetBrains-JediTerm" },
  "apple-terminal": { TERM_PROGRAM: "Apple_Terminal", TERM: "xterm-256color" },
  "empty-values": { KITTY_WINDOW_ID: "", TMUX: "", TERM_PROGRAM: "" },
  "override-images-none": { KITTY_WINDOW_ID: "1", PI_IMAGE_PROTOCOL: "none" },
  "override-images-0": { TERM_PROGRAM: "iTerm.app", PI_IMAGE_PROTOCOL: "0" },
  "override-images-iterm2": { PI_IMAGE_PROTOCOL: "ITerm2" },
  "override-images-kitty": { TERM: "xterm", PI_IMAGE_PROTOCOL: "kitty" },
  "override-images-junk": { KITTY_WINDOW_ID: "1", PI_IMAGE_PROTOCOL: "sixel" },
  "override-truecolor-on": { PI_TRUE_COLOR: "1" },
  "override-truecolor-off": { KITTY_WINDOW_ID: "1", PI_TRUE_COLOR: "0" },
  "override-truecolor-junk": { PI_TRUE_COLOR: "true", COLORTERM: "truecolor" },
  "override-hyperlinks-on": { PI_HYPERLINKS: "1" },
  "override-hyperlinks-off": { TERM_PROGRAM: "vscode", PI_HYPERLINKS: "0" },
  "override-hyperlinks-tmux": { TMUX: "x", PI_HYPERLINKS: "1" },
};

/** Case source: clear the detection variables, set `env`, run `expr`, restore, return its value. */
function withEnv(env: Record<string, string>, expr: string): string {
  return `${SET_ENV}const names = ${js(DETECTION_VARS)};
const saved = Object.fromEntries(names.map((k) => [k, typeof Deno === "undefined" ? process.env[k] : Deno.env.get(k)]));
for (const k of names) setEnv(k, undefined);
for (const [k, v] of Object.entries(${js(env)})) setEnv(k, v);
try { return ${expr}; } finally { for (const k of names) setEnv(k, saved[k]); T.setCapabilityOverrides({}); T.resetCapabilitiesCache(); }`;
}

function capabilityCases(): TuiCase[] {
  const out: TuiCase[] = [];
  for (const [label, env] of Object.entries(ENVIRONMENTS)) {
    out.push({
      name: `detect/${label}`,
      body: withEnv(
        env,
        "[T.detectCapabilities(() => true), T.detectCapabilities(() => false), " +
          "T.getTerminalColorMode(T.detectCapabilities(() => false))]",
      ),
    });
  }
  out.push({
    name: "cache/overrides-and-reset",
    body: withEnv(
      { KITTY_WINDOW_ID: "1" },
      `(() => {
        T.resetCapabilitiesCache();
        const first = T.getCapabilities();
        const same = T.getCapabilities() === first;
        T.setCapabilityOverrides({ images: null, hyperlinks: false });
        const overridden = T.getCapabilities();
        T.setCapabilityOverrides({ images: null, hyperlinks: false });
        const stillCached = T.getCapabilities() === overridden;
        T.setCapabilities({ images: "iterm2", trueColor: false, hyperlinks: true });
        const set = T.getCapabilities();
        const mode = T.getTerminalColorMode();
        T.resetCapabilitiesCache();
        const again = T.getCapabilities();
        return { first, same, overridden, stillCached, set, mode, again };
      })()`,
    ),
  });
  out.push({
    name: "cache/override-hyperlinks-skips-tmux-probe",
    body: withEnv(
      { TMUX: "x", COLORTERM: "truecolor" },
      `(() => { T.setCapabilityOverrides({ hyperlinks: true }); return T.getCapabilities(); })()`,
    ),
  });
  out.push({
    name: "cache/env-change-needs-reset",
    body: withEnv(
      {},
      `(() => { T.resetCapabilitiesCache(); const before = T.getCapabilities(); setEnv("TERM_PROGRAM", "kitty");
        const cached = T.getCapabilities(); T.resetCapabilitiesCache(); return [before, cached, T.getCapabilities()]; })()`,
    ),
  });
  out.push({
    name: "color-mode/explicit",
    body: `return [T.getTerminalColorMode({ images: null, trueColor: true, hyperlinks: false }),
      T.getTerminalColorMode({ images: "kitty", trueColor: false, hyperlinks: true })];`,
  });
  out.push({
    name: "cell-dimensions",
    body: `const before = T.getCellDimensions(); T.setCellDimensions({ widthPx: 10, heightPx: 22 });
      const after = T.getCellDimensions(); T.setCellDimensions({ widthPx: 9, heightPx: 18 }); return [before, after];`,
  });
  return out;
}

/** Image data expressions (using IMAGE_BYTES) and the MIME type they claim. */
const DIMENSION_INPUTS: Record<string, [string, string]> = {
  "png-real-1x1": ["png(1, 1)", "image/png"],
  "png-real-17x5": ["png(17, 5)", "image/png"],
  "png-header-4000x3000": ["pngHeader(4000, 3000)", "image/png"],
  "png-header-huge": ["pngHeader(0xfffffff0, 1)", "image/png"],
  "png-truncated": ["pngHeader(10, 10).slice(0, 28)", "image/png"],
  "png-whitespace": ["pngHeader(640, 480).replace(/(.{8})/g, '$1 \\n')", "image/png"],
  "png-url-safe": ["pngHeader(1023, 4095).replace(/\\+/g, '-').replace(/\\//g, '_')", "image/png"],
  "png-as-jpeg": ["png(3, 3)", "image/jpeg"],
  "jpeg-sof0": ["jpeg(640, 480)", "image/jpeg"],
  "jpeg-sof1": ["jpeg(300, 200, { sof: 0xc1 })", "image/jpeg"],
  "jpeg-sof2": ["jpeg(1920, 1080, { sof: 0xc2 })", "image/jpeg"],
  "jpeg-sof3-ignored": ["jpeg(10, 10, { sof: 0xc3 })", "image/jpeg"],
  "jpeg-app1-padding": ["jpeg(801, 601, { pad: 5000 })", "image/jpeg"],
  "jpeg-bad-length": ["jpeg(50, 60, { badLength: true })", "image/jpeg"],
  "jpeg-truncated": ["jpeg(50, 60).slice(0, 40)", "image/jpeg"],
  "jpeg-not": ["b64([0xff, 0xd9, 0xff, 0xc0])", "image/jpeg"],
  "gif89a": ["gif(320, 200)", "image/gif"],
  "gif87a": ["gif(1, 65535, '87a')", "image/gif"],
  "gif-bad-version": ["gif(5, 5, '88a')", "image/gif"],
  "gif-high-bit-signature": ["b64([0xc7, 0xc9, 0xc6, 0x38, 0x39, 0xe1, 10, 0, 20, 0])", "image/gif"],
  "gif-short": ["b64(ascii('GIF89a'))", "image/gif"],
  "webp-lossless": ["webpLossless(400, 300)", "image/webp"],
  "webp-lossless-max": ["webpLossless(16384, 16384)", "image/webp"],
  "webp-extended": ["webpExtended(5000, 70000)", "image/webp"],
  "webp-lossy": ["webpLossy(720, 405)", "image/webp"],
  "webp-lossy-scale-bits": ["webpLossy(0xc000 | 33, 0x4000 | 44)", "image/webp"],
  "webp-unknown-chunk": [
    "b64([...ascii('RIFF'), 0, 0, 0, 0, ...ascii('WEBPALPH'), ...Array(20).fill(1)])",
    "image/webp",
  ],
  "webp-short": ["webpLossy(10, 10).slice(0, 36)", "image/webp"],
  "webp-not-riff": ["b64([...ascii('RIFX'), ...Array(28).fill(0)])", "image/webp"],
  "svg": ["btoa('<svg/>')", "image/svg+xml"],
  "empty": ["''", "image/png"],
  "junk": ["'!!!not base64!!!'", "image/gif"],
};

function dimensionCases(): TuiCase[] {
  const out: TuiCase[] = [];
  for (const [label, [data, mime]] of Object.entries(DIMENSION_INPUTS)) {
    out.push({
      name: `dimensions/${label}`,
      body: `${IMAGE_BYTES}const d = ${data};
        return [T.getImageDimensions(d, ${js(mime)}), T.getPngDimensions(d), T.getJpegDimensions(d),
          T.getGifDimensions(d), T.getWebpDimensions(d)];`,
    });
  }
  return out;
}

function encodeCases(): TuiCase[] {
  const out: TuiCase[] = [];
  const kittyOptions = [
    "undefined",
    "{}",
    "{ columns: 10, rows: 4 }",
    "{ columns: 0, rows: 0, imageId: 0 }",
    "{ imageId: 4294967295, moveCursor: false }",
    "{ moveCursor: true, columns: 3 }",
  ];
  for (const [i, options] of kittyOptions.entries()) {
    out.push({ name: `kitty/options-${i}`, body: `return T.encodeKitty("QUJD", ${options});` });
  }
  for (const length of [4095, 4096, 4097, 8192, 8193, 12000]) {
    out.push({
      name: `kitty/chunks-${length}`,
      body: `const data = "A".repeat(${
        length - 1
      }) + "Z"; const s = T.encodeKitty(data, { columns: 2, rows: 1, imageId: 9 });
        return { length: s.length, heads: s.split("\\x1b\\\\").map((part) => part.slice(0, 40)) };`,
    });
  }
  const itermOptions = [
    "undefined",
    "{ width: 10, height: 'auto' }",
    "{ width: '50%', height: '100px', preserveAspectRatio: false }",
    "{ name: 'photo ünïcødé.png', inline: false }",
    "{ name: '', preserveAspectRatio: true, inline: true }",
    "{ width: 0, height: 0 }",
  ];
  for (const [i, options] of itermOptions.entries()) {
    out.push({ name: `iterm2/options-${i}`, body: `return T.encodeITerm2("QUJDRA==", ${options});` });
  }
  out.push({
    name: "iterm2/sizes",
    body: `return ["", "Q", "QU", "QUI", "QUJD", "QUI=", "QU==", "Q===", "=", "==", "QUJD\\n", "A B C D"]
      .map((d) => T.encodeITerm2(d).split(";")[2]);`,
  });
  out.push({
    name: "kitty/delete",
    body: `return [T.deleteKittyImage(42), T.deleteKittyImage(0), T.deleteAllKittyImages()];`,
  });
  out.push({
    name: "hyperlink",
    body:
      `return [T.hyperlink("docs", "https://example.com/a?b=c"), T.hyperlink("", ""), T.hyperlink("中文", "file:///tmp/x")];`,
  });
  out.push({
    name: "image-id/range",
    body: `const id = T.allocateImageId(); return Number.isInteger(id) && id >= 1;`,
  });
  return out;
}

const SIZES: [number, number][] = [[1, 1], [9, 18], [100, 100], [800, 600], [600, 800], [1920, 1080], [
  37,
  2000,
], [
  5000,
  10,
], [0, 0]];

function sizingCases(): TuiCase[] {
  const out: TuiCase[] = [];
  for (const [w, h] of SIZES) {
    out.push({
      name: `rows/${w}x${h}`,
      body: `const d = { widthPx: ${w}, heightPx: ${h} };
        return [1, 2, 20, 60, 80, 200, 0, -5, 7.9].map((cells) => [T.calculateImageRows(d, cells),
          T.calculateImageRows(d, cells, { widthPx: 10, heightPx: 20 }), T.calculateImageRows(d, cells, { widthPx: 7, heightPx: 16 })]);`,
    });
  }
  const load = loadInternal("I", "terminal-image.js", "terminal_image.ts");
  out.push({
    name: "cell-size/optimised",
    body: `${load}const out = [];
      for (const [w, h] of ${
      js(SIZES)
    }) for (const [mw, mh] of [[60, 30], [20, 3], [80, undefined], [5, 50], [1, 1]]) {
        const d = { widthPx: w, heightPx: h };
        out.push([I.calculateImageCellSize(d, mw, mh), I.calculateImageCellSize(d, mw, mh, { widthPx: 9, heightPx: 18 }, true)]);
      }
      return out;`,
  });
  return out;
}

function renderCases(): TuiCase[] {
  const out: TuiCase[] = [];
  const caps = {
    none: "{ images: null, trueColor: true, hyperlinks: true }",
    kitty: "{ images: 'kitty', trueColor: true, hyperlinks: true }",
    iterm2: "{ images: 'iterm2', trueColor: false, hyperlinks: false }",
  };
  const options = [
    "undefined",
    "{ maxWidthCells: 20 }",
    "{ maxWidthCells: 40, maxHeightCells: 5, imageId: 77 }",
    "{ maxWidthCells: 3, moveCursor: false, preserveAspectRatio: false }",
  ];
  for (const [capLabel, cap] of Object.entries(caps)) {
    for (const [i, option] of options.entries()) {
      out.push({
        name: `render/${capLabel}/options-${i}`,
        body: `${IMAGE_BYTES}T.setCapabilities(${cap});
          try { return [[640, 480], [50, 900], [3000, 200]].map(([w, h]) => T.renderImage(png(2, 2), { widthPx: w, heightPx: h }, ${option}));
          } finally { T.resetCapabilitiesCache(); }`,
      });
    }
  }
  out.push({
    name: "render/kitty/cell-dimensions",
    body: `${IMAGE_BYTES}T.setCapabilities(${caps.kitty}); T.setCellDimensions({ widthPx: 12, heightPx: 12 });
      try { return T.renderImage(png(1, 1), { widthPx: 100, heightPx: 100 }, { maxWidthCells: 10 }); }
      finally { T.setCellDimensions({ widthPx: 9, heightPx: 18 }); T.resetCapabilitiesCache(); }`,
  });
  return out;
}

function fallbackCases(): TuiCase[] {
  const files = [
    undefined,
    "",
    "shot.png",
    "./pics/shot.png",
    "/nonexistent-home",
    "/nonexistent-home/pics/shot.png",
    "/nonexistent-homework/x.png",
    "/tmp/a b/100% #1?.png",
    "/tmp/ünï/ko\\de.png",
    "/tmp/dir/../x.png",
    "/tmp/trailing/",
    "/tmp/back\\/",
    "/tmp/tab\there\nnewline\r.png",
    "/nonexistent-home/",
  ];
  const out: TuiCase[] = [];
  for (const hyperlinks of [false, true]) {
    out.push({
      name: `fallback/hyperlinks-${hyperlinks}`,
      body: `T.setCapabilities({ images: null, trueColor: false, hyperlinks: ${hyperlinks} });
        try { return ${js(files)}.flatMap((f) => [T.imageFallback("image/png", undefined, f ?? undefined),
          T.imageFallback("image/jpeg", { widthPx: 10, heightPx: 20 }, f ?? undefined)]);
        } finally { T.resetCapabilitiesCache(); }`,
    });
  }
  return out;
}

function kittyLineCases(): TuiCase[] {
  const load = loadInternal("I", "terminal-image.js", "terminal_image.ts");
  const lines: Record<string, string> = {
    plain: "just text",
    kitty: "\x1b_Ga=T,f=100,q=2,C=1,c=10,r=4,i=501;QUJD\x1b\\",
    "kitty-indented": "  ab\x1b_Ga=T,f=100,q=2,i=502;QUJD\x1b\\ tail",
    "kitty-no-columns": "\x1b_Ga=T,f=100,q=2,r=3;QUJD\x1b\\",
    "kitty-zero-rows": "\x1b_Ga=T,f=100,q=2,r=0,c=2;QUJD\x1b\\",
    iterm2: "\x1b[3A\x1b]1337;File=inline=1;size=3;width=12;height=auto:QUJD\x07",
    "iterm2-auto": "x\x1b]1337;File=inline=1;size=3;width=auto:QUJD\x07",
    "iterm2-plain": "\x1b]1337;File=inline=1;size=3:QUJD\x07 after",
    "cjk-before": "中文\x1b_Ga=T,f=100,q=2,c=4,r=2;QUJD\x1b\\",
  };
  const out: TuiCase[] = [];
  for (const [label, line] of Object.entries(lines)) {
    out.push({
      name: `line/${label}`,
      body: `${load}const line = ${js(line)};
        return [I.isImageLine(line), I.getImageLineExtent(line) ?? null, I.stripImageSequences(line),
          I.getKittyImagePlacementRows(line) ?? null];`,
    });
  }
  out.push({
    name: "line/registered-metadata",
    body: `${load}${IMAGE_BYTES}T.setCapabilities({ images: "kitty", trueColor: true, hyperlinks: true });
      try {
        const r = T.renderImage(png(4, 4), { widthPx: 400, heightPx: 300 }, { maxWidthCells: 20, imageId: 9001 });
        const line = "> " + r.sequence;
        const noId = T.renderImage(png(4, 4), { widthPx: 400, heightPx: 300 }, { maxWidthCells: 20 }).sequence;
        return [I.getKittyImageMetadata(line), I.getImageLineExtent(line), I.getKittyImagePlacementRows(line),
          I.getKittyImageMetadata(noId) ?? null, I.getMaxKittyImageRows() >= r.rows];
      } finally { T.resetCapabilitiesCache(); }`,
  });
  out.push({
    name: "line/placement",
    body: `${load}T.setCapabilities({ images: "kitty", trueColor: true, hyperlinks: true });
      try {
        const small = T.renderImage("QUJD", { widthPx: 90, heightPx: 180 }, { maxWidthCells: 5, imageId: 9002, moveCursor: false });
        const big = T.renderImage("B".repeat(9000), { widthPx: 30, heightPx: 900 }, { maxWidthCells: 8, imageId: 9003 });
        const p1 = I.getKittyImagePlacement("ab" + small.sequence + "cd");
        const p2 = I.getKittyImagePlacement(big.sequence + "!");
        const cut = I.getKittyImagePlacement(big.sequence.slice(0, 5000));
        const unknown = I.getKittyImagePlacement("\\x1b_Ga=T,i=123456;QUJD\\x1b\\\\");
        const strip = (p) => p && { ...p, transmissionGeneration: typeof p.transmissionGeneration };
        return [strip(p1), strip(p2), cut ?? null, unknown ?? null];
      } finally { T.resetCapabilitiesCache(); }`,
  });
  out.push({
    name: "line/crop",
    body: `${load}T.setCapabilities({ images: "kitty", trueColor: true, hyperlinks: true });
      try {
        const r = T.renderImage("QUJD", { widthPx: 90, heightPx: 185 }, { maxWidthCells: 10, imageId: 9004 });
        const line = r.sequence;
        return [r.rows, ...[[0, 1], [0, 100], [1, 2], [2, 100], [r.rows - 1, 1], [r.rows, 1], [-1, 2], [1, 0]]
          .map(([hidden, visible]) => I.cropKittyImageLine(line, hidden, visible)), I.cropKittyImageLine("text", 1, 1)];
      } finally { T.resetCapabilitiesCache(); }`,
  });
  out.push({
    name: "line/delete-placements",
    body: `${load}return I.deleteAllKittyPlacements();`,
  });
  return out;
}

Deno.test("capability detection, overrides and the cache match pi-tui 1.6.0", async () => {
  await compareWithPiTui("terminal_image_capabilities", capabilityCases());
});

Deno.test("image dimensions, encoders, sizing and renderImage match pi-tui 1.6.0", async () => {
  await compareWithPiTui("terminal_image", [
    ...dimensionCases(),
    ...encodeCases(),
    ...sizingCases(),
    ...renderCases(),
    ...fallbackCases(),
    ...kittyLineCases(),
  ]);
});

Deno.test("the tmux probe is skipped when PI_HYPERLINKS decides, and its answer is used otherwise", () => {
  const saved = { TMUX: Deno.env.get("TMUX"), PI_HYPERLINKS: Deno.env.get("PI_HYPERLINKS") };
  try {
    Deno.env.set("TMUX", "/tmp/tmux-1/default,1,0");
    Deno.env.delete("PI_HYPERLINKS");
    let asked = 0;
    const probe = () => (asked++, true);
    assertEquals(detectCapabilities(probe).hyperlinks, true);
    assertEquals(asked, 1);
    Deno.env.set("PI_HYPERLINKS", "0");
    assertEquals(detectCapabilities(probe).hyperlinks, false);
    assertEquals(asked, 1);
  } finally {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) Deno.env.delete(name);
      else Deno.env.set(name, value);
    }
  }
});

Deno.test({
  name: "inside tmux, hyperlinks follow tmux's client_termfeatures, and a hung tmux is given up on",
  ignore: Deno.build.os === "windows",
  fn() {
    const dir = Deno.makeTempDirSync();
    const names = ["PATH", "TMUX", "PI_HYPERLINKS", "TERM_PROGRAM"];
    const saved = Object.fromEntries(names.map((name) => [name, Deno.env.get(name)]));
    const fakeTmux = (body: string) => {
      Deno.writeTextFileSync(`${dir}/tmux`, `#!/bin/sh\n${body}\n`);
      Deno.chmodSync(`${dir}/tmux`, 0o755);
    };
    try {
      Deno.env.set("PATH", `${dir}:${saved.PATH ?? "/usr/bin:/bin"}`);
      Deno.env.set("TMUX", "/tmp/tmux-1/default,1,0");
      Deno.env.delete("PI_HYPERLINKS");
      fakeTmux(`[ "$3" = '#{client_termfeatures}' ] && echo "256,RGB, hyperlinks ,title"`);
      assertEquals(detectCapabilities().hyperlinks, true);
      fakeTmux(`echo "256,RGB,title"`);
      assertEquals(detectCapabilities().hyperlinks, false);
      fakeTmux("exit 1");
      assertEquals(detectCapabilities().hyperlinks, false);
      fakeTmux(`echo hyperlinks; exec sleep 5`);
      const start = performance.now();
      assertEquals(detectCapabilities().hyperlinks, false);
      assertEquals(performance.now() - start < 3000, true);
    } finally {
      for (const [name, value] of Object.entries(saved)) {
        if (value === undefined) Deno.env.delete(name);
        else Deno.env.set(name, value);
      }
      Deno.removeSync(dir, { recursive: true });
    }
  },
});

Deno.test("dimensions come from the header without decoding a large payload", () => {
  // A 6 MB base64 payload after a valid header: only the first bytes are read.
  const header = "iVBORw0KGgoAAAANSUhEUgAAAoAAAAHgCAAAAAA";
  const big = header + "A".repeat(6_000_000);
  const start = performance.now();
  for (let i = 0; i < 100; i++) assertEquals(getPngDimensions(big), { widthPx: 640, heightPx: 480 });
  // Decoding the whole payload 100 times would take seconds; the header alone takes microseconds.
  assertEquals(performance.now() - start < 1500, true);
  // A JPEG whose frame header lies beyond the first 96 KiB is still found.
  const bytes = new Uint8Array(200_020);
  bytes.set([0xff, 0xd8, 0xff, 0xe1, 0xff, 0xff], 0);
  let at = 2 + 2 + 0xffff;
  bytes.set([0xff, 0xe1, 0xff, 0xff], at);
  at += 2 + 0xffff;
  bytes.set([0xff, 0xc0, 0, 11, 8, 0x01, 0x02, 0x03, 0x04], at);
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  assertEquals(getJpegDimensions(btoa(binary)), { widthPx: 0x0304, heightPx: 0x0102 });
});

Deno.test("the fallback links an absolute path under home as ~ with a file URL", () => {
  const home = Deno.env.get("HOME");
  try {
    Deno.env.set("HOME", "/home/ann");
    setCapabilities({ images: null, trueColor: false, hyperlinks: true });
    assertEquals(
      imageFallback("image/png", { widthPx: 2, heightPx: 3 }, "/home/ann/a b#.png"),
      "[Image: \x1b]8;;file:///home/ann/a%20b%23.png\x1b\\~/a b#.png\x1b]8;;\x1b\\ [image/png] 2x3]",
    );
    assertEquals(stripImageSequences("a\x1b_Gi=1;QQ\x1b\\b"), "ab");
  } finally {
    if (home === undefined) Deno.env.delete("HOME");
    else Deno.env.set("HOME", home);
    resetCapabilitiesCache();
  }
});
