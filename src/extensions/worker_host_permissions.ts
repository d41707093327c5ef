/**
 * The permissions an extension declares for itself (`"pi": { "permissions": … }` in its
 * package.json) or the user grants it (`"extensionPermissions"` in `~/.pi/agent/settings.json`),
 * checked and turned into the `deno.permissions` of the Worker it then runs in. An extension with
 * neither runs inside the pi process, with the session's permissions, as before.
 *
 * A kind not named keeps the session's permission (`"inherit"`), so a declaration only ever
 * narrows what the pi process may do; Deno refuses a Worker more than its parent has.
 *
 * @module
 */
import { dirname, isAbsolute, join, resolve } from "../util/path.ts";

/** The permission kinds an extension may declare (Deno's names). */
export const EXTENSION_PERMISSION_KINDS = ["read", "write", "net", "run", "env", "sys"] as const;

/** One permission kind. */
export type ExtensionPermissionKind = typeof EXTENSION_PERMISSION_KINDS[number];

/** A declared value: all, nothing, or a list (paths for read/write, hosts for net, programs for run …). */
export type ExtensionPermissionValue = boolean | string[];

/** What an extension may do; a kind left out keeps the session's permission. */
export type ExtensionPermissions = Partial<Record<ExtensionPermissionKind, ExtensionPermissionValue>>;

/** A declaration and where it came from (for messages). */
export interface DeclaredPermissions {
  permissions: ExtensionPermissions;
  /** The package.json or settings.json that declared it. */
  source: string;
  /** The folder relative paths in it are resolved against. */
  baseDir: string;
}

function expandHome(path: string, home: string | undefined): string {
  if (path === "~") return home ?? path;
  if (path.startsWith("~/") && home) return join(home, path.slice(2));
  return path;
}

/**
 * Checks a declaration; throws an error that names `source` and the offending key. `where` is
 * the key path shown (`pi.permissions`, `extensionPermissions["…"]`).
 */
export function parseExtensionPermissions(
  value: unknown,
  source: string,
  where: string,
): ExtensionPermissions {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new Error(
      `${source}: "${where}" must be an object such as { "write": false, "net": ["api.example.com"] }`,
    );
  }
  const out: ExtensionPermissions = {};
  for (const [key, entry] of Object.entries(value)) {
    if (!(EXTENSION_PERMISSION_KINDS as readonly string[]).includes(key)) {
      throw new Error(
        `${source}: "${where}.${key}" is not a permission (use ${EXTENSION_PERMISSION_KINDS.join(", ")})`,
      );
    }
    if (typeof entry === "boolean") out[key as ExtensionPermissionKind] = entry;
    else if (Array.isArray(entry) && entry.every((item) => typeof item === "string" && item.length > 0)) {
      out[key as ExtensionPermissionKind] = [...entry];
    } else {
      throw new Error(`${source}: "${where}.${key}" must be true, false or a list of strings`);
    }
  }
  return out;
}

/** The nearest package.json above `file` (at most a few levels: an extension's own package). */
function nearestPackageJson(file: string): string | undefined {
  let dir = dirname(file);
  for (let depth = 0; depth < 4; depth++) {
    const candidate = join(dir, "package.json");
    try {
      if (Deno.statSync(candidate).isFile) return candidate;
    } catch { /* not here */ }
    const parent = dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  return undefined;
}

/** The `pi.permissions` of the package holding `entryFile`, if it declares any; throws when invalid. */
export function packagePermissions(entryFile: string): DeclaredPermissions | undefined {
  const packageJson = nearestPackageJson(entryFile);
  if (!packageJson) return undefined;
  let manifest: unknown;
  try {
    manifest = JSON.parse(Deno.readTextFileSync(packageJson));
  } catch {
    return undefined; // Not ours to judge: discovery reads the same file for pi.extensions.
  }
  const pi = (manifest as { pi?: { permissions?: unknown } } | null)?.pi;
  if (pi?.permissions === undefined) return undefined;
  return {
    permissions: parseExtensionPermissions(pi.permissions, packageJson, "pi.permissions"),
    source: packageJson,
    baseDir: dirname(packageJson),
  };
}

/** The user's `extensionPermissions` setting: extension path (file or folder) or package source → permissions. */
export type ExtensionPermissionsSetting = Record<string, unknown>;

/**
 * The settings entry for an extension: a key naming its entry file, a folder holding it, or its
 * package source (`npm:…`, `git:…`). Keys are resolved against the agent dir, `~` is the home
 * folder. Throws when the matching entry is invalid.
 */
export function settingsPermissions(
  setting: ExtensionPermissionsSetting | undefined,
  entry: { resolvedPath: string; source?: string },
  settingsFile: string,
  agentDir: string,
  home: string | undefined,
): DeclaredPermissions | undefined {
  if (setting === undefined || setting === null) return undefined;
  if (typeof setting !== "object" || Array.isArray(setting)) {
    throw new Error(
      `${settingsFile}: "extensionPermissions" must be an object mapping extension paths to permissions`,
    );
  }
  for (const [key, value] of Object.entries(setting)) {
    const matches = key === entry.source || (() => {
      const path = resolve(agentDir, expandHome(key, home));
      return entry.resolvedPath === path || entry.resolvedPath.startsWith(`${path}/`);
    })();
    if (!matches) continue;
    return {
      permissions: parseExtensionPermissions(
        value,
        settingsFile,
        `extensionPermissions[${JSON.stringify(key)}]`,
      ),
      source: settingsFile,
      baseDir: agentDir,
    };
  }
  return undefined;
}

/** Deno's `WorkerOptions.deno.permissions` value. */
export type WorkerPermissions = Record<string, "inherit" | boolean | string[]>;

/**
 * The Worker's permissions: declared kinds as given (paths resolved against the declaring file's
 * folder), the rest inherited; reading is always allowed for `alwaysReadable` (the extension's
 * built modules and its own folder), which the Worker needs to import the extension at all.
 */
export function workerPermissions(
  declared: DeclaredPermissions,
  alwaysReadable: readonly string[],
  home: string | undefined,
): WorkerPermissions {
  const out: WorkerPermissions = { ffi: false };
  for (const kind of EXTENSION_PERMISSION_KINDS) {
    const value = declared.permissions[kind];
    if (value === undefined) out[kind] = "inherit";
    else if (typeof value === "boolean") out[kind] = value;
    else if (kind === "read" || kind === "write") {
      out[kind] = value.map((path) => {
        const expanded = expandHome(path, home);
        return isAbsolute(expanded) ? expanded : resolve(declared.baseDir, expanded);
      });
    } else out[kind] = [...value];
  }
  const read = out.read;
  if (read === false) out.read = [...alwaysReadable];
  else if (Array.isArray(read)) out.read = [...read, ...alwaysReadable];
  return out;
}
