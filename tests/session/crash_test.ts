/**
 * Crash safety: a writer appending large entries is SIGKILLed 50 times in a row. Every load in
 * between must succeed, keep every entry whose append had returned, and the final file must still
 * load in the reference (live via node when /work/ref exists).
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { existsSync } from "node:fs";
import { SessionManager } from "../../src/session/session_manager.ts";
import { assistantMessage, userMessage } from "./support/sample_messages.ts";

const WRITER = new URL("./support/crash_writer.ts", import.meta.url).pathname;
const CAPTURE = new URL("../../scripts/capture/sessions_reference.mjs", import.meta.url).pathname;
const REF = "/work/ref/node_modules/@mariozechner/pi-coding-agent";

async function runAndKill(file: string, kb: number, delayMs: number): Promise<string[]> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-all", "--no-prompt", WRITER, file, String(kb)],
    stdout: "piped",
    stderr: "null",
  }).spawn();
  let text = "";
  let ready: () => void = () => {};
  const isReady = new Promise<void>((r) => ready = r);
  const reading = (async () => {
    const dec = new TextDecoder();
    for await (const chunk of child.stdout) {
      text += dec.decode(chunk, { stream: true });
      if (text.startsWith("ready\n")) ready();
    }
    ready();
  })();
  await isReady;
  await new Promise((r) => setTimeout(r, delayMs));
  child.kill("SIGKILL");
  await child.status;
  await reading;
  // Only complete lines are ids whose append returned.
  return text.split("\n").slice(1, -1);
}

Deno.test("SES-07 SES-08 writer SIGKILLed mid-append 50 times: file always loads, no completed entry lost", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const sm = SessionManager.create("/tmp/crash", dir);
    sm.appendMessage(userMessage("start"));
    sm.appendMessage(assistantMessage("ok"));
    const file = sm.getSessionFile()!;
    const completed: string[] = [];
    let torn = 0;
    for (let round = 0; round < 50; round++) {
      // Vary entry size and kill time so kills land inside writes of different lengths.
      const kb = 64 + (round % 5) * 160;
      const delay = 3 + ((round * 37) % 40);
      completed.push(...await runAndKill(file, kb, delay));
      const loaded = SessionManager.open(file);
      const ids = new Set(loaded.getEntries().map((e) => e.id));
      for (const id of completed) assert(ids.has(id), `round ${round}: entry ${id} was lost`);
      if (loaded.getLoadWarnings().some((w) => w.includes("incomplete last line"))) torn++;
      // Context still builds along the parent chain.
      assert(loaded.buildSessionContext().messages.length >= 2);
    }
    assert(completed.length > 50, `writer completed only ${completed.length} appends`);
    console.log(`crash test: ${completed.length} completed appends, ${torn} kills left a torn last line`);
    if (existsSync(REF)) {
      const out = await new Deno.Command("node", { args: [CAPTURE, "view", file], stdout: "piped" }).output();
      assert(out.success, "reference failed to load the crash-tested file");
      const view = JSON.parse(new TextDecoder().decode(out.stdout)) as { entries: { id: string }[] };
      const refIds = new Set(view.entries.map((e) => e.id));
      for (const id of completed) assert(refIds.has(id), `reference lost ${id}`);
    }
    // Every line but (at most) a torn last one is complete JSON ending in a newline.
    const lines = (await Deno.readTextFile(file)).split("\n");
    const bad = lines.slice(0, -1).filter((l) => {
      try {
        JSON.parse(l);
        return false;
      } catch {
        return true;
      }
    });
    assertEquals(bad.length <= 50, true);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("SES-08 a torn tail is skipped with a warning and the next append starts on a fresh line", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const sm = SessionManager.create("/tmp/crash", dir);
    sm.appendMessage(userMessage("start"));
    const a = sm.appendMessage(assistantMessage("ok"));
    const file = sm.getSessionFile()!;
    await Deno.writeTextFile(file, '{"type":"message","id":"torn0001","par', { append: true });
    const reopened = SessionManager.open(file);
    assertEquals(reopened.getLeafId(), a);
    assertEquals(reopened.getLoadWarnings().length, 1);
    assert(reopened.getLoadWarnings()[0].includes("incomplete last line"));
    const next = reopened.appendMessage(userMessage("after crash"));
    const lines = (await Deno.readTextFile(file)).split("\n");
    assertEquals(lines[lines.length - 3], '{"type":"message","id":"torn0001","par');
    assertEquals(JSON.parse(lines[lines.length - 2]).id, next);
    assertEquals(JSON.parse(lines[lines.length - 2]).parentId, a);
    // The malformed line is kept on disk (never deleted) and skipped again on the next load.
    const again = SessionManager.open(file);
    assertEquals(again.getLeafId(), next);
    assert(again.getLoadWarnings()[0].includes("skipped malformed line"));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
