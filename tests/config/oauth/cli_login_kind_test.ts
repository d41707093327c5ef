/**
 * CLI-1.6-AUTH: how `pi auth login` reads its arguments and picks the account sign-in or the API
 * key (1.6.0's parseLoginRequest / selectAuthType), including a provider whose flow is missing.
 */
import { assertEquals } from "../../support/assert.ts";
import { loginKind, parseLoginRequest } from "../../../src/cli/auth_login.ts";

Deno.test("CLI-1.6-AUTH pi auth login arguments and the chosen way in", () => {
  assertEquals(parseLoginRequest(["anthropic"]), { provider: "anthropic", apiKey: false, browser: true });
  assertEquals(parseLoginRequest(["--no-browser", "openai-codex"]), {
    provider: "openai-codex",
    apiKey: false,
    browser: false,
  });
  const usage = "Usage: pi auth login <provider> [--api-key] [--no-browser]";
  assertEquals(parseLoginRequest([]), usage);
  assertEquals(parseLoginRequest(["a", "b"]), usage);
  assertEquals(parseLoginRequest(["a", "--other"]), usage);
  assertEquals(
    parseLoginRequest(["a", "--api-key", "--no-browser"]),
    "--no-browser only applies to account sign-in; omit it with --api-key.",
  );
  const request = (provider: string, apiKey = false) => ({ provider, apiKey, browser: true });
  assertEquals(loginKind(request("anthropic"), true), "oauth");
  assertEquals(loginKind(request("anthropic", true), true), "api_key");
  assertEquals(loginKind(request("groq"), false), "api_key");
  assertEquals(loginKind(request("openai-codex", true), true), {
    error: "OpenAI Codex has no API key login. Omit --api-key to sign in.",
  });
  // A 1.6.0 account provider whose flow is missing says so instead of asking for a key.
  assertEquals(loginKind(request("github-copilot"), false), {
    error:
      'Signing in to GitHub Copilot with an account is not available in this build yet; use "pi auth login github-copilot --api-key"',
  });
  assertEquals(loginKind(request("openai-codex"), false), {
    error: "Signing in to OpenAI Codex with an account is not available in this build yet",
  });
});
