/**
 * A fake GitHub release on 127.0.0.1 for the install scripts' tests: the five platform assets
 * (small shell scripts standing in for `pi` binaries, each printing its version and asset name)
 * and `SHA256SUMS`, under GitHub's two address shapes:
 *
 *   <url>/releases/latest/download/<asset>
 *   <url>/releases/download/<tag>/<asset>
 *
 * (the first redirects to the second, as on GitHub), so `PI_INSTALL_BASE_URL=<url>/releases` points
 * install.sh / install.ps1 at it. A test can make
 * one asset misbehave (`fault`) to see the installer refuse it.
 *
 * Run as a program, it is a stand-in `curl` or `wget` (`deno run -A fake_release_server.ts curl
 * -fsSL -o FILE URL`) for machines that have neither: see `writeDownloaderStandIn`.
 *
 * @module
 */
import { join } from "node:path";
import { TARGETS } from "../../scripts/build.ts";
import { CHECKSUM_FILE, checksumText } from "../../scripts/release/checksums.ts";

/** Every asset a release carries: the binaries scripts/build.ts compiles, which the workflow uploads. */
export const RELEASE_ASSETS: readonly string[] = Object.values(TARGETS);

/**
 * How the server misbehaves for one asset:
 * - `corrupt`: serves other bytes than SHA256SUMS lists;
 * - `not-found`: answers 404;
 * - `drop`: sends half the bytes with the full Content-Length, then closes the connection;
 * - `unlisted`: SHA256SUMS has no line for it;
 * - `broken`: a "binary" whose `--version` exits 1 (as a binary for another libc would).
 */
export type ReleaseFault = "corrupt" | "not-found" | "drop" | "unlisted" | "broken";

/** A running fake release. */
export interface FakeReleaseServer {
  /** `http://127.0.0.1:<port>`. */
  url: string;
  /** What to give install.sh as PI_INSTALL_BASE_URL: `<url>/releases`. */
  baseUrl: string;
  /** The tag `latest` resolves to. */
  latestTag: string;
  /** Paths requested so far, in order. */
  requests: string[];
  /** Faults by asset name; tests set and clear them between runs. */
  faults: Map<string, ReleaseFault>;
  /** The bytes served for `asset` of `tag` (what a correct install writes). */
  assetBody(tag: string, asset: string): Uint8Array<ArrayBuffer>;
  /** The version line the fake binary of `tag`/`asset` prints. */
  versionLine(tag: string, asset: string): string;
  close(): Promise<void>;
}

/** The version a tag names: `v1.2.3` → `1.2.3`. */
function versionOf(tag: string): string {
  return tag.replace(/^v/, "");
}

/**
 * Starts the server with releases for `tags` (the last one is `latest`). Unknown tags and
 * assets answer 404, as GitHub does.
 */
export function startFakeReleaseServer(tags: string[] = ["v1.5.0", "v2.0.0"]): FakeReleaseServer {
  const encoder = new TextEncoder();
  const latestTag = tags[tags.length - 1];
  const requests: string[] = [];
  const faults = new Map<string, ReleaseFault>();

  const versionLine = (tag: string, asset: string) => `${versionOf(tag)} (fake ${asset})`;
  const assetBody = (tag: string, asset: string) =>
    encoder.encode(
      `#!/bin/sh\n# fake pi binary ${asset} ${tag}\n` +
        // pi reads a piped stdin as a prompt: so does this one (a line of it), to show that the
        // installer, itself read from a pipe under `curl … | sh`, gives the binary none of it.
        `[ -t 0 ] || read -r _ || :\n` +
        `echo '${versionLine(tag, asset)}'\n`,
    );
  const brokenBody = (asset: string) =>
    encoder.encode(`#!/bin/sh\necho '${asset}: cannot execute: required file not found' >&2\nexit 1\n`);

  /** SHA256SUMS as the release workflow writes it (scripts/release/checksums.ts), over the bodies served. */
  async function sums(tag: string): Promise<Uint8Array<ArrayBuffer>> {
    const dir = await Deno.makeTempDir({ prefix: "pi-fake-release-" });
    try {
      for (const asset of RELEASE_ASSETS) {
        // The listed sum is that of the good body: "corrupt" serves other bytes. "broken" is listed
        // with its own sum, so only running it can tell.
        const body = faults.get(asset) === "broken" ? brokenBody(asset) : assetBody(tag, asset);
        await Deno.writeFile(join(dir, asset), body);
      }
      const lines = (await checksumText(dir)).split("\n").filter((line) => {
        const name = line.split("  ")[1];
        return line && faults.get(name) !== "unlisted";
      });
      return encoder.encode(lines.join("\n") + "\n");
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  }

  function serveAsset(tag: string, asset: string): Response {
    const fault = faults.get(asset);
    if (fault === "not-found") return new Response("Not Found", { status: 404 });
    if (fault === "broken") return new Response(brokenBody(asset));
    const body = assetBody(tag, asset);
    if (fault === "corrupt") {
      const bad = new Uint8Array(body);
      bad[bad.length - 2] ^= 0x20;
      return new Response(bad);
    }
    if (fault === "drop") {
      // Half the bytes under the full Content-Length, then the end: the client sees the
      // connection close early (curl: "transfer closed with N bytes remaining").
      const half = body.subarray(0, Math.floor(body.length / 2));
      const stream = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(half);
          setTimeout(() => controller.close(), 20);
        },
      });
      return new Response(stream, { headers: { "content-length": String(body.length) } });
    }
    return new Response(body, { headers: { "content-type": "application/octet-stream" } });
  }

  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (request) => {
    const path = new URL(request.url).pathname;
    requests.push(path);
    const match = path.match(/^\/releases\/(?:latest\/download|download\/([^/]+))\/([^/]+)$/);
    if (!match) return new Response("Not Found", { status: 404 });
    const name = decodeURIComponent(match[2]);
    // As GitHub does, "latest" answers with a redirect to the tag's address.
    if (match[1] === undefined) {
      return new Response(null, {
        status: 302,
        headers: { location: `/releases/download/${latestTag}/${match[2]}` },
      });
    }
    const tag = decodeURIComponent(match[1]);
    if (!tags.includes(tag)) return new Response("Not Found", { status: 404 });
    if (name === CHECKSUM_FILE) return new Response(await sums(tag));
    if (!RELEASE_ASSETS.includes(name)) {
      return new Response("Not Found", { status: 404 });
    }
    return serveAsset(tag, name);
  });
  const url = `http://127.0.0.1:${server.addr.port}`;
  return {
    url,
    baseUrl: `${url}/releases`,
    latestTag,
    requests,
    faults,
    assetBody,
    versionLine,
    close: () => server.shutdown(),
  };
}

/**
 * Writes `dir/<name>`, a stand-in for curl or wget that understands only what install.sh passes
 * (`curl -fsSL -o FILE URL`, `wget -q -O FILE URL`): for a machine that has neither program.
 * Like the real ones it exits non-zero on an HTTP error or a short body.
 */
export async function writeDownloaderStandIn(dir: string, name: "curl" | "wget"): Promise<void> {
  const self = new URL(import.meta.url).pathname;
  const script =
    `#!/bin/sh\nexec '${Deno.execPath()}' run --quiet --allow-all --no-config '${self}' ${name} "$@"\n`;
  const path = join(dir, name);
  await Deno.writeTextFile(path, script);
  await Deno.chmod(path, 0o755);
}

async function standInMain(args: string[]): Promise<number> {
  const [tool, ...rest] = args;
  let output: string | undefined;
  let url: string | undefined;
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i];
    if (arg === "-o" || arg === "-O") output = rest[++i];
    else if (arg.startsWith("-")) continue;
    else url = arg;
  }
  if (!output || !url) {
    console.error(`${tool} (stand-in): usage: ${tool} -o FILE URL`);
    return 2;
  }
  try {
    const response = await fetch(url);
    const bytes = new Uint8Array(await response.arrayBuffer());
    if (!response.ok) {
      console.error(`${tool} (stand-in): The requested URL returned error: ${response.status}`);
      return tool === "curl" ? 22 : 8;
    }
    await Deno.writeFile(output, bytes);
    return 0;
  } catch (error) {
    console.error(`${tool} (stand-in): ${error instanceof Error ? error.message : String(error)}`);
    return tool === "curl" ? 18 : 4;
  }
}

if (import.meta.main) Deno.exit(await standInMain(Deno.args));
