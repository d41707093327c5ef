/**
 * Storage backends for auth.json. The file backend creates the file as `{}` with mode 0600 inside a 0700
 * folder and performs every read-modify-write under a proper-lockfile compatible lock.
 *
 * @module
 */
import { existsSync } from "../util/fs.ts";

import { dirname, join } from "../util/path.ts";
import { getAgentDir } from "./paths.ts";
import { lockFile, lockFileSync, type SyncRelease } from "./file_lock.ts";

/** What a locked callback returns: a result, and optionally new text to store. */
export interface LockResult<T> {
  result: T;
  next?: string;
}

/** A place auth.json text lives, accessed only under its lock. */
export interface AuthStorageBackend {
  withLock<T>(fn: (current: string | undefined) => LockResult<T>): T;
  withLockAsync<T>(fn: (current: string | undefined) => Promise<LockResult<T>>): Promise<T>;
  /**
   * The stored text without taking the lock, for a reader that may not write (a read-only sandbox cannot
   * create the lock folder); undefined when nothing is stored.
   */
  readUnlocked?(): string | undefined;
}

/** auth.json on disk. */
export class FileAuthStorageBackend implements AuthStorageBackend {
  private readonly authPath: string;

  constructor(authPath: string = join(getAgentDir(), "auth.json")) {
    this.authPath = authPath;
  }

  private ensureFile(): void {
    const dir = dirname(this.authPath);
    if (!existsSync(dir)) Deno.mkdirSync(dir, { recursive: true, mode: 0o700 });
    if (!existsSync(this.authPath)) {
      Deno.writeTextFileSync(this.authPath, "{}");
      Deno.chmodSync(this.authPath, 0o600);
    }
  }

  private write(next: string): void {
    Deno.writeTextFileSync(this.authPath, next);
    Deno.chmodSync(this.authPath, 0o600);
  }

  /** Synchronous locked read-modify-write. */
  withLock<T>(fn: (current: string | undefined) => LockResult<T>): T {
    this.ensureFile();
    let release: SyncRelease | undefined;
    try {
      release = lockFileSync(this.authPath);
      const current = existsSync(this.authPath) ? Deno.readTextFileSync(this.authPath) : undefined;
      const { result, next } = fn(current);
      if (next !== undefined) this.write(next);
      return result;
    } finally {
      release?.();
    }
  }

  /** Reads auth.json as it is, creating nothing; a missing file is undefined. */
  readUnlocked(): string | undefined {
    try {
      return Deno.readTextFileSync(this.authPath);
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) return undefined;
      throw error;
    }
  }

  /** Asynchronous locked read-modify-write for slow work (token refresh); the lock stays fresh meanwhile. */
  async withLockAsync<T>(fn: (current: string | undefined) => Promise<LockResult<T>>): Promise<T> {
    this.ensureFile();
    let compromised: Error | undefined;
    const throwIfCompromised = () => {
      if (compromised) throw compromised;
    };
    const release = await lockFile(this.authPath, {
      retries: 10,
      factor: 2,
      minTimeout: 100,
      maxTimeout: 10000,
      randomize: true,
      stale: 30000,
      onCompromised: (error) => {
        compromised = error;
      },
    });
    try {
      throwIfCompromised();
      const current = existsSync(this.authPath) ? Deno.readTextFileSync(this.authPath) : undefined;
      const { result, next } = await fn(current);
      throwIfCompromised();
      if (next !== undefined) this.write(next);
      throwIfCompromised();
      return result;
    } finally {
      await release().catch(() => {
        // Unlock errors after a compromised lock carry no further information.
      });
    }
  }
}

/** auth.json kept in memory (tests, SDK embedding). */
export class InMemoryAuthStorageBackend implements AuthStorageBackend {
  private value: string | undefined;

  /** Same contract as the file backend. */
  withLock<T>(fn: (current: string | undefined) => LockResult<T>): T {
    const { result, next } = fn(this.value);
    if (next !== undefined) this.value = next;
    return result;
  }

  /** Same contract as the file backend. */
  async withLockAsync<T>(fn: (current: string | undefined) => Promise<LockResult<T>>): Promise<T> {
    const { result, next } = await fn(this.value);
    if (next !== undefined) this.value = next;
    return result;
  }
}
