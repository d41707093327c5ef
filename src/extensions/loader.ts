/**
 * Loads extensions: each discovered file is built into a plain ES module (module_build.ts), the
 * pi modules it imports are published for it (host_modules.ts), it is imported, and its default
 * export — a factory, sync or async — is called with its own `pi` object. A failure (missing
 * file, syntax error, no factory, a factory that throws, rejects or does not settle within the
 * load timeout) becomes one {@link ExtensionLoadError} with 1.6.0's text, and the other
 * extensions still load.
 *
 * @module
 */
import { join } from "../util/path.ts";
import { createExtensionAPI, createExtensionRuntime, type ExtensionRuntime } from "./api.ts";
import { createEventBus, type EventBus } from "./event_bus.ts";
import { hostModuleNames, publishHostModules, shimSource } from "./host_modules.ts";
import { buildExtension, shimFileName, toFileUrl, writeAtomically } from "./module_build.ts";
import type { DiscoveredExtension } from "./discovery.ts";
import type { ExtensionLoadError, LoadedExtension } from "./types.ts";

/** How long a factory may take before its extension counts as failed (pi 1.6.0 waits forever). */
export const DEFAULT_FACTORY_TIMEOUT_MS = 30_000;

/** Options of {@link loadExtensions}. */
export interface LoadExtensionsOptions {
  cwd: string;
  /** Where built modules are cached: `<agentDir>/cache/extensions`. */
  cacheDir: string;
  /** Milliseconds a factory may take (default {@link DEFAULT_FACTORY_TIMEOUT_MS}). */
  factoryTimeoutMs?: number;
  /** Shared between the extensions (and kept across reloads by the caller). */
  eventBus?: EventBus;
  runtime?: ExtensionRuntime;
}

/** The loaded extensions and the failures. */
export interface LoadExtensionsResult {
  extensions: LoadedExtension[];
  errors: ExtensionLoadError[];
  runtime: ExtensionRuntime;
  eventBus: EventBus;
}

/** `<agentDir>/cache/extensions`. */
export function extensionCacheDir(agentDir: string): string {
  return join(agentDir, "cache", "extensions");
}

/** Shim files already checked by this process (cache dir + name). */
const checkedShims = new Set<string>();

/** Writes the shim of each host module, when it is missing or differs (the host changed). */
async function ensureShims(cacheDir: string, names: readonly string[]): Promise<void> {
  const shimDir = join(cacheDir, "shims");
  const published = await publishHostModules(names);
  for (const [name, namespace] of published) {
    const path = join(shimDir, shimFileName(name));
    if (checkedShims.has(path)) continue;
    checkedShims.add(path);
    await Deno.mkdir(shimDir, { recursive: true });
    const text = shimSource(name, namespace);
    let current: string | undefined;
    try {
      current = await Deno.readTextFile(path);
    } catch { /* missing */ }
    if (current !== text) await writeAtomically(path, text);
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not finish within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * An import error in terms of the extension's sources and pi's module names: V8 names the cache
 * files (`…/shims/earendil-works_pi-coding-agent.mjs`, `…/<hash>/0-index.mjs`), which mean
 * nothing to the extension's author.
 */
function nameSources(message: string, cacheDir: string, sources: ReadonlyMap<string, string>): string {
  let out = message;
  for (const [url, source] of sources) out = out.split(url).join(source);
  for (const name of hostModuleNames()) {
    const shim = toFileUrl(join(cacheDir, "shims", shimFileName(name)));
    out = out.split(`module '${shim}'`).join(`module '${name}'`).split(shim).join(name);
  }
  return out;
}

/** Loads one extension; throws with the reason when it cannot. */
async function loadOne(
  entry: DiscoveredExtension,
  options: LoadExtensionsOptions,
  runtime: ExtensionRuntime,
  eventBus: EventBus,
): Promise<LoadedExtension | string> {
  const built = await buildExtension(entry.resolvedPath, options.cacheDir);
  await ensureShims(options.cacheDir, built.hostModules);
  let module: { default?: unknown };
  try {
    module = await import(built.entryUrl);
  } catch (error) {
    throw new Error(
      nameSources(error instanceof Error ? error.message : String(error), options.cacheDir, built.sources),
    );
  }
  const factory = module.default;
  if (typeof factory !== "function") {
    return `Extension does not export a valid factory function: ${entry.path}`;
  }
  const extension: LoadedExtension = {
    path: entry.path,
    resolvedPath: entry.resolvedPath,
    handlers: new Map(),
    tools: new Map(),
    commands: new Map(),
    flags: new Map(),
    moduleUrls: [...built.sources.keys()],
    ...(entry.sourceInfo ? { sourceInfo: entry.sourceInfo } : {}),
  };
  const api = createExtensionAPI(extension, runtime, options.cwd, eventBus);
  const timeoutMs = options.factoryTimeoutMs ?? DEFAULT_FACTORY_TIMEOUT_MS;
  await withTimeout(Promise.resolve().then(() => factory(api)), timeoutMs, "Extension factory");
  return extension;
}

/** Loads `entries` in order; failures are collected, never thrown. */
export async function loadExtensions(
  entries: readonly DiscoveredExtension[],
  options: LoadExtensionsOptions,
): Promise<LoadExtensionsResult> {
  const runtime = options.runtime ?? createExtensionRuntime();
  const eventBus = options.eventBus ?? createEventBus();
  const extensions: LoadedExtension[] = [];
  const errors: ExtensionLoadError[] = [];
  for (const entry of entries) {
    try {
      const loaded = await loadOne(entry, options, runtime, eventBus);
      if (typeof loaded === "string") errors.push({ path: entry.path, error: loaded });
      else extensions.push(loaded);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      errors.push({ path: entry.path, error: `Failed to load extension: ${message}` });
    }
  }
  return { extensions, errors, runtime, eventBus };
}
