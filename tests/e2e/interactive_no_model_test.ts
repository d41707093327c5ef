/**
 * INT-NO-MODEL: the interactive mode started without any model that has credentials (CLI-24).
 * pi 1.6.0 shows "Warning: No models available. Use /login …" in the chat under the header (not
 * on stderr, which the screen covers) and its placeholder model "unknown" in the footer; the
 * screen is compared with 1.6.0's. After a `/login` whose provider's default model is not among
 * its models yet (a Copilot account that does not list it), 1.6.0 says "Refreshing model catalog…"
 * and tries the selection after the refresh (our `pi` only: 1.6.0 cannot be pointed at the fake
 * OAuth server).
 */
import { join } from "node:path";
import { assert, assertEquals } from "../support/assert.ts";
import { startFakeOAuthServer } from "../support/fake_oauth_server.ts";
import {
  type InteractiveScenario,
  shellQuote,
  startInteractiveScenario,
} from "../support/interactive_scenario.ts";
import { COPILOT_SCENARIOS } from "../fixtures/oauth/scenarios.ts";

const TIMEOUTS = { start: 90_000, step: 30_000 };
const SIZE = { width: 100, height: 30 };

/** A scenario whose agent folder has no models.json and no default model: no model has a key. */
async function withoutModels(reference: boolean, size = SIZE): Promise<InteractiveScenario> {
  const s = await startInteractiveScenario([], { reference, ...size });
  await Deno.remove(join(s.agent.agentDir, "models.json"));
  await Deno.writeTextFile(join(s.agent.agentDir, "settings.json"), "{}");
  return s;
}

/** Each pi names its own documentation folder. */
function maskDocs(screen: string): string {
  return screen.replace(/ {3}\/\S+\/docs\//g, "   <docs>/");
}

Deno.test("INT-NO-MODEL-01 CLI-24 start-up without a usable model: the 'No models available' warning in the chat and 'unknown' in the footer, as pi 1.6.0 shows them", async () => {
  const run = async (reference: boolean) => {
    // Wide enough that the documentation paths in the warning never wrap: their length depends on
    // where the repository and the reference are (a fresh clone under /tmp wrapped them at 100).
    const s = await withoutModels(reference, { width: 250, height: 30 });
    try {
      await s.pane.command(`clear; ${s.piCommand()}`);
      await s.pane.waitFor((t) => t.includes("(auto)"), TIMEOUTS.start, "start-up");
      return maskDocs(s.normalized(await s.pane.settle(1500)));
    } finally {
      await s.close();
    }
  };
  const ours = await run(false);
  const warning = [
    " Warning: No models available. Use /login to log into a provider via OAuth or API key. See:",
    "   <docs>/providers.md",
    "   <docs>/models.md",
  ].join("\n");
  assert(ours.includes(`\n\n${warning}\n`), ours);
  assert(/0\.0%\/0 \(auto\) +unknown\s*$/.test(ours), ours);
  assertEquals(ours, await run(true));
});

/** A catalog server that holds each request until `release()`, then has no catalog (404). */
function startHeldCatalogServer() {
  let release!: () => void;
  const released = new Promise<void>((resolve) => release = resolve);
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async () => {
    await released;
    return new Response("none", { status: 404 });
  });
  return { url: `http://127.0.0.1:${server.addr.port}`, release, close: () => server.shutdown() };
}

Deno.test("INT-NO-MODEL-02 /login github-copilot without a model, the default model not in the account's list: 'Refreshing model catalog…' while the catalog refreshes, then the selection's outcome (1.6.0's deferred selection)", async () => {
  const server = startFakeOAuthServer();
  COPILOT_SCENARIOS.find((c) => c.name === "login")!.setup(server);
  const catalog = startHeldCatalogServer();
  const s = await withoutModels(false);
  try {
    // Online (the scenario's PI_OFFLINE unset) so the catalog refresh runs, against the held server.
    const env = `env -u PI_OFFLINE PI_MODEL_CATALOG_URL=${
      shellQuote(catalog.url)
    } PI_GITHUB_COPILOT_OAUTH_URL=${shellQuote(server.url)}`;
    await s.pane.command(`clear; ${env} ${s.piCommand()}`);
    await s.pane.waitFor((t) => t.includes("(auto)"), TIMEOUTS.start, "start-up");
    await s.pane.type("/login github-copilot");
    await s.pane.waitFor((t) => t.includes("→ github-copilot "), TIMEOUTS.step, "the completion");
    await s.pane.keys("Enter");
    await s.pane.waitFor((t) => !t.includes("→ github-copilot "), TIMEOUTS.step, "the completion taken");
    await s.pane.keys("Enter");
    await s.pane.waitFor((t) => t.includes("→ Sign in with an account"), TIMEOUTS.step, "the method");
    await s.pane.keys("Enter");
    await s.pane.waitFor((t) => t.includes("GitHub Enterprise URL/domain"), TIMEOUTS.step, "enterprise");
    await s.pane.keys("Enter");
    // Rows joined: the auth.json path wraps at the pane's width.
    const joined = (screen: string) => s.normalized(screen).split("\n").map((row) => row.trim()).join(" ");
    const saved = "Credentials saved to <root>/agent/auth.json";
    const refreshing = `Logged in to GitHub Copilot. ${saved}. Refreshing model catalog…`;
    const waiting = joined(
      await s.pane.waitFor((t) => joined(t).includes(refreshing), TIMEOUTS.step, "the refreshing line"),
    );
    assert(!waiting.includes("Error:"), waiting);
    catalog.release();
    const error = 'Error: Logged in to GitHub Copilot, but its default model "gpt-6.1-sol" is not available.';
    const text = joined(await s.pane.waitFor((t) => joined(t).includes(error), TIMEOUTS.step, "the outcome"));
    // The status line is replaced in place (1.6.0's showStatus), the error follows it.
    assert(!text.includes("Refreshing model catalog"), text);
    const then = text.indexOf(`Logged in to GitHub Copilot. ${saved} `);
    assert(then >= 0 && text.indexOf(`${error} Use /model to select a model.`) > then, text);
    assert(!text.includes("Selected "), text);
  } finally {
    catalog.release();
    await s.close();
    await server.close();
    await catalog.close();
  }
});
