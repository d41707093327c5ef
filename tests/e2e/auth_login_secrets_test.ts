/**
 * AUTH-03/AUTH-04: no OAuth token reaches a log, an error output or a session file. A whole OAuth
 * life cycle runs against the fake servers — browser login, a prompt answered with the login, a
 * refresh, a refresh the server refuses, check, logout — and every output of every process (except
 * the commands whose job is to print a credential) and every file pi wrote outside auth.json is
 * searched for each token the fake OAuth server issued.
 */
import { join } from "node:path";
import { assert, assertEquals } from "../support/assert.ts";
import { startFakeOAuthServer } from "../support/fake_oauth_server.ts";
import { startFakeProvider } from "../support/fake_provider/mod.ts";
import { createLoginEnv, runPi, startLogin } from "../config/oauth/cli_login_harness.ts";

async function filesUnder(dir: string): Promise<string[]> {
  const out: string[] = [];
  const walk = async (path: string) => {
    for await (const entry of Deno.readDir(path)) {
      const child = join(path, entry.name);
      if (entry.isDirectory) await walk(child);
      else if (entry.isFile) out.push(child);
    }
  };
  await walk(dir);
  return out.sort();
}

Deno.test("AUTH-03 e2e OAuth tokens never appear in outputs, logs or session files", async () => {
  const oauth = startFakeOAuthServer({
    // Short-lived so that the second prompt refreshes (less than five minutes left).
    expiresIn: 400,
    accessToken: (n) => `sk-ant-oat01-secret-access-${n}-${crypto.randomUUID()}`,
  });
  const provider = await startFakeProvider([
    { content: [{ type: "text", text: "answer one" }] },
    { content: [{ type: "text", text: "answer two" }] },
  ]);
  const env = await createLoginEnv({ PI_ANTHROPIC_OAUTH_URL: oauth.url });
  const outputs: string[] = [];
  const keep = (result: { stdout: string; stderr: string }) => outputs.push(result.stdout, result.stderr);
  try {
    await Deno.writeTextFile(
      join(env.agentDir, "models.json"),
      JSON.stringify({ providers: { anthropic: { baseUrl: provider.url } } }),
    );
    const login = startLogin(["auth", "login", "anthropic"], env);
    const [, url] = await login.waitFor(/Open this URL to sign in:\n {2}(\S+)\n[\s\S]*\/callback\): $/);
    await oauth.authorize(url);
    const loggedIn = await login.done();
    assertEquals(loggedIn.code, 0, loggedIn.stderr);
    keep(loggedIn);

    const prompt = ["-p", "hello", "--model", "anthropic/claude-haiku-4-5"];
    // expires_in 400 s minus 5 min leaves under five minutes: this run refreshes first.
    const first = await runPi(prompt, env);
    assertEquals(first.code, 0, first.stderr);
    assertEquals(first.stdout, "answer one\n");
    keep(first);
    assertEquals(oauth.tokenGrants("refresh_token").length, 1);

    keep(await runPi(["auth", "check", "--provider", "anthropic", "--json"], env));
    // The server now refuses the refresh: the run fails with an error that names no token.
    oauth.currentRefreshToken = "revoked";
    const refused = await runPi(["-p", "again", "--model", "anthropic/claude-haiku-4-5"], env);
    keep(refused);
    assert(refused.code !== 0, "a refused refresh fails the run");
    assert(
      refused.stderr.includes(
        "OAuth refresh failed for anthropic: Anthropic token refresh failed: HTTP 400 (invalid_grant: refresh token is not current)",
      ),
      refused.stderr,
    );
    keep(await runPi(["auth", "logout", "anthropic"], env));

    const tokens = oauth.issuedTokens();
    // The login, then one refresh per run that found the token short-lived (the prompt and the check);
    // the third refresh request was refused.
    assertEquals(oauth.tokenGrants("refresh_token").length, 3);
    assertEquals(tokens.length, 6);
    const files = (await filesUnder(env.home)).concat(await filesUnder(env.agentDir))
      .filter((path) => !path.endsWith("auth.json"));
    assert(files.some((path) => path.endsWith(".jsonl")), `a session file was written: ${files.join(", ")}`);
    const texts = [...outputs, ...(await Promise.all(files.map((path) => Deno.readTextFile(path))))];
    for (const token of tokens) {
      const leaks = texts.filter((text) => text.includes(token)).length;
      assertEquals(leaks, 0, `token ${token.slice(0, 24)}… found in ${leaks} output(s) or file(s)`);
    }
  } finally {
    await oauth.close();
    await provider.close();
    await env.cleanup();
  }
});
