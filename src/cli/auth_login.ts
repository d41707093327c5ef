/**
 * `pi auth login <provider> [--no-browser]` for account sign-in (OAuth), as pi 1.6.0 prints it: the
 * URL to open (and the browser opened), the device code, the pasted-code prompt raced against the
 * browser callback, then `Logged in to <provider>. Credentials saved to <auth.json>`. Answers are
 * read from stdin line by line, also when stdin is not a terminal (1.6.0 insists on a terminal).
 *
 * @module
 */
import { openBrowser } from "../util/open_browser.ts";
import { join } from "../util/path.ts";
import { APP_NAME } from "../config/paths.ts";
import { AuthStorage } from "../config/auth_storage.ts";
import { SettingsManager } from "../config/settings_manager.ts";
import { BUILT_IN_PROVIDER_DISPLAY_NAMES } from "../config/provider_display_names.ts";
import { hasBuiltinOAuthFlow, loadOAuthProvider } from "../config/oauth/builtin_oauth.ts";
import { trustedHttpUrl } from "../config/oauth/trusted_url.ts";
import type { OAuthLoginCallbacks, OAuthPrompt, OAuthSelectOption } from "../config/oauth_registry.ts";
import { replaceControlCharacters } from "../tui/utils_ansi.ts";
import type { SubcommandContext } from "./subcommand_context.ts";

/** 1.6.0's usage line of the command. */
export const AUTH_LOGIN_USAGE = `${APP_NAME} auth login <provider> [--api-key] [--no-browser]`;

/**
 * Providers that sign in with an account in pi 1.6.0 (its `auth.oauth` providers). Those without a
 * flow in builtin_oauth.ts yet say so instead of asking for an API key.
 */
export const ACCOUNT_LOGIN_PROVIDERS: readonly string[] = [
  "anthropic",
  "github-copilot",
  "kimi-coding",
  "meta",
  "openai",
  "openai-codex",
  "openrouter",
  "radius",
  "xai",
];

/** 1.6.0 providers whose only way in is the account sign-in (no API key auth at all). */
const ACCOUNT_ONLY_PROVIDERS = new Set(["openai-codex"]);

/** What `pi auth login` was asked for. */
export interface LoginRequest {
  provider: string;
  apiKey: boolean;
  browser: boolean;
}

/** Parses the arguments after `login`; a string is the error to print. */
export function parseLoginRequest(args: string[]): LoginRequest | string {
  const request: LoginRequest = { provider: "", apiKey: false, browser: true };
  for (const arg of args) {
    if (arg === "--api-key") request.apiKey = true;
    else if (arg === "--no-browser") request.browser = false;
    else if (arg.startsWith("-") || request.provider) return `Usage: ${AUTH_LOGIN_USAGE}`;
    else request.provider = arg;
  }
  if (!request.provider) return `Usage: ${AUTH_LOGIN_USAGE}`;
  if (request.apiKey && !request.browser) {
    return "--no-browser only applies to account sign-in; omit it with --api-key.";
  }
  return request;
}

/** The provider's name as 1.6.0 prints it in login messages. */
export function loginProviderName(provider: string): string {
  return BUILT_IN_PROVIDER_DISPLAY_NAMES[provider] ?? provider;
}

/**
 * How a login request is served: `oauth` (a flow exists), `api_key` (the caller's key path), or an
 * error line to print (account sign-in not built yet, or `--api-key` for an account-only provider).
 */
export function loginKind(
  request: LoginRequest,
  hasOAuthFlow: boolean,
): "oauth" | "api_key" | { error: string } {
  const name = loginProviderName(request.provider);
  if (request.apiKey) {
    return ACCOUNT_ONLY_PROVIDERS.has(request.provider)
      ? { error: `${name} has no API key login. Omit --api-key to sign in.` }
      : "api_key";
  }
  if (hasOAuthFlow) return "oauth";
  if (ACCOUNT_LOGIN_PROVIDERS.includes(request.provider)) {
    return {
      error: `Signing in to ${name} with an account is not available in this build yet` +
        (ACCOUNT_ONLY_PROVIDERS.has(request.provider)
          ? ""
          : `; use "${APP_NAME} auth login ${request.provider} --api-key"`),
    };
  }
  return "api_key";
}

/** Whether `provider` has an OAuth flow here (runtime-registered or built in), without loading it. */
export async function hasOAuthFlow(provider: string): Promise<boolean> {
  return hasBuiltinOAuthFlow(provider) || (await loadOAuthProvider(provider)) !== undefined;
}

/** The http(s) URL normalized, else the text with control characters made harmless (1.6.0's displayUrl). */
function displayUrl(value: string): string {
  return trustedHttpUrl(value) ?? replaceControlCharacters(value);
}

/** Line reader over the CLI's stdin whose questions can be abandoned (the browser callback won). */
function questioner(ctx: SubcommandContext, loginAbort: AbortController) {
  // A question abandoned by its signal keeps its pending read; the next question takes it over.
  let pending: Promise<string | undefined> | undefined;
  return (text: string, signal?: AbortSignal): Promise<string> => {
    ctx.io.stdout(text);
    pending ??= ctx.io.readLine();
    const read = pending;
    return new Promise<string>((resolve, reject) => {
      const onAbort = () => {
        ctx.io.stdout("\n");
        reject(new Error("Login cancelled"));
      };
      if (signal?.aborted) return onAbort();
      signal?.addEventListener("abort", onAbort, { once: true });
      read.then((line) => {
        if (signal?.aborted) return;
        signal?.removeEventListener("abort", onAbort);
        pending = undefined;
        if (line === undefined) {
          // End of input answers nothing: the whole login is cancelled, as Ctrl+D in 1.6.0.
          loginAbort.abort();
          reject(new Error("Login cancelled"));
        } else resolve(line);
      });
    });
  };
}

/** Callbacks printing what 1.6.0's `pi auth login` prints, for `request`. */
function terminalCallbacks(
  request: LoginRequest,
  ctx: SubcommandContext,
  abort: AbortController,
): OAuthLoginCallbacks {
  const write = (line: string) => ctx.io.stdout(`${line}\n`);
  const question = questioner(ctx, abort);
  const ask = (prompt: OAuthPrompt, signal?: AbortSignal) =>
    question(`${prompt.message}${prompt.placeholder ? ` (${prompt.placeholder})` : ""}: `, signal);
  // The browser sign-in is first; with --no-browser the other method(s).
  let skipped: string[] = [];
  const selectInTerminal = async (message: string, options: OAuthSelectOption[]): Promise<string> => {
    write(message);
    options.forEach((option, index) => write(`  ${index + 1}. ${option.label}`));
    for (;;) {
      const answer = (await question(`Select 1-${options.length}: `, abort.signal)).trim();
      const option = /^\d+$/.test(answer) ? options[Number(answer) - 1] : undefined;
      if (option) return option.id;
      write(`Enter a number from 1 to ${options.length}.`);
    }
  };
  return {
    signal: abort.signal,
    onSelect: ({ message, options }) => {
      const [first, ...others] = options;
      if (!first) return Promise.resolve(undefined);
      if (request.browser) {
        skipped = others.map((option) => option.label);
        return Promise.resolve(first.id);
      }
      if (others.length === 0) return Promise.resolve(first.id);
      if (others.length > 1) return selectInTerminal(message, others);
      write(`${message} ${others[0].label}`);
      return Promise.resolve(others[0].id);
    },
    onAuth: ({ url, instructions }) => {
      write(`Open this URL to sign in:\n  ${displayUrl(url)}`);
      if (instructions) write(instructions);
      const target = trustedHttpUrl(url);
      if (target && request.browser) openBrowser(target);
      const rerun = `"${APP_NAME} auth login ${request.provider} --no-browser"`;
      if (skipped.length === 1) write(`To use "${skipped[0]}" instead, run ${rerun}`);
      else if (skipped.length > 1) {
        write(
          `Other sign-in methods: ${
            skipped.map((label) => `"${label}"`).join(", ")
          }. Run ${rerun} to choose one.`,
        );
      }
    },
    onDeviceCode: ({ userCode, verificationUri }) => {
      write(`Open ${displayUrl(verificationUri)} and enter code: ${userCode}`);
      const target = trustedHttpUrl(verificationUri);
      if (target && request.browser) openBrowser(target);
      write("Waiting for authentication...");
    },
    onProgress: (message) => write(message),
    onPrompt: (prompt) => ask(prompt, abort.signal),
    onManualCodeInput: (signal, prompt) =>
      ask(
        prompt ?? { message: "Paste the authorization code" },
        signal ? AbortSignal.any([signal, abort.signal]) : abort.signal,
      ),
  };
}

/**
 * Runs the account sign-in for `request.provider` and stores the credentials in auth.json; resolves
 * with the exit code. Ctrl+C (SIGINT) or the end of stdin while a question waits cancels it.
 */
export async function runOAuthLogin(request: LoginRequest, ctx: SubcommandContext): Promise<number> {
  const name = loginProviderName(request.provider);
  const authPath = join(ctx.agentDir, "auth.json");
  const auth = AuthStorage.create(authPath);
  const [broken] = auth.getLoadProblems().filter((problem) => problem.startsWith("Cannot"));
  if (broken) {
    ctx.io.stderr(`Failed to log in to ${name}: ${broken}\n`);
    return 1;
  }
  auth.drainErrors();
  const abort = new AbortController();
  const onInterrupt = () => abort.abort();
  let listening = false;
  try {
    Deno.addSignalListener("SIGINT", onInterrupt);
    listening = true;
  } catch {
    // No signal support (Windows without a console): Ctrl+C ends the process instead.
  }
  try {
    // Created (and saved in settings.json) only when a flow asks for it, as in 1.6.0.
    const getDeviceId = () =>
      SettingsManager.create(ctx.cwd, ctx.agentDir, { projectTrusted: false }).getOrCreateDeviceId();
    await auth.login(request.provider, terminalCallbacks(request, ctx, abort), { getDeviceId });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (abort.signal.aborted || message === "Login cancelled") ctx.io.stderr("Login cancelled.\n");
    else ctx.io.stderr(`Failed to log in to ${name}: ${message}\n`);
    return 1;
  } finally {
    if (listening) Deno.removeSignalListener("SIGINT", onInterrupt);
  }
  const [writeError] = auth.drainErrors();
  if (writeError) {
    ctx.io.stderr(`Failed to log in to ${name}: could not save the credentials: ${writeError.message}\n`);
    return 1;
  }
  ctx.io.stdout(`Logged in to ${name}. Credentials saved to ${authPath}\n`);
  if (request.provider === RADIUS_PROVIDER_ID) await configureRadiusMcpServer(name, ctx);
  return 0;
}

const RADIUS_PROVIDER_ID = "radius";
/** The MCP endpoint of 1.6.0's default Radius gateway (the server its login is for). */
const RADIUS_MCP_URL = "https://radius.pi.dev/mcp";

/**
 * As 1.6.0 after `pi auth login radius`: points the global mcp.json's Radius MCP server at the login
 * without asking (the login is what the server needs), adding the server when missing under a name
 * whose namespace is free. Nothing changes when a global server already uses the login. A file that
 * cannot be written is reported, the login stays.
 */
async function configureRadiusMcpServer(providerName: string, ctx: SubcommandContext): Promise<void> {
  const { loadMcpConfig } = await import("../extensions/builtin/mcp/config.ts");
  const { addMcpServerConfig } = await import("../extensions/builtin/mcp/config_edit.ts");
  const { mcpNamespace } = await import("../extensions/builtin/mcp/naming.ts");
  const trimmed = (url: string) => url.replace(/\/+$/, "");
  const { servers } = loadMcpConfig({ agentDir: ctx.agentDir, cwd: ctx.cwd, projectTrusted: false });
  const existing = servers.find((server) =>
    "url" in server.config && trimmed(server.config.url) === trimmed(RADIUS_MCP_URL)
  );
  const existingConfig = existing && "url" in existing.config ? existing.config : undefined;
  if (existingConfig?.auth?.provider === RADIUS_PROVIDER_ID) return;
  let serverName = existing?.name ?? "radius";
  if (!existing) {
    const taken = new Set(servers.map((server) => mcpNamespace(server.name)));
    for (let suffix = 1; taken.has(mcpNamespace(serverName)); suffix++) {
      serverName = suffix === 1 ? "radius-mcp" : `radius-mcp-${suffix}`;
    }
  }
  // `auth` replaces the server's own MCP OAuth sign-in.
  const { oauth: _replaced, ...kept } = existingConfig ?? { url: RADIUS_MCP_URL };
  const config = { ...kept, auth: { provider: RADIUS_PROVIDER_ID } };
  const mcpPath = join(ctx.agentDir, "mcp.json");
  try {
    const replaced = addMcpServerConfig(mcpPath, serverName, config);
    ctx.io.stdout(
      `${
        replaced ? "Updated" : "Added"
      } MCP server "${serverName}" in ${mcpPath} to use the ${providerName} login.\n`,
    );
  } catch (error) {
    ctx.io.stderr(`Could not update ${mcpPath}: ${error instanceof Error ? error.message : String(error)}\n`);
  }
}
