/**
 * The interactive mode's keybindings (keybindings_app.ts): 1.6.0's definitions resolved against a
 * keybindings.json, compared with 1.6.0's KeybindingsManager (tests/fixtures/keybindings/, captured by
 * capture_effective.mjs on Linux); the app's live keys, /hotkeys and reload.
 */
import { assertEquals, assertStringIncludes } from "../support/assert.ts";
import { KEYBINDING_IDS } from "../../src/config/keybindings.ts";
import {
  AppKeybindings,
  interactiveKeybindingDefinitions,
  useWindowsKeybindings,
} from "../../src/modes/interactive/keybindings_app.ts";
import { APP_KEYS, keyText, matchesAction } from "../../src/modes/interactive/app_keys.ts";
import { hotkeysMarkdown } from "../../src/modes/interactive/hotkeys.ts";
import { KeybindingsManager, setKeybindings, TUI_KEYBINDINGS } from "../../src/tui/mod.ts";

interface ReferenceCase {
  input: unknown;
  effective: Record<string, unknown>;
  conflicts: { key: string; keybindings: string[] }[];
}
const reference = JSON.parse(
  Deno.readTextFileSync(new URL("../fixtures/keybindings/effective_reference.json", import.meta.url)),
) as Record<string, ReferenceCase> & { reload: { modelSelect: unknown; toolsExpand: unknown } };

/** A manager over `text` written as `<dir>/keybindings.json`, run in a fresh folder. */
function loadFrom(
  text: string | undefined,
): { keybindings: AppKeybindings; warnings: string[]; dir: string } {
  const dir = Deno.makeTempDirSync({ prefix: "pi-kb-" });
  if (text !== undefined) Deno.writeTextFileSync(`${dir}/keybindings.json`, text);
  return { ...AppKeybindings.load(dir), dir };
}

/** Runs `fn` with `manager` installed, putting the kit's default manager back afterwards. */
function withInstalled(manager: KeybindingsManager, fn: () => void): void {
  setKeybindings(manager);
  try {
    fn();
  } finally {
    setKeybindings(new KeybindingsManager(TUI_KEYBINDINGS));
  }
}

Deno.test("KEYS-02 every 1.6.0 action id is defined, with 1.6.0's Linux defaults", () => {
  assertEquals(
    Object.keys(interactiveKeybindingDefinitions("linux", false)).sort(),
    [...KEYBINDING_IDS].sort(),
  );
  const { keybindings, warnings, dir } = loadFrom(undefined);
  assertEquals(warnings, []);
  assertEquals(keybindings.getResolvedBindings(), reference.defaults.effective);
  Deno.removeSync(dir, { recursive: true });
});

for (const name of ["rebind", "unbind", "legacy", "invalid", "conflict", "broken"]) {
  Deno.test(`KEYS-02 keybindings.json "${name}" resolves as in 1.6.0 (keys and conflicts)`, () => {
    const c = reference[name];
    const { keybindings, dir } = loadFrom(typeof c.input === "string" ? c.input : JSON.stringify(c.input));
    assertEquals(keybindings.getResolvedBindings(), c.effective);
    assertEquals(keybindings.getConflicts(), c.conflicts);
    Deno.removeSync(dir, { recursive: true });
  });
}

Deno.test("KEYS-02 what 1.6.0 drops silently is named with the file", () => {
  const invalid = loadFrom(JSON.stringify(reference.invalid.input));
  const path = `${invalid.dir}/keybindings.json`;
  assertEquals(invalid.warnings, [
    `Ignoring "app.exit" in keybindings.json (${path}): expected a key such as "ctrl+x" or a list of keys`,
    `Ignoring "app.clear" in keybindings.json (${path}): expected a key such as "ctrl+x" or a list of keys`,
    `Ignoring "app.tools.expand" in keybindings.json (${path}): expected a key such as "ctrl+x" or a list of keys`,
  ]);
  const broken = loadFrom(reference.broken.input as string);
  assertEquals(broken.warnings, [
    `Ignoring keybindings.json (${broken.dir}/keybindings.json): Unexpected end of JSON input`,
  ]);
  for (const dir of [invalid.dir, broken.dir]) Deno.removeSync(dir, { recursive: true });
});

Deno.test("KEYS-02 reload reads the edited file again (1.6.0's /reload)", () => {
  const { keybindings, dir } = loadFrom(JSON.stringify({ "app.model.select": "ctrl+k" }));
  Deno.writeTextFileSync(`${dir}/keybindings.json`, JSON.stringify({ "app.tools.expand": "ctrl+k" }));
  assertEquals(keybindings.reload(), []);
  const resolved = keybindings.getResolvedBindings();
  assertEquals(
    { modelSelect: resolved["app.model.select"], toolsExpand: resolved["app.tools.expand"] },
    reference.reload,
  );
  Deno.removeSync(dir, { recursive: true });
});

Deno.test("KEYS-02 the app's keys, hints and /hotkeys follow the installed keybindings", () => {
  const { keybindings, dir } = loadFrom(
    JSON.stringify({ "app.model.select": "ctrl+k", "app.clear": [], "tui.editor.undo": ["ctrl+z", "alt+z"] }),
  );
  withInstalled(keybindings, () => {
    assertEquals(APP_KEYS["app.model.select"], ["ctrl+k"]);
    assertEquals(matchesAction("\x0b", "app.model.select"), true);
    assertEquals(matchesAction("\x0c", "app.model.select"), false);
    assertEquals(matchesAction("\x03", "app.clear"), false);
    assertEquals(keyText("app.clear"), "");
    const md = hotkeysMarkdown();
    assertStringIncludes(md, "| `Ctrl+K` | Open model selector |");
    assertStringIncludes(md, "| `` | Clear editor (first) / exit (second) |");
    assertStringIncludes(md, "| `Ctrl+Z/Alt+Z` | Undo |");
  });
  // Without an installed manager (unit tests, before start-up) the defaults apply.
  assertEquals(APP_KEYS["app.model.select"], ["ctrl+l"]);
  Deno.removeSync(dir, { recursive: true });
});

Deno.test("KEYS-02 1.6.0's Windows and WSL defaults", () => {
  assertEquals(useWindowsKeybindings("linux", (n) => n === "WSL_DISTRO_NAME" ? "Ubuntu" : undefined), true);
  assertEquals(useWindowsKeybindings("linux", () => undefined), false);
  assertEquals(useWindowsKeybindings("windows", () => undefined), true);
  const wsl = interactiveKeybindingDefinitions("linux", true);
  assertEquals(wsl["app.message.followUp"].defaultKeys, "ctrl+q");
  assertEquals(wsl["tui.editor.undo"].defaultKeys, "alt+z");
  assertEquals(wsl["app.suspend"].defaultKeys, "ctrl+z");
  const win = interactiveKeybindingDefinitions("windows", true);
  assertEquals(win["app.suspend"].defaultKeys, []);
  assertEquals(win["tui.editor.undo"].defaultKeys, "ctrl+z");
  assertEquals(interactiveKeybindingDefinitions("darwin", false)["app.tree.foldOrUp"].defaultKeys, [
    "alt+left",
    "ctrl+left",
  ]);
});
