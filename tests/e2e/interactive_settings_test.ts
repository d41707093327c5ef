/**
 * `/settings`, `/scoped-models` with Ctrl+P cycling, and `/changelog` in the interactive mode,
 * driven in tmux beside pi 1.6.0 where the two can be compared: the menu's rows and descriptions
 * (every setting we list, as 1.6.0 words and orders it), the settings.json each change writes,
 * the change taking effect on screen (and at the next start), the Model Configuration screens,
 * the `enabledModels` saved and the models Ctrl+P then cycles through.
 */
import { join } from "node:path";
import { assert, assertEquals } from "../support/assert.ts";
import type { ScriptedTurn } from "../support/fake_provider/mod.ts";
import { type InteractiveScenario, startInteractiveScenario } from "../support/interactive_scenario.ts";
import { assertSameScreens, collectScreens, type ScriptStep } from "../support/interactive_script.ts";
import { changelogMarkdown } from "../../src/modes/interactive/changelog_command.ts";

const TIMEOUTS = { start: 90_000, step: 30_000 };

/** The settings this build lists, in 1.6.0's order (a terminal without inline images). */
const OUR_SETTINGS = [
  "Auto-compact",
  "Auto-resize images",
  "Block images",
  "Skill commands",
  "Show hardware cursor",
  "Editor padding",
  "Autocomplete max items",
  "Clear on shrink",
  "Steering mode",
  "Follow-up mode",
  "HTTP idle timeout",
  "Hide thinking",
  "Quiet startup",
  "Default project trust",
  "Default thinking level per model",
  "Theme",
];

const REPLY: ScriptedTurn = {
  content: [
    { type: "thinking", thinking: "Pondering the question deeply." },
    { type: "text", text: "The answer." },
  ],
};

async function settingsJson(s: InteractiveScenario): Promise<Record<string, unknown>> {
  const parsed = JSON.parse(await Deno.readTextFile(join(s.agent.agentDir, "settings.json")));
  // 1.6.0 notes the changelog version it has shown; ours has no start-up changelog.
  delete parsed.lastChangelogVersion;
  return parsed;
}

/** Polls settings.json until `test` holds (the settings manager writes it in the background). */
async function waitForSettings(
  s: InteractiveScenario,
  test: (settings: Record<string, unknown>) => boolean,
): Promise<Record<string, unknown>> {
  const deadline = Date.now() + TIMEOUTS.step;
  let last: Record<string, unknown> = {};
  while (Date.now() < deadline) {
    last = await settingsJson(s);
    if (test(last)) return last;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`settings.json did not change as expected: ${JSON.stringify(last)}`);
}

async function startPi(s: InteractiveScenario): Promise<void> {
  // The screen of a pi that just quit must not pass for the new one's.
  await s.pane.command("clear");
  await s.pane.waitFor((t) => !t.includes("/200k"), TIMEOUTS.step, "a cleared screen");
  await s.pane.command(s.piCommand());
  await s.pane.waitFor((t) => t.includes("/200k"), TIMEOUTS.start, "the start-up screen");
}

async function quitPi(s: InteractiveScenario): Promise<void> {
  // Whatever a test typed goes first (Ctrl+C clears the editor).
  await s.pane.keys("C-c");
  await s.pane.command("/quit");
  await s.pane.waitFor((t) => /\$ ?$/.test(t), TIMEOUTS.step, "the shell after exit");
}

const lines = (screen: string) => screen.split("\n");
const selectedRow = (screen: string) => lines(screen).find((l) => l.startsWith("→ "));
const footerStats = (screen: string) => lines(screen).find((l) => l.includes("/200k")) ?? "";

/** Each row of the menu (selected) and its description, walked with ↓ from the top. */
async function menuRows(reference: boolean): Promise<Map<string, { row: string; description: string }>> {
  // A saved theme: without one the Theme row shows 1.6.0's default, its `system` theme (not in this build).
  const s = await startInteractiveScenario([], { reference, settings: { theme: "dark" } });
  try {
    await startPi(s);
    await s.pane.command("/settings");
    let screen = await s.pane.waitFor((t) => /\(1\/\d+\)/.test(t), TIMEOUTS.step, "the settings menu");
    const total = Number(/\(1\/(\d+)\)/.exec(screen)![1]);
    const rows = new Map<string, { row: string; description: string }>();
    for (let i = 1; i <= total; i++) {
      if (i > 1) {
        await s.pane.keys("Down");
        screen = await s.pane.waitFor((t) => t.includes(`(${i}/${total})`), TIMEOUTS.step, `row ${i}`);
      }
      const all = lines(screen);
      const row = selectedRow(screen)!;
      const from = all.findIndex((l) => l.includes(`(${i}/${total})`));
      const to = all.findIndex((l) => l.includes("Type to search"));
      const description = all.slice(from + 1, to).filter((l) => l.trim()).join("\n");
      rows.set(row.slice(2, 36).trim(), { row, description });
    }
    await s.pane.keys("Escape");
    await s.pane.waitFor((t) => !t.includes("Type to search"), TIMEOUTS.step, "the menu to close");
    await quitPi(s);
    return rows;
  } finally {
    await s.close();
  }
}

Deno.test("INT-SETTINGS: /settings lists the settings this build applies with pi 1.6.0's rows, values, descriptions and order", async () => {
  const ours = await menuRows(false);
  const reference = await menuRows(true);
  assertEquals([...ours.keys()], OUR_SETTINGS);
  assertEquals([...reference.keys()].filter((label) => ours.has(label)), OUR_SETTINGS, "1.6.0's order");
  for (const label of OUR_SETTINGS) {
    assertEquals(ours.get(label), reference.get(label), label);
  }
  assertEquals(ours.get("Auto-compact")!.row, "→ Auto-compact                      true");
  assertEquals(
    ours.get("HTTP idle timeout")!.description,
    "  Maximum idle gap while waiting for HTTP headers or body chunks. Disable for local models that\n" +
      "  pause longer than five minutes.",
  );
});

/** Opens /settings, filters to `label`, presses Enter `presses` times; returns the screen. */
async function change(
  s: InteractiveScenario,
  label: string,
  presses: number,
  value: string,
): Promise<string> {
  await s.pane.command("/settings");
  await s.pane.waitFor((t) => t.includes("Type to search"), TIMEOUTS.step, "the settings menu");
  await s.pane.type(label);
  await s.pane.waitFor((t) => selectedRow(t)?.startsWith(`→ ${label} `) ?? false, TIMEOUTS.step, label);
  for (let i = 0; i < presses; i++) await s.pane.keys("Enter");
  const screen = await s.pane.waitFor(
    (t) => selectedRow(t)?.endsWith(`  ${value}`) ?? false,
    TIMEOUTS.step,
    `${label}: ${value}`,
  );
  await s.pane.keys("Escape");
  await s.pane.waitFor((t) => !t.includes("Type to search"), TIMEOUTS.step, "the menu to close");
  return screen;
}

async function changeSettings(reference: boolean) {
  const s = await startInteractiveScenario([REPLY], { reference, reasoning: true });
  try {
    await startPi(s);
    await s.pane.command("a question");
    await s.pane.waitFor(
      (t) => t.includes("Pondering the question deeply.") && t.includes("The answer."),
      TIMEOUTS.step,
      "the reply",
    );
    const before = footerStats(await s.pane.screen());
    const autoCompact = await change(s, "Auto-compact", 1, "false");
    const afterAutoCompact = footerStats(autoCompact);
    await change(s, "Editor padding", 2, "2");
    await change(s, "HTTP idle timeout", 2, "30 sec");
    const timeoutNotice = await s.pane.waitFor(
      (t) => t.includes("HTTP idle timeout: 30 sec"),
      TIMEOUTS.step,
      "the notice",
    );
    await change(s, "Quiet startup", 1, "true");
    await change(s, "Default project trust", 1, "Always trust");
    await change(s, "Steering mode", 1, "all");
    await change(s, "Hide thinking", 1, "true");
    const hidden = await s.pane.waitFor(
      (t) => !t.includes("Pondering the question deeply."),
      TIMEOUTS.step,
      "hidden thinking",
    );
    const settings = await waitForSettings(s, (v) => v.hideThinkingBlock === true);
    await s.pane.type("abc");
    const typed = await s.pane.waitFor((t) => t.includes("abc"), TIMEOUTS.step, "typed text");
    await quitPi(s);
    // The next start: no header (quietStartup), no (auto) mark, the editor padded.
    await startPi(s);
    await s.pane.type("xyz");
    const restarted = await s.pane.waitFor(
      (t) => t.includes("xyz"),
      TIMEOUTS.step,
      "typed text after restart",
    );
    await quitPi(s);
    return {
      before,
      afterAutoCompact,
      timeoutNotice: timeoutNotice.includes(" HTTP idle timeout: 30 sec"),
      hiddenHasAnswer: hidden.includes("The answer."),
      settings,
      typedLine: lines(typed).find((l) => l.includes("abc")),
      restarted,
    };
  } finally {
    await s.close();
  }
}

Deno.test("INT-SETTINGS: a change in /settings is written to settings.json and takes effect at once and at the next start, as in pi 1.6.0", async () => {
  const ours = await changeSettings(false);
  const reference = await changeSettings(true);
  assertEquals(ours.settings, {
    defaultProvider: "fake-anthropic",
    defaultModel: "test-model",
    compaction: { enabled: false },
    editorPaddingX: 2,
    httpIdleTimeoutMs: 30000,
    quietStartup: true,
    defaultProjectTrust: "always",
    steeringMode: "all",
    hideThinkingBlock: true,
  });
  assertEquals(ours.settings, reference.settings);
  assert(ours.before.includes("(auto)") && !ours.afterAutoCompact.includes("(auto)"), ours.afterAutoCompact);
  assertEquals(ours.afterAutoCompact, reference.afterAutoCompact);
  assert(ours.timeoutNotice && reference.timeoutNotice);
  assert(ours.hiddenHasAnswer && reference.hiddenHasAnswer);
  assertEquals(ours.typedLine, "  abc");
  assertEquals(ours.typedLine, reference.typedLine);
  for (const screen of [ours.restarted, reference.restarted]) {
    assert(!screen.includes("escape interrupt"), `quiet start-up:\n${screen}`);
    assert(!footerStats(screen).includes("(auto)"), footerStats(screen));
    assert(lines(screen).includes("  xyz"), `padded editor:\n${screen}`);
  }
});

Deno.test("INT-SETTINGS: Escape leaves /settings unchanged and gives the editor back", async () => {
  const s = await startInteractiveScenario([]);
  try {
    await startPi(s);
    await s.pane.command("/settings");
    await s.pane.waitFor((t) => t.includes("Type to search"), TIMEOUTS.step, "the settings menu");
    await s.pane.keys("Escape");
    await s.pane.waitFor((t) => !t.includes("Type to search"), TIMEOUTS.step, "the menu to close");
    await s.pane.type("still here");
    await s.pane.waitFor((t) => lines(t).includes("still here"), TIMEOUTS.step, "the editor");
    await quitPi(s);
    assertEquals(await settingsJson(s), { defaultProvider: "fake-anthropic", defaultModel: "test-model" });
  } finally {
    await s.close();
  }
});

const SCOPED_STEPS: ScriptStep[] = [
  { name: "start-up", act: async () => {}, ready: (t) => t.includes("(fake-anthropic) test-model") },
  {
    name: "selector",
    act: (s) => s.pane.command("/scoped-models"),
    ready: (t) => t.includes("Model catalogs refreshed.") && t.includes("all enabled"),
  },
  { name: "clear all", act: (s) => s.pane.keys("C-x"), ready: (t) => t.includes("0/4 enabled") },
  { name: "enable one", act: (s) => s.pane.keys("Enter"), ready: (t) => t.includes("1/4 enabled") },
  {
    name: "down",
    act: (s) => s.pane.keys("Down", "Down", "Down"),
    ready: (t) => t.includes("Model Name: Test model (google"),
  },
  {
    name: "enable another",
    act: (s) => s.pane.keys("Enter"),
    ready: (t) => t.includes("2/4 enabled (unsaved)"),
  },
  {
    name: "saved",
    act: (s) => s.pane.keys("C-s"),
    ready: (t) => t.includes("Model selection saved to settings") && !t.includes("(unsaved)"),
  },
  { name: "closed", act: (s) => s.pane.keys("Escape"), ready: (t) => !t.includes("Model Configuration") },
  { name: "cycle 1", act: (s) => s.pane.keys("C-p"), ready: (t) => t.includes("(fake-google) test-model") },
  {
    name: "cycle 2",
    act: (s) => s.pane.keys("C-p"),
    ready: (t) => t.includes("(fake-anthropic) test-model"),
  },
  { name: "cycle 3", act: (s) => s.pane.keys("C-p"), ready: (t) => t.includes("(fake-google) test-model") },
];

async function scopedScript(reference: boolean) {
  const s = await startInteractiveScenario([], { reference });
  try {
    await s.pane.command(`clear; ${s.piCommand()}`);
    const screens = await collectScreens(s, SCOPED_STEPS, TIMEOUTS);
    const settings = await settingsJson(s);
    await quitPi(s);
    return { screens, enabledModels: settings.enabledModels };
  } finally {
    await s.close();
  }
}

Deno.test("INT-SCOPED: /scoped-models toggles models, Ctrl+S saves enabledModels, Ctrl+P then cycles only those; screens as pi 1.6.0", async () => {
  const ours = await scopedScript(false);
  const reference = await scopedScript(true);
  assertSameScreens(SCOPED_STEPS, ours.screens, reference.screens);
  assertEquals(ours.enabledModels, ["fake-anthropic/test-model", "fake-google/test-model"]);
  assertEquals(ours.enabledModels, reference.enabledModels);
  const cycled = ours.screens.slice(-3).map((screen) => lines(screen).find((l) => l.includes("Switched to")));
  assertEquals(cycled, [
    " Switched to Test model (google-generative-ai)",
    " Switched to Test model (anthropic-messages)",
    " Switched to Test model (google-generative-ai)",
  ]);
});

const ENABLED_STEPS: ScriptStep[] = [
  { name: "start-up", act: async () => {}, ready: (t) => t.includes("/200k") && t.includes("test-model") },
  { name: "cycle 1", act: (s) => s.pane.keys("C-p"), ready: (t) => t.includes("Switched to") },
  { name: "cycle 2", act: (s) => s.pane.keys("C-p"), ready: (t) => t.includes("(fake-openai) test-model") },
  {
    name: "selector",
    act: (s) => s.pane.command("/scoped-models"),
    ready: (t) => t.includes("Model catalogs refreshed.") && t.includes("2/4 enabled"),
  },
  { name: "closed", act: (s) => s.pane.keys("Escape"), ready: (t) => !t.includes("Model Configuration") },
];

Deno.test("INT-SCOPED: the enabledModels setting scopes the start-up model and Ctrl+P, and /scoped-models shows it; as pi 1.6.0", async () => {
  const run = async (reference: boolean) => {
    const s = await startInteractiveScenario([], {
      reference,
      settings: { enabledModels: ["fake-openai/test-model", "fake-google/*"] },
    });
    try {
      await s.pane.command(`clear; ${s.piCommand()}`);
      const screens = await collectScreens(s, ENABLED_STEPS, TIMEOUTS);
      await quitPi(s);
      return screens;
    } finally {
      await s.close();
    }
  };
  const ours = await run(false);
  const reference = await run(true);
  assertSameScreens(ENABLED_STEPS, ours, reference);
  assert(footerStats(ours[0]).endsWith("(fake-openai) test-model"), footerStats(ours[0]));
  assert(footerStats(ours[1]).endsWith("(fake-google) test-model"), footerStats(ours[1]));
});

Deno.test("INT-CHANGELOG: /changelog shows pi for Deno's own changelog under pi 1.6.0's What's New heading", async () => {
  const s = await startInteractiveScenario([]);
  try {
    await startPi(s);
    await s.pane.command("/changelog");
    const screen = await s.pane.waitFor((t) => t.includes("What's New"), TIMEOUTS.step, "the changelog");
    const shown = lines(screen);
    const heading = shown.indexOf(" What's New");
    assert(heading > 0, screen);
    assert(/^─+$/.test(shown[heading - 1]), "a border above the heading");
    // Our repository's CHANGELOG.md, when there is one; else 1.6.0's words for none.
    const text = await Deno.readTextFile(new URL("../../CHANGELOG.md", import.meta.url)).catch(() =>
      undefined
    );
    const expected = changelogMarkdown(text);
    if (expected === "No changelog entries found.") {
      assertEquals(shown.slice(heading, heading + 5), [
        " What's New",
        "",
        "",
        " No changelog entries found.",
        "",
      ]);
      assert(/^─+$/.test(shown[heading + 5]), "a border below");
    } else {
      const newest = expected.split("\n").filter((l) => l.startsWith("## ")).pop()!;
      assert(screen.includes(newest.replace(/^## /, "")), `the newest entry:\n${screen}`);
    }
    await quitPi(s);
  } finally {
    await s.close();
  }
});

const MODEL_THINKING_STEPS: ScriptStep[] = [
  { name: "start-up", act: async () => {}, ready: (t) => t.includes("test-model • medium") },
  {
    name: "menu",
    act: async (s) => {
      await s.pane.command("/settings");
      await s.pane.waitFor((t) => t.includes("Type to search"), TIMEOUTS.step, "the settings menu");
      await s.pane.type("Default thinking level per model");
    },
    ready: (t) => selectedRow(t)?.endsWith("  none") ?? false,
  },
  { name: "models", act: (s) => s.pane.keys("Enter"), ready: (t) => t.includes("Step 1/2") },
  { name: "levels", act: (s) => s.pane.keys("Enter"), ready: (t) => t.includes("Step 2/2") },
  {
    name: "high",
    act: (s) => s.pane.keys("Down", "Down", "Down", "Down"),
    ready: (t) => t.includes("→   high"),
  },
  { name: "chosen", act: (s) => s.pane.keys("Enter"), ready: (t) => t.includes("test-model • high") },
  { name: "back", act: (s) => s.pane.keys("Escape"), ready: (t) => t.includes("1 configured") },
  { name: "closed", act: (s) => s.pane.keys("Escape"), ready: (t) => !t.includes("Type to search") },
];

Deno.test("INT-SETTINGS: the per-model thinking submenu saves modelThinkingLevels and sets the current model's level at once; screens as pi 1.6.0", async () => {
  const run = async (reference: boolean) => {
    const s = await startInteractiveScenario([], { reference, reasoning: true });
    try {
      await s.pane.command(`clear; ${s.piCommand()}`);
      const screens = await collectScreens(s, MODEL_THINKING_STEPS, TIMEOUTS);
      // After the exit every write has landed.
      await quitPi(s);
      return { screens, settings: await settingsJson(s) };
    } finally {
      await s.close();
    }
  };
  const ours = await run(false);
  const reference = await run(true);
  assertSameScreens(MODEL_THINKING_STEPS.slice(2), ours.screens.slice(2), reference.screens.slice(2));
  assertEquals(ours.settings, {
    defaultProvider: "fake-anthropic",
    defaultModel: "test-model",
    modelThinkingLevels: { "fake-anthropic/test-model": "high" },
  });
  assertEquals(ours.settings, reference.settings);
});

Deno.test("INT-SETTINGS: Ctrl+T saves hideThinkingBlock as /settings does (pi 1.6.0); the next start keeps thinking hidden", async () => {
  const s = await startInteractiveScenario([REPLY], { reasoning: true });
  try {
    await startPi(s);
    await s.pane.keys("C-t");
    await s.pane.waitFor((t) => t.includes("Thinking blocks: hidden"), TIMEOUTS.step, "the status");
    assertEquals((await waitForSettings(s, (v) => "hideThinkingBlock" in v)).hideThinkingBlock, true);
    await quitPi(s);
    await startPi(s);
    await s.pane.command("a question");
    const screen = await s.pane.waitFor((t) => t.includes("The answer."), TIMEOUTS.step, "the reply");
    assert(!screen.includes("Pondering the question deeply."), `thinking hidden after a restart:\n${screen}`);
    await quitPi(s);
  } finally {
    await s.close();
  }
});

const OWN_LEVEL_STEPS: ScriptStep[] = [
  { name: "start-up", act: async () => {}, ready: (t) => t.includes("(fake-anthropic) test-model • medium") },
  {
    name: "to google",
    act: (s) => s.pane.keys("C-p"),
    ready: (t) => t.includes("(fake-google) test-model • high"),
  },
  { name: "back", act: (s) => s.pane.keys("C-p"), ready: (t) => t.includes("(fake-anthropic) test-model") },
];

Deno.test("INT-SCOPED: Ctrl+P to a model with its own thinking level (modelThinkingLevels) takes that level without saving it as the default; as pi 1.6.0", async () => {
  const run = async (reference: boolean) => {
    const s = await startInteractiveScenario([], {
      reference,
      reasoning: true,
      settings: {
        enabledModels: ["fake-anthropic/test-model", "fake-google/test-model"],
        modelThinkingLevels: { "fake-google/test-model": "high" },
      },
    });
    try {
      await s.pane.command(`clear; ${s.piCommand()}`);
      const screens = await collectScreens(s, OWN_LEVEL_STEPS, TIMEOUTS);
      await quitPi(s);
      return { screens, settings: await settingsJson(s) };
    } finally {
      await s.close();
    }
  };
  const ours = await run(false);
  const reference = await run(true);
  assertSameScreens(OWN_LEVEL_STEPS, ours.screens, reference.screens);
  assert(
    ours.screens[1].includes(" Switched to Test model (google-generative-ai) (thinking: high)"),
    ours.screens[1],
  );
  assertEquals(ours.settings.defaultThinkingLevel, undefined);
  assertEquals(
    { enabled: ours.settings.enabledModels, levels: ours.settings.modelThinkingLevels },
    { enabled: reference.settings.enabledModels, levels: reference.settings.modelThinkingLevels },
  );
});
