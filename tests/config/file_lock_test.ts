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

/** Holds `<file>.lock` from another process (stamped, as a live holder keeps it) for `ms`, then releases it. */
async function holdFromAnotherProcess(file: string, ms: number): Promise<Deno.ChildProcess> {
  const lock = `${file}.lock`;
  const code = `Deno.mkdirSync(${JSON.stringify(lock)}); const now = new Date(); ` +
    `Deno.utimeSync(${JSON.stringify(lock)}, now, now); console.log("held"); ` +
    // Like a live holder, it keeps the stamp fresh, so the lock never looks abandoned.
    `setInterval(() => { const t = new Date(); Deno.utimeSync(${JSON.stringify(lock)}, t, t); }, 1000); ` +
    `await new Promise((r) => setTimeout(r, ${ms})); Deno.removeSync(${JSON.stringify(lock)}); Deno.exit(0);`;
  const child = new Deno.Command(Deno.execPath(), {
    args: ["eval", code],
    stdout: "piped",
    stderr: "inherit",
  })
    .spawn();
  const reader = child.stdout.getReader();
  const { value } = await reader.read();
  assertEquals(new TextDecoder().decode(value).trim(), "held");
  reader.releaseLock();
  return child;
}

Deno.test("AUTH-01 a lock another process holds for 1.5 s is waited for (the reference gives up after ~200 ms)", async () => {
  await withTempDir(async (dir) => {
    const file = join(dir, "auth.json");
    const holder = await holdFromAnotherProcess(file, 1500);
    const started = Date.now();
    const release = lockFileSync(file);
    const waited = Date.now() - started;
    release();
    await holder.stdout.cancel();
    await holder.status;
    assert(waited >= 1000, `waited only ${waited} ms`);
  });
});

Deno.test("AUTH-01 a lock that stays held gives up after about 10 s with a clear error", async () => {
  await withTempDir(async (dir) => {
    const file = join(dir, "settings.json");
    const holder = await holdFromAnotherProcess(file, 30_000);
    try {
      const started = Date.now();
      assertThrows(() => lockFileSync(file), "Lock file is already being held");
      const waited = Date.now() - started;
      assert(waited >= 9_500 && waited < 25_000, `gave up after ${waited} ms`);
    } finally {
      holder.kill("SIGKILL");
      await holder.stdout.cancel().catch(() => {});
      await holder.status;
    }
  });
});
