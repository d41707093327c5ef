/**
 * AUTH-03: an expired OAuth login in a shared auth.json is refreshed exactly once when two pi
 * processes need it at the same time — ours and pi 1.6.0 (the live reference, its token requests
 * sent to the same fake OAuth server by tests/config/oauth/reference_oauth_redirect.mjs). The refresh
 * token rotates, so a second refresh with the old one would fail: both runs must answer with the new
 * token, and auth.json must keep every other entry.
 */
import { join } from "node:path";
import { assert, assertEquals } from "../support/assert.ts";
import { startFakeOAuthServer } from "../support/fake_oauth_server.ts";
import { startFakeProvider } from "../support/fake_provider/mod.ts";
import { createAgentEnv, machineEnv } from "../support/agent_env.ts";
import { findReference } from "../../scripts/reference/locate.ts";
import { MAIN_TS, useReferenceFixtures } from "../support/spawn_pi.ts";
import { waitFor } from "../support/wait_for.ts";

const REDIRECT = new URL("../config/oauth/reference_oauth_redirect.mjs", import.meta.url).pathname;
const PROMPT_ARGS = ["--offline", "-p", "hi", "--model", "anthropic/claude-haiku-4-5"];

interface Outcome {
  code: number;
  stdout: string;
  stderr: string;
}

async function run(cmd: string, args: string[], env: Record<string, string>, cwd: string): Promise<Outcome> {
  const child = new Deno.Command(cmd, {
    args,
    env: { ...machineEnv(), ...env },
    clearEnv: true,
    cwd,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const timer = setTimeout(() => child.kill("SIGKILL"), 60_000);
  const out = await child.output();
  clearTimeout(timer);
  const decoder = new TextDecoder();
  return { code: out.code, stdout: decoder.decode(out.stdout), stderr: decoder.decode(out.stderr) };
}

type Side = "ours" | "other";

/**
 * One race: `first` starts, and once its refresh request reached the (slow) OAuth server the other
 * process starts, so it meets the held lock and must take the refreshed login instead of refreshing.
 */
async function race(first: Side): Promise<void> {
  const oauth = startFakeOAuthServer({
    initialRefreshToken: "seed-refresh-token",
    accessToken: (n) => `sk-ant-oat01-fake-access-${n}`,
    refreshDelayMs: 3000,
  });
  const provider = await startFakeProvider([
    { content: [{ type: "text", text: "first answer" }] },
    { content: [{ type: "text", text: "second answer" }] },
  ]);
  const agent = await createAgentEnv(provider.url);
  try {
    const authPath = join(agent.agentDir, "auth.json");
    await Deno.writeTextFile(
      authPath,
      JSON.stringify(
        {
          anthropic: {
            type: "oauth",
            refresh: "seed-refresh-token",
            access: "sk-ant-oat01-expired",
            expires: 1,
          },
          openai: { type: "api_key", key: "sk-keep-me" },
        },
        null,
        2,
      ),
    );
    await Deno.writeTextFile(
      join(agent.agentDir, "models.json"),
      JSON.stringify({ providers: { anthropic: { baseUrl: provider.url } } }),
    );
    const env = { ...agent.env, PI_ANTHROPIC_OAUTH_URL: oauth.url };
    const reference = findReference();
    if (!reference) useReferenceFixtures();
    const start: Record<Side, () => Promise<Outcome>> = {
      ours: () =>
        run(
          Deno.execPath(),
          ["run", "-A", "--no-prompt", "--quiet", MAIN_TS, ...PROMPT_ARGS],
          env,
          agent.cwd,
        ),
      // Without the reference (no registry on this machine) two of our processes race instead.
      other: () =>
        reference
          ? run(reference.node, ["--import", REDIRECT, reference.cli, ...PROMPT_ARGS], env, agent.cwd)
          : run(
            Deno.execPath(),
            ["run", "-A", "--no-prompt", "--quiet", MAIN_TS, ...PROMPT_ARGS],
            env,
            agent.cwd,
          ),
    };
    const second: Side = first === "ours" ? "other" : "ours";
    const firstRun = start[first]();
    await waitFor(() => oauth.tokenGrants("refresh_token").length > 0, 30_000, "the first refresh request");
    const secondRun = start[second]();
    const [a, b] = await Promise.all([firstRun, secondRun]);
    assertEquals(a.code, 0, `${first}: ${a.stderr}`);
    assertEquals(b.code, 0, `${second}: ${b.stderr}`);
    assertEquals([a.stdout, b.stdout].sort(), ["first answer\n", "second answer\n"]);

    const grants = oauth.tokenGrants("refresh_token");
    assertEquals(grants.length, 1, "exactly one refresh");
    assertEquals(grants[0].params.refresh_token, "seed-refresh-token");
    // The process that started first refreshed (Deno's fetch names itself in the user agent).
    const byDeno = (grants[0].headers["user-agent"] ?? "").startsWith("Deno/");
    if (reference) assertEquals(byDeno, first === "ours", grants[0].headers["user-agent"]);
    const [access, refresh] = oauth.issuedTokens();
    const stored = JSON.parse(await Deno.readTextFile(authPath));
    assertEquals(stored.openai, { type: "api_key", key: "sk-keep-me" });
    assertEquals(stored.anthropic.type, "oauth");
    assertEquals([stored.anthropic.access, stored.anthropic.refresh], [access, refresh]);
    assert(stored.anthropic.expires > Date.now() + 50 * 60_000);
    // Both model requests carried the one new token.
    assertEquals(provider.requests.map((r) => r.headers.authorization), [
      `Bearer ${access}`,
      `Bearer ${access}`,
    ]);
    assertEquals(await Deno.stat(`${authPath}.lock`).then(() => true, () => false), false);
  } finally {
    await oauth.close();
    await provider.close();
    await agent.cleanup();
  }
}

Deno.test("AUTH-03 e2e an expired OAuth login is refreshed once: ours refreshes, pi 1.6.0 waits and reuses it", async () => {
  await race("ours");
});

Deno.test("AUTH-03 e2e an expired OAuth login is refreshed once: pi 1.6.0 refreshes, ours waits and reuses it", async () => {
  await race("other");
});
