/**
 * `pi update --extensions` / `pi update <source>` (pi 1.6.0): brings configured packages up to
 * date. npm packages pinned to an exact version are left alone; the others are reinstalled when the
 * registry (`npm view`) has a newer version in their range. Git packages are fetched and reset to
 * their ref, or to the upstream branch when they have none. Offline mode (`PI_OFFLINE`) skips all.
 *
 * @module
 */
import { readEnv } from "../../util/env.ts";
import { existsSync } from "../../util/fs.ts";
import { join } from "../../util/path.ts";
import type { ConfiguredPackage, PackageManager, PackageScope } from "./package_manager.ts";
import { runCaptured } from "./package_process.ts";
import { type GitSource, type NpmSource, packageIdentity, parseSource } from "./package_source.ts";

/** What an update did. */
export interface UpdateReport {
  /** One line per changed package: `<source>[ (project)] <from> -> <to>`. */
  updated: string[];
  /** Problems that did not stop the update (shown in yellow). */
  warnings: string[];
}

/** True when `PI_OFFLINE` asks for no network use. */
export function isOfflineMode(): boolean {
  const value = readEnv("PI_OFFLINE")?.toLowerCase();
  return value === "1" || value === "true" || value === "yes";
}

function parseVersion(version: string): { core: number[]; pre: string[] } | undefined {
  const match = version.trim().replace(/^v/, "").match(
    /^(\d+)\.(\d+)\.(\d+)(?:-([0-9A-Za-z.-]+))?(?:\+.*)?$/,
  );
  if (!match) return undefined;
  return {
    core: [Number(match[1]), Number(match[2]), Number(match[3])],
    pre: match[4] ? match[4].split(".") : [],
  };
}

/** Semantic-version order: negative when `a` < `b` (prerelease below its release). */
export function compareVersions(a: string, b: string): number {
  const pa = parseVersion(a);
  const pb = parseVersion(b);
  if (!pa || !pb) return a.localeCompare(b);
  for (let i = 0; i < 3; i++) if (pa.core[i] !== pb.core[i]) return pa.core[i] - pb.core[i];
  if (pa.pre.length === 0 || pb.pre.length === 0) return pb.pre.length - pa.pre.length;
  for (let i = 0; i < Math.max(pa.pre.length, pb.pre.length); i++) {
    const x = pa.pre[i];
    const y = pb.pre[i];
    if (x === undefined) return -1;
    if (y === undefined) return 1;
    const xNumeric = /^\d+$/.test(x);
    const yNumeric = /^\d+$/.test(y);
    if (xNumeric && yNumeric) {
      if (Number(x) !== Number(y)) return Number(x) - Number(y);
    } else if (xNumeric || yNumeric) {
      // Numeric identifiers sort below alphanumeric ones.
      return xNumeric ? -1 : 1;
    } else if (x !== y) {
      return x < y ? -1 : 1;
    }
  }
  return 0;
}

function installedVersion(path: string): string | undefined {
  try {
    const version = JSON.parse(Deno.readTextFileSync(join(path, "package.json"))).version;
    return typeof version === "string" ? version : undefined;
  } catch {
    return undefined;
  }
}

/** The newest registry version for a spec (`npm view` already narrows a range to its matches). */
export async function latestVersion(manager: PackageManager, cwd: string, spec: string): Promise<string> {
  const client = manager.client();
  const raw = await runCaptured(client.command, [...client.args, "view", spec, "version", "--json"], cwd);
  if (!raw) throw new Error("Empty response from npm view");
  const parsed = JSON.parse(raw);
  if (typeof parsed === "string") return parsed;
  if (Array.isArray(parsed)) {
    const versions = parsed.filter((v): v is string => typeof v === "string" && v.length > 0);
    const newest = versions.sort(compareVersions).pop();
    if (newest) return newest;
  }
  throw new Error("Unexpected response from npm view");
}

async function gitHead(dir: string): Promise<string | undefined> {
  if (!existsSync(dir)) return undefined;
  return await runCaptured("git", ["rev-parse", "HEAD"], dir).catch(() => undefined) || undefined;
}

/** The error for an update target that names no configured package, with a hint when one is close. */
function noMatch(source: string, configured: ConfiguredPackage[]): Error {
  const wanted = source.trim();
  for (const pkg of configured) {
    const parsed = parseSource(pkg.source);
    const close = parsed.type === "npm"
      ? wanted === parsed.name || wanted === parsed.spec
      : parsed.type === "git" &&
        (wanted === `${parsed.host}/${parsed.path}` ||
          (parsed.ref && wanted === `${parsed.host}/${parsed.path}@${parsed.ref}`));
    if (close) return new Error(`No matching package found for ${source}. Did you mean ${pkg.source}?`);
  }
  return new Error(`No matching package found for ${source}`);
}

/**
 * Updates every configured package, or the one `source` names (by identity: npm name, git
 * repository, resolved path). `onProgress` gets the "Updating …" lines.
 */
export async function updatePackages(
  manager: PackageManager,
  cwd: string,
  source: string | undefined,
  onProgress: (message: string) => void,
): Promise<UpdateReport> {
  const configured = manager.listConfiguredPackages();
  const wanted = source ? packageIdentity(source, cwd) : undefined;
  const selected = configured.filter((pkg) =>
    wanted === undefined || packageIdentity(pkg.source, manager.baseDir(pkg.scope)) === wanted
  );
  if (source && selected.length === 0) throw noMatch(source, configured);
  const report: UpdateReport = { updated: [], warnings: [] };
  if (isOfflineMode() || selected.length === 0) return report;

  const label = (pkg: { source: string; scope: PackageScope }) =>
    `${pkg.source}${pkg.scope === "project" ? " (project)" : ""}`;
  // npm: check each unpinned package, then one `npm install` per scope for those with a newer version.
  const npmUpdates: { pkg: ConfiguredPackage; parsed: NpmSource; from?: string; target?: string }[] = [];
  for (const pkg of selected) {
    const parsed = parseSource(pkg.source);
    if (parsed.type !== "npm" || parsed.pinned) continue;
    const from = installedVersion(manager.npmInstallPath(parsed, pkg.scope));
    if (!from) {
      npmUpdates.push({ pkg, parsed });
      continue;
    }
    try {
      const target = await latestVersion(manager, cwd, parsed.version ? parsed.spec : parsed.name);
      if (compareVersions(target, from) > 0) npmUpdates.push({ pkg, parsed, from, target });
    } catch {
      // Without an answer from the registry, reinstall as 1.6.0 does.
      npmUpdates.push({ pkg, parsed, from });
    }
  }
  for (const scope of ["user", "project"] as const) {
    const batch = npmUpdates.filter((u) => u.pkg.scope === scope);
    if (batch.length === 0) continue;
    onProgress(
      batch.length === 1 ? `Updating ${batch[0].pkg.source}...` : `Updating ${scope} npm packages...`,
    );
    // A bare name would keep the range npm saved at install time: ask for the latest explicitly.
    await manager.installNpmSpecs(
      batch.map((u) => u.parsed.version ? u.parsed.spec : `${u.parsed.name}@latest`),
      scope,
    );
    for (const u of batch) {
      const to = installedVersion(manager.npmInstallPath(u.parsed, scope));
      if (u.from && u.target && to === u.from) {
        report.warnings.push(
          `${u.pkg.source} is still ${to} (registry reports ${u.target}); npm registry metadata may be stale, try again in a few minutes`,
        );
      }
    }
  }
  const npmLines = npmUpdates.flatMap((u) => {
    const to = installedVersion(manager.npmInstallPath(u.parsed, u.pkg.scope));
    return to === u.from ? [] : [`${label(u.pkg)} ${u.from ?? "(none)"} -> ${to ?? "(none)"}`];
  });
  // git: pinned refs too, so a changed ref in settings reconciles the checkout.
  const gitLines: string[] = [];
  for (const pkg of selected) {
    const parsed = parseSource(pkg.source);
    if (parsed.type !== "git") continue;
    onProgress(`Updating ${pkg.source}...`);
    const dir = manager.gitInstallPath(parsed as GitSource, pkg.scope);
    const from = await gitHead(dir);
    await manager.updateGit(parsed, pkg.scope);
    const to = await gitHead(dir);
    if (from !== to) {
      gitLines.push(`${label(pkg)} ${from?.slice(0, 7) ?? "(none)"} -> ${to?.slice(0, 7) ?? "(none)"}`);
    }
  }
  report.updated.push(...npmLines, ...gitLines);
  return report;
}
