/**
 * `pi mcp`: add, remove and check MCP servers without starting a session, with 1.6.0's options,
 * messages and exit codes, and sign in to (or out of) OAuth servers (`login`, `logout`).
 *
 * @module
 */
import { CONFIG_DIR_NAME } from "../../../config/paths.ts";
import { ProjectTrustStore } from "../../../config/project_trust.ts";
import { existsSync } from "../../../util/fs.ts";
import { join } from "../../../util/path.ts";
import { bold, dim } from "../../../util/style.ts";
import {
  getMcpToolExposure,
  type LoadedMcpConfig,
  loadMcpConfig,
  validateMcpServerConfig,
} from "./config.ts";
import { addMcpServerConfig, removeMcpServerConfig } from "./config_edit.ts";
import { McpServerLog } from "./log.ts";
import { McpOAuthCredentialStore } from "./oauth_store.ts";
import { openBrowser } from "../../../util/open_browser.ts";
import type { McpServerEntry } from "./config.ts";

/** Where `pi mcp` runs and writes. */
export interface McpCommandOptions {
  cwd: string;
  agentDir: string;
  log: (line: string) => void;
  error: (line: string) => void;
}

const DEFAULT_LOGIN_TIMEOUT_SECONDS = 300;

/** Levenshtein distance, to suggest a configured name for a mistyped one. */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(
        previous[j] + 1,
        current[j - 1] + 1,
        previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    }
    previous = current;
  }
  return previous[b.length];
}

const APP_NAME = "pi";

function help(): string {
  return `${bold("Usage:")}
  ${APP_NAME} mcp add <server> [options] -- <command> [args...]
  ${APP_NAME} mcp add <server> [options] --url <url>
  ${APP_NAME} mcp remove <server> [-l]
  ${APP_NAME} mcp list [--json]
  ${APP_NAME} mcp login <server> [-l] [--timeout <seconds>]
  ${APP_NAME} mcp logout <server> [-l]

Configure and check MCP servers and sign in to OAuth servers without starting a session.
Reads ~/${CONFIG_DIR_NAME}/agent/mcp.json and, in trusted projects, ${CONFIG_DIR_NAME}/mcp.json.

Commands:
  add <server>            Add or replace a server in mcp.json
  remove <server>         Remove a server from mcp.json
  list                    Show state, tools, and errors (exits 1 on failure)
  login <server>          Sign in through the browser
  logout <server>         Delete the stored OAuth credentials

Options for add, remove, login, and logout:
  -l, --local             Use ${CONFIG_DIR_NAME}/mcp.json in the current project instead of the global file

Options for add:
  --url <url>             Streamable HTTP server URL (instead of a command)
  --env <KEY=VALUE>       Environment variable for a stdio server (repeatable)
  --cwd <dir>             Working directory for a stdio server
  --header <KEY=VALUE>    HTTP header (repeatable)
  --bearer-token-env-var <NAME>
                          Send "Authorization: Bearer \${NAME}"
  --oauth-client-id <id>  Pre-registered OAuth client id
  --oauth-client-secret <secret>
                          OAuth client secret (may be \${NAME} or !command)
  --oauth-callback-port <port>
                          Fixed OAuth callback port
  --oauth-client-name <name>
                          Client name sent when registering with the OAuth server
  --oauth-client-registration <mode>
                          auto (default), cimd, or dcr
  --exposure <mode>       codemode (default), deferred, direct, or hidden
  --description <text>    What the server offers, shown in the system prompt

Other options:
  --json                  Print the list as JSON
  --timeout <seconds>     Time limit for the whole sign-in (default: 300)`;
}

function helpHint(): string {
  return dim(`Use "${APP_NAME} mcp --help" for usage.`);
}

type OptionKind = "flag" | "value" | "list";

interface ParsedOptions {
  positional: string[];
  values: Map<string, string | true>;
  lists: Map<string, string[]>;
}

/**
 * `--name value` options until `--` or `maxPositionals` positionals; the rest is positional, so a
 * server command's own options pass through (`add <server> <command> --flag`).
 */
function parseOptions(
  args: string[],
  known: Record<string, OptionKind>,
  error: (line: string) => void,
  maxPositionals = Number.POSITIVE_INFINITY,
): ParsedOptions | undefined {
  const positional: string[] = [];
  const values = new Map<string, string | true>();
  const lists = new Map<string, string[]>();
  for (let index = 0; index < args.length; index++) {
    const typed = args[index];
    const arg = typed === "-l" ? "--local" : typed;
    if (arg === "--" || positional.length >= maxPositionals) {
      positional.push(...args.slice(arg === "--" ? index + 1 : index));
      break;
    }
    if (!arg.startsWith("--")) {
      positional.push(arg);
      continue;
    }
    const name = arg.slice(2);
    const kind = known[name];
    if (!kind) {
      error(`Unknown option ${typed}.\n${helpHint()}`);
      return undefined;
    }
    if (kind === "flag") {
      values.set(name, true);
      continue;
    }
    const value = args[++index];
    if (value === undefined) {
      error(`${arg} needs a value.`);
      return undefined;
    }
    if (kind === "list") lists.set(name, [...(lists.get(name) ?? []), value]);
    else values.set(name, value);
  }
  return { positional, values, lists };
}

function parsePairs(
  option: string,
  pairs: string[] | undefined,
  error: (line: string) => void,
): Record<string, string> | undefined {
  const record: Record<string, string> = {};
  for (const pair of pairs ?? []) {
    const separator = pair.indexOf("=");
    if (separator <= 0) {
      error(`--${option} expects KEY=VALUE, got "${pair}".`);
      return undefined;
    }
    record[pair.slice(0, separator)] = pair.slice(separator + 1);
  }
  return record;
}

function isTrusted(agentDir: string, cwd: string): boolean {
  return new ProjectTrustStore(agentDir).get(cwd) === true;
}

function add(args: string[], projectConfig: string, options: McpCommandOptions): number {
  const { log, error } = options;
  const parsed = parseOptions(
    args,
    {
      local: "flag",
      url: "value",
      env: "list",
      cwd: "value",
      header: "list",
      "bearer-token-env-var": "value",
      "oauth-client-id": "value",
      "oauth-client-secret": "value",
      "oauth-callback-port": "value",
      "oauth-client-name": "value",
      "oauth-client-registration": "value",
      exposure: "value",
      description: "value",
    },
    error,
    2,
  );
  if (!parsed) return 1;
  const { positional, values, lists } = parsed;
  const [name, ...command] = positional;
  const url = values.get("url");
  if (!name || (url === undefined) === (command.length === 0)) {
    error(
      `Usage: ${APP_NAME} mcp add <server> [options] (--url <url> | -- <command> [args...])\n${helpHint()}`,
    );
    return 1;
  }
  const value = (option: string) => {
    const found = values.get(option);
    return typeof found === "string" ? found : undefined;
  };
  const httpOnly = [
    "header",
    "bearer-token-env-var",
    "oauth-client-id",
    "oauth-client-secret",
    "oauth-callback-port",
    "oauth-client-name",
    "oauth-client-registration",
  ];
  const misplaced = (url === undefined ? httpOnly : ["env", "cwd"]).find((option) =>
    values.has(option) || lists.has(option)
  );
  if (misplaced) {
    error(`--${misplaced} only applies to ${url === undefined ? "HTTP servers (--url)" : "stdio servers"}.`);
    return 1;
  }
  let config: Record<string, unknown>;
  if (typeof url === "string") {
    const headers = parsePairs("header", lists.get("header"), error);
    if (!headers) return 1;
    const bearer = value("bearer-token-env-var");
    if (bearer !== undefined) headers.Authorization = `Bearer \${${bearer}}`;
    const port = value("oauth-callback-port");
    const oauth = {
      ...(value("oauth-client-id") === undefined ? {} : { clientId: value("oauth-client-id") }),
      ...(value("oauth-client-secret") === undefined ? {} : { clientSecret: value("oauth-client-secret") }),
      ...(port === undefined ? {} : { callbackPort: Number(port) }),
      ...(value("oauth-client-name") === undefined ? {} : { clientName: value("oauth-client-name") }),
      ...(value("oauth-client-registration") === undefined
        ? {}
        : { clientRegistration: value("oauth-client-registration") }),
    };
    config = {
      url,
      ...(Object.keys(headers).length > 0 ? { headers } : {}),
      ...(Object.keys(oauth).length > 0 ? { oauth } : {}),
    };
  } else {
    const env = parsePairs("env", lists.get("env"), error);
    if (!env) return 1;
    const [executable, ...commandArgs] = command;
    config = {
      command: executable,
      ...(commandArgs.length > 0 ? { args: commandArgs } : {}),
      ...(Object.keys(env).length > 0 ? { env } : {}),
      ...(value("cwd") === undefined ? {} : { cwd: value("cwd") }),
    };
  }
  const exposure = value("exposure");
  if (exposure !== undefined) config.exposure = exposure;
  const description = value("description");
  if (description !== undefined) config.description = description;
  const validated = validateMcpServerConfig(name, config);
  if (typeof validated === "string") {
    error(validated);
    return 1;
  }
  const project = values.has("local");
  const path = project ? projectConfig : join(options.agentDir, "mcp.json");
  let replaced: boolean;
  try {
    replaced = addMcpServerConfig(path, name, validated);
  } catch (addError) {
    error(`Could not update ${path}: ${addError instanceof Error ? addError.message : String(addError)}`);
    return 1;
  }
  log(
    `${replaced ? "Replaced" : "Added"} ${project ? "project" : "global"} MCP server "${name}" in ${path}.`,
  );
  if (project && !isTrusted(options.agentDir, options.cwd)) {
    log(
      `The project is not trusted, so ${path} is ignored until you start ${APP_NAME} in the project and trust it.`,
    );
  }
  // HTTP servers without an Authorization header may use OAuth.
  const mayNeedSignIn = "url" in validated &&
    !Object.keys(validated.headers ?? {}).some((header) => header.toLowerCase() === "authorization");
  log(
    `Check it with: ${APP_NAME} mcp list${
      mayNeedSignIn ? `. If it requires sign-in: ${APP_NAME} mcp login ${name}` : ""
    }`,
  );
  return 0;
}

function remove(args: string[], projectConfig: string, options: McpCommandOptions): number {
  const { log, error } = options;
  const parsed = parseOptions(args, { local: "flag" }, error);
  if (!parsed) return 1;
  const [name, ...extra] = parsed.positional;
  if (!name || extra.length > 0) {
    error(`Usage: ${APP_NAME} mcp remove <server> [-l]\n${helpHint()}`);
    return 1;
  }
  const project = parsed.values.has("local");
  const path = project ? projectConfig : join(options.agentDir, "mcp.json");
  const scope = project ? "project" : "global";
  let removed: boolean;
  try {
    removed = removeMcpServerConfig(path, name);
  } catch (removeError) {
    error(
      `Could not update ${path}: ${removeError instanceof Error ? removeError.message : String(removeError)}`,
    );
    return 1;
  }
  if (removed) {
    log(`Removed ${scope} MCP server "${name}" from ${path}.`);
    return 0;
  }
  const other = loadMcpConfig({ agentDir: options.agentDir, cwd: options.cwd, projectTrusted: true }).servers
    .find((server) => server.name === name && server.scope !== scope);
  const hint = other
    ? ` It is defined in ${other.source}${other.scope === "project" ? "; use --local" : "; omit --local"}.`
    : "";
  error(`No ${scope} MCP server named "${name}" in ${path}.${hint}`);
  return 1;
}

interface ServerReport {
  name: string;
  scope: string;
  source: string;
  override?: string;
  enabled: boolean;
  exposure: string;
  transport: string;
  state: string;
  tools: string[];
  toolExposure?: Record<string, string>;
  authProvider?: string;
  resources?: true;
  error?: string;
}

async function list(
  loaded: LoadedMcpConfig,
  json: boolean,
  untrustedNote: string | undefined,
  options: McpCommandOptions,
): Promise<number> {
  const { log } = options;
  const { McpServerConnection } = await import("./connection.ts");
  const serverLog = new McpServerLog(join(options.agentDir, "mcp.log"));
  const reports = await Promise.all(loaded.servers.map(async (entry): Promise<ServerReport> => {
    const { config } = entry;
    const authProvider = "url" in config ? config.auth?.provider : undefined;
    const report: ServerReport = {
      name: entry.name,
      scope: entry.scope,
      source: entry.source,
      ...(entry.override ? { override: entry.override } : {}),
      enabled: config.enabled !== false,
      exposure: config.exposure ?? "codemode",
      transport: "url" in config ? config.url : [config.command, ...(config.args ?? [])].join(" "),
      ...(authProvider ? { authProvider } : {}),
      state: "disabled",
      tools: [],
    };
    if (!report.enabled) return report;
    const connection = new McpServerConnection({
      entry,
      cwd: options.cwd,
      log: serverLog,
      credentials: new McpOAuthCredentialStore(options.agentDir),
    });
    await connection.getClient().catch(() => undefined);
    report.state = connection.state;
    report.tools = connection.tools.map((tool) => tool.name);
    const overrides = connection.tools.flatMap((tool) => {
      const exposure = getMcpToolExposure(config, tool.name);
      return exposure === report.exposure ? [] : [[tool.name, exposure]];
    });
    if (overrides.length > 0) report.toolExposure = Object.fromEntries(overrides);
    if (connection.hasResources) report.resources = true;
    if (connection.state !== "connected" && connection.error) report.error = connection.error;
    await connection.close();
    return report;
  }));
  const failed = loaded.errors.length > 0 ||
    reports.some((report) => report.enabled && report.state !== "connected");
  if (json) {
    log(
      JSON.stringify(
        { servers: reports, errors: loaded.errors, ...(untrustedNote ? { note: untrustedNote } : {}) },
        null,
        2,
      ),
    );
    return failed ? 1 : 0;
  }
  if (reports.length === 0 && loaded.errors.length === 0) {
    log(`No MCP servers configured. Add them to ${join(options.agentDir, "mcp.json")} or .pi/mcp.json.`);
  }
  for (const report of reports) {
    const state = report.state === "connected"
      ? `connected, ${report.tools.length} tool${report.tools.length === 1 ? "" : "s"}`
      : report.state === "needs-auth"
      ? "needs sign-in"
      : report.state;
    log(`${report.name}: ${state} (${report.exposure}, ${report.scope})`);
    log(`  ${report.transport}`);
    if (report.override) log(`  project override: ${report.override}`);
    if (report.state === "needs-auth") {
      log(
        report.authProvider
          ? `  sign in with: /login ${report.authProvider} in ${APP_NAME}`
          : `  sign in with: ${APP_NAME} mcp login ${report.name}`,
      );
    }
    if (report.tools.length > 0) {
      const tools = report.tools.map((tool) => {
        const exposure = report.toolExposure?.[tool];
        return exposure ? `${tool} [${exposure}]` : tool;
      });
      log(`  tools: ${tools.join(", ")}`);
    }
    if (report.resources) log("  offers resources");
    if (report.error) log(`  ${report.error.split("\n").join("\n  ")}`);
  }
  for (const configError of loaded.errors) log(`config error: ${configError}`);
  if (untrustedNote) log(untrustedNote);
  return failed ? 1 : 0;
}

/** Runs `pi mcp <args>`; resolves with the exit code. */
export async function runMcpCommand(args: string[], options: McpCommandOptions): Promise<number> {
  const { log, error } = options;
  const [command, ...rest] = args;
  if (command === undefined || command === "help" || args.includes("--help") || args.includes("-h")) {
    log(help());
    return 0;
  }
  const projectConfig = join(options.cwd, CONFIG_DIR_NAME, "mcp.json");
  if (command === "add") return add(rest, projectConfig, options);
  if (command === "remove") return remove(rest, projectConfig, options);
  const projectTrusted = isTrusted(options.agentDir, options.cwd);
  const loaded = loadMcpConfig({ agentDir: options.agentDir, cwd: options.cwd, projectTrusted });
  const untrustedNote = !projectTrusted && existsSync(projectConfig)
    ? `${projectConfig} is ignored because the project is not trusted. Start ${APP_NAME} in the project to trust it.`
    : undefined;
  switch (command) {
    case "list": {
      const parsed = parseOptions(rest, { json: "flag" }, error);
      if (!parsed) return 1;
      if (parsed.positional.length > 0) {
        error(`Usage: ${APP_NAME} mcp list [--json]\n${helpHint()}`);
        return 1;
      }
      return await list(loaded, parsed.values.has("json"), untrustedNote, options);
    }
    case "login":
    case "logout":
      return await loginOrLogout(command, rest, loaded.servers, untrustedNote, options);
    default:
      error(`Unknown mcp command "${command}".\n${helpHint()}`);
      return 1;
  }
}

async function loginOrLogout(
  command: "login" | "logout",
  args: string[],
  servers: McpServerEntry[],
  untrustedNote: string | undefined,
  options: McpCommandOptions,
): Promise<number> {
  const { log, error } = options;
  const parsed = parseOptions(
    args,
    command === "login" ? { local: "flag", timeout: "value" } : { local: "flag" },
    error,
  );
  if (!parsed) return 1;
  const [name, ...extra] = parsed.positional;
  if (!name || extra.length > 0) {
    error(`Usage: ${APP_NAME} mcp ${command} <server> [-l]\n${helpHint()}`);
    return 1;
  }
  const entry = servers.find((server) => server.name === name);
  if (!entry) {
    const names = servers.map((server) => server.name);
    const suggestion = names.find((candidate) => editDistance(candidate, name) <= 2);
    error(
      `No MCP server named "${name}".${suggestion ? ` Did you mean "${suggestion}"?` : ""}${
        untrustedNote ? ` ${untrustedNote}` : ""
      } Configured: ${names.join(", ") || "none"}.`,
    );
    return 1;
  }
  if (parsed.values.has("local") && entry.scope !== "project") {
    error(`MCP server "${name}" is defined in ${entry.source}, not in the project; omit --local.`);
    return 1;
  }
  const authProvider = "url" in entry.config ? entry.config.auth?.provider : undefined;
  if (authProvider) {
    error(
      `MCP server "${name}" uses the credentials of provider "${authProvider}". Run "${APP_NAME} auth ${command} ${authProvider}".`,
    );
    return 1;
  }
  const credentials = new McpOAuthCredentialStore(options.agentDir);
  const { McpServerConnection } = await import("./connection.ts");
  const connection = new McpServerConnection({
    entry,
    cwd: options.cwd,
    log: new McpServerLog(join(options.agentDir, "mcp.log")),
    credentials,
  });
  try {
    const url = connection.oauthUrl;
    if (!url) {
      error(`MCP server "${name}" does not use OAuth. Only HTTP servers without an Authorization header do.`);
      return 1;
    }
    if (command === "logout") {
      const removed = credentials.remove(name, url);
      log(
        removed ? `Signed out of MCP server "${name}".` : `No stored credentials for MCP server "${name}".`,
      );
      return 0;
    }
    const timeout = Number(parsed.values.get("timeout") ?? DEFAULT_LOGIN_TIMEOUT_SECONDS);
    if (!Number.isFinite(timeout) || timeout <= 0) {
      error("--timeout must be a positive number of seconds.");
      return 1;
    }
    return await login(entry, connection, url, timeout * 1000, credentials, options);
  } finally {
    await connection.close();
  }
}

async function login(
  entry: McpServerEntry,
  connection: import("./connection.ts").McpServerConnection,
  url: string,
  timeoutMs: number,
  credentials: McpOAuthCredentialStore,
  options: McpCommandOptions,
): Promise<number> {
  const { log, error } = options;
  const { name } = entry;
  // Connecting first answers whether a sign-in is needed and records the server's challenge.
  try {
    await connection.getClient();
    log(`Already signed in to MCP server "${name}" (${connection.tools.length} tools).`);
    return 0;
  } catch {
    if (connection.state !== "needs-auth") {
      error(`MCP server "${name}" failed to connect: ${connection.error ?? "unknown error"}`);
      return 1;
    }
  }
  const { McpSignInCancelledError, signInMcpServer } = await import("./oauth_sign_in.ts");
  const interactive = Deno.stdin.isTerminal();
  try {
    await signInMcpServer({
      serverUrl: url,
      store: credentials.forServer(name, url),
      settings: connection.oauthSettings(),
      ...(connection.challenge ? { challenge: connection.challenge } : {}),
      prompt: {
        showAuthorizationUrl: (authorizationUrl) => {
          log(`Sign in to MCP server "${name}" in your browser:\n${authorizationUrl.href}`);
          openBrowser(authorizationUrl.href);
        },
        ...(interactive ? { promptForRedirectUrl: (signal) => askRedirectUrl(signal) } : {}),
      },
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (signInError) {
    error(
      signInError instanceof McpSignInCancelledError
        ? `Sign-in to MCP server "${name}" was cancelled or not completed within ${
          Math.round(timeoutMs / 1000)
        } seconds.`
        : `Sign-in to MCP server "${name}" failed: ${
          signInError instanceof Error ? signInError.message : String(signInError)
        }`,
    );
    return 1;
  }
  connection.challenge = undefined;
  try {
    await connection.reconnect();
  } catch (connectError) {
    error(`Signed in, but ${connectError instanceof Error ? connectError.message : String(connectError)}`);
    return 1;
  }
  log(`Signed in to MCP server "${name}" (${connection.tools.length} tools).`);
  return 0;
}

/**
 * In a terminal, the redirect URL the user pastes when the browser cannot reach this machine;
 * undefined on EOF or when the callback arrived first.
 */
async function askRedirectUrl(signal: AbortSignal): Promise<string | undefined> {
  const encoder = new TextEncoder();
  await Deno.stderr.write(
    encoder.encode("If the browser cannot reach this machine, paste the URL it was redirected to: "),
  );
  const reader = Deno.stdin.readable.getReader();
  const aborted = new Promise<undefined>((resolve) => {
    if (signal.aborted) resolve(undefined);
    signal.addEventListener("abort", () => resolve(undefined), { once: true });
  });
  let text = "";
  const decoder = new TextDecoder();
  try {
    for (;;) {
      const chunk = await Promise.race([reader.read(), aborted]);
      if (!chunk || chunk.done) return text.trim() || undefined;
      text += decoder.decode(chunk.value);
      const newline = text.indexOf("\n");
      if (newline >= 0) return text.slice(0, newline).trim() || undefined;
    }
  } finally {
    reader.releaseLock();
  }
}
