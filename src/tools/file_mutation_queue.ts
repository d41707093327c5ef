/**
 * Per-file serialisation of writes. The agent may run several tool calls in parallel; two
 * edits of one file must not read the same old content and overwrite each other, so every
 * mutation of a path waits for the previous one. Different files still proceed in parallel.
 *
 * @module
 */
import { resolve } from "../util/path.ts";

const tails = new Map<string, Promise<void>>();

/** Symlinks and relative spellings of one file must share a queue, so key by real path. */
function queueKey(filePath: string): string {
  const absolute = resolve(filePath);
  try {
    return Deno.realPathSync(absolute);
  } catch {
    return absolute;
  }
}

/**
 * Runs `fn` once every earlier mutation queued for the same file has settled (fulfilled or
 * rejected), and returns its result. A failing `fn` does not block later callers.
 */
export async function withFileMutationQueue<T>(filePath: string, fn: () => Promise<T>): Promise<T> {
  const key = queueKey(filePath);
  const previous = tails.get(key) ?? Promise.resolve();
  let release!: () => void;
  const done = new Promise<void>((r) => (release = r));
  const tail = previous.then(() => done);
  tails.set(key, tail);
  await previous;
  try {
    return await fn();
  } finally {
    release();
    if (tails.get(key) === tail) tails.delete(key);
  }
}
