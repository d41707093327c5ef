/**
 * Cross-process file locks that interoperate with npm `proper-lockfile`, which the reference uses for
 * settings.json and auth.json: the lock is a directory `<file>.lock` created with an atomic mkdir; a lock
 * whose directory mtime is older than the stale threshold is considered abandoned and may be taken over.
 * Holders of long locks touch the mtime periodically so they are not mistaken for abandoned ones.
 *
 * @module
 */

import { dirname, resolve } from "../util/path.ts";

/** Error thrown when another holder owns the lock; `code` matches proper-lockfile's. */
export class LockHeldError extends Error {
  /** Same code proper-lockfile uses so callers can branch on it. */
  readonly code = "ELOCKED";
  /** The file whose lock is held. */
  readonly file: string;
  constructor(file: string) {
    super("Lock file is already being held");
    this.name = "LockHeldError";
    this.file = file;
  }
}

/** Options shared by the sync and async lock functions. */
export interface FileLockOptions {
  /** Milliseconds after which an untouched lock counts as abandoned (min 2000, default 10000). */
  stale?: number;
}

/** Retry policy for {@link lockFileSync}. */
export interface SyncLockOptions extends FileLockOptions {
  /** Give up after this many milliseconds of waiting (default 10000). */
  maxWaitMs?: number;
}

/** Retry policy for {@link lockFile}, modelled on the `retry` package proper-lockfile uses. */
export interface AsyncLockOptions extends FileLockOptions {
  retries?: number;
  factor?: number;
  minTimeout?: number;
  maxTimeout?: number;
  randomize?: boolean;
  /** Called if the lock is lost while held (directory removed or taken over). */
  onCompromised?: (error: Error) => void;
}

/** Releases a lock taken with {@link lockFileSync}. */
export type SyncRelease = () => void;
/** Releases a lock taken with {@link lockFile}. */
export type AsyncRelease = () => Promise<void>;

const heldLocks = new Set<string>();
let exitHookInstalled = false;

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  // Like proper-lockfile's signal-exit hook: never leave our lock directories behind on a clean exit.
  globalThis.addEventListener("unload", () => {
    for (const lockPath of heldLocks) {
      try {
        Deno.removeSync(lockPath);
      } catch {
        // Already gone.
      }
    }
    heldLocks.clear();
  });
}

function lockPathFor(file: string): string {
  return `${resolve(file)}.lock`;
}

function normalizeStale(stale: number | undefined): number {
  return Math.max(stale ?? 10000, 2000);
}

function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/** How long a lock that looks abandoned is watched for a fresh stamp before it is taken over. */
const STALE_CONFIRM_MS = 100;

/**
 * Stamps a new lock with this process's clock, as proper-lockfile does: the stale check compares the
 * lock's mtime with the process clock, which may differ from the file system's (a faked or skewed clock).
 */
function stampNow(lockPath: string): void {
  const now = new Date();
  try {
    Deno.utimeSync(lockPath, now, now);
  } catch { /* the check then falls back to the file system's time */ }
}

/**
 * The file system's idea of now, from a probe file written next to the lock: a lock made by mkdir carries
 * the file system's time until its maker stamps it, and that clock may differ from this process's (a
 * skewed network file system, a faked process clock). Undefined when no probe can be written.
 */
function fileSystemNow(lockPath: string): number | undefined {
  let probe: string | undefined;
  try {
    probe = Deno.makeTempFileSync({ dir: dirname(lockPath), prefix: ".lock-clock-" });
    return Deno.statSync(probe).mtime?.getTime();
  } catch {
    return undefined;
  } finally {
    if (probe) {
      try {
        Deno.removeSync(probe);
      } catch { /* already gone */ }
    }
  }
}

/**
 * Whether a lock stamped `mtime` is still fresh: by this process's clock, or else by the file system's (so
 * that a lock another program has not stamped yet is not broken when the two clocks disagree). A stamp far
 * ahead of the file system's clock was made by a process clock, so only the process clock judges it.
 */
function isFresh(lockPath: string, mtime: number, stale: number): boolean {
  if (mtime >= Date.now() - stale) return true;
  const fsNow = fileSystemNow(lockPath);
  return fsNow !== undefined && mtime >= fsNow - stale && mtime <= fsNow + stale;
}

/** One attempt; returns true when the lock was taken, false when somebody else holds a fresh one. */
function tryAcquire(lockPath: string, stale: number): boolean {
  for (let round = 0; round < 3; round++) {
    try {
      Deno.mkdirSync(lockPath);
      heldLocks.add(lockPath);
      installExitHook();
      stampNow(lockPath);
      return true;
    } catch (error) {
      if (!(error instanceof Deno.errors.AlreadyExists)) throw error;
    }
    let mtime: Date | null;
    try {
      mtime = Deno.statSync(lockPath).mtime;
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) continue; // released meanwhile: try again
      throw error;
    }
    if (mtime && isFresh(lockPath, mtime.getTime(), stale)) return false;
    // It looks abandoned. A lock made a moment ago may still carry the file system's own time until its
    // maker stamps it (stampNow): look again shortly before taking it over.
    sleepSync(STALE_CONFIRM_MS);
    let again: number | undefined;
    try {
      again = Deno.statSync(lockPath).mtime?.getTime();
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) continue;
      throw error;
    }
    if (again !== mtime?.getTime()) return false;
    try {
      Deno.removeSync(lockPath);
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound)) throw error;
    }
  }
  return false;
}

function releaseSync(lockPath: string): void {
  heldLocks.delete(lockPath);
  try {
    Deno.removeSync(lockPath);
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
}

/**
 * Takes the lock for `file`, waiting synchronously (short jittered sleeps) while another process holds it.
 * The reference gives up after ~200 ms; we wait longer so bursts of writes from two processes never drop one.
 */
export function lockFileSync(file: string, options: SyncLockOptions = {}): SyncRelease {
  const lockPath = lockPathFor(file);
  const stale = normalizeStale(options.stale);
  const deadline = Date.now() + (options.maxWaitMs ?? 10000);
  while (true) {
    if (tryAcquire(lockPath, stale)) {
      let released = false;
      return () => {
        if (released) return;
        released = true;
        releaseSync(lockPath);
      };
    }
    if (Date.now() >= deadline) throw new LockHeldError(resolve(file));
    sleepSync(5 + Math.floor(Math.random() * 20));
  }
}

function retryDelay(attempt: number, options: AsyncLockOptions): number {
  const random = options.randomize ? Math.random() + 1 : 1;
  const delay = Math.round(random * (options.minTimeout ?? 1000) * Math.pow(options.factor ?? 2, attempt));
  return Math.min(delay, options.maxTimeout ?? Infinity);
}

/**
 * Takes the lock for `file` asynchronously with exponential backoff, and keeps it fresh (mtime touched
 * every stale/2) for as long as it is held, so slow work such as an OAuth refresh cannot be stolen.
 */
export async function lockFile(file: string, options: AsyncLockOptions = {}): Promise<AsyncRelease> {
  const lockPath = lockPathFor(file);
  const stale = normalizeStale(options.stale);
  const retries = options.retries ?? 0;
  for (let attempt = 0;; attempt++) {
    if (tryAcquire(lockPath, stale)) break;
    if (attempt >= retries) throw new LockHeldError(resolve(file));
    await new Promise((r) => setTimeout(r, retryDelay(attempt, options)));
  }

  let released = false;
  let lastMtime = Deno.statSync(lockPath).mtime?.getTime() ?? Date.now();
  const updateEvery = Math.max(stale / 2, 1000);
  const compromised = (error: Error) => {
    released = true;
    clearInterval(timer);
    heldLocks.delete(lockPath);
    (options.onCompromised ?? ((e: Error) => {
      throw e;
    }))(error);
  };
  const timer = setInterval(() => {
    if (released) return;
    try {
      const current = Deno.statSync(lockPath).mtime?.getTime();
      if (current !== lastMtime) {
        compromised(
          Object.assign(new Error("Unable to update lock within the stale threshold"), {
            code: "ECOMPROMISED",
          }),
        );
        return;
      }
      const now = new Date();
      Deno.utimeSync(lockPath, now, now);
      lastMtime = Deno.statSync(lockPath).mtime?.getTime() ?? now.getTime();
    } catch (error) {
      const err = error instanceof Error ? error : new Error(String(error));
      compromised(Object.assign(err, { code: "ECOMPROMISED" }));
    }
  }, updateEvery);
  Deno.unrefTimer(timer);

  return () => {
    if (released) {
      return Promise.reject(Object.assign(new Error("Lock is already released"), { code: "ERELEASED" }));
    }
    released = true;
    clearInterval(timer);
    releaseSync(lockPath);
    return Promise.resolve();
  };
}
