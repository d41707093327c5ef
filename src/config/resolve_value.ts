/**
 * Resolution of config values used for API keys and headers (auth.json `key`, models.json `apiKey` and
 * `headers`): `!command` runs a shell command and uses its trimmed stdout, otherwise a value naming a set
 * environment variable resolves to that variable, otherwise the value is taken literally.
 *
 * @module
 */

/** The part of `node:child_process` used here. */
interface ChildProcessModule {
  execSync(
    command: string,
    options: { encoding: "utf-8"; timeout: number; stdio: ["ignore", "pipe", "ignore"] },
  ): string;
}

/**
 * `node:child_process`, loaded only when a `!command` value is resolved: a static import (or even
 * touching the `process` global) would load Deno's Node layer on every start-up, and this call has
 * to stay synchronous with execSync's exact shell, timeout and output handling.
 */
function childProcess(): ChildProcessModule {
  const nodeProcess = (globalThis as unknown as {
    process: { getBuiltinModule(name: string): unknown };
  }).process;
  return nodeProcess.getBuiltinModule("node:child_process") as ChildProcessModule;
}

// Command results are cached for the process lifetime: keychain helpers can be slow or prompt the user.
const commandResultCache = new Map<string, string | undefined>();

function readEnv(name: string): string | undefined {
  try {
    return Deno.env.get(name);
  } catch {
    return undefined;
  }
}

function executeCommandUncached(commandConfig: string): string | undefined {
  try {
    const output = childProcess().execSync(commandConfig.slice(1), {
      encoding: "utf-8",
      timeout: 10000,
      stdio: ["ignore", "pipe", "ignore"],
    });
    return output.trim() || undefined;
  } catch {
    return undefined;
  }
}

function executeCommand(commandConfig: string): string | undefined {
  if (commandResultCache.has(commandConfig)) return commandResultCache.get(commandConfig);
  const result = executeCommandUncached(commandConfig);
  commandResultCache.set(commandConfig, result);
  return result;
}

function resolveEnvOrLiteral(config: string): string {
  // An empty variable does not count: fall back to the literal text.
  return readEnv(config) || config;
}

/** Resolves a value; `!command` results are cached per process. Undefined when a command fails or prints nothing. */
export function resolveConfigValue(config: string): string | undefined {
  if (config.startsWith("!")) return executeCommand(config);
  return resolveEnvOrLiteral(config);
}

/** Like {@link resolveConfigValue} but always re-runs commands (request headers may rotate). */
export function resolveConfigValueUncached(config: string): string | undefined {
  if (config.startsWith("!")) return executeCommandUncached(config);
  return resolveEnvOrLiteral(config);
}

/** Resolves a value or throws `Failed to resolve <description>[ from shell command: <cmd>]`. */
export function resolveConfigValueOrThrow(config: string, description: string): string {
  const resolved = resolveConfigValueUncached(config);
  if (resolved !== undefined) return resolved;
  if (config.startsWith("!")) {
    throw new Error(`Failed to resolve ${description} from shell command: ${config.slice(1)}`);
  }
  throw new Error(`Failed to resolve ${description}`);
}

/** Resolves every header value (cached commands); headers that resolve to nothing are dropped. */
export function resolveHeaders(
  headers: Record<string, string> | undefined,
): Record<string, string> | undefined {
  if (!headers) return undefined;
  const resolved: Record<string, string> = {};
  for (const [key, value] of Object.entries(headers)) {
    const resolvedValue = resolveConfigValue(value);
    if (resolvedValue) resolved[key] = resolvedValue;
  }
  return Object.keys(resolved).length > 0 ? resolved : undefined;
}

/** Resolves every header value, throwing on the first that cannot be resolved. */
export function resolveHeadersOrThrow(
  headers: Record<string, string> | undefined,
  description: string,
): Record<string, string> | undefined {
  if (!headers) return undefined;
  const resolved: Record<string, string> = {};
  for (const [key, value] of Object.entries(headers)) {
    resolved[key] = resolveConfigValueOrThrow(value, `${description} header "${key}"`);
  }
  return Object.keys(resolved).length > 0 ? resolved : undefined;
}

/** Forgets cached command results (tests, and `/model` reloads). */
export function clearConfigValueCache(): void {
  commandResultCache.clear();
}
