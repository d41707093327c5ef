/**
 * Theme files (RES-08, RES-10): validation with pi 1.6.0's error texts (captured from its
 * `validateThemeJson`), discovery from the agent dir, a trusted project, settings, packages and
 * `--theme`, name collisions, and the `theme` setting's `light/dark` form.
 */
import { assert, assertEquals, assertThrows } from "../support/assert.ts";
import { join } from "../../src/util/path.ts";
import DARK from "../../src/resources/themes/dark.json" with { type: "json" };
import LIGHT from "../../src/resources/themes/light.json" with { type: "json" };
import { parseThemeJsonText, validateThemeJson } from "../../src/resources/themes/theme_schema.ts";
import { loadThemeFiles } from "../../src/resources/themes/theme_files.ts";
import {
  colorFgBgAppearance,
  parseAutoThemeSetting,
  resolveThemeSetting,
} from "../../src/resources/themes/theme_setting.ts";
import { REQUIRED_THEME_TOKENS, THEME_TOKENS } from "../../src/resources/themes/theme_tokens.ts";

function errorOf(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error("expected an error");
}

const theme = (name: string, extra: Record<string, unknown> = {}) => ({ ...DARK, name, ...extra });

Deno.test("RES-08 built-in themes: dark and light are valid and state every token of the schema", () => {
  assertEquals(validateThemeJson("dark", DARK).name, "dark");
  assertEquals(validateThemeJson("light", LIGHT).name, "light");
  const tokens = Object.keys(THEME_TOKENS).sort();
  assertEquals(Object.keys(DARK.colors).sort(), tokens);
  assertEquals(Object.keys(LIGHT.colors).sort(), tokens);
  assertEquals(REQUIRED_THEME_TOKENS.length, 51);
  // Two of 1.6.0's values, as its light.json states them.
  assertEquals(LIGHT.vars.text, "okhsl(225 5% 27%)");
  assertEquals(LIGHT.export.pageBg, "okhsl(17 3% 94%)");
});

Deno.test("RES-08 validation: missing colour tokens are listed by name, sorted (1.6.0's text)", () => {
  const colors = { ...DARK.colors } as Record<string, unknown>;
  delete colors.warning;
  delete colors.bashMode;
  delete colors.thinkingMax; // optional: not listed
  assertEquals(
    errorOf(() => validateThemeJson("mine", { name: "mine", colors })),
    'Invalid theme "mine":\n\nMissing required color tokens:\n  - bashMode\n  - warning\n\n' +
      'Please add these colors to your theme\'s "colors" object.\n' +
      "See the built-in themes (dark.json, light.json) for reference values.",
  );
});

Deno.test("RES-08 validation: other errors name the JSON pointer (1.6.0's texts)", () => {
  const cases: [unknown, string[]][] = [
    [5, ["/: must be object"]],
    [{ colors: DARK.colors }, ["/: must have required properties name"]],
    [{ name: 5, colors: DARK.colors }, ["/name: must be string"]],
    [theme(""), ['/name: must match pattern "^[^/]+$"']],
    [theme("x", { extra: 1 }), ["/extra: schema is false", "/: must not have additional properties"]],
    [
      theme("x", { colors: { ...DARK.colors, foo: "#fff" } }),
      ["/colors/foo: schema is false", "/colors: must not have additional properties"],
    ],
    [
      theme("x", { colors: { ...DARK.colors, accent: true, border: 300 } }),
      [
        "/colors/accent: must be string",
        "/colors/accent: must be integer",
        "/colors/accent: must match a schema in anyOf",
        "/colors/border: must be string",
        "/colors/border: must be <= 255",
        "/colors/border: must match a schema in anyOf",
      ],
    ],
    [
      theme("x", { appearance: "grey" }),
      [
        "/appearance: must be equal to constant",
        "/appearance: must be equal to constant",
        "/appearance: must match a schema in anyOf",
      ],
    ],
    [
      theme("x", { vars: { a: true } }),
      ["/vars/a: must be string", "/vars/a: must be integer", "/vars/a: must match a schema in anyOf"],
    ],
    [
      theme("x", { export: { pageBg: true, other: "#fff" } }),
      [
        "/export/other: schema is false",
        "/export: must not have additional properties",
        "/export/pageBg: must be string",
        "/export/pageBg: must be integer",
        "/export/pageBg: must match a schema in anyOf",
      ],
    ],
  ];
  for (const [json, lines] of cases) {
    assertEquals(
      errorOf(() => validateThemeJson("L", json)),
      `Invalid theme "L":\n\n\nOther errors:\n${lines.map((l) => `  - ${l}`).join("\n")}`,
    );
  }
});

Deno.test("RES-08 validation: a name with '/' has its own message; 256-colour indices and '' are colours", () => {
  assertEquals(
    errorOf(() => validateThemeJson("L", theme("a/b"))),
    'Invalid theme name "a/b": theme names cannot contain "/" because it is reserved for automatic light/dark theme settings.',
  );
  const ok = validateThemeJson("L", theme("ok", { vars: { a: 0, b: 255, c: "" } }));
  assertEquals(ok.vars, { a: 0, b: 255, c: "" });
});

Deno.test("RES-08 a theme file that is not JSON: line and column, the file never quoted", () => {
  assertEquals(
    errorOf(() => parseThemeJsonText("/t/bad.json", '{\n  "name": "x",\n  oops\n}')),
    "Failed to parse theme /t/bad.json: line 3, column 3: Expected double-quoted property name",
  );
  // A BOM is skipped.
  assertEquals(parseThemeJsonText("x", `\ufeff${JSON.stringify(theme("bom"))}`).name, "bom");
});

Deno.test("RES-08 the theme setting: a name, or light/dark chosen by the terminal; COLORFGBG", () => {
  assertEquals(parseAutoThemeSetting("light/dark"), { lightTheme: "light", darkTheme: "dark" });
  assertEquals(parseAutoThemeSetting(" a / b "), { lightTheme: "a", darkTheme: "b" });
  assertEquals(parseAutoThemeSetting("a/b/c"), undefined);
  assertEquals(parseAutoThemeSetting("a/"), undefined);
  assertEquals(resolveThemeSetting("sol/night", "light"), "sol");
  assertEquals(resolveThemeSetting("sol/night", "dark"), "night");
  assertEquals(resolveThemeSetting("light", "dark"), "light");
  assertEquals(resolveThemeSetting("a/b/c", "dark"), undefined);
  assertEquals(resolveThemeSetting(undefined, "dark"), undefined);
  assertEquals(colorFgBgAppearance("15;0"), "dark");
  assertEquals(colorFgBgAppearance("0;15"), "light");
  assertEquals(colorFgBgAppearance("0;default;8"), "dark");
  assertEquals(colorFgBgAppearance("0;7"), "light");
  assertEquals(colorFgBgAppearance("0;default"), undefined);
  assertEquals(colorFgBgAppearance(undefined), undefined);
});

async function themeDirs() {
  const root = await Deno.makeTempDir({ prefix: "pi_themes_" });
  const agentDir = join(root, "agent");
  const cwd = join(root, "project");
  await Deno.mkdir(join(agentDir, "themes"), { recursive: true });
  await Deno.mkdir(join(cwd, ".pi", "themes"), { recursive: true });
  const write = (path: string, json: unknown) =>
    Deno.writeTextFile(path, typeof json === "string" ? json : JSON.stringify(json));
  return { root, agentDir, cwd, write, cleanup: () => Deno.remove(root, { recursive: true }) };
}

Deno.test("RES-08 discovery: agent dir, trusted project first, settings paths, packages, --theme; collisions", async () => {
  const d = await themeDirs();
  try {
    await d.write(join(d.agentDir, "themes", "ocean.json"), theme("ocean"));
    await d.write(join(d.agentDir, "themes", "notes.txt"), "not a theme");
    await d.write(join(d.cwd, ".pi", "themes", "ocean.json"), theme("ocean"));
    await d.write(join(d.cwd, ".pi", "themes", "forest.json"), theme("forest"));
    await Deno.mkdir(join(d.agentDir, "extra"));
    await d.write(join(d.agentDir, "extra", "sun.json"), theme("sun"));
    await d.write(join(d.root, "pkg-theme.json"), theme("pkg"));
    await d.write(join(d.root, "cli.json"), theme("cli"));
    const trusted = loadThemeFiles({
      cwd: d.cwd,
      agentDir: d.agentDir,
      projectTrusted: true,
      globalSettingsPaths: ["extra", "missing.json"],
      packagePaths: [join(d.root, "pkg-theme.json")],
      cliPaths: ["../cli.json"],
    });
    assertEquals(trusted.themes.map((t) => t.json.name), ["forest", "ocean", "sun", "pkg", "cli"]);
    assertEquals(trusted.themes[1].path, join(d.cwd, ".pi", "themes", "ocean.json"));
    assertEquals(trusted.diagnostics, [
      { type: "warning", message: "theme path does not exist", path: join(d.agentDir, "missing.json") },
      {
        type: "collision",
        message: 'name "ocean" collision',
        path: join(d.agentDir, "themes", "ocean.json"),
        collision: {
          name: "ocean",
          winnerPath: join(d.cwd, ".pi", "themes", "ocean.json"),
          loserPath: join(d.agentDir, "themes", "ocean.json"),
        },
      },
    ]);
    // Untrusted: the project's themes are not read.
    const untrusted = loadThemeFiles({ cwd: d.cwd, agentDir: d.agentDir, projectTrusted: false });
    assertEquals(untrusted.themes.map((t) => t.json.name), ["ocean"]);
    assertEquals(untrusted.diagnostics, []);
    // --no-themes: only --theme paths.
    const none = loadThemeFiles({
      cwd: d.cwd,
      agentDir: d.agentDir,
      projectTrusted: true,
      cliPaths: ["../cli.json", "../nope.json"],
      noThemes: true,
    });
    assertEquals(none.themes.map((t) => t.json.name), ["cli"]);
    assertEquals(none.diagnostics, [
      { type: "warning", message: "theme path does not exist", path: join(d.root, "nope.json") },
    ]);
  } finally {
    await d.cleanup();
  }
});

Deno.test("RES-08 discovery: a broken theme file is a warning naming it and the rest still load", async () => {
  const d = await themeDirs();
  try {
    await d.write(join(d.agentDir, "themes", "broken.json"), { name: "broken", colors: {} });
    await d.write(join(d.agentDir, "themes", "good.json"), theme("good"));
    await d.write(join(d.root, "t.txt"), "x");
    const result = loadThemeFiles({
      cwd: d.cwd,
      agentDir: d.agentDir,
      projectTrusted: false,
      cliPaths: ["../t.txt"],
    });
    assertEquals(result.themes.map((t) => t.json.name), ["good"]);
    assertEquals(result.diagnostics.length, 2);
    assertEquals(result.diagnostics[1].path, join(d.agentDir, "themes", "broken.json"));
    assert(
      result.diagnostics[1].message.startsWith('Invalid theme "' + join(d.agentDir, "themes", "broken.json")),
    );
    assert(result.diagnostics[1].message.includes("Missing required color tokens:\n  - accent\n"));
    assertEquals(result.diagnostics[0], {
      type: "warning",
      message: "theme path is not a json file",
      path: join(d.root, "t.txt"),
    });
  } finally {
    await d.cleanup();
  }
  assertThrows(() => validateThemeJson("x", null));
});
