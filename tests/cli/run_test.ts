/**
 * How the CLI reports a failure that ended the run (CLI-01): a Deno permission pi was started
 * without suggests --allow-all; the operating system refusing a file (EACCES) is about file modes
 * and says so, without the --allow-all hint; a closed stdout is a quiet exit 0.
 */
import { assertEquals } from "../support/assert.ts";
import { DENO_PERMISSION_HINT, reportFailure } from "../../src/cli/failure_report.ts";

function report(error: unknown): { code: number; stderr: string } {
  let stderr = "";
  const code = reportFailure(error, (text) => (stderr += text));
  // deno-lint-ignore no-control-regex
  return { code, stderr: stderr.replace(/\x1b\[\d+m/g, "") };
}

Deno.test("CLI-01 a missing Deno permission names --allow-all", () => {
  const error = new Deno.errors.NotCapable(
    'Requires read access to "/x", run again with the --allow-read flag',
  );
  assertEquals(report(error), {
    code: 1,
    stderr:
      `Error: Requires read access to "/x", run again with the --allow-read flag\n${DENO_PERMISSION_HINT}\n`,
  });
});

Deno.test("CLI-01 a file the operating system refuses (EACCES) is a file-permission message", () => {
  const error = new Deno.errors.PermissionDenied("Permission denied (os error 13): open '/srv/s.jsonl'");
  const { code, stderr } = report(error);
  assertEquals(code, 1);
  assertEquals(
    stderr,
    "Error: Permission denied (os error 13): open '/srv/s.jsonl'\n" +
      "The operating system refused access to a file: check its owner and permissions (ls -l).\n",
  );
  assertEquals(stderr.includes("--allow-all"), false);
});

Deno.test("CLI-01 a closed stdout ends the run quietly with exit 0", () => {
  assertEquals(report(new Deno.errors.BrokenPipe("Broken pipe (os error 32)")), { code: 0, stderr: "" });
});
