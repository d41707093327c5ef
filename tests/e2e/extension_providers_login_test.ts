/**
 * EXT-PROV-09: a provider an extension registers with `oauth` (pi.registerProvider) is offered by `/login` in
 * the interactive mode; its login flow runs in the login dialog and the credentials land in auth.json as pi
 * 1.6.0 stores them. Ours and 1.6.0 run the same keystrokes in a tmux pane.
 */
import { join } from "node:path";
import { assertEquals } from "../support/assert.ts";
import { startInteractiveScenario } from "../support/interactive_scenario.ts";
import { fixture } from "./extensions_harness.ts";

const TIMEOUTS = { start: 90_000, step: 30_000 };

/** The rows of `screen` that contain any of `words`, trimmed at the end. */
function rows(screen: string, ...words: string[]): string[] {
  return screen.split("\n").filter((row) => words.some((w) => row.includes(w))).map((row) => row.trimEnd());
}

async function loginCorp(reference: boolean) {
  const s = await startInteractiveScenario([], { reference, width: 100, height: 30 });
  try {
    await s.pane.command(`clear; PROVIDER_CASE=oauth ${s.piCommand(["-e", fixture("ours/providers.ts")])}`);
    await s.pane.waitFor((t) => t.includes("(auto)"), TIMEOUTS.start, "start-up");
    await s.pane.type("/login corp");
    const completion = await s.pane.waitFor((t) => t.includes("→ corp "), TIMEOUTS.step, "the completion");
    await s.pane.keys("Enter");
    await s.pane.waitFor((t) => !t.includes("→ corp "), TIMEOUTS.step, "the completion taken");
    await s.pane.keys("Enter");
    const dialog = await s.pane.waitFor((t) => t.includes("Corp code"), TIMEOUTS.step, "the flow's prompt");
    await s.pane.type("xyz");
    await s.pane.keys("Enter");
    const done = await s.pane.waitFor((t) => t.includes("Logged in to Corp SSO"), TIMEOUTS.step, "logged in");
    return {
      completion: rows(completion, "→ corp "),
      dialog: rows(dialog, "Login to", "https://corp.example/login", "Corp code"),
      done: rows(s.normalized(done), "Logged in"),
      authJson: await Deno.readTextFile(join(s.agent.agentDir, "auth.json")),
    };
  } finally {
    await s.close();
  }
}

Deno.test("EXT-PROV-09 /login offers an extension's OAuth provider, runs its login and stores the credentials as 1.6.0", async () => {
  const ours = await loginCorp(false);
  assertEquals(ours, await loginCorp(true));
  assertEquals(ours.completion, ["→ corp                            Corp SSO · account"]);
  assertEquals(ours.dialog, [" Login to Corp SSO", " https://corp.example/login", " Corp code"]);
  assertEquals(ours.done, [" Logged in to Corp SSO. Credentials saved to <root>/agent/auth.json"]);
  assertEquals(
    ours.authJson,
    JSON.stringify(
      { corp: { access: "access-xyz", refresh: "refresh-1", expires: 4102444800000, type: "oauth" } },
      null,
      2,
    ),
  );
});
