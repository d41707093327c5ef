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
import { dirname, join } from "../util/path.ts";
import { createExtensionAPI, createExtensionRuntime, type ExtensionRuntime } from "./api.ts";
import { createEventBus, type EventBus } from "./event_bus.ts";
import { type HostImport, namedShimSource, publishHostImport, shimSource } from "./host_modules.ts";
import {
  buildExtension,
  type BuiltExtension,
  shimFileName,
  toFileUrl,
  writeAtomically,
} from "./module_build.ts";
import { emptyLoadedExtension } from "./loaded_extension.ts";
import type { DiscoveredExtension } from "./discovery.ts";
import type { ExtensionLoadError, LoadedExtension } from "./types.ts";
import {
  type DeclaredPermissions,
  type ExtensionPermissionsSetting,
  packagePermissions,
  settingsPermissions,
  workerPermissions,
} from "./worker_host_permissions.ts";

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
  /**
   * The user's `extensionPermissions` setting and where it came from; an extension it names, or
   * whose package.json declares `pi.permissions`, runs in a Deno Worker (worker_host.ts).
   */
  extensionPermissions?: {
    setting?: ExtensionPermissionsSetting;
    settingsFile: string;
    agentDir: string;
    home?: string;
  };
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

/** Shims published and checked by this process (cache dir + name), shared by concurrent loads. */
const checkedShims = new Map<string, Promise<void>>();

/**
 * Publishes what each host import needs and writes its shim when it is missing or differs (the
 * host changed).
 */
async function ensureShims(cacheDir: string, requests: readonly HostImport[]): Promise<void> {
  const shimDir = join(cacheDir, "shims");
  await Promise.all(requests.map((request) => {
    const path = join(shimDir, shimFileName(request));
    let pending = checkedShims.get(path);
    if (!pending) {
      pending = ensureShim(path, request);
      checkedShims.set(path, pending);
      pending.catch(() => checkedShims.delete(path));
    }
    return pending;
  }));
}

async function ensureShim(path: string, request: HostImport): Promise<void> {
  const full = await publishHostImport(request);
  const text = full || request.names === "*"
    ? shimSource(request.name, full ?? {})
    : namedShimSource(request.name, request.names);
  let current: string | undefined;
  try {
    current = await Deno.readTextFile(path);
  } catch { /* missing */ }
  if (current === text) return;
  await Deno.mkdir(dirname(path), { recursive: true });
  await writeAtomically(path, text);
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
function nameSources(message: string, cacheDir: string, built: BuiltExtension): string {
  let out = message;
  for (const [url, source] of built.sources) out = out.split(url).join(source);
  for (const request of built.hostImports) {
    const shim = toFileUrl(join(cacheDir, "shims", shimFileName(request)));
    out = out.split(`module '${shim}'`).join(`module '${request.name}'`).split(shim).join(request.name);
  }
  return out;
}

/** An extension's module, built, its host imports published and imported. */
interface ImportedExtension {
  built: BuiltExtension;
  module: { default?: unknown };
}

/** Builds (or finds in the cache) and imports one extension; throws with the reason when it cannot. */
async function importOne(
  entry: DiscoveredExtension,
  cacheDir: string,
  inWorker: boolean,
): Promise<ImportedExtension> {
  const built = await buildExtension(entry.resolvedPath, cacheDir);
  try {
    await ensureShims(cacheDir, built.hostImports);
    // A Worker-hosted extension is imported by its Worker, never by pi.
    return { built, module: inWorker ? {} : await import(built.entryUrl) };
  } catch (error) {
    throw new Error(nameSources(error instanceof Error ? error.message : String(error), cacheDir, built));
  }
}

/** Runs one imported extension's factory; returns the reason when it has none. */
async function runFactory(
  entry: DiscoveredExtension,
  { built, module }: ImportedExtension,
  options: LoadExtensionsOptions,
  runtime: ExtensionRuntime,
  eventBus: EventBus,
): Promise<LoadedExtension | string> {
  const factory = module.default;
  if (typeof factory !== "function") {
    return `Extension does not export a valid factory function: ${entry.path}`;
  }
  const extension: LoadedExtension = emptyLoadedExtension(entry, built);
  const api = createExtensionAPI(extension, runtime, options.cwd, eventBus);
  const timeoutMs = options.factoryTimeoutMs ?? DEFAULT_FACTORY_TIMEOUT_MS;
  await withTimeout(Promise.resolve().then(() => factory(api)), timeoutMs, "Extension factory");
  return extension;
}

/**
 * The permissions an extension runs under when it is not to share pi's: the user's setting
 * first, else its package's `pi.permissions`; undefined for an ordinary extension. Throws when
 * the declaration is invalid.
 */
function declaredPermissions(
  entry: DiscoveredExtension,
  options: LoadExtensionsOptions,
): DeclaredPermissions | undefined {
  const settings = options.extensionPermissions;
  return (settings
    ? settingsPermissions(
      settings.setting,
      { resolvedPath: entry.resolvedPath, source: entry.sourceInfo?.source },
      settings.settingsFile,
      settings.agentDir,
      settings.home,
    )
    : undefined) ?? packagePermissions(entry.resolvedPath);
}

/** Starts a Worker-hosted extension (worker_host.ts loads only when one exists). */
async function loadWorkerExtension(
  entry: DiscoveredExtension,
  { built }: ImportedExtension,
  declared: DeclaredPermissions,
  options: LoadExtensionsOptions,
  runtime: ExtensionRuntime,
): Promise<LoadedExtension> {
  const { loadInWorker } = await import("./worker_host.ts");
  const readable = [options.cacheDir, dirname(entry.resolvedPath)];
  try {
    return await loadInWorker({
      entry,
      built,
      cwd: options.cwd,
      permissions: workerPermissions(declared, readable, options.extensionPermissions?.home),
      runtime,
      timeoutMs: options.factoryTimeoutMs ?? DEFAULT_FACTORY_TIMEOUT_MS,
    });
  } catch (error) {
    throw new Error(
      nameSources(error instanceof Error ? error.message : String(error), options.cacheDir, built),
    );
  }
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
  // Building, publishing host modules and importing overlap (most of it is waiting for files);
  // the factories then run one by one in the sources' order, as in 1.6.0.
  const plans = entries.map((entry) => {
    try {
      return { declared: declaredPermissions(entry, options) };
    } catch (error) {
      return { invalid: error instanceof Error ? error.message : String(error) };
    }
  });
  const imported = entries.map((entry, index) =>
    plans[index].invalid !== undefined
      ? Promise.reject(new Error(plans[index].invalid))
      : importOne(entry, options.cacheDir, plans[index].declared !== undefined)
  );
  for (const failed of imported) failed.catch(() => {}); // awaited below, in order
  for (const [index, entry] of entries.entries()) {
    try {
      const declared = plans[index].declared;
      const loaded = declared
        ? await loadWorkerExtension(entry, await imported[index], declared, options, runtime)
        : await runFactory(entry, await imported[index], options, runtime, eventBus);
      if (typeof loaded === "string") errors.push({ path: entry.path, error: loaded });
      else extensions.push(loaded);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      errors.push({ path: entry.path, error: `Failed to load extension: ${message}` });
    }
  }
  return { extensions, errors, runtime, eventBus };
}
