/**
 * SES/HTML export colours: the page's `:root` block (every theme colour as a CSS variable and the
 * page, card and info backgrounds) equals pi 1.6.0's for the same theme — built-in dark and light,
 * a custom theme with an `export` section (variables, palette numbers, oklch kept as written) and
 * one without (backgrounds derived from a `""` user-message background, appearance guessed from
 * the colours) — and without a theme (or with `system`) it is 1.6.0's default palette, the page
 * unchanged. Expected blocks: tests/fixtures/export/themes/capture_themes.mjs.
 */
import { join } from "node:path";
import { assert, assertEquals, assertRejects } from "../../support/assert.ts";
import {
  exportSessionFileToHtml,
  exportSessionToHtml,
  renderSessionHtml,
  type SessionExportData,
} from "../../../src/core/export/export_html.ts";
import { findExportTheme, firstExportTheme } from "../../../src/core/export/export_theme_lookup.ts";
import { readThemeFile } from "../../../src/resources/themes/theme_files.ts";
import type { ThemeJson } from "../../../src/resources/themes/theme_schema.ts";
import DARK from "../../../src/resources/themes/dark.json" with { type: "json" };
import LIGHT from "../../../src/resources/themes/light.json" with { type: "json" };
import { SessionManager } from "../../../src/session/session_manager.ts";

const HERE = new URL("../../fixtures/export/themes/", import.meta.url).pathname;
const RICH = new URL("../../fixtures/export/rich.jsonl", import.meta.url).pathname;
const EXPECTED: Record<string, string> = JSON.parse(
  Deno.readTextFileSync(join(HERE, "themes.expected.json")),
);

const THEMES: Record<string, ThemeJson | undefined> = {
  "(none)": undefined,
  system: { name: "system", colors: {} },
  dark: DARK as ThemeJson,
  light: LIGHT as ThemeJson,
  mint: readThemeFile(join(HERE, "mint.json")),
  paper: readThemeFile(join(HERE, "paper.json")),
};

/** The page's `:root` block, as the capture script cuts it. */
function rootBlock(html: string): string {
  const match = /\n( *):root \{\n[\s\S]*?\n\1\}/.exec(html);
  if (!match) throw new Error("no :root block in the page");
  return match[0].slice(1);
}

const DATA: SessionExportData = { header: null, entries: [], leafId: null };

for (const [name, theme] of Object.entries(THEMES)) {
  Deno.test(`SES/HTML export colours: theme ${name} gives 1.6.0's :root variables and backgrounds`, () => {
    assert(EXPECTED[name], `no capture for ${name}`);
    assertEquals(rootBlock(renderSessionHtml(DATA, theme)), EXPECTED[name]);
  });
}

Deno.test("SES/HTML export colours: the file export with a theme colours the page; none and system are the default page byte for byte", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const pages: Record<string, string> = {};
    for (const name of ["(none)", "system", "mint"]) {
      const out = join(dir, `${name}.html`);
      assertEquals(exportSessionFileToHtml(RICH, { outputPath: out, theme: THEMES[name] }).path, out);
      pages[name] = Deno.readTextFileSync(out);
    }
    assertEquals(pages.system, pages["(none)"]);
    assertEquals(rootBlock(pages.mint), EXPECTED.mint);
    // Only the :root block differs.
    assertEquals(pages.mint.replace(EXPECTED.mint, ""), pages["(none)"].replace(EXPECTED["(none)"], ""));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("SES/HTML export colours: the live export takes the theme; a theme that cannot be resolved fails and writes nothing", async () => {
  const dir = await Deno.makeTempDir();
  try {
    Deno.writeTextFileSync(join(dir, "s.jsonl"), Deno.readTextFileSync(RICH));
    const live = SessionManager.open(join(dir, "s.jsonl"));
    const out = join(dir, "light.html");
    assertEquals(await exportSessionToHtml(live, undefined, { outputPath: out, theme: THEMES.light }), out);
    assertEquals(rootBlock(Deno.readTextFileSync(out)), EXPECTED.light);

    const broken: ThemeJson = {
      ...(DARK as ThemeJson),
      name: "broken",
      colors: { ...DARK.colors, accent: "nope" },
    };
    const bad = join(dir, "broken.html");
    await assertRejects(
      () => exportSessionToHtml(live, undefined, { outputPath: bad, theme: broken }),
      "Variable reference not found: nope",
    );
    assertEquals([...Deno.readDirSync(dir)].map((e) => e.name).sort(), ["light.html", "s.jsonl"]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("SES/HTML export colours: a theme by name (RPC, SDK) is a built-in or a loadable <agent dir>/themes/<name>.json; others are passed over", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.mkdir(join(dir, "themes"));
    await Deno.copyFile(join(HERE, "mint.json"), join(dir, "themes", "mint.json"));
    await Deno.writeTextFile(join(dir, "themes", "torn.json"), '{"name": "torn", "colors": {');
    const badColour = { ...(DARK as ThemeJson), name: "bad", colors: { ...DARK.colors, error: "#12" } };
    await Deno.writeTextFile(join(dir, "themes", "bad.json"), JSON.stringify(badColour));
    assertEquals(findExportTheme("light", dir), LIGHT as ThemeJson);
    assertEquals(findExportTheme("mint", dir)?.name, "mint");
    assertEquals(findExportTheme("system", dir), { name: "system", colors: {} });
    for (const name of [undefined, "", "torn", "bad", "nosuch"]) {
      assertEquals(findExportTheme(name, dir), undefined);
    }
    assertEquals(firstExportTheme(["torn", "nosuch", "mint", "light"], dir)?.name, "mint");
    assertEquals(firstExportTheme([undefined, "bad"], dir), undefined);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
