/**
 * Error paths of the real `pi -p` for every wire API (CLI-27, MODE-01): HTTP 400/401/429/500 with
 * auto-retry off, a 500 recovered by one auto-retry, a dropped stream, and SIGINT mid-stream in
 * print and JSON mode. Exit code, stdout, stderr, the number of requests and the session entries
 * must equal pi 1.6.0's on the same script, run live (the stored captures tests/fixtures/e2e/
 * errors.json and sigint.json, from capture_reference.ts, must equal that run and stand in for it
 * only when the reference is not installed), and every session file left behind must load.
 */
import { assert, assertEquals } from "../support/assert.ts";
import { SessionManager } from "../../src/session/session_manager.ts";
import {
  ERROR_CASES,
  referenceErrorOutcome,
  referenceSigintOutcome,
  runErrorCase,
  runSigintCase,
} from "./error_cases.ts";
import { APIS } from "./scenario.ts";

/** Opens the session file with our SessionManager and checks every line became an entry. */
async function checkLoads(file: string | undefined): Promise<void> {
  assert(file, "a session file was written");
  const lines = (await Deno.readTextFile(file)).trim().split("\n");
  const manager = SessionManager.open(file);
  assertEquals(manager.getEntries().length, lines.length - 1);
  const context = manager.buildSessionContext();
  // pi 1.6.0 saves the system prompt as the first message; the user's message follows it.
  const roles = context.messages.map((m) => m.role).filter((role) => role !== "system");
  assert(roles.length >= 1, "the user message is in the context");
  assertEquals(roles[0], "user");
}

/**
 * What the reference's stderr says that depends on Node rather than on pi: undici names the socket
 * error's cause after Node's fetch message (`terminated: other side closed (UND_ERR_SOCKET)`);
 * ours reads `terminated` (docs/differences.md, Providers: "A dropped connection reads `terminated`").
 */
function withoutNodeSocketCause(stderr: string): string {
  return stderr.replace(/^terminated: other side closed \(UND_ERR_SOCKET\)$/m, "terminated");
}

for (const api of APIS) {
  Deno.test(`CLI-27 MODE-01 e2e ${api}: HTTP 400/401/429/500, retry, dropped stream as pi 1.6.0`, async () => {
    for (const c of ERROR_CASES) {
      const [ours, ref] = await Promise.all([
        runErrorCase(api, c, { inspect: checkLoads }),
        referenceErrorOutcome(api, c),
      ]);
      assertEquals(ours, { ...ref, stderr: withoutNodeSocketCause(ref.stderr) }, `${api} ${c.name}`);
      if (c.name !== "http_500_then_retry") assertEquals(ours.code, 1, `${api} ${c.name} exit code`);
    }
  });
}

for (const mode of ["text", "json"] as const) {
  Deno.test(`CLI-27 e2e SIGINT mid-stream (${mode}): killed by the signal, session so far loads`, async () => {
    const [ours, ref] = await Promise.all([
      runSigintCase(mode, { inspect: checkLoads }),
      referenceSigintOutcome(mode),
    ]);
    assertEquals(ours, ref);
    assertEquals([ours.code, ours.signal], [130, "SIGINT"]);
  });
}
