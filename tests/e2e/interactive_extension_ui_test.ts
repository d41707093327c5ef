/**
 * Extensions' `ctx.ui` in the interactive mode (EXT-07, issue 16): a small extension loaded with
 * `-e` asks select / confirm / input questions, edits a note in the editor dialog, shows its own
 * component, sets footer statuses and widgets above and below the editor, fills the editor, sets
 * the terminal title and answers a shortcut. The same keys run in our `pi` and in pi 1.6.0 (which
 * loads the same file) in tmux panes of the same size, and the normalised screens must be equal.
 * A second extension throws from its UI code in every way it can: pi reports each error in the
 * chat and still answers a prompt.
 */
import { assert, assertEquals } from "../support/assert.ts";
import type { ScriptedTurn } from "../support/fake_provider/mod.ts";
import { type InteractiveScenario, startInteractiveScenario } from "../support/interactive_scenario.ts";
import { screenDifferences, type ScriptStep } from "../support/interactive_script.ts";
import { requireReference } from "../../scripts/reference/locate.ts";
import { join } from "node:path";

const TIMEOUTS = { start: 90_000, step: 30_000 };
const SIZE = { width: 100, height: 50 };

/** The extension both pis load: one command per hook, statuses and widgets from session_start. */
const DEMO_EXTENSION = `
import { Text } from "@earendil-works/pi-tui";

export default function (pi) {
  pi.on("session_start", (_event, ctx) => {
    ctx.ui.setStatus("b-demo", "demo status");
    ctx.ui.setStatus("a-first", "first\\tstatus");
    ctx.ui.setWidget("todo", ["Widget line one", "Widget line two"]);
    ctx.ui.setWidget("factory", (_tui, theme) => new Text(theme.fg("accent", "Factory widget"), 1, 0));
    ctx.ui.setWidget("below", ["Below the editor"], { placement: "belowEditor" });
  });
  pi.registerCommand("ask", {
    description: "Ask three questions",
    handler: async (_args, ctx) => {
      const color = await ctx.ui.select("Pick a color", ["red", "green", "blue"]);
      const sure = await ctx.ui.confirm("Really?", "Use " + color + "?");
      const name = await ctx.ui.input("Your name", "type here");
      ctx.ui.notify("color=" + color + " sure=" + sure + " name=" + name, "info");
    },
  });
  pi.registerCommand("note", {
    handler: async (_args, ctx) => {
      const text = await ctx.ui.editor("Edit note", "prefilled");
      ctx.ui.notify("note=" + JSON.stringify(text), "warning");
    },
  });
  pi.registerCommand("hurry", {
    handler: async (_args, ctx) => {
      const answer = await ctx.ui.select("Quick!", ["one", "two"], { timeout: 1500 });
      ctx.ui.notify("hurry=" + answer, "info");
    },
  });
  pi.registerCommand("fill", {
    handler: (_args, ctx) => {
      ctx.ui.setEditorText("filled by extension");
      ctx.ui.pasteToEditor(" + pasted");
      ctx.ui.setTitle("extension title");
      ctx.ui.setStatus("a-first", "changed status");
      ctx.ui.setWidget("todo", ["Replaced one", "Replaced two"]);
    },
  });
  pi.registerCommand("custom", {
    handler: async (_args, ctx) => {
      const result = await ctx.ui.custom((_tui, theme, _kb, done) => ({
        render: (width) => [theme.fg("accent", "Custom component: press y"), "-".repeat(Math.min(width, 10))],
        invalidate() {},
        handleInput(data) { if (data === "y") done("yes!"); },
      }));
      ctx.ui.notify("custom=" + result, "error");
    },
  });
  pi.registerCommand("boom", {
    handler: (_args, ctx) => {
      ctx.ui.setWidget("bad", () => { throw new Error("widget factory failed"); });
    },
  });
  pi.registerShortcut("alt+k", {
    description: "Peek at the editor",
    handler: (ctx) => ctx.ui.notify("peek=" + ctx.ui.getEditorText(), "info"),
  });
}
`;

/** Types `line` and Enter. */
const send = (line: string) => (s: InteractiveScenario) => s.pane.command(line);
/** Presses `keys`. */
const press = (...keys: string[]) => (s: InteractiveScenario) => s.pane.keys(...keys);

const STEPS: ScriptStep[] = [
  {
    name: "start-up",
    act: async () => {},
    ready: (t) => t.includes("first status demo status") && t.includes("Below the editor"),
  },
  { name: "select", act: send("/ask"), ready: (t) => t.includes("→ red") },
  { name: "select moved", act: press("Down"), ready: (t) => t.includes("→ green") },
  { name: "confirm", act: press("Enter"), ready: (t) => t.includes("Use green?") },
  { name: "input", act: press("Enter"), ready: (t) => t.includes("Your name") },
  {
    name: "answers",
    act: async (s) => {
      await s.pane.type("Ann");
      await s.pane.keys("Enter");
    },
    ready: (t) => t.includes("color=green sure=true name=Ann"),
  },
  {
    name: "cancelled",
    act: async (s) => {
      await s.pane.command("/ask");
      await s.pane.waitFor((t) => t.includes("→ red"), TIMEOUTS.step, "the selector");
      await s.pane.keys("Escape");
      await s.pane.waitFor((t) => t.includes("Use undefined?"), TIMEOUTS.step, "the confirmation");
      await s.pane.keys("Escape");
      await s.pane.waitFor((t) => t.includes("Your name"), TIMEOUTS.step, "the input");
      await s.pane.keys("Escape");
    },
    ready: (t) => t.includes("color=undefined sure=false name=undefined"),
  },
  { name: "editor", act: send("/note"), ready: (t) => t.includes("Edit note") },
  {
    name: "note",
    act: async (s) => {
      await s.pane.type("X");
      await s.pane.keys("Enter");
    },
    ready: (t) => t.includes('note="prefilledX"'),
  },
  {
    name: "timeout",
    act: async (s) => {
      await s.pane.command("/hurry");
      // The title counts the seconds down (1.5 s: 2, then 1), then the dialog answers undefined.
      await s.pane.waitFor((t) => /\n Quick! \([12]s\)\n/.test(t), TIMEOUTS.step, "the countdown");
    },
    ready: (t) => t.includes("hurry=undefined"),
  },
  {
    name: "filled and peeked",
    act: async (s) => {
      await s.pane.command("/fill");
      await s.pane.waitFor((t) => t.includes("changed status"), TIMEOUTS.step, "the status changed");
      await s.pane.keys("M-k");
    },
    ready: (t) => t.includes("peek=filled by extension + pasted"),
  },
  {
    name: "custom",
    act: async (s) => {
      await s.pane.keys("C-c");
      await s.pane.command("/custom");
    },
    ready: (t) => t.includes("Custom component: press y"),
  },
  { name: "custom done", act: press("y"), ready: (t) => t.includes("custom=yes!") },
  { name: "factory error", act: send("/boom"), ready: (t) => t.includes("widget factory failed") },
];

/** The first row of the widgets above the editor, or the editor's border (where the docked part starts). */
const DOCK_START = /^( (Widget line one|Factory widget|Above editor widget)|─+)$/;

/**
 * The screen with what this build does not show yet taken out: 1.6.0 lists loaded extensions under
 * the header (`[Extensions]`), a start-up feature outside the extension UI. Its rows go; as many
 * blank rows come in above the docked widgets and editor, where the shorter chat leaves them.
 */
function withoutResourceList(screen: string): string {
  const lines = screen.split("\n");
  const at = lines.indexOf("[Extensions]");
  if (at === -1) return screen;
  let end = at + 1;
  // Its rows: one per extension (indented), long paths continued on rows of their own.
  while (lines[end] !== undefined && lines[end] !== "") end++;
  if (lines[end] === "") end++;
  lines.splice(at, end - at);
  const dock = lines.findIndex((line, i) => i >= at && DOCK_START.test(line));
  lines.splice(dock === -1 ? lines.length : dock, 0, ...Array<string>(end - at).fill(""));
  return lines.join("\n");
}

async function runScript(reference: boolean) {
  const s = await startInteractiveScenario([], { reference, ...SIZE });
  try {
    const extension = `${s.agent.root}/demo_ui.ts`;
    await Deno.writeTextFile(extension, DEMO_EXTENSION);
    await s.pane.command(`clear; ${s.piCommand(["-e", extension])}`);
    const screens: string[] = [];
    let title = "";
    for (const [i, step] of STEPS.entries()) {
      await step.act(s);
      await s.pane.waitFor(step.ready, i === 0 ? TIMEOUTS.start : TIMEOUTS.step, step.name);
      screens.push(withoutResourceList(s.normalized(await s.pane.settle(500, 5_000))));
      if (step.name === "filled and peeked") {
        title = (await s.pane.tmux("display-message", "-p", "#{pane_title}")).trim();
      }
    }
    await s.pane.command("/quit");
    await s.pane.waitFor((t) => /\$ ?$/.test(t), TIMEOUTS.step, "the shell after exit");
    return { screens, title };
  } finally {
    await s.close();
  }
}

/** The last `count` rows of a screen: the editor's surroundings, docked at the bottom. */
const dockOf = (screen: string, count: number) => screen.split("\n").slice(-count).join("\n");

Deno.test("EXT-07: an extension's dialogs, custom component, statuses, widgets, editor text, title and shortcut in the TUI, as pi 1.6.0 shows them", async () => {
  const ours = await runScript(false);

  // Our screens, exactly where it matters.
  const byName = (name: string) => ours.screens[STEPS.findIndex((s) => s.name === name)];
  assertEquals(
    dockOf(byName("start-up"), 10),
    [
      " Widget line one",
      " Widget line two",
      " Factory widget",
      "─".repeat(100),
      "",
      "─".repeat(100),
      " Below the editor",
      "<root>/project",
      `0.0%/200k (auto)${" ".repeat(57)}(fake-anthropic) test-model`,
      "first status demo status",
    ].join("\n"),
  );
  assertEquals(dockOf(byName("confirm"), 16).split("\n").slice(0, 12), [
    " Factory widget",
    "─".repeat(100),
    "",
    " Really?",
    " Use green?",
    "",
    " → Yes",
    "   No",
    "",
    " ↑↓ navigate  enter select  escape/ctrl+c cancel",
    "",
    "─".repeat(100),
  ]);
  assert(byName("input").includes("\n Your name\n\n>"), "the input dialog's field");
  assert(
    byName("editor").includes("\n Edit note\n\n" + "─".repeat(100) + "\nprefilled\n"),
    "the prefilled editor",
  );
  assert(
    byName("filled and peeked").includes("\n filled by extension + pasted\n") === false &&
      byName("filled and peeked").includes("\nfilled by extension + pasted\n"),
    "the text set by the extension stays in the editor",
  );
  assertEquals(dockOf(byName("filled and peeked"), 10).split("\n").slice(0, 3), [
    // A widget set again moves to the end, as in 1.6.0.
    " Factory widget",
    " Replaced one",
    " Replaced two",
  ]);
  assert(byName("filled and peeked").endsWith("\nchanged status demo status"), "the changed status");
  assertEquals(ours.title, "extension title");
  assert(byName("factory error").includes('\n Extension "command:boom" error: widget factory failed\n'));

  // The same screens as pi 1.6.0.
  const reference = await runScript(true);
  const differences = STEPS.flatMap((step, i) =>
    screenDifferences(step.name, ours.screens[i], reference.screens[i])
  );
  if (differences.length > 0) console.log(ours.screens.join("\n=====\n"));
  assertEquals(differences, [], "screens differ from pi 1.6.0's");
  assertEquals(ours.title, reference.title);
});

/** An extension whose UI code throws everywhere, and a session_start dialog before the first frame. */
const FAULTY_EXTENSION = `
export default function (pi) {
  pi.on("session_start", async (_event, ctx) => {
    const ok = await ctx.ui.confirm("Start?", "A dialog from session_start");
    ctx.ui.notify("started=" + ok + " mode=" + ctx.mode + " hasUI=" + ctx.hasUI, "info");
    ctx.ui.onTerminalInput((data) => {
      if (data === "%") {
        ctx.ui.notify("consumed %", "info");
        return { consume: true };
      }
      if (data === "^") throw new Error("input listener failed");
      return undefined;
    });
    ctx.ui.setStatus("gone", "status to remove");
    ctx.ui.setWidget("gone", ["Widget to remove"]);
    ctx.ui.setWidget("broken", () => ({
      render: () => { throw new Error("widget render failed"); },
      invalidate() {},
    }));
  });
  pi.registerCommand("crash", {
    handler: async (_args, ctx) => {
      const result = await ctx.ui.custom((_tui, _theme, _kb, done) => ({
        render: () => ["Crashing component"],
        invalidate() {},
        handleInput() { setTimeout(() => done("after the error"), 0); throw new Error("custom input failed"); },
      }));
      ctx.ui.notify("crash=" + result, "info");
    },
  });
  pi.registerCommand("clean", {
    handler: (_args, ctx) => {
      ctx.ui.setStatus("gone", undefined);
      ctx.ui.setWidget("gone", undefined);
    },
  });
  pi.registerCommand("slow", {
    handler: (_args, ctx) => {
      ctx.ui.setWorkingMessage("Fetching the answer");
      pi.sendUserMessage("slow question");
    },
  });
  pi.registerShortcut("alt+j", {
    handler: () => { throw new Error("shortcut failed"); },
  });
}
`;

Deno.test("EXT-07: errors thrown by an extension's widget, component and shortcut are shown in the chat and pi goes on; a session_start dialog and the working message show", async () => {
  const turns: ScriptedTurn[] = [
    { content: [{ type: "text", text: "Slow answer arrives." }], chunkDelayMs: 400, deltaSize: 2 },
  ];
  const s = await startInteractiveScenario(turns, SIZE);
  try {
    const extension = `${s.agent.root}/faulty_ui.ts`;
    await Deno.writeTextFile(extension, FAULTY_EXTENSION);
    await s.pane.command(`clear; ${s.piCommand(["-e", extension])}`);
    // The dialog shows although the handler that opened it holds up the start-up.
    await s.pane.waitFor(
      (t) => t.includes("A dialog from session_start"),
      TIMEOUTS.start,
      "the start dialog",
    );
    await s.pane.keys("Enter");
    const started = await s.pane.waitFor(
      (t) => t.includes("started=true mode=tui hasUI=true"),
      TIMEOUTS.step,
      "the answer",
    );
    await s.pane.waitFor(
      (t) =>
        t.includes(
          'Extension "<root>/faulty_ui.ts" error: widget render failed'.replace("<root>", s.agent.root),
        ),
      TIMEOUTS.step,
      "the widget's error",
    );
    assert(started.includes("(auto)"), "the footer is drawn");
    assert(
      started.includes("\n Widget to remove\n") && started.includes("\nstatus to remove"),
      "widget and status",
    );
    await s.pane.command("/clean");
    await s.pane.waitFor(
      (t) => !t.includes("Widget to remove") && !t.includes("status to remove"),
      TIMEOUTS.step,
      "the widget and status removed",
    );

    // A terminal input listener takes "%" before the editor; one that throws lets the key through.
    await s.pane.type("%");
    await s.pane.waitFor((t) => t.includes("consumed %"), TIMEOUTS.step, "the listener's notice");
    await s.pane.type("^");
    const typed = await s.pane.waitFor(
      (t) => t.includes("input listener failed"),
      TIMEOUTS.step,
      "its error",
    );
    assert(typed.includes("\n^\n") && !typed.includes("%^"), "only ^ reached the editor");
    await s.pane.keys("C-c");

    await s.pane.command("/crash");
    await s.pane.waitFor((t) => t.includes("Crashing component"), TIMEOUTS.step, "the custom component");
    await s.pane.keys("x");
    await s.pane.waitFor((t) => t.includes("custom input failed"), TIMEOUTS.step, "the component's error");
    await s.pane.waitFor((t) => t.includes("crash=after the error"), TIMEOUTS.step, "done() after the error");

    await s.pane.keys("M-j");
    await s.pane.waitFor(
      (t) => t.includes("Error: Shortcut handler error: shortcut failed"),
      TIMEOUTS.step,
      "the shortcut's error",
    );

    await s.pane.command("/slow");
    await s.pane.waitFor((t) => t.includes("Fetching the answer"), TIMEOUTS.step, "the working message");
    const answered = await s.pane.waitFor(
      (t) => t.includes("Slow answer arrives."),
      TIMEOUTS.step,
      "the reply",
    );
    assert(answered.includes(" slow question"), "the prompt sent by the extension");
    assertEquals(s.server.requests.length, 1);

    // A new session: what the extension put on screen goes, and its session_start handler runs again.
    await s.pane.command("/new");
    await s.pane.waitFor((t) => t.includes("A dialog from session_start"), TIMEOUTS.step, "the dialog again");
    await s.pane.keys("Escape");
    const renewed = await s.pane.waitFor(
      (t) => t.includes("started=false mode=tui"),
      TIMEOUTS.step,
      "the new session's start",
    );
    assert(!renewed.includes("Fetching the answer") && !renewed.includes("Slow answer arrives."), renewed);
    assert(renewed.includes("\n Widget to remove\n"), "the widget set again by session_start");
    await s.pane.command("/quit");
    await s.pane.waitFor((t) => /\$ ?$/.test(t), TIMEOUTS.step, "the shell after exit");
  } finally {
    await s.close();
  }
});

/** An extension that replaces the header and, on /footer, the footer (and /footer again restores it). */
const FRAME_EXTENSION = `
export default function (pi) {
  let custom = false;
  pi.on("session_start", (_event, ctx) => {
    ctx.ui.setHeader((_tui, theme) => ({
      render: () => ["", theme.fg("accent", " My own header"), ""],
      invalidate() {},
    }));
    ctx.ui.setWidget("w", ["Widget line one"]);
    ctx.ui.setStatus("s", "a status");
  });
  pi.registerCommand("footer", {
    handler: (_args, ctx) => {
      custom = !custom;
      ctx.ui.setFooter(custom
        ? (_tui, theme, data) => ({
          render: (width) => [theme.fg("dim", "custom footer: branch=" + data.getGitBranch() + " statuses=" +
            [...data.getExtensionStatuses().values()].join(",") + " providers=" + data.getAvailableProviderCount() +
            " width=" + width)],
          invalidate() {},
        })
        : undefined);
    },
  });
}
`;

const FRAME_STEPS: ScriptStep[] = [
  {
    name: "start-up",
    act: async () => {},
    ready: (t) => t.includes("My own header") && t.includes("a status"),
  },
  { name: "custom footer", act: send("/footer"), ready: (t) => t.includes("custom footer: branch=") },
  {
    name: "footer restored",
    act: send("/footer"),
    ready: (t) => !t.includes("custom footer") && t.includes("a status"),
  },
];

async function runFrameScript(reference: boolean): Promise<string[]> {
  const s = await startInteractiveScenario([], { reference, ...SIZE });
  try {
    const extension = `${s.agent.root}/frame_ui.ts`;
    await Deno.writeTextFile(extension, FRAME_EXTENSION);
    await s.pane.command(`clear; ${s.piCommand(["-e", extension])}`);
    const screens: string[] = [];
    for (const [i, step] of FRAME_STEPS.entries()) {
      await step.act(s);
      await s.pane.waitFor(step.ready, i === 0 ? TIMEOUTS.start : TIMEOUTS.step, step.name);
      screens.push(withoutResourceList(s.normalized(await s.pane.settle(500, 5_000))));
    }
    await s.pane.command("/quit");
    await s.pane.waitFor((t) => /\$ ?$/.test(t), TIMEOUTS.step, "the shell after exit");
    return screens;
  } finally {
    await s.close();
  }
}

Deno.test("EXT-07: an extension's header and footer replace the built-in ones, and the footer comes back, as in pi 1.6.0", async () => {
  const ours = await runFrameScript(false);
  assert(ours[0].startsWith("\n\n My own header\n"), "the extension's header in place of the logo");
  assert(!ours[0].includes("v1.6.0"), "no built-in header");
  assert(
    ours[1].endsWith("\ncustom footer: branch=null statuses=a status providers=4 width=100"),
    "the custom footer",
  );
  assert(ours[2].endsWith("(fake-anthropic) test-model\na status"), "the built-in footer is back");
  const reference = await runFrameScript(true);
  const differences = FRAME_STEPS.flatMap((step, i) => screenDifferences(step.name, ours[i], reference[i]));
  if (differences.length > 0) console.log(ours.join("\n=====\n"));
  assertEquals(differences, [], "screens differ from pi 1.6.0's");
});

/** Examples shipped with 1.6.0 that use ctx.ui in the TUI, loaded together. */
const EXAMPLES = [
  "widget-placement.ts",
  "status-line.ts",
  "timed-confirm.ts",
  "overlay-test.ts",
  "permission-gate.ts",
];

const EXAMPLE_STEPS: ScriptStep[] = [
  {
    name: "start-up",
    act: async () => {},
    ready: (t) =>
      t.includes("Above editor widget") && t.includes("Below editor widget") && t.includes("Ready"),
  },
  {
    name: "turn",
    act: send("hello"),
    ready: (t) => t.includes("Hi there.") && t.includes("✓ Turn 1 complete"),
  },
  {
    name: "timed select",
    act: send("/timed-select"),
    ready: (t) => /Pick an option \((10|9)s\)/.test(t),
  },
  { name: "selected", act: press("Down", "Enter"), ready: (t) => t.includes("Selected: Option B") },
  {
    name: "timed confirm",
    act: async (s) => {
      await s.pane.command("/timed");
      await s.pane.waitFor((t) => t.includes("Timed Confirmation"), TIMEOUTS.step, "the confirmation");
      await s.pane.keys("Enter");
    },
    ready: (t) => t.includes("Confirmed by user!"),
  },
  { name: "overlay", act: send("/overlay-test"), ready: (t) => t.includes("Overlay Test") },
  {
    name: "overlay typed",
    act: async (s) => {
      await s.pane.type("abc");
      await s.pane.keys("Left");
    },
    ready: (t) => t.includes("Search: abc"),
  },
  { name: "overlay done", act: press("Enter"), ready: (t) => t.includes('Search: "abc"') },
  // A dialog from a tool_call handler while the reply runs: the user refuses the command.
  {
    name: "gate",
    act: send("clean up"),
    ready: (t) => t.includes("Dangerous command:") && t.includes("→ Yes"),
  },
  {
    name: "gate refused",
    act: press("Down", "Enter"),
    ready: (t) =>
      t.includes("Blocked by user") && t.includes("Left it alone.") && t.includes("✓ Turn 3 complete"),
  },
];

async function runExamples(reference: boolean): Promise<string[]> {
  const turns: ScriptedTurn[] = [
    { content: [{ type: "text", text: "Hi there." }] },
    { content: [{ type: "toolCall", id: "c1", name: "bash", arguments: { command: "rm -rf build" } }] },
    { content: [{ type: "text", text: "Left it alone." }] },
  ];
  const s = await startInteractiveScenario(turns, { reference, ...SIZE });
  try {
    const dir = join(requireReference().packageDir, "examples", "extensions");
    const args = EXAMPLES.flatMap((name) => ["-e", join(dir, name)]);
    await s.pane.command(`clear; ${s.piCommand(args)}`);
    const screens: string[] = [];
    for (const [i, step] of EXAMPLE_STEPS.entries()) {
      await step.act(s);
      await s.pane.waitFor(step.ready, i === 0 ? TIMEOUTS.start : TIMEOUTS.step, step.name);
      // The countdown moves on while the screen is taken: its seconds are masked.
      const screen = withoutResourceList(s.normalized(await s.pane.settle(500, 5_000)));
      screens.push(
        step.name === "overlay" || step.name === "overlay typed"
          // An overlay sits where the screen's rows put it, which the resource list moves: its
          // rows and their order are compared.
          ? screen.split("\n").filter((line) => /^ +[╭│╰]/.test(line)).join("\n")
          : screen.replace(/ \(\d+s\)$/m, " (<n>s)"),
      );
    }
    await s.pane.command("/quit");
    await s.pane.waitFor((t) => /\$ ?$/.test(t), TIMEOUTS.step, "the shell after exit");
    return screens;
  } finally {
    await s.close();
  }
}

Deno.test("EXT-07: 1.6.0's widget-placement, status-line, timed-confirm, overlay-test and permission-gate examples in the TUI show what 1.6.0 shows", async () => {
  const ours = await runExamples(false);
  assert(ours[1].endsWith("\n✓ Turn 1 complete"), "the status after the turn");
  const reference = await runExamples(true);
  const differences = EXAMPLE_STEPS.flatMap((step, i) => screenDifferences(step.name, ours[i], reference[i]));
  if (differences.length > 0) console.log(ours.join("\n=====\n"), "\n#####\n", reference.join("\n=====\n"));
  assertEquals(differences, [], "screens differ from pi 1.6.0's");
});
