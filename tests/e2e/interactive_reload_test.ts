/**
 * `/reload` in the interactive mode beside pi 1.6.0: AGENTS.md, a prompt template, a skill and an
 * extension are edited (or added) while pi runs; after `/reload` the next prompt carries the new
 * context file and skill, the template sends its new text, the extension's command answers with its
 * new code, and the extension saw `session_shutdown` and `session_start` with reason "reload". The
 * same script runs in our `pi` and in the reference in tmux panes of the same size; the screens,
 * what the model was sent and the extension's event log must be equal.
 */
import { assert, assertEquals } from "../support/assert.ts";
import type { ScriptedTurn } from "../support/fake_provider/mod.ts";
import { type InteractiveScenario, startInteractiveScenario } from "../support/interactive_scenario.ts";
import { assertSameScreens, collectScreens, type ScriptStep } from "../support/interactive_script.ts";

const TIMEOUTS = { start: 90_000, step: 30_000 };

const TURNS: ScriptedTurn[] = [
  { content: [{ type: "text", text: "Answer one." }] },
  { content: [{ type: "text", text: "Answer two." }] },
];

function extensionSource(log: string, version: string): string {
  return `import { appendFileSync } from "node:fs";
export default function (pi) {
  const log = (line) => appendFileSync(${JSON.stringify(log)}, line + "\\n");
  pi.on("session_start", (event) => log("${version} start:" + event.reason));
  pi.on("session_shutdown", (event) => log("${version} shutdown:" + event.reason));
  pi.registerCommand("ping", {
    description: "Ping the extension",
    handler: async (_args, ctx) => ctx.ui.notify("pong ${version}", "info"),
  });
}
`;
}

function skillSource(name: string): string {
  return `---\nname: ${name}\ndescription: A skill added while pi ran.\n---\n\nDo the thing.\n`;
}

/** Writes the second version of every resource. */
async function editResources(s: InteractiveScenario, log: string): Promise<void> {
  const { agentDir, cwd } = s.agent;
  await Deno.writeTextFile(`${cwd}/AGENTS.md`, "Rule two.\n");
  await Deno.writeTextFile(`${agentDir}/prompts/greet.md`, "Say hello v2\n");
  await Deno.mkdir(`${agentDir}/skills/added-skill`, { recursive: true });
  await Deno.writeTextFile(`${agentDir}/skills/added-skill/SKILL.md`, skillSource("added-skill"));
  await Deno.writeTextFile(`${agentDir}/extensions/ping.ts`, extensionSource(log, "v2"));
}

function steps(log: string): ScriptStep[] {
  return [
    { name: "start-up", act: async () => {}, ready: (t) => t.includes("(auto)") },
    { name: "ping v1", act: (s) => s.pane.command("/ping"), ready: (t) => t.includes("pong v1") },
    { name: "first", act: (s) => s.pane.command("first question"), ready: (t) => t.includes(" Answer one.") },
    {
      name: "reloaded",
      act: async (s) => {
        await editResources(s, log);
        await s.pane.command("/reload");
      },
      ready: (t) =>
        t.includes("Reloaded keybindings, extensions, skills, prompts, themes, and context files"),
    },
    { name: "ping v2", act: (s) => s.pane.command("/ping"), ready: (t) => t.includes("pong v2") },
    { name: "template", act: (s) => s.pane.command("/greet"), ready: (t) => t.includes(" Answer two.") },
  ];
}

/** What one request carried: which AGENTS.md text, whether the added skill was listed, the last user text. */
interface Sent {
  rule: string;
  skill: boolean;
  lastUser: unknown;
  roles: string[];
}

async function runScript(reference: boolean) {
  const s = await startInteractiveScenario(TURNS, { reference, settings: { quietStartup: true } });
  try {
    const { agentDir, cwd } = s.agent;
    const log = `${s.agent.root}/events.log`;
    await Deno.writeTextFile(`${cwd}/AGENTS.md`, "Rule one.\n");
    await Deno.mkdir(`${agentDir}/prompts`, { recursive: true });
    await Deno.writeTextFile(`${agentDir}/prompts/greet.md`, "Say hello v1\n");
    await Deno.mkdir(`${agentDir}/extensions`, { recursive: true });
    await Deno.writeTextFile(`${agentDir}/extensions/ping.ts`, extensionSource(log, "v1"));
    const script = steps(log);
    await s.pane.command(`clear; ${s.piCommand()}`);
    const screens = await collectScreens(s, script, TIMEOUTS);
    await s.pane.command("/quit");
    await s.pane.waitFor((t) => /\$ ?$/.test(t), TIMEOUTS.step, "the shell after exit");
    const sent: Sent[] = s.server.requests.map((r) => {
      const body = r.body as { system?: unknown; messages: { role: string; content: unknown }[] };
      const system = JSON.stringify(body.system ?? "");
      const users = body.messages.filter((m) => m.role === "user");
      return {
        rule: /Rule (one|two)\./.exec(system)?.[1] ?? "none",
        skill: system.includes("added-skill"),
        lastUser: users[users.length - 1]?.content,
        roles: body.messages.map((m) => m.role),
      };
    });
    const events = (await Deno.readTextFile(log)).trim().split("\n");
    return { steps: script, screens, sent, events };
  } finally {
    await s.close();
  }
}

Deno.test("INT-RELOAD: /reload brings in an edited AGENTS.md, prompt template, skill and extension (session_shutdown/session_start reason reload); as pi 1.6.0 does", async () => {
  const ours = await runScript(false);
  const reference = await runScript(true);
  assertEquals(ours.sent.map(({ rule, skill }) => ({ rule, skill })), [
    { rule: "one", skill: false },
    { rule: "two", skill: true },
  ]);
  assert(JSON.stringify(ours.sent[1].lastUser).includes("Say hello v2"), "the edited template is sent");
  assertEquals(ours.events, [
    "v1 start:startup",
    "v1 shutdown:reload",
    "v2 start:reload",
    "v2 shutdown:quit",
  ]);
  assertEquals(ours.events, reference.events);
  assertEquals(ours.sent, reference.sent);
  assertSameScreens(ours.steps, ours.screens, reference.screens);
});
