import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { join } from "node:path";
import { withFileMutationQueue } from "../../src/tools/file_mutation_queue.ts";

const tick = (ms: number) => new Promise((r) => setTimeout(r, ms));

Deno.test("EDIT-06 mutations of one file run one at a time, in call order", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const file = join(dir, "f.txt");
    const log: string[] = [];
    const job = (name: string, ms: number) => async () => {
      log.push(`${name}:start`);
      await tick(ms);
      log.push(`${name}:end`);
      return name;
    };
    const results = await Promise.all([
      withFileMutationQueue(file, job("a", 30)),
      withFileMutationQueue(join(dir, ".", "f.txt"), job("b", 1)),
      withFileMutationQueue(file, job("c", 5)),
    ]);
    assertEquals(results, ["a", "b", "c"]);
    assertEquals(log, ["a:start", "a:end", "b:start", "b:end", "c:start", "c:end"]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("EDIT-06 a symlink shares the queue of its target; other files run in parallel", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const target = join(dir, "t.txt");
    await Deno.writeTextFile(target, "");
    await Deno.symlink(target, join(dir, "link.txt"));
    const log: string[] = [];
    const job = (name: string, ms: number) => async () => {
      log.push(`${name}:start`);
      await tick(ms);
      log.push(`${name}:end`);
    };
    await Promise.all([
      withFileMutationQueue(target, job("t", 30)),
      withFileMutationQueue(join(dir, "link.txt"), job("l", 1)),
      withFileMutationQueue(join(dir, "other.txt"), job("o", 1)),
    ]);
    assertEquals(log, ["t:start", "o:start", "o:end", "t:end", "l:start", "l:end"]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("EDIT-06 a failed mutation releases the queue", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const file = join(dir, "f.txt");
    const first = withFileMutationQueue(file, () => Promise.reject(new Error("boom")));
    const second = withFileMutationQueue(file, () => Promise.resolve(42));
    let message = "";
    await first.catch((e: Error) => (message = e.message));
    assertEquals([message, await second], ["boom", 42]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
