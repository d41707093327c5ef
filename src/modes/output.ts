/**
 * Protocol output for the non-interactive modes. Only protocol records and final answers go to
 * stdout; writes are synchronous and complete, so records never interleave or get cut off
 * when the process exits right after.
 *
 * @module
 */

const encoder = new TextEncoder();

/** Writes all of `text` to stdout. */
export function writeStdout(text: string): void {
  const bytes = encoder.encode(text);
  let offset = 0;
  while (offset < bytes.length) offset += Deno.stdout.writeSync(bytes.subarray(offset));
}

/** Writes all of `text` to stderr. */
export function writeStderr(text: string): void {
  const bytes = encoder.encode(text);
  let offset = 0;
  while (offset < bytes.length) offset += Deno.stderr.writeSync(bytes.subarray(offset));
}
