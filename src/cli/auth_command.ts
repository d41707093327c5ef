/**
 * `pi auth …` as pi 1.6.0 has it: `check` (prints ready / not_ready / invalid and exits 0 / 1 / 2),
 * `print-api-key`, `print-bearer-token` (OAuth tokens, refreshed when they expire too soon),
 * `login <provider>` (account sign-in, auth_login.ts; or `--api-key`, read from stdin) and
 * `logout <provider>`.
 *
 * @module
 */
import { join } from "../util/path.ts";
import { AuthStorage } from "../config/auth_storage.ts";
import { ModelRegistry } from "../config/model_registry.ts";
import { loadBuiltinModels } from "../ai/model_catalog.ts";
import { resolveCliModel } from "../config/model_resolver.ts";
import { APP_NAME } from "../config/paths.ts";
import { parseArgs } from "./args.ts";
import type { SubcommandContext } from "./subcommand_context.ts";
import { dim, red } from "../util/style.ts";
import { loginKind, loginProviderName, parseLoginRequest, runOAuthLogin } from "./auth_login.ts";
import { ACCOUNT_LOGIN_PROVIDERS, hasOAuthFlow } from "./auth_login.ts";
import { loadOAuthProvider } from "../config/oauth/builtin_oauth.ts";

type AuthKind = "check" | "api_key" | "bearer_token";

const USAGE: Record<AuthKind, string> = {
  check: `${APP_NAME} auth check --provider <provider> [--json] [--credentials] [--no-refresh]`,
  api_key: `${APP_NAME} auth print-api-key --provider <provider> [--model <model>]`,
  bearer_token:
    `${APP_NAME} auth print-bearer-token --provider <provider> [--model <model>] [--min-expiry <duration>]`,
};

const NAME: Record<AuthKind, string> = {
  check: "auth check",
  api_key: "auth print-api-key",
  bearer_token: "auth print-bearer-token",
};

/**
 * Appended to the `login` line of `pi auth --help` while account sign-in is missing from this build;
 * empty now that it exists (providers whose flow is not built yet say so when asked).
 */
export const AUTH_LOGIN_MARK = "";

/** `pi auth --help`: pi 1.6.0's text, with {@link AUTH_LOGIN_MARK} after the `login` line. */
export const AUTH_HELP = `Usage:
  ${APP_NAME} auth login <provider> [--api-key] [--no-browser]
  ${APP_NAME} auth logout <provider>
  ${APP_NAME} auth print-api-key [--provider <provider>] [--model <model>]
  ${APP_NAME} auth print-bearer-token [--provider <provider>] [--model <model>] [--min-expiry <duration>]
  ${APP_NAME} auth check [--provider <provider>] [--model <model>] [--json] [--credentials] [--no-refresh]

Log in to and out of model providers, print their credentials for external clients, or check that they are ready.
Credentials are stored in ~/.pi/agent/auth.json.

Commands:
  login <provider>        Sign in with an account in the browser, or save an API key, then exit${AUTH_LOGIN_MARK}
  logout <provider>       Remove the stored credentials; environment variables and models.json stay
  print-api-key           Print the resolved API key
  print-bearer-token      Print a resolved OAuth bearer token (refreshes if expired)
  check                   Print ready, not_ready, or invalid; exit with 0, 1, or 2

Options for print-api-key, print-bearer-token, and check (at least one is required):
  --provider <provider>   Resolve credentials for a provider
  --model <model>         Resolve credentials from a model

Options for login:
  --api-key               Save an API key instead of signing in with an account
  --no-browser            Do not open a browser; use another sign-in method, e.g. device code

Other options:
  --min-expiry <duration> Minimum remaining token lifetime for print-bearer-token, e.g. 30m or 1h
  --json                  Print the check result as JSON
  --credentials           Emit the credential from check, or include it in JSON output
  --no-refresh            Do not refresh expired OAuth credentials during check
`;

class AuthError extends Error {}

/** print-bearer-token's default minimum lifetime left (1.6.0: 30 minutes). */
const DEFAULT_BEARER_MIN_EXPIRY_MS = 30 * 60_000;

/** Runs `pi auth …` (argv starts with "auth") and resolves with the exit code. */
export async function runAuthCommand(argv: string[], ctx: SubcommandContext): Promise<number> {
  const { io } = ctx;
  if (argv[1] === undefined || argv[1] === "help" || argv.includes("--help") || argv.includes("-h")) {
    io.stdout(AUTH_HELP);
    return 0;
  }
  const rest = argv.slice(2).filter((arg) => arg !== "--offline");
  if (argv[1] === "login") return await login(rest, ctx);
  if (argv[1] === "logout") return logout(rest, ctx);
  const kind: AuthKind | undefined = argv[1] === "check"
    ? "check"
    : argv[1] === "print-api-key"
    ? "api_key"
    : argv[1] === "print-bearer-token"
    ? "bearer_token"
    : undefined;
  if (!kind) {
    return fail(
      io,
      `Unknown auth command "${
        argv[1]
      }". Use "${APP_NAME} auth login", "${APP_NAME} auth logout", "${APP_NAME} auth print-api-key", "${APP_NAME} auth print-bearer-token", or "${APP_NAME} auth check".`,
      1,
    );
  }
  const options = {
    json: false,
    credentials: false,
    noRefresh: false,
    minExpiryMs: DEFAULT_BEARER_MIN_EXPIRY_MS,
  };
  const commandArgs: string[] = [];
  try {
    for (let i = 0; i < rest.length; i++) {
      const arg = rest[i];
      if (arg === "--min-expiry") {
        if (kind !== "bearer_token") {
          throw new AuthError("--min-expiry is only supported by print-bearer-token");
        }
        const match = /^(\d+)(ms|s|m|h)$/iu.exec(rest[++i] ?? "");
        if (!match) throw new AuthError("--min-expiry must use a duration such as 30m or 1h");
        const unit = match[2].toLowerCase();
        options.minExpiryMs = Number(match[1]) *
          (unit === "ms" ? 1 : unit === "s" ? 1_000 : unit === "m" ? 60_000 : 3_600_000);
      } else if (arg === "--json" || arg === "--credentials" || arg === "--no-refresh") {
        if (kind !== "check") throw new AuthError(`${arg} is only supported by auth check`);
        if (arg === "--json") options.json = true;
        else if (arg === "--credentials") options.credentials = true;
        else options.noRefresh = true;
      } else {
        commandArgs.push(arg);
      }
    }
  } catch (error) {
    return fail(io, (error as Error).message, 1);
  }
  const parsed = parseArgs(commandArgs);
  if (parsed.unknownFlags.size > 0) {
    const option = parsed.unknownFlags.keys().next().value;
    io.stderr(`${red(`Unknown option --${option} for "${NAME[kind]}".`)}\n`);
    io.stderr(`${dim(`Use "${APP_NAME} --help" or "${USAGE[kind]}".`)}\n`);
    return 1;
  }
  const failCode = kind === "check" ? 2 : 1;
  try {
    if (parsed.diagnostics.length > 0) {
      throw new AuthError(parsed.diagnostics.map((d) => d.message).join("\n"));
    }
    const provider = parsed.provider?.trim() || undefined;
    const model = parsed.model?.trim() || undefined;
    if (parsed.apiKey !== undefined || parsed.messages.length > 0 || parsed.fileArgs.length > 0) {
      throw new AuthError("Auth commands only accept --provider and --model");
    }
    if (!provider && !model) {
      throw new AuthError(
        kind === "check"
          ? "Auth checks require --provider <provider> or --model <model>"
          : "Credential printing requires --provider <provider> or --model <model>",
      );
    }
    const { registry, auth } = await openRegistry(ctx);
    if (kind === "check") {
      let target: string;
      try {
        target = resolveProvider(registry, provider, model);
      } catch {
        // A model that does not resolve (unknown, ambiguous) makes the state invalid, as in 1.6.0.
        return printCheck(
          io,
          { status: "invalid", provider: provider ?? model!, reason: "invalid_state" },
          options,
        );
      }
      return await check(io, registry, auth, target, options);
    }
    const target = resolveProvider(registry, provider, model);
    const stored = auth.get(target);
    if (kind === "bearer_token") {
      if (stored?.type !== "oauth") {
        throw new AuthError(`Provider "${target}" is not configured with an OAuth bearer token`);
      }
      const token = await auth.getApiKey(target, { minOAuthValidityMs: options.minExpiryMs });
      const fresh = auth.get(target);
      // A refresh that still leaves too little time is a failure, as in 1.6.0.
      if (!token || fresh?.type !== "oauth" || Date.now() + options.minExpiryMs >= fresh.expires) {
        throw new Error("OAuth bearer token unavailable");
      }
      io.stdout(`${token}\n`);
      return 0;
    }
    if (stored?.type === "oauth") {
      throw new AuthError(
        provider
          ? `Provider "${target}" is configured with OAuth, not an API key`
          : "No usable API key is configured",
      );
    }
    const key = await registry.getApiKeyForProvider(target);
    if (!key) throw new AuthError("No usable API key is configured");
    io.stdout(`${key}\n`);
    return 0;
  } catch (error) {
    if (error instanceof AuthError) return fail(io, error.message, failCode);
    return fail(
      io,
      kind === "check" ? "Failed to check provider auth" : "Failed to resolve credential",
      failCode,
    );
  }
}

function fail(io: SubcommandContext["io"], message: string, code: number): number {
  io.stderr(`${red(`Error: ${message}`)}\n`);
  return code;
}

async function openRegistry(ctx: SubcommandContext): Promise<{ registry: ModelRegistry; auth: AuthStorage }> {
  // `pi auth` resolves models and lists providers: all of the catalog.
  await loadBuiltinModels();
  const auth = AuthStorage.create(join(ctx.agentDir, "auth.json"));
  return { registry: ModelRegistry.create(auth, join(ctx.agentDir, "models.json")), auth };
}

/** The provider named by `--provider`, or the one `--model` resolves to. */
function resolveProvider(
  registry: ModelRegistry,
  provider: string | undefined,
  model: string | undefined,
): string {
  if (!model) return provider!;
  const resolved = resolveCliModel({ cliProvider: provider, cliModel: model, modelRegistry: registry });
  if (resolved.error || !resolved.model) {
    throw new AuthError(resolved.error ?? `Unable to resolve model "${model}"`);
  }
  return resolved.model.provider;
}

async function check(
  io: SubcommandContext["io"],
  registry: ModelRegistry,
  auth: AuthStorage,
  provider: string,
  options: { json: boolean; credentials: boolean; noRefresh: boolean },
): Promise<number> {
  let result: CheckResult;
  let credential: string | undefined;
  const stored = auth.get(provider);
  if (registry.getError()) {
    result = { status: "invalid", provider, reason: "invalid_state" };
  } else if (!registry.getAll().some((m) => m.provider === provider)) {
    result = { status: "not_ready", provider, reason: "provider_not_found" };
  } else if (stored?.type === "oauth") {
    // An OAuth login is ready when its flow exists; --no-refresh reports it without refreshing.
    const hasFlow = (await loadOAuthProvider(provider)) !== undefined;
    let key: string | undefined;
    let failed = false;
    try {
      key = !hasFlow ? undefined : options.noRefresh ? stored.access : await auth.getApiKey(provider);
    } catch {
      // A refresh the server refuses makes the state invalid, as in 1.6.0.
      failed = true;
    }
    result = failed
      ? { status: "invalid", provider, reason: "invalid_state" }
      : key
      ? { status: "ready", provider, authType: "oauth" }
      : { status: "not_ready", provider, reason: "credentials_not_configured" };
    if (key && options.credentials) credential = key;
  } else {
    const key = await registry.getApiKeyForProvider(provider).catch(() => undefined);
    result = key
      ? { status: "ready", provider, authType: "api_key" }
      : { status: "not_ready", provider, reason: "credentials_not_configured" };
    if (key && options.credentials) credential = key;
  }
  return printCheck(io, result, options, credential);
}

/** A check's status result. */
interface CheckResult {
  status: "ready" | "not_ready" | "invalid";
  provider: string;
  authType?: string;
  reason?: string;
}

/** Prints a check result (JSON or the bare status) and returns its exit code: 0 ready, 1 not ready, 2 invalid. */
function printCheck(
  io: SubcommandContext["io"],
  result: CheckResult,
  options: { json: boolean },
  credential?: string,
): number {
  const text = options.json
    ? JSON.stringify({ ...result, ...(credential ? { credentials: credential } : {}) })
    : (credential ?? result.status);
  io.stdout(`${text}\n`);
  return result.status === "ready" ? 0 : result.status === "not_ready" ? 1 : 2;
}

/**
 * `pi auth login <provider> [--api-key] [--no-browser]`: the account sign-in where the provider has one
 * (auth_login.ts), else (or with `--api-key`) an API key read from stdin and stored in auth.json.
 */
async function login(args: string[], ctx: SubcommandContext): Promise<number> {
  const { io } = ctx;
  const request = parseLoginRequest(args);
  if (typeof request === "string") {
    io.stderr(`${request}\n`);
    return 1;
  }
  const { registry } = await openRegistry(ctx);
  const known = new Set([...registry.getAll().map((m) => m.provider), ...ACCOUNT_LOGIN_PROVIDERS]);
  const wanted = request.provider.trim().toLowerCase();
  const provider = [...known].find((id) =>
    id.toLowerCase() === wanted || registry.getProviderDisplayName(id).toLowerCase() === wanted ||
    loginProviderName(id).toLowerCase() === wanted
  );
  if (!provider) {
    io.stderr(`Unknown provider "${request.provider}".\nProviders: ${[...known].sort().join(", ")}\n`);
    return 1;
  }
  request.provider = provider;
  const kind = loginKind(request, await hasOAuthFlow(provider));
  if (typeof kind === "object") {
    io.stderr(`${kind.error}\n`);
    return 1;
  }
  if (kind === "oauth") return await runOAuthLogin(request, ctx);
  if (io.stdinIsTerminal()) io.stderr(`API key for ${provider}: `);
  const key = (await io.readLine())?.trim();
  if (!key) return fail(io, "No API key given (pipe it to stdin or type it)", 1);
  const auth = AuthStorage.create(join(ctx.agentDir, "auth.json"));
  auth.set(provider, { type: "api_key", key });
  io.stdout(`Saved an API key for ${provider} in ${join(ctx.agentDir, "auth.json")}\n`);
  return 0;
}

/** `pi auth logout <provider>`: removes the stored credential. */
async function logout(args: string[], ctx: SubcommandContext): Promise<number> {
  const { io } = ctx;
  const [provider, ...extra] = args;
  if (provider === undefined || provider.startsWith("-") || extra.length > 0) {
    io.stderr(`Usage: ${APP_NAME} auth logout <provider>\n`);
    return 1;
  }
  const { registry, auth } = await openRegistry(ctx);
  // The provider's own name (1.6.0's provider.name), not its OAuth flow's.
  const name = loginProviderName(provider) !== provider
    ? loginProviderName(provider)
    : registry.getProviderDisplayName(provider);
  const stored = auth.get(provider);
  const known = ACCOUNT_LOGIN_PROVIDERS.includes(provider) ||
    registry.getAll().some((m) => m.provider === provider);
  if (!stored && !known) {
    io.stderr(
      `Unknown provider "${provider}".\nStored credentials: ${auth.list().sort().join(", ") || "none"}\n`,
    );
    return 1;
  }
  if (!stored) {
    io.stdout(
      `No stored credentials for ${name}. Environment variables and models.json config are unchanged.\n`,
    );
    return 0;
  }
  auth.remove(provider);
  io.stdout(
    stored.type === "oauth"
      ? `Logged out of ${name}.\n`
      : `Removed stored API key for ${name}. Environment variables and models.json config are unchanged.\n`,
  );
  return 0;
}
