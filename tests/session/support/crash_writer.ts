/**
 * Appends large entries to a session file forever, printing each id once its append returned.
 * tests/session/crash_test.ts SIGKILLs it at random moments. Usage: crash_writer.ts <file> <kb>
 *
 * @module
 */
import { SessionManager } from "../../../src/session/session_manager.ts";

if (import.meta.main) {
  const [file, kb] = Deno.args;
  const sm = SessionManager.open(file);
  const body = "x".repeat(Number(kb) * 1024);
  const enc = new TextEncoder();
  // Tell the test loading is over, so its kill timer measures time spent appending.
  Deno.stdout.writeSync(enc.encode("ready\n"));
  for (let i = 0;; i++) {
    const id = sm.appendMessage({
      role: "user",
      content: [{ type: "text", text: `${i}:${body}` }],
      timestamp: i,
    });
    Deno.stdout.writeSync(enc.encode(`${id}\n`));
  }
}
