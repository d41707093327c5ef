/**
 * The `system` theme's generator against pi 1.6.0's own (captured by
 * tests/fixtures/themes/capture_system_theme.mjs): the same colours, faint tokens and appearance for
 * the same reported foreground, background and palette — dark, light, mid-gray, background only,
 * pending (grayscale) and nothing reported.
 */
import { assertEquals } from "../support/assert.ts";
import {
  generateSystemThemeColors,
  type SystemThemeInput,
  terminalAppearance,
} from "../../src/resources/themes/system_theme.ts";

interface Case {
  name: string;
  input: SystemThemeInput;
  output: unknown;
  appearance: "dark" | "light" | null;
}

const cases: Case[] = JSON.parse(
  Deno.readTextFileSync(new URL("../fixtures/themes/system_theme.expected.json", import.meta.url)),
);

Deno.test("THEME-SYSTEM: the fixture covers the three tiers", () => {
  assertEquals(cases.length >= 10, true);
  assertEquals(cases.some((c) => c.input.palette), true);
  assertEquals(cases.some((c) => !c.input.background), true);
});

for (const c of cases) {
  Deno.test(`THEME-SYSTEM: ${c.name} gives 1.6.0's colours`, () => {
    assertEquals(generateSystemThemeColors(c.input), c.output);
    if (c.input.background) {
      assertEquals(terminalAppearance(c.input.background, c.input.foreground), c.appearance);
    }
  });
}
