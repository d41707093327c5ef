/**
 * Conformance of the Image component with pi-tui 1.6.0: rendered lines at widths 1, 20, 80 and 200
 * for PNG, JPEG, GIF and WebP data built in the case, on a terminal without images (the fallback
 * text), with kitty (PNG only, others through a transcoder) and with iTerm2, plus size options, file
 * names, the render cache and the kitty image id.
 */
import { assertEquals } from "../support/assert.ts";
import { compareWithPiTui, type TuiCase } from "../support/tui_oracle.ts";
import { IMAGE_BYTES } from "./terminal_image_bytes.ts";
import { Image } from "../../src/tui/components/image.ts";
import { resetCapabilitiesCache, setCapabilities } from "../../src/tui/terminal_image.ts";

const WIDTHS = [1, 20, 80, 200];

const CAPS: Record<string, string> = {
  none: "{ images: null, trueColor: false, hyperlinks: false }",
  kitty: "{ images: 'kitty', trueColor: true, hyperlinks: true }",
  iterm2: "{ images: 'iterm2', trueColor: true, hyperlinks: true }",
};

/** Image data expressions (IMAGE_BYTES) and their MIME types. */
const IMAGES: Record<string, [string, string]> = {
  "png": ["png(6, 4)", "image/png"],
  "png-tall": ["pngHeader(300, 1200)", "image/png"],
  "jpeg": ["jpeg(1200, 800)", "image/jpeg"],
  "gif": ["gif(64, 64)", "image/gif"],
  "webp": ["webpLossless(1000, 250)", "image/webp"],
  "unknown": ["btoa('not an image')", "image/x-unknown"],
};

const THEME = `{ fallbackColor: (s) => "\\x1b[33m" + s + "\\x1b[39m" }`;

/** Case source: set the capabilities, run `code`, reset; kitty ids are random, so `i=` is normalised. */
function withCaps(caps: string, code: string): string {
  return `${IMAGE_BYTES}T.setCapabilities(${caps});
const ids = (lines) => lines.map((l) => l.replace(/i=\\d+/g, "i=ID"));
try { ${code} } finally { T.resetCapabilitiesCache(); T.setImageTranscoder(undefined); }`;
}

function renderCases(): TuiCase[] {
  const out: TuiCase[] = [];
  for (const [capLabel, caps] of Object.entries(CAPS)) {
    for (const [label, [data, mime]] of Object.entries(IMAGES)) {
      for (const width of WIDTHS) {
        out.push({
          name: `render/${capLabel}/${label}/w${width}`,
          body: withCaps(
            caps,
            `const image = new T.Image(${data}, ${JSON.stringify(mime)}, ${THEME});
            const lines = image.render(${width});
            return { lines: ids(lines), count: lines.length, id: image.getImageId() === undefined ? null : "set" };`,
          ),
        });
      }
    }
  }
  return out;
}

function optionCases(): TuiCase[] {
  const out: TuiCase[] = [];
  const options: Record<string, string> = {
    "max-width": "{ maxWidthCells: 10 }",
    "max-height": "{ maxHeightCells: 2 }",
    "both": "{ maxWidthCells: 100, maxHeightCells: 50 }",
    "filename": "{ filename: '/nonexistent-home/shots/a.png' }",
    "relative-filename": "{ filename: 'a b.png' }",
    "image-id": "{ imageId: 4242 }",
  };
  for (const [capLabel, caps] of Object.entries(CAPS)) {
    for (const [label, option] of Object.entries(options)) {
      out.push({
        name: `options/${capLabel}/${label}`,
        body: withCaps(
          caps,
          `const image = new T.Image(png(8, 8), "image/png", ${THEME}, ${option});
          const id = image.getImageId();
          return [20, 80].map((w) => ids(image.render(w))).concat([[id === 4242 ? "4242" : typeof id]]);`,
        ),
      });
    }
  }
  out.push({
    name: "options/explicit-dimensions",
    body: withCaps(
      CAPS.iterm2,
      `const image = new T.Image(png(2, 2), "image/png", ${THEME}, {}, { widthPx: 100, heightPx: 400 });
      return image.render(80);`,
    ),
  });
  out.push({
    name: "options/fallback-hyperlink",
    body: withCaps(
      "{ images: null, trueColor: true, hyperlinks: true }",
      `return [40, 200].map((w) => new T.Image(jpeg(30, 20), "image/jpeg", ${THEME},
        { filename: "/nonexistent-home/p q.jpg" }).render(w));`,
    ),
  });
  out.push({
    name: "transcoder/kitty-jpeg",
    body: withCaps(
      CAPS.kitty,
      `let calls = 0;
      T.setImageTranscoder((data, mime) => { calls++; return mime === "image/jpeg" ? png(3, 9) : null; });
      const image = new T.Image(jpeg(300, 100), "image/jpeg", ${THEME}, { imageId: 7 });
      const first = image.render(80); image.invalidate(); const second = image.render(80);
      const again = new T.Image(jpeg(300, 100), "image/jpeg", ${THEME}, { imageId: 8 }).render(80);
      const gifLines = new T.Image(gif(10, 10), "image/gif", ${THEME}).render(80);
      return { first, same: first.join() === second.join(), again, gif: ids(gifLines), calls };`,
    ),
  });
  out.push({
    name: "transcoder/failure-retried",
    body: withCaps(
      CAPS.kitty,
      `const image = new T.Image(webpExtended(40, 20), "image/webp", ${THEME}, { imageId: 3 });
      const before = image.render(30);
      T.setImageTranscoder(() => png(4, 2));
      image.invalidate();
      return [before, image.render(30)];`,
    ),
  });
  out.push({
    name: "cache/same-width-same-array",
    body: withCaps(
      CAPS.iterm2,
      `const image = new T.Image(png(5, 5), "image/png", ${THEME});
      const a = image.render(40); const b = image.render(40); const c = image.render(41);
      image.invalidate(); const d = image.render(41);
      return [a === b, a === c, c === d, c.join() === d.join()];`,
    ),
  });
  out.push({
    name: "cache/cell-dimensions",
    body: withCaps(
      CAPS.kitty,
      `T.setCellDimensions({ widthPx: 8, heightPx: 8 });
      try { return ids(new T.Image(png(4, 4), "image/png", ${THEME}).render(30)); }
      finally { T.setCellDimensions({ widthPx: 9, heightPx: 18 }); }`,
    ),
  });
  return out;
}

// Two suites keep each side's JSON answer small (the Node runner's output is cut past 64 KiB).
Deno.test("Image renders as pi-tui 1.6.0 does at widths 1, 20, 80, 200 with and without image protocols", async () => {
  await compareWithPiTui("image", renderCases());
});

Deno.test("Image options, transcoder and cache behave as in pi-tui 1.6.0", async () => {
  await compareWithPiTui("image_options", optionCases());
});

Deno.test("an iTerm2 image reserves its rows above the line that draws it", () => {
  setCapabilities({ images: "iterm2", trueColor: true, hyperlinks: false });
  try {
    // 1x1 PNG header: 9x18 cells make a square image 2 rows tall at 4 columns.
    const png =
      "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAAAAAA6fptVAAAADUlEQVR4AQECAP3/AAAAAgABfgUN0gAAAABJRU5ErkJggg==";
    const lines = new Image(png, "image/png", { fallbackColor: (s) => s }, { maxWidthCells: 4 }).render(80);
    assertEquals(lines.length, 2);
    assertEquals(lines[0], "");
    assertEquals(lines[1].startsWith("\x1b[1A\x1b]1337;File=inline=1;size=70;width=4;height=auto:"), true);
  } finally {
    resetCapabilitiesCache();
  }
});
