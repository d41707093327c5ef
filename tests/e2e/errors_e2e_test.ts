/**
 * Error paths of the real `pi -p` for every wire API (CLI-27, MODE-01): HTTP 400/401/429/500 with
 * auto-retry off, a 500 recovered by one auto-retry, a dropped stream, and SIGINT mid-stream in
 * print and JSON mode. Exit code, stdout, stderr, the number of requests and the session entries
 * must equal the reference's on the same script (tests/fixtures/e2e/errors.json and sigint.json,
 * from capture_reference.ts), and every session file left behind must load.
 */
import { assert, assertEquals } from "../support/assert.ts";
import { SessionManager } from "../../src/session/session_manager.ts";
import {
  ERROR_CASES,
  type ErrorOutcome,
  runErrorCase,
  runSigintCase,
  type SigintOutcome,
} from "./error_cases.ts";
import { APIS, fixturePath } from "./scenario.ts";

const errors: Record<string, Record<string, ErrorOutcome>> = JSON.parse(
  Deno.readTextFileSync(fixturePath("errors.json")),
);
const sigint: Record<string, SigintOutcome> = JSON.parse(Deno.readTextFileSync(fixturePath("sigint.json")));

/** Opens the session file with our SessionManager and checks every line became an entry. */
async function checkLoads(file: string | undefined): Promise<void> {
  assert(file, "a session file was written");
  const lines = (await Deno.readTextFile(file)).trim().split("\n");
  const manager = SessionManager.open(file);
  assertEquals(manager.getEntries().length, lines.length - 1);
  const context = manager.buildSessionContext();
  assert(context.messages.length >= 1, "the user message is in the context");
  assertEquals(context.messages[0].role, "user");
}

for (const api of APIS) {
  Deno.test(`CLI-27 MODE-01 e2e ${api}: HTTP 400/401/429/500, retry, dropped stream as the reference`, async () => {
    for (const c of ERROR_CASES) {
      const ours = await runErrorCase(api, c, { inspect: checkLoads });
      assertEquals(ours, errors[api][c.name], `${api} ${c.name}`);
      if (c.name !== "http_500_then_retry") assertEquals(ours.code, 1, `${api} ${c.name} exit code`);
    }
  });
}

for (const mode of ["text", "json"] as const) {
  Deno.test(`CLI-27 e2e SIGINT mid-stream (${mode}): killed by the signal, session so far loads`, async () => {
    const ours = await runSigintCase(mode, { inspect: checkLoads });
    assertEquals(ours, sigint[mode]);
    assertEquals([ours.code, ours.signal], [130, "SIGINT"]);
  });
}
