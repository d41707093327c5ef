/**
 * The project trust question at start-up (issue 11; pi 1.6.0's security.md): `pi` in a terminal, in a folder
 * whose `.pi` holds resources that need a decision and with nothing decided yet, asks before the app starts.
 * Each choice is driven in tmux beside pi 1.6.0: the question's screen, the app's first screen after the
 * answer (the "not trusted" warning or the project's resources loaded), and trust.json on disk.
 */
import { join } from "node:path";
import { assert, assertEquals } from "../support/assert.ts";
import { type InteractiveScenario, startInteractiveScenario } from "../support/interactive_scenario.ts";
import { assertSameScreens, collectScreens, type ScriptStep } from "../support/interactive_script.ts";

const TIMEOUTS = { start: 90_000, step: 30_000 };
const QUESTION = "Trust project folder?";
const WARNING = "This project is not trusted.";

/** A project prompt template (a resource that needs trust), and what it turns into once loaded. */
async function addProjectPrompt(s: InteractiveScenario): Promise<void> {
  await Deno.mkdir(join(s.agent.cwd, ".pi", "prompts"), { recursive: true });
  await Deno.writeTextFile(
    join(s.agent.cwd, ".pi", "prompts", "greet.md"),
    "---\ndescription: Say hi\n---\nHi!\n",
  );
}

async function trustFile(s: InteractiveScenario): Promise<Record<string, boolean> | undefined> {
  try {
    return JSON.parse(await Deno.readTextFile(join(s.agent.agentDir, "trust.json")));
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return undefined;
    throw error;
  }
}

/** Starts pi, answers the question with `keys`, then types `/gre` to see whether the project prompt loaded. */
function steps(keys: string[]): ScriptStep[] {
  return [
    {
      name: "question",
      act: async (s) => await s.pane.command(`clear; ${s.piCommand()}`),
      ready: (t) => t.includes("Do not trust (this session only)"),
    },
    {
      name: "answered",
      act: async (s) => await s.pane.keys(...keys),
      ready: (t) => t.includes("/200k"),
    },
    {
      name: "completion",
      act: async (s) => await s.pane.type("/gre"),
      ready: (t) => t.includes("/gre"),
    },
  ];
}

async function run(keys: string[], reference: boolean) {
  const s = await startInteractiveScenario([], { reference, width: 100, height: 30 });
  try {
    await addProjectPrompt(s);
    const script = steps(keys);
    const screens = await collectScreens(s, script, TIMEOUTS);
    const trust = await trustFile(s);
    await s.pane.keys("C-c");
    await s.pane.command("/quit");
    await s.pane.waitFor((t) => /\$ ?$/.test(t), TIMEOUTS.step, "the shell after exit");
    return { screens, trust, cwd: await Deno.realPath(s.agent.cwd), script };
  } finally {
    await s.close();
  }
}

/** The choices, one `Down` apart: Trust, Trust parent folder, Trust (session), Do not trust, Do not trust (session). */
const CASES: {
  name: string;
  keys: string[];
  trusted: boolean;
  saved: "folder" | "parent" | "none" | "false";
}[] = [
  { name: "Trust", keys: ["Enter"], trusted: true, saved: "folder" },
  { name: "Trust parent folder", keys: ["Down", "Enter"], trusted: true, saved: "parent" },
  { name: "Trust (this session only)", keys: ["Down", "Down", "Enter"], trusted: true, saved: "none" },
  { name: "Do not trust", keys: ["Down", "Down", "Down", "Enter"], trusted: false, saved: "false" },
  { name: "Escape", keys: ["Escape"], trusted: false, saved: "none" },
];

for (const c of CASES) {
  Deno.test(`INT-TRUST-START: "${c.name}" at the start-up question matches pi 1.6.0 (screens, trust.json)`, async () => {
    const ours = await run(c.keys, false);
    const reference = await run(c.keys, true);
    assertSameScreens(ours.script, ours.screens, reference.screens);
    const [question, answered, completion] = ours.screens;
    assert(question.includes(QUESTION), question);
    assert(question.includes("This allows pi to load .pi settings and resources"), question);
    assert(!question.includes("/200k"), "the question comes before the app");
    assertEquals(answered.includes(WARNING), !c.trusted, answered);
    // A loaded project prompt template is offered by the slash-command completion.
    assertEquals(completion.includes("/greet"), c.trusted, completion);
    const parent = ours.cwd.slice(0, ours.cwd.lastIndexOf("/"));
    const expected = c.saved === "folder"
      ? { [ours.cwd]: true }
      : c.saved === "parent"
      ? { [parent]: true }
      : c.saved === "false"
      ? { [ours.cwd]: false }
      : undefined;
    assertEquals(ours.trust, expected);
    const refParent = reference.cwd.slice(0, reference.cwd.lastIndexOf("/"));
    assertEquals(
      reference.trust,
      c.saved === "folder"
        ? { [reference.cwd]: true }
        : c.saved === "parent"
        ? { [refParent]: true }
        : c.saved === "false"
        ? { [reference.cwd]: false }
        : undefined,
      "1.6.0's trust.json",
    );
  });
}

Deno.test("INT-TRUST-START: a saved decision, --approve or defaultProjectTrust answer without asking", async () => {
  const s = await startInteractiveScenario([], {
    width: 100,
    height: 30,
    settings: { defaultProjectTrust: "never" },
  });
  try {
    await addProjectPrompt(s);
    await s.pane.command(`clear; ${s.piCommand()}`);
    const screen = await s.pane.waitFor((t) => t.includes("/200k"), TIMEOUTS.start, "the app");
    assert(!screen.includes(QUESTION), screen);
    assert(screen.includes(WARNING), screen);
    await s.pane.command("/quit");
    await s.pane.waitFor((t) => /\$ ?$/.test(t), TIMEOUTS.step, "the shell after exit");
    await s.pane.command(`clear; ${s.piCommand(["--approve"])}`);
    const approved = await s.pane.waitFor(
      (t) => t.includes("/200k"),
      TIMEOUTS.start,
      "the app with --approve",
    );
    assert(!approved.includes(QUESTION) && !approved.includes(WARNING), approved);
    await s.pane.command("/quit");
    await s.pane.waitFor((t) => /\$ ?$/.test(t), TIMEOUTS.step, "the shell after exit");
    assertEquals(await trustFile(s), undefined, "nothing saved");
  } finally {
    await s.close();
  }
});
