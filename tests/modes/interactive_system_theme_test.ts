/**
 * The `system` theme in the interactive mode (pi 1.6.0's default): grayscale while the terminal's
 * colour query is out, then the colours 1.6.0 generates for the reported foreground/background
 * (tests/fixtures/themes/system_theme.expected.json), the redraw when they arrive, a timed-out
 * query, `light/dark` pairs following the reported background, light/dark reports asking again,
 * faint tokens when nothing was reported, and `system` first in the offered themes.
 */
import { assertEquals, assertNotEquals } from "../support/assert.ts";
import { loadTheme, Theme } from "../../src/modes/interactive/theme.ts";
import { ThemeController } from "../../src/modes/interactive/theme_controller.ts";
import type { TerminalColorSource } from "../../src/modes/interactive/theme_terminal.ts";
import type { TerminalColors, TerminalColorScheme } from "../../src/tui/terminal_colors.ts";
import { ThemeSubmenu } from "../../src/modes/interactive/theme_submenu.ts";
import { stripTerminalSequences } from "../../src/tui/utils_ansi.ts";

interface Case {
  name: string;
  input: TerminalColors;
  output: { colors: Record<string, string | number>; dim: string[]; appearance: string };
}
const cases: Case[] = JSON.parse(
  Deno.readTextFileSync(new URL("../fixtures/themes/system_theme.expected.json", import.meta.url)),
);
const mocha = cases.find((c) => c.name === "mocha fg/bg")!;
const light = cases.find((c) => c.name === "light")!;

/** A terminal that answers each colour query with the next of `answers` (undefined: times out with nothing). */
class FakeTerminal implements TerminalColorSource {
  queries = 0;
  notifications: boolean[] = [];
  #listener?: (scheme: TerminalColorScheme) => void;
  #resolve?: (colors: TerminalColors) => void;
  /** The query's late-reply callback (replies after the timeout). */
  late?: (colors: TerminalColors) => void;
  queryTerminalColors(options: { onLateReply?: (colors: TerminalColors) => void }): Promise<TerminalColors> {
    this.queries++;
    this.late = options.onLateReply;
    return new Promise((resolve) => this.#resolve = resolve);
  }
  answer(colors: TerminalColors): Promise<void> {
    this.#resolve?.(colors);
    return Promise.resolve().then(() => {});
  }
  setTerminalColorSchemeNotifications(enabled: boolean): void {
    this.notifications.push(enabled);
  }
  onTerminalColorSchemeChange(listener: (scheme: TerminalColorScheme) => void): () => void {
    this.#listener = listener;
    return () => this.#listener = undefined;
  }
  report(scheme: TerminalColorScheme): void {
    this.#listener?.(scheme);
  }
}

/** The escape sequence a generated colour value draws with in truecolor. */
const fgOf = (value: string | number, mode: "truecolor" | "256color" = "truecolor") =>
  new Theme({ name: "x", colors: { accent: value } }, mode).ansi("accent");

Deno.test("THEME-SYSTEM no setting: grayscale while the query is out, then 1.6.0's colours for the reported fg/bg", async () => {
  const controller = new ThemeController(loadTheme(undefined, "truecolor"), {
    colorFgBg: "",
    awaitTerminalColors: true,
  });
  assertEquals(controller.applySetting(undefined, false), { success: true });
  assertEquals(controller.activeName, "system");
  // Pending: nothing reported, no saturation — every token is the terminal's default, neutral ones faint.
  assertEquals(controller.theme.fg("accent", "a"), "\x1b[39ma\x1b[39m");
  assertEquals(controller.theme.fg("muted", "m"), "\x1b[39m\x1b[2mm\x1b[22;39m");
  assertEquals(controller.theme.bg("userMessageBg", "u"), "\x1b[49mu\x1b[49m");
  const terminal = new FakeTerminal();
  let redraws = 0;
  controller.onChange = () => redraws++;
  controller.queryTerminalColors(terminal);
  assertEquals([terminal.queries, terminal.notifications], [1, [true]]);
  const before = controller.theme.version;
  await terminal.answer(mocha.input);
  await controller.waitForTerminalColors();
  assertEquals(controller.theme.version > before, true);
  assertEquals(redraws >= 2, true);
  const expected = mocha.output.colors;
  for (
    const token of ["accent", "muted", "dim", "border", "mdHeading", "syntaxString", "thinkingHigh"] as const
  ) {
    assertEquals(controller.theme.ansi(token), fgOf(expected[token]), token);
  }
  assertEquals(expected.text, "");
  assertEquals(controller.theme.fg("text", "t"), "\x1b[39mt\x1b[39m");
  assertEquals(
    controller.theme.bg("userMessageBg", "u"),
    new Theme({ name: "x", colors: { userMessageBg: expected.userMessageBg } }, "truecolor").bg(
      "userMessageBg",
      "u",
    ),
  );
  assertEquals(controller.appearance, "dark");
  assertEquals(controller.theme.appearance, "dark");
  // The same answer again (a light/dark report re-queries) changes nothing.
  const settled = controller.theme.version;
  controller.applyTerminalColors(mocha.input);
  assertEquals(controller.theme.version, settled);
});

Deno.test("THEME-SYSTEM a terminal that answers nothing: palette indices after the timeout, faint neutrals; a late answer still applies", async () => {
  const controller = new ThemeController(loadTheme(undefined, "256color"), {
    colorFgBg: "",
    awaitTerminalColors: true,
  });
  controller.applySetting("system", false);
  const terminal = new FakeTerminal();
  controller.queryTerminalColors(terminal);
  assertEquals(controller.theme.ansi("accent"), "\x1b[39m");
  await terminal.answer({});
  // 1.6.0: accent is palette colour 5, errors 1, success 2; muted the default colour, faint.
  assertEquals(controller.theme.fg("accent", "a"), "\x1b[38;5;5ma\x1b[39m");
  assertEquals(controller.theme.fg("error", "e"), "\x1b[38;5;1me\x1b[39m");
  assertEquals(controller.theme.fg("success", "s"), "\x1b[38;5;2ms\x1b[39m");
  assertEquals(controller.theme.fg("muted", "m"), "\x1b[39m\x1b[2mm\x1b[22;39m");
  assertEquals(controller.theme.fg("text", "t"), "\x1b[39mt\x1b[39m");
  // The answer arrives after the timeout (a slow link): the colours still apply.
  terminal.late?.(mocha.input);
  assertEquals(controller.theme.ansi("accent"), fgOf(mocha.output.colors.accent, "256color"));
});

Deno.test("THEME-SYSTEM a light background: light appearance, a light/dark pair picks its light half", async () => {
  const controller = new ThemeController(loadTheme(undefined, "truecolor"), {
    colorFgBg: "",
    awaitTerminalColors: true,
  });
  controller.applySetting("light/dark", false);
  assertEquals(controller.activeName, "dark");
  const terminal = new FakeTerminal();
  controller.queryTerminalColors(terminal);
  await terminal.answer(light.input);
  assertEquals([controller.appearance, controller.activeName], ["light", "light"]);
  // With the system theme: the light colours 1.6.0 generates.
  controller.applySetting("system", false);
  assertEquals(controller.theme.ansi("accent"), fgOf(light.output.colors.accent));
  assertEquals(controller.theme.appearance, "light");
  // A light/dark report asks for the colours again.
  terminal.report("dark");
  assertEquals(terminal.queries, 2);
});

Deno.test("THEME-SYSTEM a broken theme falls back to the system theme; system is offered first with 1.6.0's description", () => {
  const controller = new ThemeController(loadTheme("dark", "truecolor"), { colorFgBg: "" });
  const result = controller.applySetting("nope", false);
  assertEquals([result.success, controller.activeName], [false, "system"]);
  assertEquals(controller.availableThemes(), ["system", "dark", "light"]);
  const theme = loadTheme("dark", "truecolor");
  const menu = new ThemeSubmenu(theme, {
    current: "system",
    available: controller.availableThemes(),
    appearance: "dark",
    preview: () => {},
  }, () => {});
  const lines = menu.render(100).map((line) => stripTerminalSequences(line).trimEnd());
  const rows = lines.filter((line) => /^\s*(→\s*)?(✓ | {2})?(system|automatic|dark|light)\b/.test(line));
  assertEquals(rows.map((line) => line.replace(/^\s*(→\s*)?/, "").trim().split(/\s{2,}/)[0]), [
    "✓ system",
    "automatic",
    "dark",
    "light",
  ]);
  assertEquals(lines.some((line) => line.includes("Theme created from your terminal's colors")), true);
  assertNotEquals(controller.theme.ansi("accent"), loadTheme("dark", "truecolor").ansi("accent"));
});
