/**
 * Where `pi update` finds a newer standalone binary (issue 18): the GitHub releases of pi for
 * Deno, laid out as the release workflow publishes them and install.sh reads them:
 *
 *   <base>/latest                  redirects to <base>/tag/<tag> (GitHub's answer)
 *   <base>/download/<tag>/<asset>  one binary per platform (scripts/build.ts's TARGETS names)
 *   <base>/download/<tag>/SHA256SUMS
 *
 * `<base>` is `https://github.com/<PI_INSTALL_REPO>/releases`, or `PI_INSTALL_BASE_URL` (the
 * same variables as install.sh, so one setting points both at a mirror or a test server).
 *
 * @module
 */
import { sha256Hex } from "../ai/providers/bedrock_sigv4.ts";

/** The repository releases come from when PI_INSTALL_REPO is not set (as install.sh's default). */
export const DEFAULT_RELEASE_REPO = "OWNER/pi-deno";

/** The checksum file every release carries. */
export const CHECKSUM_FILE = "SHA256SUMS";

/** How long asking for the latest release may take. */
const LATEST_TIMEOUT_MS = 30_000;

/** How long one download may take. */
const DOWNLOAD_TIMEOUT_MS = 15 * 60_000;

/** The releases root for the environment `env` (PI_INSTALL_BASE_URL, else PI_INSTALL_REPO's). */
export function releaseBaseUrl(env: (name: string) => string | undefined): string {
  const base = env("PI_INSTALL_BASE_URL")?.trim();
  if (base) return base.replace(/\/+$/, "");
  const repo = env("PI_INSTALL_REPO")?.trim() || DEFAULT_RELEASE_REPO;
  return `https://github.com/${repo}/releases`;
}

/**
 * The release asset of a platform (`Deno.build.os`, `Deno.build.arch`), or undefined when the
 * release has no binary for it.
 */
export function assetForPlatform(os: string, arch: string): string | undefined {
  const cpu = arch === "x86_64" ? "x64" : arch === "aarch64" ? "arm64" : undefined;
  if (!cpu) return undefined;
  if (os === "linux") return `pi-linux-${cpu}`;
  if (os === "darwin") return `pi-darwin-${cpu}`;
  if (os === "windows" && cpu === "x64") return "pi-windows-x64.exe";
  return undefined;
}

/** The version a release tag names: `v1.7.0` → `1.7.0`. */
export function versionOfTag(tag: string): string {
  return tag.replace(/^v/, "");
}

/**
 * The tag of the latest release, from where `<base>/latest` redirects; undefined when it does not
 * redirect to a `/tag/<tag>` address.
 */
export async function latestReleaseTag(base: string): Promise<string | undefined> {
  const response = await fetch(`${base}/latest`, {
    redirect: "manual",
    signal: AbortSignal.timeout(LATEST_TIMEOUT_MS),
  });
  await response.body?.cancel();
  const location = response.headers.get("location");
  if (response.status < 300 || response.status >= 400 || !location) return undefined;
  const match = new URL(location, `${base}/`).pathname.match(/\/tag\/([^/]+)$/);
  return match ? decodeURIComponent(match[1]) : undefined;
}

/** The `<hex>  <name>` lines of a SHA256SUMS file, by name (a `*` binary-mode mark is allowed). */
export function parseChecksums(text: string): Map<string, string> {
  const sums = new Map<string, string>();
  for (const line of text.split(/\r?\n/)) {
    const match = line.match(/^([0-9a-fA-F]{64}) [ *](.+)$/);
    if (match) sums.set(match[2].trim(), match[1].toLowerCase());
  }
  return sums;
}

async function download(url: string): Promise<Uint8Array> {
  const response = await fetch(url, { signal: AbortSignal.timeout(DOWNLOAD_TIMEOUT_MS) });
  if (!response.ok) {
    await response.body?.cancel();
    throw new Error(`Could not download ${url}: HTTP ${response.status}`);
  }
  return new Uint8Array(await response.arrayBuffer());
}

/**
 * Downloads `asset` of release `tag` and checks it against the release's SHA256SUMS; throws when
 * either download fails, the asset has no line there, or the bytes differ.
 */
export async function downloadVerifiedAsset(base: string, tag: string, asset: string): Promise<Uint8Array> {
  const folder = `${base}/download/${encodeURIComponent(tag)}`;
  const sums = parseChecksums(new TextDecoder().decode(await download(`${folder}/${CHECKSUM_FILE}`)));
  const expected = sums.get(asset);
  if (!expected) throw new Error(`${CHECKSUM_FILE} of ${tag} has no line for ${asset}; nothing was replaced`);
  const bytes = await download(`${folder}/${asset}`);
  const actual = await sha256Hex(bytes);
  if (actual !== expected) {
    throw new Error(
      `the SHA-256 of ${asset} (${tag}) is ${actual}, but ${CHECKSUM_FILE} says ${expected}; nothing was replaced`,
    );
  }
  return bytes;
}
