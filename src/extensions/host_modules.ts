/**
 * The module names extensions import (pi 1.6.0's `@earendil-works/pi-*` packages, the legacy
 * `@mariozechner/` scope, `typebox` and its `@sinclair/typebox` alias) and the modules of ours
 * that stand in for them. Every entry is a literal `import()` so `deno compile` and `deno bundle`
 * include the module, yet nothing loads until an extension imports that name.
 *
 * Extensions reach these modules through the registry on `globalThis` (see
 * {@link publishHostImport}): the rewritten extension imports a small shim file that re-exports
 * the registry's entry, so it gets the SAME instances as the host (one `Type`, one tool factory).
 *
 * @module
 */

import { HOST_PARTS } from "./host_parts.ts";

/** A loaded module namespace. */
export type ModuleNamespace = Record<string, unknown>;

/** Loads our module for each supported name (without the legacy scope). */
const HOST_MODULES: Readonly<Record<string, () => Promise<ModuleNamespace>>> = {
  "@earendil-works/pi-coding-agent": () => import("./compat/coding_agent.ts"),
  "@earendil-works/pi-ai": () => import("./compat/pi_ai.ts"),
  "@earendil-works/pi-ai/models": () => import("./compat/pi_ai_models.ts"),
  "@earendil-works/pi-ai/oauth": () => import("./compat/pi_ai_oauth.ts"),
  "@earendil-works/pi-ai/providers/all": () => import("./compat/pi_ai_providers_all.ts"),
  "@earendil-works/pi-mcp": () => import("./compat/pi_mcp.ts"),
  "@earendil-works/pi-tui": () => import("./compat/pi_tui.ts"),
  "@earendil-works/pi-agent-core": () => import("./compat/agent_core.ts"),
  "typebox": () => import("./compat/typebox.ts"),
  "typebox/compile": () => import("./compat/typebox_compile.ts"),
  "typebox/value": () => import("./compat/typebox_value.ts"),
};

/** Aliases that 1.6.0 maps onto the names above. */
const ALIASES: Readonly<Record<string, string>> = {
  "@earendil-works/pi-ai/compat": "@earendil-works/pi-ai",
  "@sinclair/typebox": "typebox",
  "@sinclair/typebox/compile": "typebox/compile",
  "@sinclair/typebox/value": "typebox/value",
};

/** The key in {@link HOST_MODULES} a specifier stands for, or undefined when it is not a pi name. */
export function hostModuleName(specifier: string): string | undefined {
  let name = specifier.startsWith("@mariozechner/") ? `@earendil-works/${specifier.slice(14)}` : specifier;
  name = ALIASES[name] ?? name;
  return name in HOST_MODULES ? name : undefined;
}

/** Every name an extension may import (canonical form). */
export function hostModuleNames(): string[] {
  return Object.keys(HOST_MODULES);
}

const REGISTRY_KEY = Symbol.for("pi-deno.extension-host-modules");

/** What one import of a host module needs: some exported names, or all of them (`"*"`). */
export interface HostImport {
  /** Canonical name (a key of {@link HOST_MODULES}). */
  name: string;
  /** The exported names imported, sorted; `"*"` for a namespace, default or dynamic import. */
  names: readonly string[] | "*";
}

/**
 * The registry object shims read from: per host module, a plain object holding the exports
 * loaded so far (all of them once the full module is loaded, else those of the loaded parts).
 */
function registry(): Record<string, Record<string, unknown>> {
  const g = globalThis as unknown as Record<symbol, Record<string, Record<string, unknown>>>;
  return (g[REGISTRY_KEY] ??= {});
}

/** Full module namespaces loaded by this process. */
const fullModules = new Map<string, Promise<ModuleNamespace>>();

/**
 * Exports a higher layer adds to a host module (the interactive mode's components that 1.6.0's
 * pi-coding-agent exports, such as `CustomEditor`): src/extensions cannot import src/modes, so the
 * CLI registers their loaders at start-up, before any extension loads.
 */
const extraExports = new Map<string, (() => Promise<ModuleNamespace>)[]>();

/**
 * Adds the exports `load` resolves to host module `name` (a canonical name) for every extension
 * loaded from now on; nothing is loaded until an extension imports that module.
 */
export function addHostModuleExports(name: string, load: () => Promise<ModuleNamespace>): void {
  if (!(name in HOST_MODULES)) throw new Error(`Unknown host module: ${name}`);
  const loads = extraExports.get(name) ?? [];
  if (!loads.includes(load)) loads.push(load);
  extraExports.set(name, loads);
  fullModules.delete(name);
}

/** Loads the whole of host module `name` and publishes all its exports. */
function loadFull(name: string): Promise<ModuleNamespace> {
  let pending = fullModules.get(name);
  if (!pending) {
    const load = HOST_MODULES[name];
    if (!load) throw new Error(`Unknown host module: ${name}`);
    const extras = extraExports.get(name) ?? [];
    pending = Promise.all([load(), ...extras.map((more) => more())]).then((namespaces) => {
      // A plain object: ES module namespaces cannot be merged into one in place.
      const merged: ModuleNamespace = Object.assign({}, ...namespaces);
      Object.assign(registry()[name] ??= {}, merged);
      return merged;
    });
    fullModules.set(name, pending);
  }
  return pending;
}

/**
 * Loads what `request` needs and publishes it for the shims: only the parts (host_parts.ts)
 * that define the names imported, or the full module for `"*"`, a name the table does not know
 * or a module that is not split. Returns the full namespace when its shim must export everything:
 * for `"*"`, and when a name is not exported at all (then importing it is V8's own SyntaxError,
 * after any error resolving the extension's other imports, as in Node).
 */
export async function publishHostImport(request: HostImport): Promise<ModuleNamespace | undefined> {
  const { name, names } = request;
  const split = HOST_PARTS[name];
  if (names === "*") return await loadFull(name);
  const partIndexes = new Set<number>();
  let needFull = !split;
  for (const key of names) {
    const index = split?.names[key];
    if (index === undefined) needFull = true;
    else partIndexes.add(index);
  }
  if (needFull) {
    await loadFull(name);
  } else {
    const parts = await Promise.all([...partIndexes].map((index) => split!.parts[index]()));
    const target = registry()[name] ??= {};
    for (const namespace of parts) {
      for (const key of Object.keys(namespace)) if (key in split!.names) target[key] = namespace[key];
    }
  }
  const published = registry()[name] ?? {};
  return names.every((key) => key in published) ? undefined : await loadFull(name);
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/**
 * The source of the shim module for `name`: it re-exports each export of the host module from the
 * registry. Importing a name the host lacks is then a SyntaxError that names it, as in Node.
 */
export function shimSource(name: string, namespace: ModuleNamespace): string {
  const local = "__piHostModule";
  // Exports may be named like globals (typebox exports `Symbol`), so the first line reaches the
  // registry through `globalThis` only, before those names are declared.
  const keys = Object.keys(namespace).filter((key) =>
    key !== "default" && key !== local && key !== "globalThis" && IDENTIFIER.test(key)
  ).sort();
  const lines = [
    `// Generated by pi: re-exports the host's ${name} so extensions share its instances.`,
    `const ${local} = globalThis[globalThis.Symbol.for("pi-deno.extension-host-modules")][${
      JSON.stringify(name)
    }];`,
    `export default ("default" in ${local} ? ${local}.default : ${local});`,
  ];
  if (keys.length > 0) lines.push(`export const { ${keys.join(", ")} } = ${local};`);
  return lines.join("\n") + "\n";
}

/**
 * The source of a shim that exports only `names` of host module `name` (an extension's
 * `import { Box, Text } from "@earendil-works/pi-tui"`): it needs only their parts loaded.
 */
export function namedShimSource(name: string, names: readonly string[]): string {
  const local = "__piHostModule";
  const keys = names.filter((key) => key !== local && key !== "globalThis" && IDENTIFIER.test(key));
  const lines = [
    `// Generated by pi: re-exports ${keys.length} names of the host's ${name} so extensions share its instances.`,
    `const ${local} = globalThis[globalThis.Symbol.for("pi-deno.extension-host-modules")][${
      JSON.stringify(name)
    }];`,
  ];
  if (keys.length > 0) lines.push(`export const { ${keys.join(", ")} } = ${local};`);
  return lines.join("\n") + "\n";
}
