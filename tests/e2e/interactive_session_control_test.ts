/**
 * EXT-SES-07 (EXT-06 of reference-features.md, issue 16): an extension command's session control in the interactive mode, in tmux,
 * with ours and with pi 1.6.0 loading the same extension: `ctx.newSession()` with `withSession` (the
 * chat shows the new session and the kickoff's reply), `ctx.fork()` at an entry ("Forked to new
 * session") and `ctx.shutdown()`, which ends pi with exit code 0. The extension's log (what each step
 * saw, the stale-context errors) must be equal.
 */
import { join } from "node:path";
import { assert, assertEquals } from "../support/assert.ts";
import { startInteractiveScenario } from "../support/interactive_scenario.ts";
import { requireReference } from "../../scripts/reference/locate.ts";
import { fixture } from "./extensions_harness.ts";

const STEP = 30_000;

async function observe(reference: boolean) {
  const s = await startInteractiveScenario([
    { content: [{ type: "text", text: "Hello back." }] },
    { content: [{ type: "text", text: "Kicked off." }] },
  ], { reference, width: 100, height: 40 });
  const log = join(s.agent.cwd, "session-control.log");
  const logHas = async (line: string, what: string) => {
    const deadline = Date.now() + (what === "start" ? 90_000 : STEP);
    while (Date.now() < deadline) {
      const text = await Deno.readTextFile(log).catch(() => "");
      if (text.includes(line)) return;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`timed out waiting for ${what}; screen:\n${await s.pane.screen()}`);
  };
  try {
    await s.pane.command(`clear; ${s.piCommand(["-e", fixture("ours/session-control.ts")])}; echo EXIT=$?`);
    await logHas("session_start startup", "start");
    await s.pane.waitFor((t) => t.includes("test-model"), 90_000, "the footer");
    await s.pane.command("Hello");
    await s.pane.waitFor((t) => t.includes("Hello back."), STEP, "the first reply");
    await s.pane.command("/ses-new");
    await logHas("newSession cancelled=false", "the new session");
    const afterNew = await s.pane.waitFor((t) => t.includes("Kicked off."), STEP, "the kickoff reply");
    await s.pane.command("/ses-fork at");
    const afterFork = await s.pane.waitFor(
      (t) => t.includes("Forked to new session"),
      STEP,
      "the fork status",
    );
    await s.pane.command("/ses-quit");
    const end = await s.pane.waitFor((t) => /EXIT=\d+/.test(t), STEP, "pi's exit");
    return {
      log: await Deno.readTextFile(log),
      exit: end.match(/EXIT=(\d+)/)![1],
      hello: afterNew.includes("Hello back."),
      kickoff: afterNew.includes("kickoff"),
      forked: afterFork.includes("Forked to new session"),
      sessions: (await s.agent.sessionFiles()).length,
    };
  } finally {
    await s.close();
  }
}

Deno.test("EXT-SES-07 interactive: a command's ctx.newSession() with withSession, ctx.fork() and ctx.shutdown() in the TUI, as in pi 1.6.0", async () => {
  requireReference();
  const ours = await observe(false);
  const reference = await observe(true);
  assertEquals(ours.exit, "0", "ctx.shutdown() ended pi with exit code 0");
  assert(
    ours.kickoff && !ours.hello,
    "the chat shows the new session: the kickoff, not the first conversation",
  );
  assert(ours.forked, "the fork's status");
  assertEquals(ours.sessions, 3);
  assertEquals(ours, reference);
});
