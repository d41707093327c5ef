/**
 * The native platform helpers under Deno: pi-tui's `.node` addon cannot be loaded, so the clipboard
 * helper is unavailable everywhere (pi-tui's answer when its addon is missing) and no modifier key
 * reads as pressed. docs/differences.md says so.
 */
import { assertEquals } from "../support/assert.ts";
import { getNativeClipboard, getNativePlatformHelper } from "../../src/tui/native_platform.ts";
import { isNativeModifierPressed } from "../../src/tui/native_modifiers.ts";

Deno.test("no native clipboard or platform helper is available, whatever DISPLAY says", () => {
  const display = Deno.env.get("DISPLAY");
  try {
    Deno.env.set("DISPLAY", ":0");
    assertEquals(getNativeClipboard(), undefined);
    Deno.env.delete("DISPLAY");
    assertEquals(getNativeClipboard(), undefined);
    assertEquals(getNativePlatformHelper(), undefined);
  } finally {
    if (display === undefined) Deno.env.delete("DISPLAY");
    else Deno.env.set("DISPLAY", display);
  }
});

Deno.test("no modifier key reads as pressed without a native helper", () => {
  for (const key of ["shift", "command", "control", "option"] as const) {
    assertEquals(isNativeModifierPressed(key), false);
  }
});
