/** keybindings.json with 1.6.0's ids and key syntax, compared with 1.6.0's KeybindingsManager captures. */
import { assertEquals } from "../support/assert.ts";
import { isKeybindingValue, KEYBINDING_IDS, parseKeybindings } from "../../src/config/keybindings.ts";

const reference = JSON.parse(
  Deno.readTextFileSync(new URL("../fixtures/config/settings_reference.json", import.meta.url)),
).keybindings;

Deno.test("KEYS-01 the binding ids are 1.6.0's (app.message.copy, app.thinking.save, tui.altScreen.*, history)", () => {
  assertEquals([...KEYBINDING_IDS].sort(), reference.schemaIds);
});

Deno.test("KEYS-01 user bindings: legacy names renamed, unknown ids kept, invalid values dropped (1.6.0 cases)", () => {
  for (const c of reference.cases as { input: Record<string, unknown>; user: Record<string, unknown> }[]) {
    assertEquals(parseKeybindings(JSON.stringify(c.input), "/a/keybindings.json").bindings, c.user);
  }
});

Deno.test("KEYS-01 what is dropped is named, with the file (1.6.0 drops it silently)", () => {
  assertEquals(
    parseKeybindings('{"app.exit": 5, "cursorUp": "up", "tui.editor.cursorUp": "k"}', "/a/k.json"),
    {
      bindings: { "tui.editor.cursorUp": "k" },
      warnings: [
        'Ignoring "app.exit" in keybindings.json (/a/k.json): expected a key such as "ctrl+x" or a list of keys',
      ],
    },
  );
  assertEquals(parseKeybindings('{"app.exit": "ctrl+d",', "/a/k.json").warnings, [
    "Ignoring keybindings.json (/a/k.json): line 1, column 23: Expected double-quoted property name",
  ]);
  assertEquals(
    [
      "ctrl+shift+c",
      "ctrl+ctrl+c",
      "super+alt+shift+ctrl+x",
      "pageUp",
      "Ctrl+c",
      "ctrl+",
      ["up", "ctrl+p"],
      [],
    ].map(
      isKeybindingValue,
    ),
    [true, false, true, true, false, false, true, true],
  );
});
