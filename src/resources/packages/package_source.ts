/**
 * Package sources as pi 1.6.0 writes them (docs/packages.md): `npm:name@version`, git sources
 * (`git:host/owner/repo@ref`, `git:git@host:owner/repo@ref`, and `https://`, `http://`, `ssh://`,
 * `git://` URLs with an optional `@ref`), and local paths (anything else, `file:` URLs included).
 * Also the identity that keeps one package from loading twice: npm packages by name, git packages by
 * host and repository path without the ref, local ones by resolved absolute path.
 *
 * @module
 */
import { readEnv } from "../../util/env.ts";
import { homeDir as osHomeDir } from "../../util/os.ts";
import { fileUrlToPath, isAbsolute, join, resolve } from "../../util/path.ts";

/** An npm source: `npm:<spec>`. */
export interface NpmSource {
  type: "npm";
  /** What follows `npm:` (name and optional version or range). */
  spec: string;
  /** The package name. */
  name: string;
  /** The version or range after `@`, when given. */
  version?: string;
  /** True when `version` is one exact version (then updates never move it). */
  pinned: boolean;
}

/** A git source. */
export interface GitSource {
  type: "git";
  /** The URL git clones. */
  repo: string;
  /** The host (the install folder's first part). */
  host: string;
  /** Owner and repository, without `.git` (the rest of the install folder). */
  path: string;
  /** Tag, branch or commit after `@`, when given. */
  ref?: string;
  /** True when a ref is given (updates reconcile the checkout but never move the ref). */
  pinned: boolean;
}

/** A local file or folder, used where it is (never copied). */
export interface LocalSource {
  type: "local";
  /** The path as written. */
  path: string;
}

/** Any parsed package source. */
export type ParsedSource = NpmSource | GitSource | LocalSource;

const EXACT_VERSION = /^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$/;
const NON_LOCAL_PREFIXES = ["npm:", "git:", "github:", "http:", "https:", "ssh:", "builtin:"];

/** Splits `name@version` (scoped names keep their leading `@`). */
function parseNpmSpec(spec: string): { name: string; version?: string } {
  const match = spec.match(/^(@?[^@]+(?:\/[^@]+)?)(?:@(.+))?$/);
  if (!match) return { name: spec };
  return { name: match[1], version: match[2] };
}

/** True unless the source starts with a scheme that is not a local path. */
export function isLocalSource(source: string): boolean {
  const trimmed = source.trim();
  return !NON_LOCAL_PREFIXES.some((prefix) => trimmed.startsWith(prefix));
}

function splitAt(pathWithRef: string): { path: string; ref?: string } | undefined {
  const at = pathWithRef.indexOf("@");
  if (at < 0) return { path: pathWithRef };
  const path = pathWithRef.slice(0, at);
  const ref = pathWithRef.slice(at + 1);
  return path && ref ? { path, ref } : undefined;
}

function unsafePart(value: string, allowSlash: boolean): boolean {
  let decoded: string;
  try {
    decoded = decodeURIComponent(value);
  } catch {
    return true;
  }
  for (const candidate of [value, decoded]) {
    if (candidate.includes("\0") || candidate.includes("\\") || candidate.startsWith("/")) return true;
    if (!allowSlash && candidate.includes("/")) return true;
    if (candidate.split("/").includes("..")) return true;
  }
  return false;
}

function buildGit(
  repo: string,
  host: string,
  rawPath: string,
  ref: string | undefined,
): GitSource | undefined {
  if (rawPath.startsWith("/")) return undefined;
  const path = rawPath.replace(/\.git$/, "").replace(/^\/+/, "");
  if (!host || !path || path.split("/").length < 2) return undefined;
  if (unsafePart(host, false) || unsafePart(path, true)) return undefined;
  return { type: "git", repo, host, path, ref, pinned: Boolean(ref) };
}

/**
 * Parses a git source; undefined when `source` is not one. Without the `git:` prefix only explicit
 * protocol URLs are git sources.
 */
export function parseGitSource(source: string): GitSource | undefined {
  const trimmed = source.trim();
  const prefixed = trimmed.startsWith("git:");
  const url = prefixed ? trimmed.slice(4).trim() : trimmed;
  if (!prefixed && !/^(https?|ssh|git):\/\//i.test(url)) return undefined;
  const scp = url.match(/^git@([^:]+):(.+)$/);
  if (scp) {
    const split = splitAt(scp[2]);
    if (!split) return undefined;
    return buildGit(`git@${scp[1]}:${split.path}`, scp[1], split.path, split.ref);
  }
  if (/^(https?|ssh|git):\/\//i.test(url)) {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return undefined;
    }
    const split = splitAt(parsed.pathname.replace(/^\/+/, ""));
    if (!split) return undefined;
    let repo = url;
    if (split.ref) {
      parsed.pathname = `/${split.path}`;
      repo = parsed.toString().replace(/\/$/, "");
    }
    return buildGit(repo, parsed.hostname, split.path, split.ref);
  }
  // `git:owner/repo` is GitHub shorthand, as npm's hosted-git-info reads it.
  const shorthand = url.match(/^([^/:@]+)\/([^/:@]+)(?:@(.+))?$/);
  if (shorthand && !url.endsWith("@")) {
    const path = `${shorthand[1]}/${shorthand[2].replace(/\.git$/, "")}`;
    return buildGit(`https://github.com/${path}`, "github.com", path, shorthand[3]);
  }
  const slash = url.indexOf("/");
  if (slash < 0) return undefined;
  const host = url.slice(0, slash);
  if (!host.includes(".") && host !== "localhost") return undefined;
  const split = splitAt(url.slice(slash + 1));
  if (!split) return undefined;
  return buildGit(`https://${host}/${split.path}`, host, split.path, split.ref);
}

/** Parses any package source; what is neither npm nor git is a local path. */
export function parseSource(source: string): ParsedSource {
  if (source.startsWith("npm:")) {
    const spec = source.slice("npm:".length).trim();
    const { name, version } = parseNpmSpec(spec);
    return { type: "npm", spec, name, version, pinned: version !== undefined && EXACT_VERSION.test(version) };
  }
  if (isLocalSource(source)) return { type: "local", path: source };
  return parseGitSource(source) ?? { type: "local", path: source };
}

/** The home folder `~` names: `HOME`, else the platform's. */
export function packageHomeDir(): string {
  return readEnv("HOME") || osHomeDir();
}

/** Resolves a local source (trimmed; `~`, `file:` URLs) against `baseDir`. */
export function resolveLocalPath(input: string, baseDir: string, home: string = packageHomeDir()): string {
  let value = input.trim();
  if (value.startsWith("file:")) {
    try {
      value = fileUrlToPath(new URL(value));
    } catch {
      // Not a valid URL: treat it as a plain path, as written.
    }
  }
  if (value === "~") value = home;
  else if (value.startsWith("~/")) value = join(home, value.slice(2));
  return isAbsolute(value) ? resolve(value) : resolve(baseDir, value);
}

/**
 * The identity of a source: `npm:<name>`, `git:<host>/<path>` or `local:<absolute path>` (a local
 * path resolved against `baseDir`, the folder of the settings file that names it, or the cwd).
 */
export function packageIdentity(source: string, baseDir: string, home: string = packageHomeDir()): string {
  const parsed = parseSource(source);
  if (parsed.type === "npm") return `npm:${parsed.name}`;
  if (parsed.type === "git") return `git:${parsed.host}/${parsed.path}`;
  return `local:${resolveLocalPath(parsed.path, baseDir, home)}`;
}

/** The `source` of a settings entry (a string or the object form). */
export function entrySource(entry: string | { source: string }): string {
  return typeof entry === "string" ? entry : entry.source;
}
