/**
 * `/logout` in the interactive mode beside pi 1.6.0: with an Anthropic account login and an OpenAI
 * API key in auth.json, the selector lists both (type labels, ✓ configured), removes the API key,
 * then the login, then says nothing is stored. The same keys run in our `pi` and in the reference in
 * tmux panes of the same size; the screens and the auth.json each leaves must be equal.
 */
import { join } from "node:path";
import { assertEquals } from "../support/assert.ts";
import { startInteractiveScenario } from "../support/interactive_scenario.ts";
import { assertSameScreens, collectScreens, type ScriptStep } from "../support/interactive_script.ts";

const TIMEOUTS = { start: 90_000, step: 30_000 };

const STEPS: ScriptStep[] = [
  { name: "start-up", act: async () => {}, ready: (t) => t.includes("(auto)") },
  {
    name: "selector",
    act: (s) => s.pane.command("/logout"),
    ready: (t) =>
      t.includes("Select provider to logout:") && t.includes("→ Anthropic [subscription] ✓ configured") &&
      t.includes("  OpenAI [API key] ✓ configured"),
  },
  { name: "down", act: (s) => s.pane.keys("Down"), ready: (t) => t.includes("→ OpenAI [API key]") },
  {
    name: "api key removed",
    act: (s) => s.pane.keys("Enter"),
    ready: (t) =>
      t.includes(
        "Removed stored API key for OpenAI. Environment variables and models.json config are unchanged.",
      ),
  },
  {
    name: "selector again",
    act: (s) => s.pane.command("/logout"),
    ready: (t) => t.includes("→ Anthropic ✓ configured") && !t.includes("  OpenAI"),
  },
  {
    name: "logged out",
    act: (s) => s.pane.keys("Enter"),
    ready: (t) => t.includes("Logged out of Anthropic"),
  },
  {
    name: "nothing stored",
    act: (s) => s.pane.command("/logout"),
    ready: (t) =>
      t.includes("No stored credentials to remove. /logout only removes credentials saved by /login;"),
  },
];

async function runScript(reference: boolean): Promise<{ screens: string[]; auth: unknown }> {
  const s = await startInteractiveScenario([], { reference });
  try {
    const authPath = join(s.agent.agentDir, "auth.json");
    await Deno.writeTextFile(
      authPath,
      JSON.stringify({
        anthropic: {
          type: "oauth",
          refresh: "r-token",
          access: "sk-ant-oat01-a-token",
          expires: 4102444800000,
        },
        openai: { type: "api_key", key: "sk-openai-key" },
      }),
    );
    await s.pane.command(`clear; ${s.piCommand()}`);
    const screens = await collectScreens(s, STEPS, TIMEOUTS);
    await s.pane.command("/quit");
    await s.pane.waitFor((t) => /\$ ?$/.test(t), TIMEOUTS.step, "the shell after exit");
    return { screens, auth: JSON.parse(await Deno.readTextFile(authPath)) };
  } finally {
    await s.close();
  }
}

Deno.test("INT-LOGOUT: /logout lists the stored credentials and removes the chosen one (API key, then account login); as pi 1.6.0 does", async () => {
  const ours = await runScript(false);
  const reference = await runScript(true);
  assertSameScreens(STEPS, ours.screens, reference.screens);
  assertEquals(ours.auth, {});
  assertEquals(ours.auth, reference.auth);
});
