/**
 * A cache of listing summaries, one file per session folder (`.pi-listing-cache.json`), so a
 * listing of thousands of big sessions reads only what changed: an unchanged file (same inode,
 * size and mtime) is not opened, a grown one (sessions are append-only) is read from where the
 * cached summary stopped after checking that the bytes before that point are still the cached
 * ones. The cache is never required: a missing, unreadable or stale one means a full read, and
 * deleting it loses nothing. Session files are not touched; pi 1.6.0 ignores the file.
 *
 * @module
 */
import { join } from "../util/path.ts";
import { type SessionSummary, summaryFingerprint, type SummaryResult } from "./session_summary.ts";

/** The cache file's name inside a session folder. */
export const LISTING_CACHE_NAME = ".pi-listing-cache.json";
const CACHE_VERSION = 2;
/** Summaries with a longer first message are not cached (a pasted file would bloat the cache). */
const MAX_CACHED_TEXT = 4096;

/** What is cached for one session file. */
export interface CachedSummary {
  ino: number | null;
  size: number;
  mtimeMs: number;
  /** Hash of the first bytes and of the bytes just before `resumable.scanned` (see {@link summaryFingerprint}). */
  fingerprint: string;
  shown: SessionSummary;
  resumable: SessionSummary;
}

interface CacheFile {
  version: number;
  files: Record<string, CachedSummary>;
}

/** Checks `path` against a cached fingerprint (see {@link summaryFingerprint}). */
function fingerprintOf(path: string, scanned: number): string {
  const file = Deno.openSync(path, { read: true });
  try {
    return summaryFingerprint(file, scanned);
  } finally {
    file.close();
  }
}

/** The cache of one session folder; load, use for each file, then save. */
export class ListingCache {
  readonly #path: string;
  #files: Record<string, CachedSummary> = {};
  #next: Record<string, CachedSummary> = {};
  #changed = false;

  private constructor(dir: string) {
    this.#path = join(dir, LISTING_CACHE_NAME);
  }

  /** Reads the folder's cache; an unreadable or foreign one counts as empty. */
  static async load(dir: string): Promise<ListingCache> {
    const cache = new ListingCache(dir);
    try {
      const data = JSON.parse(await Deno.readTextFile(cache.#path)) as CacheFile;
      if (data?.version === CACHE_VERSION && data.files && typeof data.files === "object") {
        cache.#files = data.files;
      }
    } catch {
      // No cache yet (or a broken one): everything is read.
    }
    return cache;
  }

  /**
   * The summary of `path` (file name `name` in the folder), from the cache when the file is
   * unchanged, else by `summarize` (from the cached point when the file only grew).
   */
  async summary(
    name: string,
    path: string,
    summarize: (prior?: SessionSummary) => Promise<SummaryResult>,
  ): Promise<SessionSummary> {
    // Synchronous: one system call, where an asynchronous one waits for a thread under load.
    const stat = Deno.statSync(path);
    const key = { ino: stat.ino ?? null, size: stat.size, mtimeMs: stat.mtime?.getTime() ?? 0 };
    const cached = Object.hasOwn(this.#files, name) ? this.#files[name] : undefined;
    if (cached && cached.ino === key.ino && cached.size === key.size && cached.mtimeMs === key.mtimeMs) {
      this.#next[name] = cached;
      return cached.shown;
    }
    let prior: SessionSummary | undefined;
    if (
      cached && cached.ino === key.ino && key.size >= cached.resumable.scanned && cached.resumable.scanned > 0
    ) {
      if (fingerprintOf(path, cached.resumable.scanned) === cached.fingerprint) prior = cached.resumable;
    }
    const result = await summarize(prior);
    this.#changed = true;
    if (
      result.shown.firstMessage.length <= MAX_CACHED_TEXT &&
      (result.shown.name?.length ?? 0) <= MAX_CACHED_TEXT
    ) {
      this.#next[name] = {
        ...key,
        fingerprint: result.fingerprint,
        shown: result.shown,
        resumable: result.resumable,
      };
    }
    return result.shown;
  }

  /**
   * Writes the cache when anything changed (atomically; files no longer listed are dropped).
   * Failure (a read-only folder) is ignored: the cache only saves time.
   */
  async save(): Promise<void> {
    if (!this.#changed && Object.keys(this.#next).length === Object.keys(this.#files).length) return;
    const tmp = `${this.#path}.${crypto.randomUUID().slice(0, 8)}.tmp`;
    try {
      await Deno.writeTextFile(tmp, JSON.stringify({ version: CACHE_VERSION, files: this.#next }));
      await Deno.rename(tmp, this.#path);
    } catch {
      await Deno.remove(tmp).catch(() => {});
    }
  }
}
