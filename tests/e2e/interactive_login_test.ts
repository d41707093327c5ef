/**
 * INT-LOGIN: `/login` in the interactive mode. The method and provider selectors beside pi 1.6.0
 * (same keys, same pane size, equal screens); then, in our `pi` only (1.6.0 cannot be pointed at a
 * fake OAuth server), an Anthropic browser login (the test plays the browser with the URL the dialog
 * opened), a GitHub Copilot device-code login, an API-key login and a cancelled one — each checked on
 * screen and in auth.json.
 */
import { join } from "node:path";
import { assert, assertEquals } from "../support/assert.ts";
import { startFakeOAuthServer } from "../support/fake_oauth_server.ts";
import {
  type InteractiveScenario,
  shellQuote,
  startInteractiveScenario,
} from "../support/interactive_scenario.ts";
import { assertSameScreens, collectScreens, type ScriptStep } from "../support/interactive_script.ts";
import { requireReference } from "../../scripts/reference/locate.ts";
import { COPILOT_GITHUB_TOKEN, COPILOT_SCENARIOS, COPILOT_TOKEN } from "../fixtures/oauth/scenarios.ts";

const TIMEOUTS = { start: 90_000, step: 30_000 };
const SIZE = { width: 100, height: 40 };

const SELECTOR_STEPS: ScriptStep[] = [
  { name: "start-up", act: async () => {}, ready: (t) => t.includes("(auto)") },
  {
    name: "method",
    act: (s) => s.pane.command("/login"),
    ready: (t) =>
      t.includes("Select authentication method:") && t.includes("Sign in with Radius • not configured"),
  },
  {
    name: "accounts",
    act: (s) => s.pane.keys("Enter"),
    ready: (t) => t.includes("Select provider to configure:") && t.includes("→ Radius ✦ • not configured"),
  },
  {
    name: "back",
    act: (s) => s.pane.keys("Escape"),
    ready: (t) => t.includes("Select authentication method:"),
  },
  {
    name: "api keys",
    act: async (s) => {
      await s.pane.keys("Down");
      await s.pane.keys("Enter");
    },
    ready: (t) => t.includes("Select provider to configure:") && t.includes("Amazon Bedrock"),
  },
  {
    name: "search",
    act: (s) => s.pane.type("anthropic"),
    ready: (t) => t.includes("> anthropic") && t.includes("→ Anthropic • not configured"),
  },
  {
    name: "closed",
    act: (s) => s.pane.keys("Escape"),
    ready: (t) => t.includes("Select authentication method:"),
  },
  {
    name: "gone",
    act: (s) => s.pane.keys("Escape"),
    ready: (t) => !t.includes("Select authentication method:"),
  },
  {
    name: "completion",
    act: (s) => s.pane.type("/login copi"),
    ready: (t) => t.includes("→ github-copilot") && t.includes("GitHub Copilot · subscription/API key"),
  },
  {
    name: "completed",
    act: (s) => s.pane.keys("Tab"),
    ready: (t) => t.includes("/login github-copilot") && !t.includes("→ github-copilot"),
  },
];

Deno.test("INT-LOGIN: /login's method selector and provider lists (accounts, API keys, search) as pi 1.6.0 shows them", async () => {
  const run = async (reference: boolean) => {
    const s = await startInteractiveScenario([], { reference, ...SIZE });
    try {
      await s.pane.command(`clear; ${s.piCommand()}`);
      return await collectScreens(s, SELECTOR_STEPS, TIMEOUTS);
    } finally {
      await s.close();
    }
  };
  const ours = await run(false);
  const reference = await run(true);
  // The API-key list holds the built-in llama.cpp extension's provider too, as 1.6.0's.
  const keys = SELECTOR_STEPS.findIndex((step) => step.name === "api keys");
  assert(ours[keys].includes("   (1/47)"), ours[keys]);
  assertSameScreens(SELECTOR_STEPS, ours, reference);
});

/** Starts our pi with the OAuth endpoints at `oauthUrl` and a fake `xdg-open` that logs the URLs. */
async function startOurs(s: InteractiveScenario, oauthUrl: string): Promise<() => Promise<string[]>> {
  const bin = join(s.agent.root, "bin");
  const log = join(s.agent.root, "opened.log");
  await Deno.mkdir(bin, { recursive: true });
  await Deno.writeTextFile(join(bin, "xdg-open"), `#!/bin/sh\necho "$1" >> ${shellQuote(log)}\n`);
  await Deno.chmod(join(bin, "xdg-open"), 0o755);
  const env = [
    `PATH=${shellQuote(bin)}:"$PATH"`,
    `PI_ANTHROPIC_OAUTH_URL=${shellQuote(oauthUrl)}`,
    `PI_GITHUB_COPILOT_OAUTH_URL=${shellQuote(oauthUrl)}`,
  ].join(" ");
  await s.pane.command(`clear; ${env} ${s.piCommand()}`);
  await s.pane.waitFor((t) => t.includes("(auto)"), TIMEOUTS.start, "start-up");
  return async () => {
    try {
      return (await Deno.readTextFile(log)).split("\n").filter(Boolean);
    } catch {
      return [];
    }
  };
}

/**
 * Types `/login <provider>` and submits it: as in 1.6.0, the first Enter takes the argument
 * completion the editor offers, the second runs the command.
 */
async function loginCommand(s: InteractiveScenario, provider: string): Promise<void> {
  await s.pane.type(`/login ${provider}`);
  await s.pane.waitFor((t) => t.includes(`→ ${provider} `), TIMEOUTS.step, "the completion");
  await s.pane.keys("Enter");
  await s.pane.waitFor((t) => !t.includes(`→ ${provider} `), TIMEOUTS.step, "the completion taken");
  await s.pane.keys("Enter");
}

async function readAuth(s: InteractiveScenario): Promise<Record<string, Record<string, unknown>>> {
  return JSON.parse(await Deno.readTextFile(join(s.agent.agentDir, "auth.json")));
}

Deno.test("INT-LOGIN: /login anthropic signs in through the browser callback; auth.json holds the login; Anthropic's models appear in /model", async () => {
  const server = startFakeOAuthServer();
  const s = await startInteractiveScenario([], SIZE);
  try {
    const opened = await startOurs(s, server.url);
    await loginCommand(s, "anthropic");
    await s.pane.waitFor(
      (t) => t.includes("Select authentication method for Anthropic:"),
      TIMEOUTS.step,
      "method",
    );
    const methods = s.normalized(await s.pane.settle(300, 5_000));
    assert(
      methods.includes("→ Sign in with an account") && methods.includes("  Sign in with an API key"),
      methods,
    );
    await s.pane.keys("Enter");
    await s.pane.waitFor(
      (t) => t.includes("Select Anthropic login method:") && t.includes("→ Browser login (default)"),
      TIMEOUTS.step,
      "the flow's choice",
    );
    await s.pane.keys("Enter");
    await s.pane.waitFor(
      (t) => t.includes("Login to Anthropic") && t.includes("Ctrl+click to open"),
      TIMEOUTS.step,
      "URL",
    );
    const deadline = Date.now() + TIMEOUTS.step;
    let urls: string[] = [];
    while ((urls = await opened()).length === 0 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
    }
    assertEquals(urls.length, 1, "the dialog opens the sign-in URL once");
    assert(urls[0].startsWith(`${server.url}/`), urls[0]);
    const dialog = await s.pane.screen();
    assert(dialog.includes(urls[0].slice(0, 60)), `the URL is on screen:\n${dialog}`);
    assertEquals((await server.authorize(urls[0])).status, 200);
    const done = await s.pane.waitFor(
      (t) => t.includes("Logged in to Anthropic. Credentials saved to"),
      TIMEOUTS.step,
      "success",
    );
    assert(
      s.normalized(done).includes("Logged in to Anthropic. Credentials saved to <root>/agent/auth.json"),
      done,
    );
    assert(!done.includes("Login to Anthropic"), "the dialog is gone");
    const [access, refresh] = server.issuedTokens();
    const auth = await readAuth(s);
    assertEquals(Object.keys(auth), ["anthropic"]);
    assertEquals([auth.anthropic.type, auth.anthropic.access, auth.anthropic.refresh], [
      "oauth",
      access,
      refresh,
    ]);
    // /model now completes Anthropic's models (only available ones are offered); take it, then run it.
    await s.pane.type("/model anthropic/claude-sonnet-4-5");
    await s.pane.waitFor((t) => t.includes("→ claude-sonnet-4-5 "), TIMEOUTS.step, "the model completion");
    await s.pane.keys("Enter");
    await s.pane.waitFor((t) => !t.includes("→ claude-sonnet-4-5 "), TIMEOUTS.step, "the completion taken");
    await s.pane.keys("Enter");
    await s.pane.waitFor(
      (t) => t.includes("(anthropic) claude-sonnet-4-5"),
      TIMEOUTS.step,
      "model",
    );
  } finally {
    await s.close();
    await server.close();
  }
});

Deno.test("INT-LOGIN: GitHub Copilot from the account list shows the device code; the approved login lands in auth.json", async () => {
  const server = startFakeOAuthServer();
  COPILOT_SCENARIOS.find((c) => c.name === "login")!.setup(server);
  const s = await startInteractiveScenario([], SIZE);
  try {
    await startOurs(s, server.url);
    await s.pane.command("/login");
    await s.pane.waitFor((t) => t.includes("Select authentication method:"), TIMEOUTS.step, "method");
    await s.pane.keys("Enter");
    await s.pane.waitFor((t) => t.includes("Select provider to configure:"), TIMEOUTS.step, "providers");
    await s.pane.type("copilot");
    await s.pane.waitFor((t) => t.includes("→ GitHub Copilot • not configured"), TIMEOUTS.step, "search");
    await s.pane.keys("Enter");
    await s.pane.waitFor(
      (t) => t.includes("GitHub Enterprise URL/domain (blank for github.com)"),
      TIMEOUTS.step,
      "enterprise question",
    );
    await s.pane.keys("Enter");
    const shown = await s.pane.waitFor(
      (t) => t.includes("Enter code: ABCD-1234"),
      TIMEOUTS.step,
      "device code",
    );
    const block = [
      " Login to GitHub Copilot",
      "",
      " https://github.com/login/device",
      " Ctrl+click to open",
      "",
      " Enter code: ABCD-1234",
      " (enter to open browser and copy code)",
      "",
      " Waiting for authentication...",
      " (escape/ctrl+c to cancel)",
    ].join("\n");
    assert(shown.includes(block), shown);
    const done = await s.pane.waitFor(
      (t) => t.includes("Logged in to GitHub Copilot. Credentials saved to"),
      TIMEOUTS.step,
      "success",
    );
    assert(!done.includes(COPILOT_TOKEN) && !done.includes(COPILOT_GITHUB_TOKEN), "no token on screen");
    const auth = await readAuth(s);
    assertEquals(auth["github-copilot"].type, "oauth");
    assertEquals([auth["github-copilot"].access, auth["github-copilot"].refresh], [
      COPILOT_TOKEN,
      COPILOT_GITHUB_TOKEN,
    ]);
  } finally {
    await s.close();
    await server.close();
  }
});

Deno.test("INT-LOGIN: an API key saved through /login (method → provider → key); Escape in the dialog goes back; a failing login says so", async () => {
  const server = startFakeOAuthServer();
  // The token endpoint refuses: the browser login fails with the server's error.
  server.route("POST", "/v1/oauth/token", () => new Response('{"error":"invalid_grant"}', { status: 400 }));
  const s = await startInteractiveScenario([], SIZE);
  try {
    const opened = await startOurs(s, server.url);
    await loginCommand(s, "deepseek");
    await s.pane.waitFor(
      (t) => t.includes("Login to DeepSeek") && t.includes("Enter DeepSeek API key"),
      TIMEOUTS.step,
      "key field",
    );
    await s.pane.keys("Escape");
    await s.pane.waitFor((t) => !t.includes("Login to DeepSeek"), TIMEOUTS.step, "cancelled");
    await loginCommand(s, "deepseek");
    await s.pane.waitFor((t) => t.includes("Enter DeepSeek API key"), TIMEOUTS.step, "key field again");
    await s.pane.type("sk-deepseek-test");
    await s.pane.keys("Enter");
    const saved = await s.pane.waitFor(
      (t) => t.includes("Saved API key for DeepSeek."),
      TIMEOUTS.step,
      "saved",
    );
    assert(
      s.normalized(saved).includes("Saved API key for DeepSeek. Credentials saved to <root>/agent/auth.json"),
      saved,
    );
    assertEquals(await readAuth(s), { deepseek: { type: "api_key", key: "sk-deepseek-test" } });

    await loginCommand(s, "anthropic");
    await s.pane.waitFor(
      (t) => t.includes("Select authentication method for Anthropic:"),
      TIMEOUTS.step,
      "method",
    );
    await s.pane.keys("Enter");
    await s.pane.waitFor(
      (t) => t.includes("Select Anthropic login method:"),
      TIMEOUTS.step,
      "the flow's choice",
    );
    await s.pane.keys("Enter");
    await s.pane.waitFor((t) => t.includes("Login to Anthropic"), TIMEOUTS.step, "dialog");
    const deadline = Date.now() + TIMEOUTS.step;
    let urls: string[] = [];
    while ((urls = await opened()).length === 0 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
    }
    await server.authorize(urls[0]);
    const failed = await s.pane.waitFor(
      (t) => t.includes("Failed to login to Anthropic:"),
      TIMEOUTS.step,
      "failure",
    );
    assert(!failed.includes("Login to Anthropic"), failed);
    assertEquals(Object.keys(await readAuth(s)), ["deepseek"]);
  } finally {
    await s.close();
    await server.close();
  }
});

const REDIRECT = new URL("../config/oauth/reference_oauth_redirect.mjs", import.meta.url).pathname;

/** The sign-in URL's query (state, PKCE challenge) and origin differ per run: masked. */
function maskUrl(screen: string, url: string): string {
  const rows = screen.split("\n");
  // The URL starts on the row after the title's blank row and wraps over full rows.
  const start = rows.findIndex((row) => row.trimStart().startsWith(url.slice(0, 20)));
  if (start === -1) return screen;
  // It ends above the click hint.
  const end = rows.findIndex((row, i) => i > start && row.includes("click to open"));
  if (end === -1) return screen;
  return [...rows.slice(0, start), " <sign-in URL>", ...rows.slice(end)].join("\n");
}

Deno.test("INT-LOGIN: the Anthropic login dialog and its success line as pi 1.6.0 shows them (fake OAuth server, same keys)", async () => {
  const run = async (reference: boolean) => {
    const server = startFakeOAuthServer();
    const s = await startInteractiveScenario([], SIZE);
    try {
      const bin = join(s.agent.root, "bin");
      const log = join(s.agent.root, "opened.log");
      await Deno.mkdir(bin, { recursive: true });
      await Deno.writeTextFile(join(bin, "xdg-open"), `#!/bin/sh\necho "$1" >> ${shellQuote(log)}\n`);
      await Deno.chmod(join(bin, "xdg-open"), 0o755);
      const env = `PATH=${shellQuote(bin)}:"$PATH" PI_ANTHROPIC_OAUTH_URL=${shellQuote(server.url)}`;
      const ref = reference ? requireReference() : undefined;
      const command = ref
        ? `${shellQuote(ref.node)} --import ${shellQuote(REDIRECT)} ${shellQuote(ref.cli)}`
        : s.piCommand();
      await s.pane.command(`clear; ${env} ${command}`);
      await s.pane.waitFor((t) => t.includes("(auto)"), TIMEOUTS.start, "start-up");
      await loginCommand(s, "anthropic");
      await s.pane.waitFor(
        (t) => t.includes("Select authentication method for Anthropic:"),
        TIMEOUTS.step,
        "method",
      );
      await s.pane.keys("Enter");
      await s.pane.waitFor(
        (t) => t.includes("Select Anthropic login method:"),
        TIMEOUTS.step,
        "the flow's choice",
      );
      const choice = s.normalized(await s.pane.settle(300, 5_000));
      await s.pane.keys("Enter");
      await s.pane.waitFor(
        (t) => t.includes("Login to Anthropic") && t.includes("paste"),
        TIMEOUTS.step,
        "URL",
      );
      const deadline = Date.now() + TIMEOUTS.step;
      let url = "";
      while (!url && Date.now() < deadline) {
        url = (await Deno.readTextFile(log).catch(() => "")).split("\n")[0];
        if (!url) await new Promise((r) => setTimeout(r, 100));
      }
      const dialog = maskUrl(s.normalized(await s.pane.settle(300, 5_000)), url);
      // 1.6.0's URL names claude.ai (only its token request is redirected): play it on the fake server.
      const parsed = new URL(url);
      assertEquals((await server.authorize(`${server.url}${parsed.pathname}${parsed.search}`)).status, 200);
      await s.pane.waitFor((t) => t.includes("Logged in to Anthropic"), TIMEOUTS.step, "success");
      const done = s.normalized(await s.pane.settle(300, 5_000));
      const auth = await readAuth(s);
      return { screens: [choice, dialog, done], auth };
    } finally {
      await s.close();
      await server.close();
    }
  };
  const ours = await run(false);
  const reference = await run(true);
  assertSameScreens(
    ["choice", "dialog", "done"].map((name) => ({ name, act: async () => {}, ready: () => true })),
    ours.screens,
    reference.screens,
  );
  assertEquals(Object.keys(ours.auth), ["anthropic"]);
  assertEquals(Object.keys(reference.auth.anthropic).sort(), Object.keys(ours.auth.anthropic).sort());
});
