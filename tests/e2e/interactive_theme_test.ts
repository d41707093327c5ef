/**
 * Themes in the interactive mode (RES-08, RES-10), in tmux against pi 1.6.0: the same scenario
 * drawn with the built-in light theme, a custom theme from `<agent dir>/themes`, a theme from a
 * local package and a `--theme` file gives the same screen, colours included (`capture-pane -e`).
 * Then `/settings` → Theme: the cursor previews, Enter saves the setting and keeps the colours.
 */
import { join } from "node:path";
import { assert, assertEquals, assertNotEquals } from "../support/assert.ts";
import type { ScriptedTurn } from "../support/fake_provider/mod.ts";
import { type InteractiveScenario, startInteractiveScenario } from "../support/interactive_scenario.ts";
import DARK from "../../src/resources/themes/dark.json" with { type: "json" };
import { DARK_THEME, LIGHT_THEME, Theme } from "../../src/modes/interactive/theme.ts";

const TIMEOUTS = { start: 90_000, step: 30_000 };

/** The theme submenu's description line. */
const SUBMENU_HINT = "Select a theme, or choose automatic to follow terminal appearance.";

const REPLY: ScriptedTurn = {
  content: [{ type: "text", text: "Hello **bold** and `code`\n\n# Head\n\n- item\n\n> quoted" }],
};

/** A complete theme with a few colours of its own, so that a screen in it is unmistakable. */
function customTheme(name: string, accent: string): Record<string, unknown> {
  return {
    ...DARK,
    name,
    vars: { ...DARK.vars, mine: accent },
    colors: { ...DARK.colors, userMessageBg: "mine", mdHeading: "#ff8800", mdListBullet: 196, mdQuote: "" },
  };
}

/** The screen, colours included, with the scenario's paths and spinners masked. */
async function colouredScreen(s: InteractiveScenario): Promise<string> {
  return s.normalized(await s.pane.tmux("capture-pane", "-p", "-e"));
}

/** Starts pi with `args`, asks one question and returns the finished screen with colours. */
async function askOnce(s: InteractiveScenario, args: string[]): Promise<string> {
  await s.pane.command(s.piCommand(["--tui-mode", "regular", ...args]));
  await s.pane.waitFor((t) => t.includes("/200k"), TIMEOUTS.start, "the start-up screen");
  await s.pane.type("hi");
  await s.pane.keys("Enter");
  await s.pane.waitFor((t) => t.includes("quoted"), TIMEOUTS.step, "the reply");
  await s.pane.settle();
  return await colouredScreen(s);
}

interface Case {
  settings?: Record<string, unknown>;
  args?: string[];
  /** Writes theme files under the scenario's folders before pi starts. */
  prepare?: (s: InteractiveScenario) => Promise<void>;
}

async function screenOf(c: Case, reference: boolean): Promise<string> {
  const s = await startInteractiveScenario([REPLY], {
    reference,
    settings: c.settings,
    width: 80,
    height: 24,
  });
  try {
    await c.prepare?.(s);
    return await askOnce(s, c.args ?? []);
  } finally {
    await s.close();
  }
}

async function assertSameAsReference(c: Case): Promise<string> {
  const ours = await screenOf(c, false);
  const reference = await screenOf(c, true);
  assertEquals(ours, reference);
  return ours;
}

const writeJson = async (path: string, value: unknown) => {
  await Deno.mkdir(join(path, ".."), { recursive: true });
  await Deno.writeTextFile(path, JSON.stringify(value, null, 2));
};

Deno.test("RES-08 e2e theme light (setting): the screen, colours included, equals pi 1.6.0's", async () => {
  const light = await assertSameAsReference({ settings: { theme: "light" } });
  const dark = await screenOf({ settings: { theme: "dark" } }, false);
  // The light theme's user message background (okhsl(235 19% 91%) in 256 colours) vs dark's.
  assert(light.includes("\x1b[48;5;189m"), light);
  assertNotEquals(light, dark);
});

Deno.test("RES-08 e2e a custom theme from <agent dir>/themes, chosen by the theme setting, as pi 1.6.0", async () => {
  const screen = await assertSameAsReference({
    settings: { theme: "ocean" },
    prepare: (s) =>
      writeJson(join(s.agent.agentDir, "themes", "ocean.json"), customTheme("ocean", "#003366")),
  });
  assert(screen.includes("\x1b[48;5;23m"), screen); // #003366
  assert(screen.includes("\x1b[38;5;208m"), screen); // #ff8800: the heading
  assert(screen.includes("\x1b[38;5;196m"), screen); // 196: the list bullet
});

Deno.test("RES-08 e2e a package's theme (--use-theme) and a --theme file, as pi 1.6.0", async () => {
  const packageScreen = await assertSameAsReference({
    args: ["--use-theme", "sunset"],
    prepare: async (s) => {
      const pkg = join(s.agent.root, "pkg");
      await writeJson(join(pkg, "package.json"), { name: "sunset-theme", version: "1.0.0" });
      await writeJson(join(pkg, "themes", "sunset.json"), customTheme("sunset", "#662200"));
      const settingsPath = join(s.agent.agentDir, "settings.json");
      const settings = JSON.parse(await Deno.readTextFile(settingsPath));
      await writeJson(settingsPath, { ...settings, packages: [pkg] });
    },
  });
  assert(packageScreen.includes("\x1b[48;5;52m"), packageScreen); // #662200
  const fileScreen = await assertSameAsReference({
    args: ["--theme", "../forest.json", "--use-theme", "forest"],
    prepare: (s) => writeJson(join(s.agent.root, "forest.json"), customTheme("forest", "#224400")),
  });
  assert(fileScreen.includes("\x1b[48;5;22m"), fileScreen); // #224400
});

Deno.test("RES-08 e2e /settings Theme: moving the cursor previews, Enter saves light, Escape restores", async () => {
  // Saved dark (without a setting pi draws the system theme, see interactive_system_theme_test.ts).
  const s = await startInteractiveScenario([], { width: 80, height: 30, settings: { theme: "dark" } });
  try {
    await s.pane.command(s.piCommand(["--tui-mode", "regular"]));
    await s.pane.waitFor((t) => t.includes("/200k"), TIMEOUTS.start, "the start-up screen");
    // The menu's border lines are in the theme's `border` colour.
    const darkBorder = new Theme(DARK_THEME, "256color").ansi("border");
    const lightBorder = new Theme(LIGHT_THEME, "256color").ansi("border");
    assertNotEquals(darkBorder, lightBorder);
    await s.pane.command("/settings");
    await s.pane.waitFor((t) => t.includes("Auto-compact"), TIMEOUTS.step, "the settings menu");
    await waitForColour(s, darkBorder, "the dark menu border");
    await s.pane.type("theme");
    await s.pane.waitFor((t) => t.includes("Color theme for the interface"), TIMEOUTS.step, "the Theme row");
    await s.pane.keys("Enter");
    const menu = await s.pane.waitFor((t) => t.includes(SUBMENU_HINT), TIMEOUTS.step, "the theme submenu");
    assert(menu.includes("✓ dark"), menu);
    // system, automatic, dark (current), light: one down from dark is light, previewed at once.
    await s.pane.keys("Down");
    await waitForColour(s, lightBorder, "the light preview");
    await s.pane.keys("Escape");
    // The submenu gone, not only the colour: the next key must not be sent before Escape is read
    // (Escape and Enter read together are Alt+Enter), and a line not redrawn may keep dark's border.
    await s.pane.waitFor((t) => !t.includes(SUBMENU_HINT), TIMEOUTS.step, "the submenu closed");
    await waitForColour(s, darkBorder, "dark again after Escape");
    await s.pane.keys("Enter");
    await s.pane.waitFor((t) => t.includes(SUBMENU_HINT), TIMEOUTS.step, "the theme submenu again");
    await s.pane.keys("Down");
    await s.pane.keys("Enter");
    await s.pane.waitFor((t) => t.includes("Color theme for the interface"), TIMEOUTS.step, "the menu again");
    await waitForColour(s, lightBorder, "the light theme chosen");
    assertEquals(await savedTheme(s, "light"), "light");
  } finally {
    await s.close();
  }
});

async function waitForColour(s: InteractiveScenario, sequence: string, what: string): Promise<void> {
  const deadline = Date.now() + TIMEOUTS.step;
  let last = "";
  while (Date.now() < deadline) {
    last = await colouredScreen(s);
    if (last.includes(sequence)) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out waiting for ${what}; the screen was:\n${last}`);
}

Deno.test("RES-08 e2e a broken theme file: [Theme conflicts] under the header and the load error, as pi 1.6.0", async () => {
  const screenWith = async (reference: boolean) => {
    const s = await startInteractiveScenario([], {
      reference,
      settings: { theme: "broken" },
      width: 90,
      height: 100,
    });
    try {
      await writeJson(join(s.agent.agentDir, "themes", "broken.json"), {
        name: "broken",
        colors: { accent: "#fff" },
      });
      await s.pane.command(s.piCommand(["--tui-mode", "regular"]));
      await s.pane.waitFor((t) => t.includes("/200k"), TIMEOUTS.start, "the start-up screen");
      await s.pane.settle();
      const history = s.normalized(await s.pane.history());
      // From the header on (the command line above it differs).
      return history.slice(history.indexOf(" ▀▀█"));
    } finally {
      await s.close();
    }
  };
  const ours = await screenWith(false);
  assert(ours.includes('[Theme conflicts]\n  <root>/agent/themes/broken.json\n    Invalid theme "'), ours);
  assert(ours.includes(' Error: Failed to load theme "broken": Invalid theme "broken":\n'), ours);
  assert(ours.includes(" Fell back to the system theme."), ours);
  assertEquals(ours, await screenWith(true));
});

/** An extension whose /light command switches themes through ctx.ui, and says what it got. */
const THEME_EXTENSION = `
export default function (pi) {
  pi.registerCommand("light", {
    handler: async (_args, ctx) => {
      const missing = ctx.ui.getTheme("nope");
      const light = ctx.ui.getTheme("light");
      const result = ctx.ui.setTheme("light");
      ctx.ui.notify("setTheme=" + JSON.stringify(result) + " getTheme=" + (light && light.name) + "/" + missing + " now=" + ctx.ui.theme.name, "info");
    },
  });
}
`;

Deno.test("RES-08 e2e an extension's ctx.ui.setTheme switches the screen and saves the setting, as pi 1.6.0", async () => {
  const run = async (reference: boolean) => {
    const s = await startInteractiveScenario([], {
      reference,
      settings: { theme: "dark" },
      width: 80,
      height: 24,
    });
    try {
      const extension = join(s.agent.root, "theme_ext.ts");
      await Deno.writeTextFile(extension, THEME_EXTENSION);
      await s.pane.command(s.piCommand(["--tui-mode", "regular", "-e", extension]));
      await s.pane.waitFor((t) => t.includes("/200k"), TIMEOUTS.start, "the start-up screen");
      await s.pane.command("/light");
      await s.pane.waitFor((t) => t.includes("now=light"), TIMEOUTS.step, "the extension's notice");
      await s.pane.settle();
      const screen = await colouredScreen(s);
      // From the header on (the command line above it differs), to the last drawn row: on the fresh-machine
      // check tmux sometimes reports one empty row more below the footer for one side (the rows drawn are equal).
      const drawn = screen.slice(screen.indexOf("\n\n")).replace(/\n+$/, "\n");
      return { screen: drawn, theme: await savedTheme(s, "light") };
    } finally {
      await s.close();
    }
  };
  const ours = await run(false);
  assert(ours.screen.includes('setTheme={"success":true} getTheme=light/undefined now=light'), ours.screen);
  assertEquals(ours.theme, "light");
  assertEquals(ours, await run(true));
});

/** The `theme` of settings.json once it is `expected` (the settings manager writes in the background), else the last seen. */
async function savedTheme(s: InteractiveScenario, expected: string): Promise<unknown> {
  const path = join(s.agent.agentDir, "settings.json");
  const deadline = Date.now() + TIMEOUTS.step;
  let theme: unknown;
  while (Date.now() < deadline) {
    theme = JSON.parse(await Deno.readTextFile(path)).theme;
    if (theme === expected) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  return theme;
}

Deno.test("RES-08 e2e the active theme's file in <agent dir>/themes is reloaded when saved", async () => {
  const s = await startInteractiveScenario([REPLY], { settings: { theme: "ocean" }, width: 80, height: 24 });
  try {
    const path = join(s.agent.agentDir, "themes", "ocean.json");
    await writeJson(path, customTheme("ocean", "#003366"));
    const before = await askOnce(s, []);
    assert(before.includes("\x1b[48;5;23m"), before); // #003366 behind the user message
    // A half-written save is ignored; the next good one is drawn.
    await Deno.writeTextFile(path, "{ broken");
    await writeJson(path, customTheme("ocean", "#662200"));
    await waitForColour(s, "\x1b[48;5;52m", "the reloaded theme"); // #662200
  } finally {
    await s.close();
  }
});
