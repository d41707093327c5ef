/**
 * Writes `SHA256SUMS` for a release (issue 18): one line per binary of scripts/build.ts's TARGETS,
 * in their order, as `sha256sum` writes them (`<64 hex>  <asset name>`), so `sha256sum -c
 * SHA256SUMS` verifies a download and install.sh / `pi update` find a binary's line by its name.
 * A release is all five binaries: a missing one is an error, and nothing is written.
 *
 * Usage: deno run -A scripts/release/checksums.ts <folder with the binaries>
 *
 * @module
 */
import { TARGETS } from "../build.ts";

/** The checksum file's name, as the release carries it. */
export const CHECKSUM_FILE = "SHA256SUMS";

/** Lowercase hex SHA-256 of `bytes`. */
export async function sha256Hex(bytes: Uint8Array): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", bytes as Uint8Array<ArrayBuffer>);
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}

/** The text of SHA256SUMS for `dir`; throws naming every asset that is missing. */
export async function checksumText(dir: string): Promise<string> {
  const lines: string[] = [];
  const missing: string[] = [];
  for (const asset of Object.values(TARGETS)) {
    let bytes: Uint8Array;
    try {
      bytes = await Deno.readFile(`${dir}/${asset}`);
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) {
        missing.push(asset);
        continue;
      }
      throw error;
    }
    lines.push(`${await sha256Hex(bytes)}  ${asset}`);
  }
  if (missing.length) throw new Error(`${dir}: missing release asset(s): ${missing.join(", ")}`);
  return lines.join("\n") + "\n";
}

async function main(args: string[]): Promise<number> {
  const dir = args[0];
  if (!dir || args.length !== 1) {
    console.error("usage: checksums.ts <folder with the binaries>");
    return 2;
  }
  let text: string;
  try {
    text = await checksumText(dir);
  } catch (error) {
    console.error(`checksums: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  }
  await Deno.writeTextFile(`${dir}/${CHECKSUM_FILE}`, text);
  console.log(text.trimEnd());
  return 0;
}

if (import.meta.main) Deno.exit(await main(Deno.args));
