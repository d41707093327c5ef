/**
 * The process streams as the CLI sees them, behind an interface so the flow can be driven in
 * tests. Writes are synchronous and complete so nothing is lost when the process exits.
 *
 * @module
 */
import { writeAllSync } from "../util/fs.ts";

/** Terminal I/O used by the CLI flow. */
export interface CliIO {
  /** Writes to stdout. */
  stdout(text: string): void;
  /** Writes to stderr. */
  stderr(text: string): void;
  /** Whether stdin is a terminal (decides interactive vs print mode). */
  stdinIsTerminal(): boolean;
  /** Whether stdout is a terminal (a pipe or file also selects print mode). */
  stdoutIsTerminal(): boolean;
  /** All of piped stdin, trimmed; undefined when stdin is a terminal or the text is blank. */
  readPipedStdin(): Promise<string | undefined>;
  /** One line of stdin without its newline; undefined at end of input. */
  readLine(): Promise<string | undefined>;
}

/** The real process streams. */
export function processIO(): CliIO {
  // Bytes read past a line by readLine() are kept for the next read.
  let pending = new Uint8Array(0);
  let ended = false;
  const readChunk = async (): Promise<boolean> => {
    if (ended) return false;
    const buffer = new Uint8Array(65536);
    const n = await Deno.stdin.read(buffer);
    if (n === null) {
      ended = true;
      return false;
    }
    const merged = new Uint8Array(pending.length + n);
    merged.set(pending);
    merged.set(buffer.subarray(0, n), pending.length);
    pending = merged;
    return true;
  };
  return {
    stdout: (text) => writeAllSync(Deno.stdout, text),
    stderr: (text) => writeAllSync(Deno.stderr, text),
    stdinIsTerminal: () => Deno.stdin.isTerminal(),
    stdoutIsTerminal: () => Deno.stdout.isTerminal(),
    async readPipedStdin() {
      if (Deno.stdin.isTerminal()) return undefined;
      while (await readChunk()) { /* read to the end */ }
      const text = new TextDecoder().decode(pending).trim();
      pending = new Uint8Array(0);
      return text || undefined;
    },
    async readLine() {
      for (;;) {
        const newline = pending.indexOf(10);
        if (newline !== -1) {
          const line = new TextDecoder().decode(pending.subarray(0, newline));
          pending = pending.slice(newline + 1);
          return line.replace(/\r$/, "");
        }
        if (!(await readChunk())) {
          if (pending.length === 0) return undefined;
          const line = new TextDecoder().decode(pending);
          pending = new Uint8Array(0);
          return line;
        }
      }
    },
  };
}
