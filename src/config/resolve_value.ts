/**
 * Resolution of credential values (auth.json `key`, models.json `apiKey` and `headers`), as pi 1.6.0 has them:
 * `!command` runs a shell command and uses its trimmed stdout; any other value is literal text in which
 * `$NAME` / `${NAME}` name environment variables and `$$` / `$!` stand for `$` / `!`. A bare name such as
 * `OPENAI_API_KEY` is the literal text (0.73.1 looked it up as a variable).
 *
 * @module
 */
import { readEnv } from "../util/env.ts";

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

/** Extra variables for one credential (auth.json `env`); they win over the process environment. */
export type ConfigValueEnv = Readonly<Record<string, string>>;

function envValue(name: string, env?: ConfigValueEnv): string | undefined {
  // An empty value counts as unset, in the entry's env as in the process environment.
  const fromEntry = env?.[name];
  if (fromEntry) return fromEntry;
  return readEnv(name) || undefined;
}

/** A value is a `!command`, or a template of literal text and `$NAME` / `${NAME}` references. */
type TemplatePart = { type: "literal"; value: string } | { type: "env"; name: string };

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const ENV_NAME_PREFIX = /^[A-Za-z_][A-Za-z0-9_]*/;

function pushLiteral(parts: TemplatePart[], value: string): void {
  if (!value) return;
  const last = parts[parts.length - 1];
  if (last?.type === "literal") last.value += value;
  else parts.push({ type: "literal", value });
}

/**
 * Splits a non-command value into literal text and variable references. `$$` and `$!` are escapes for
 * `$` and `!`; a `$` that starts no valid reference (`a$`, `${`, `${not valid}`, `$1`) stays literal.
 */
function parseTemplate(config: string): TemplatePart[] {
  const parts: TemplatePart[] = [];
  let index = 0;
  while (index < config.length) {
    const dollar = config.indexOf("$", index);
    if (dollar < 0) {
      pushLiteral(parts, config.slice(index));
      break;
    }
    pushLiteral(parts, config.slice(index, dollar));
    const next = config[dollar + 1];
    if (next === "$" || next === "!") {
      pushLiteral(parts, next);
      index = dollar + 2;
      continue;
    }
    if (next === "{") {
      const end = config.indexOf("}", dollar + 2);
      if (end < 0) {
        pushLiteral(parts, "$");
        index = dollar + 1;
        continue;
      }
      const name = config.slice(dollar + 2, end);
      if (ENV_NAME.test(name)) parts.push({ type: "env", name });
      else pushLiteral(parts, config.slice(dollar, end + 1));
      index = end + 1;
      continue;
    }
    const match = config.slice(dollar + 1).match(ENV_NAME_PREFIX);
    if (match) {
      parts.push({ type: "env", name: match[0] });
      index = dollar + 1 + match[0].length;
      continue;
    }
    pushLiteral(parts, "$");
    index = dollar + 1;
  }
  return parts;
}

function isCommand(config: string): boolean {
  return config.startsWith("!");
}

/** Undefined when any referenced variable is unset or empty. */
function resolveTemplate(config: string, env?: ConfigValueEnv): string | undefined {
  let resolved = "";
  for (const part of parseTemplate(config)) {
    if (part.type === "literal") {
      resolved += part.value;
      continue;
    }
    const value = envValue(part.name, env);
    if (value === undefined) return undefined;
    resolved += value;
  }
  return resolved;
}

/** The variables a value refers to, in order, without repeats (none for a `!command`). */
export function configValueEnvNames(config: string): string[] {
  if (isCommand(config)) return [];
  const names: string[] = [];
  for (const part of parseTemplate(config)) {
    if (part.type === "env" && !names.includes(part.name)) names.push(part.name);
  }
  return names;
}

/** The referenced variables that are unset or empty (in `env` and the process environment). */
export function missingConfigValueEnvNames(config: string, env?: ConfigValueEnv): string[] {
  return configValueEnvNames(config).filter((name) => envValue(name, env) === undefined);
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

/**
 * Resolves a value: `!command` runs the command (result cached per process) and uses its trimmed output;
 * anything else is literal text in which `$NAME` and `${NAME}` are replaced by environment variables (`env`
 * first, then the process environment). Undefined when a command fails or prints nothing, or when a referenced
 * variable is unset or empty.
 */
export function resolveConfigValue(config: string, env?: ConfigValueEnv): string | undefined {
  if (isCommand(config)) return executeCommand(config);
  return resolveTemplate(config, env);
}

/** Like {@link resolveConfigValue} but always re-runs commands (request headers may rotate). */
export function resolveConfigValueUncached(config: string, env?: ConfigValueEnv): string | undefined {
  if (isCommand(config)) return executeCommandUncached(config);
  return resolveTemplate(config, env);
}

/**
 * Resolves a value or throws `Failed to resolve <description>` naming the command or the missing variables
 * (never the value itself, which may be a secret).
 */
export function resolveConfigValueOrThrow(config: string, description: string, env?: ConfigValueEnv): string {
  const resolved = resolveConfigValueUncached(config, env);
  if (resolved !== undefined) return resolved;
  if (isCommand(config)) {
    throw new Error(`Failed to resolve ${description} from shell command: ${config.slice(1)}`);
  }
  const missing = missingConfigValueEnvNames(config, env);
  if (missing.length === 1) {
    throw new Error(`Failed to resolve ${description} from environment variable: ${missing[0]}`);
  }
  if (missing.length > 1) {
    throw new Error(`Failed to resolve ${description} from environment variables: ${missing.join(", ")}`);
  }
  throw new Error(`Failed to resolve ${description}`);
}

/** Resolves every header value (`env` as for {@link resolveConfigValue}), throwing on the first that cannot be resolved. */
export function resolveHeadersOrThrow(
  headers: Record<string, string> | undefined,
  description: string,
  env?: ConfigValueEnv,
): Record<string, string> | undefined {
  if (!headers) return undefined;
  const resolved: Record<string, string> = {};
  for (const [key, value] of Object.entries(headers)) {
    resolved[key] = resolveConfigValueOrThrow(value, `${description} header "${key}"`, env);
  }
  return Object.keys(resolved).length > 0 ? resolved : undefined;
}

/** Forgets cached command results (tests, and `/model` reloads). */
export function clearConfigValueCache(): void {
  commandResultCache.clear();
}
