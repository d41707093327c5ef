/**
 * Protocol output for the non-interactive modes. Only protocol records and final answers go to
 * stdout; writes are synchronous and complete, so records never interleave or get cut off
 * when the process exits right after.
 *
 * @module
 */
import { writeAllSync } from "../util/fs.ts";

/**
 * Writes all of `text` (or bytes) to stdout. When the reader has gone (`pi --mode json … | head -1`), pi
 * stops at once and quietly with exit code 0, as command-line tools do on a closed pipe: the
 * session file is already written, and nothing more can be delivered.
 */
export function writeStdout(text: string | Uint8Array): void {
  try {
    writeAllSync(Deno.stdout, text);
  } catch (error) {
    if (!(error instanceof Deno.errors.BrokenPipe)) throw error;
    Deno.exit(0);
  }
}

/** Writes all of `text` to stderr. */
export function writeStderr(text: string): void {
  writeAllSync(Deno.stderr, text);
}
