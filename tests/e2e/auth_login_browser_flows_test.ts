/**
 * AUTH-04 / CLI-1.6-AUTH: `pi auth login openai|openrouter|radius` end to end against the fake OAuth
 * server — the browser sign-ins (URL printed and handed to the browser opener, the test plays the
 * browser through the flow's loopback callback), a pasted redirect URL instead, and Radius's
 * device-code method under `--no-browser`, and the Radius MCP server 1.6.0 sets up after a Radius login. Lines as pi 1.6.0's `pi auth login` prints them (its
 * dist/cli/auth-login.js; the flows' own prompts and progress are compared with pi-ai 1.6.0 in
 * tests/config/oauth/*_test.ts), the login stored in auth.json in 1.6.0's format.
 */
import { join } from "node:path";
import { assert, assertEquals } from "../support/assert.ts";
import { startFakeOAuthServer } from "../support/fake_oauth_server.ts";
import {
  CHATGPT_ISSUED_CLIENT_ID,
  DEVICE_TOKENS,
  openAuthorizeUrl,
  OPENROUTER_KEY,
  SCENARIOS,
} from "../fixtures/oauth/scenarios.ts";
import { createLoginEnv, runPi, startLogin } from "../config/oauth/cli_login_harness.ts";

const SIGN_IN = /Open this URL to sign in:\n {2}(\S+)\n/;

async function storedLogin(agentDir: string, provider: string): Promise<Record<string, unknown>> {
  return JSON.parse(await Deno.readTextFile(join(agentDir, "auth.json")))[provider];
}

Deno.test("CLI-1.6-AUTH e2e pi auth login openai: Sign in with ChatGPT through the loopback callback, device id sent, login stored", async () => {
  const server = startFakeOAuthServer();
  SCENARIOS.openai_chatgpt.find((s) => s.name === "login-callback")!.setup(server);
  // A free callback port, so this cannot collide with OpenAI Codex's 1455 under --parallel.
  const env = await createLoginEnv({ PI_OPENAI_OAUTH_URL: server.url, PI_OPENAI_OAUTH_CALLBACK_PORT: "0" });
  try {
    const login = startLogin(["auth", "login", "openai"], env);
    const [, url] = await login.waitFor(SIGN_IN);
    const redirect = new URL(url).searchParams.get("redirect_uri")!;
    await openAuthorizeUrl(server, url, true);
    const result = await login.done();
    const authPath = join(env.agentDir, "auth.json");
    assertEquals(result, {
      code: 0,
      stdout: "Open this URL to sign in:\n" +
        `  ${url}\n` +
        "Complete sign-in in your browser. If the callback does not complete, paste the final redirect URL here.\n" +
        `Complete login in your browser, or paste the final redirect URL here: (${redirect}): ` +
        "Exchanging authorization code for tokens...\n\n" +
        `Logged in to OpenAI. Credentials saved to ${authPath}\n`,
      stderr: "",
    });
    assertEquals(await env.openedUrls(), [url]);
    // The installation's device id (created in settings.json) is the agent host id.
    const { deviceId } = JSON.parse(await Deno.readTextFile(join(env.agentDir, "settings.json")));
    assertEquals(new URL(url).searchParams.get("ext_agent_host_id"), `urn:uuid:${deviceId}`);
    const { expires, ...stored } = await storedLogin(env.agentDir, "openai");
    assertEquals(stored, {
      type: "oauth",
      access: "fake-chatgpt-access",
      refresh: "fake-chatgpt-refresh",
      clientId: CHATGPT_ISSUED_CLIENT_ID,
      scopes: [
        "openid",
        "profile",
        "email",
        "offline_access",
        "resource.invoke",
        "chatgpt.tokens.use.direct",
      ],
    });
    assert(typeof expires === "number" && expires > Date.now() + 50 * 60_000, String(expires));
  } finally {
    await server.close();
    await env.cleanup();
  }
});

Deno.test("CLI-1.6-AUTH e2e pi auth login openrouter: browser callback trades the code for a key; a pasted redirect URL works too", async () => {
  for (const how of ["callback", "paste"] as const) {
    const server = startFakeOAuthServer();
    SCENARIOS.openrouter.find((s) => s.name === "login-callback")!.setup(server);
    const env = await createLoginEnv({ PI_OPENROUTER_OAUTH_URL: server.url });
    try {
      const login = startLogin(["auth", "login", "openrouter"], env);
      const [, url] = await login.waitFor(SIGN_IN);
      const callback = new URL(url).searchParams.get("callback_url")!;
      const question =
        `Complete sign-in in your browser, or paste the authorization code / redirect URL here: (${callback}): `;
      if (how === "callback") await openAuthorizeUrl(server, url, true);
      else {
        await login.waitFor(new RegExp(`${question.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")}$`));
        await login.type(await openAuthorizeUrl(server, url, false));
      }
      const result = await login.done();
      const authPath = join(env.agentDir, "auth.json");
      assertEquals(result, {
        code: 0,
        stdout: `Listening for OpenRouter OAuth callback on ${callback}\n` +
          "Open this URL to sign in:\n" +
          `  ${url}\n` +
          "Complete sign-in in your browser. If the browser is on another machine, paste the final redirect URL here.\n" +
          question +
          (how === "callback" ? "\n" : "Exchanging authorization code for an API key...\n") +
          `Logged in to OpenRouter. Credentials saved to ${authPath}\n`,
        stderr: "",
      }, how);
      assertEquals(await env.openedUrls(), [url]);
      assertEquals(await storedLogin(env.agentDir, "openrouter"), {
        type: "oauth",
        access: OPENROUTER_KEY,
        refresh: "",
        expires: Number.MAX_SAFE_INTEGER,
      });
      assertEquals(await runPi(["auth", "print-bearer-token", "--provider", "openrouter"], env), {
        code: 0,
        stdout: `${OPENROUTER_KEY}\n`,
        stderr: "",
      });
    } finally {
      await server.close();
      await env.cleanup();
    }
  }
});

Deno.test("CLI-1.6-AUTH e2e pi auth login radius: browser sign-in on 127.0.0.1:1456 by default, the device code with --no-browser", async () => {
  for (const method of ["browser", "device-code"] as const) {
    const server = startFakeOAuthServer();
    SCENARIOS.radius.find((s) => s.name === method)!.setup(server);
    const env = await createLoginEnv({ PI_RADIUS_OAUTH_URL: server.url });
    try {
      const authPath = join(env.agentDir, "auth.json");
      const mcpPath = join(env.agentDir, "mcp.json");
      const deviceLabel = "Sign in with device code (when signing in from another device)";
      if (method === "browser") {
        const login = startLogin(["auth", "login", "radius"], env);
        const [, url] = await login.waitFor(/Open this URL to sign in:\n {2}(\S+)\n[\s\S]*--no-browser"\n$/);
        await openAuthorizeUrl(server, url, true);
        assertEquals(await login.done(), {
          code: 0,
          stdout: "Listening for OAuth callback on http://127.0.0.1:1456/oauth/callback\n" +
            "Open this URL to sign in:\n" +
            `  ${url}\n` +
            "Continue in your browser.\n" +
            `To use "${deviceLabel}" instead, run "pi auth login radius --no-browser"\n` +
            `Logged in to Radius. Credentials saved to ${authPath}\n` +
            `Added MCP server "radius" in ${mcpPath} to use the Radius login.\n`,
          stderr: "",
        });
        assertEquals(await env.openedUrls(), [url]);
        assertEquals(new URL(url).origin, server.url);
      } else {
        // A server already pointing at the Radius MCP endpoint (with its own OAuth) is switched to the login.
        await Deno.writeTextFile(
          mcpPath,
          JSON.stringify({
            mcpServers: { team: { url: "https://radius.pi.dev/mcp/", oauth: { clientId: "x" } } },
          }),
        );
        assertEquals(await startLogin(["auth", "login", "radius", "--no-browser"], env).done(), {
          code: 0,
          stdout: `Sign in to Radius: ${deviceLabel}\n` +
            "Open https://radius.example/device and enter code: RADI-0001\n" +
            "Waiting for authentication...\n" +
            `Logged in to Radius. Credentials saved to ${authPath}\n` +
            `Updated MCP server "team" in ${mcpPath} to use the Radius login.\n`,
          stderr: "",
        });
        assertEquals(await env.openedUrls(), []);
      }
      const { expires, ...stored } = await storedLogin(env.agentDir, "radius");
      assertEquals(stored, {
        type: "oauth",
        access: DEVICE_TOKENS.access,
        refresh: DEVICE_TOKENS.refresh,
        ...(method === "browser" ? { scope: "gateway offline_access" } : {}),
      });
      assert(typeof expires === "number" && expires > Date.now() + 50 * 60_000, String(expires));
      // As 1.6.0: the Radius MCP server of the global mcp.json uses the login.
      assertEquals(
        JSON.parse(await Deno.readTextFile(mcpPath)).mcpServers,
        method === "browser"
          ? { radius: { url: "https://radius.pi.dev/mcp", auth: { provider: "radius" } } }
          : { team: { url: "https://radius.pi.dev/mcp/", auth: { provider: "radius" } } },
      );
      // Signing in again changes nothing more.
      if (method === "browser") {
        const again = startLogin(["auth", "login", "radius"], env);
        const [, url] = await again.waitFor(SIGN_IN);
        await openAuthorizeUrl(server, url, true);
        const result = await again.done();
        assertEquals([result.code, result.stdout.includes("MCP server")], [0, false], result.stderr);
      }
    } finally {
      await server.close();
      await env.cleanup();
    }
  }
});
