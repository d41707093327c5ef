/**
 * The interactive theme (RES-08): resolving a theme's colours (variables, the optional tokens'
 * fallbacks, `""` and 256-colour indices), switching themes in place, the controller's choice from
 * the `theme` setting, its errors, and the hot reload of the active file in `<agent dir>/themes`.
 */
import { assert, assertEquals, assertThrows } from "../support/assert.ts";
import { join } from "../../src/util/path.ts";
import DARK from "../../src/resources/themes/dark.json" with { type: "json" };
import {
  DARK_THEME,
  LIGHT_THEME,
  loadTheme,
  Theme,
  type ThemeData,
} from "../../src/modes/interactive/theme.ts";
import { ThemeController } from "../../src/modes/interactive/theme_controller.ts";
import { formatThemeDiagnostics } from "../../src/modes/interactive/theme_setup.ts";
import {
  extensionTheme,
  extensionThemeByName,
  setExtensionTheme,
} from "../../src/modes/interactive/extension_theme.ts";
import { SettingsManager } from "../../src/config/settings_manager.ts";

const custom = (name: string, colors: Record<string, string | number> = {}, vars = {}): ThemeData =>
  ({ ...DARK, name, vars: { ...DARK.vars, ...vars }, colors: { ...DARK.colors, ...colors } }) as ThemeData;

Deno.test("RES-08 theme colours: hex, 256-colour index, variable chains, terminal default", () => {
  const t = new Theme(
    custom("t", { accent: "#ff0000", error: 196, warning: "alias", text: "" }, {
      alias: "red2",
      red2: "#00ff00",
    }),
    "truecolor",
  );
  assertEquals(t.fg("accent", "x"), "\x1b[38;2;255;0;0mx\x1b[39m");
  assertEquals(t.fg("error", "x"), "\x1b[38;5;196mx\x1b[39m");
  assertEquals(t.fg("warning", "x"), "\x1b[38;2;0;255;0mx\x1b[39m");
  assertEquals(t.fg("text", "x"), "\x1b[39mx\x1b[39m");
  assertEquals(
    new Theme(custom("t", { selectedBg: "" }), "truecolor").bg("selectedBg", "x"),
    "\x1b[49mx\x1b[49m",
  );
});

Deno.test("RES-08 optional tokens take their fallback's colour when a theme leaves them out", () => {
  const colors = { ...DARK.colors } as Record<string, string>;
  for (
    const token of ["scrollbarTrack", "scrollbarThumb", "searchMatchBg", "searchMatchText", "thinkingMax"]
  ) {
    delete colors[token];
  }
  const t = new Theme({ ...DARK, name: "partial", colors } as ThemeData, "256color");
  const dark = new Theme(DARK_THEME, "256color");
  assertEquals(t.fg("scrollbarTrack", "x"), dark.fg("muted", "x"));
  assertEquals(t.fg("scrollbarThumb", "x"), dark.fg("text", "x"));
  assertEquals(t.bg("searchMatchBg", "x"), dark.bg("selectedBg", "x"));
  assertEquals(t.fg("searchMatchText", "x"), dark.fg("text", "x"));
  assertEquals(t.fg("thinkingMax", "x"), dark.fg("thinkingXhigh", "x"));
});

Deno.test("RES-08 bad references: 1.6.0's errors for a missing or circular variable", () => {
  assertThrows(
    () => new Theme(custom("t", { accent: "nope" }), "truecolor"),
    "Variable reference not found: nope",
  );
  assertThrows(
    () => new Theme(custom("t", { accent: "a" }, { a: "b", b: "a" }), "truecolor"),
    "Circular variable reference detected: a",
  );
  assertThrows(() => new Theme(custom("t", { accent: "okhsl(nonsense)" }), "truecolor"), "okhsl(nonsense)");
});

Deno.test("RES-08 switching in place: the same object draws in the new theme; a bad theme changes nothing", () => {
  const t = loadTheme("dark", "256color");
  const before = t.fg("text", "x");
  t.replace(LIGHT_THEME);
  assertEquals(t.name, "light");
  assertEquals(t.fg("text", "x"), new Theme(LIGHT_THEME, "256color").fg("text", "x"));
  assert(t.fg("text", "x") !== before);
  assertThrows(() => t.replace(custom("bad", { accent: "missing" })));
  assertEquals(t.name, "light");
});

Deno.test("RES-08 controller: setting, light/dark by COLORFGBG, unknown theme falls back to system", () => {
  const files = [{ json: custom("ocean", { accent: "#0000ff" }), path: "/themes/ocean.json" }];
  const light = new ThemeController(loadTheme("dark", "truecolor"), { files, colorFgBg: "0;15" });
  assertEquals(light.availableThemes(), ["system", "dark", "light", "ocean"]);
  assertEquals(light.applySetting("ocean/dark"), { success: true });
  assertEquals(light.activeName, "ocean");
  assertEquals(light.theme.fg("accent", "x"), "\x1b[38;2;0;0;255mx\x1b[39m");
  const dark = new ThemeController(loadTheme("dark", "truecolor"), { files });
  assertEquals(dark.applySetting("ocean/light"), { success: true });
  assertEquals(dark.activeName, "light");
  assertEquals(dark.applySetting(undefined), { success: true });
  assertEquals(dark.activeName, "system");
  assertEquals(dark.applySetting("dark"), { success: true });
  assertEquals(dark.setThemeName("nope"), { success: false, error: "Theme not found: nope" });
  assertEquals(dark.activeName, "system");
  assertEquals(dark.applySetting("dark"), { success: true });
  assertEquals(dark.themeByName("ocean")?.name, "ocean");
  assertEquals(dark.themeByName("nope"), undefined);
  let changes = 0;
  dark.onChange = () => changes++;
  dark.preview("light");
  assertEquals([dark.theme.name, dark.activeName, changes], ["light", "dark", 1]);
});

Deno.test("RES-08 diagnostics read as 1.6.0's [Theme conflicts] block", () => {
  assertEquals(
    formatThemeDiagnostics([
      { type: "warning", message: "theme path does not exist", path: "/x/missing.json" },
      {
        type: "collision",
        message: 'name "ocean" collision',
        path: "/b/ocean.json",
        collision: { name: "ocean", winnerPath: "/a/ocean.json", loserPath: "/b/ocean.json" },
      },
    ]),
    '[Theme conflicts]\n  "ocean" collision:\n    ✓ /a/ocean.json\n    ✗ /b/ocean.json (skipped)\n' +
      "  /x/missing.json\n    theme path does not exist",
  );
  assertEquals(formatThemeDiagnostics([]), undefined);
});

Deno.test("RES-08 hot reload: editing <agent dir>/themes/<active>.json redraws in the new colours", async () => {
  const agentDir = await Deno.makeTempDir({ prefix: "pi_theme_reload_" });
  const controller = new ThemeController(loadTheme("dark", "truecolor"), {
    files: [{ json: custom("mine", { accent: "#010203" }), path: join(agentDir, "themes", "mine.json") }],
    agentDir,
  });
  try {
    await Deno.mkdir(join(agentDir, "themes"));
    const path = join(agentDir, "themes", "mine.json");
    await Deno.writeTextFile(path, JSON.stringify(custom("mine", { accent: "#010203" })));
    assertEquals(controller.setThemeName("mine"), { success: true });
    let changed = 0;
    controller.onChange = () => changed++;
    // A half-written file is ignored; the last good colours stay.
    await Deno.writeTextFile(path, "{ broken");
    await new Promise((r) => setTimeout(r, 400));
    assertEquals(controller.theme.fg("accent", "x"), "\x1b[38;2;1;2;3mx\x1b[39m");
    await Deno.writeTextFile(path, JSON.stringify(custom("mine", { accent: "#0a0b0c" })));
    const deadline = Date.now() + 5_000;
    while (changed === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    assertEquals(controller.theme.fg("accent", "x"), "\x1b[38;2;10;11;12mx\x1b[39m");
  } finally {
    controller.dispose();
    await Deno.remove(agentDir, { recursive: true });
  }
});

Deno.test("RES-08 ctx.ui.setTheme: a name switches and is saved; a theme from getTheme is drawn unsaved; errors", () => {
  const settings = SettingsManager.inMemory({});
  const files = [{ json: custom("ocean", { accent: "#0000ff" }), path: "/themes/ocean.json" }];
  const themes = new ThemeController(loadTheme("dark", "truecolor"), { files });
  assertEquals(setExtensionTheme(themes, settings, "light"), { success: true });
  assertEquals([themes.activeName, settings.getTheme()], ["light", "light"]);
  const ocean = extensionThemeByName(themes, "ocean");
  assertEquals(ocean?.name, "ocean");
  assertEquals(setExtensionTheme(themes, settings, ocean), { success: true });
  assertEquals([themes.theme.name, settings.getTheme()], ["ocean", "light"]);
  assertEquals(extensionTheme(themes.theme).name, "ocean");
  assertEquals(setExtensionTheme(themes, settings, "nope"), {
    success: false,
    error: "Theme not found: nope",
  });
  assertEquals(settings.getTheme(), "light");
  assertEquals(setExtensionTheme(themes, settings, {}), {
    success: false,
    error: "Not a theme from ctx.ui.getTheme() or ctx.ui.theme",
  });
  assertEquals(extensionThemeByName(themes, "nope"), undefined);
});

Deno.test("RES-08 /reload: theme files are found again; a run's choice (--use-theme, menu, extension) is kept", () => {
  let files = [{ json: custom("ocean"), path: "/themes/ocean.json" }];
  const reloadFiles = () => ({ themes: files, diagnostics: [] });
  const saved = new ThemeController(loadTheme("dark", "truecolor"), { files, reloadFiles });
  assertEquals(saved.applySetting("ocean", false), { success: true });
  files = [{ json: custom("forest"), path: "/themes/forest.json" }];
  // The saved setting was edited to forest, a theme that appeared since the start.
  assertEquals(saved.reload("forest"), { success: true });
  assertEquals([saved.activeName, saved.availableThemes()], ["forest", [
    "system",
    "dark",
    "forest",
    "light",
  ]]);
  const chosen = new ThemeController(loadTheme("dark", "truecolor"), { files, reloadFiles });
  assertEquals(chosen.applySetting("light"), { success: true });
  assertEquals(chosen.reload("forest"), { success: true });
  assertEquals(chosen.activeName, "light");
  assertEquals(chosen.choose("forest"), { success: true });
  assertEquals(chosen.reload("dark"), { success: true });
  assertEquals(chosen.activeName, "forest");
});
