import { assert, assertEquals, assertThrows } from "../support/assert.ts";
import { join } from "node:path";
import { lockFile, lockFileSync, LockHeldError } from "../../src/config/file_lock.ts";

async function withTempDir(fn: (dir: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "pi-lock-" });
  try {
    await fn(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

const exists = (path: string) => Deno.stat(path).then(() => true, () => false);

Deno.test("AUTH-01 lock is a <file>.lock directory (proper-lockfile protocol), removed on release", async () => {
  await withTempDir(async (dir) => {
    const file = join(dir, "auth.json");
    await Deno.writeTextFile(file, "{}");
    const release = lockFileSync(file);
    assert((await Deno.stat(`${file}.lock`)).isDirectory);
    const error = assertThrows(
      () => lockFileSync(file, { maxWaitMs: 50 }),
      "Lock file is already being held",
    );
    assert(error instanceof LockHeldError);
    assertEquals((error as LockHeldError).code, "ELOCKED");
    release();
    assertEquals(await exists(`${file}.lock`), false);
    release(); // idempotent
  });
});

Deno.test("AUTH-01 a lock directory held by another process blocks; a stale one (old mtime) is taken over", async () => {
  await withTempDir(async (dir) => {
    const file = join(dir, "settings.json");
    await Deno.mkdir(`${file}.lock`);
    // A live holder keeps its lock stamped with its own clock (which may not be the file system's).
    const now = new Date();
    await Deno.utime(`${file}.lock`, now, now);
    assertThrows(() => lockFileSync(file, { maxWaitMs: 30 }), "Lock file is already being held");
    const old = new Date(Date.now() - 11_000);
    await Deno.utime(`${file}.lock`, old, old);
    const release = lockFileSync(file);
    assert((await Deno.stat(`${file}.lock`)).mtime!.getTime() > old.getTime());
    release();
    assertEquals(await exists(`${file}.lock`), false);
  });
});

Deno.test("AUTH-01 async lock retries with backoff until the holder releases", async () => {
  await withTempDir(async (dir) => {
    const file = join(dir, "auth.json");
    const releaseFirst = lockFileSync(file);
    const started = Date.now();
    setTimeout(() => releaseFirst(), 150);
    const release = await lockFile(file, { retries: 10, minTimeout: 20, factor: 2, stale: 30000 });
    assert(Date.now() - started >= 100);
    assert(await exists(`${file}.lock`));
    await release();
    assertEquals(await exists(`${file}.lock`), false);
    let rejected = false;
    await release().catch(() => rejected = true);
    assertEquals(rejected, true);
  });
});

Deno.test("AUTH-01 async lock gives up with ELOCKED after its retries", async () => {
  await withTempDir(async (dir) => {
    const file = join(dir, "auth.json");
    const release = lockFileSync(file);
    try {
      let error: unknown;
      await lockFile(file, { retries: 2, minTimeout: 5 }).catch((e) => error = e);
      assert(error instanceof LockHeldError);
    } finally {
      release();
    }
  });
});
