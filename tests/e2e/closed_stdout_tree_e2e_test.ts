/**
 * A closed stdout while a `bash` tool call runs (MODE-01, BASH): `pi --mode json … | head -1`
 * ends pi quietly, and the command's whole process tree goes with it, as on Ctrl-C (the reader
 * went away, so nothing the command does can be delivered any more).
 */
import { join } from "node:path";
import { assert, assertEquals } from "../support/assert.ts";
import { createAgentEnv } from "../support/agent_env.ts";
import { startFakeProvider } from "../support/fake_provider/mod.ts";
import { waitFor } from "../support/wait_for.ts";
import { MAIN_TS } from "../support/spawn_pi.ts";

/** Whether a process with this pid exists (and is not a zombie awaiting its parent). */
function alive(pid: number): boolean {
  try {
    const stat = Deno.readTextFileSync(`/proc/${pid}/stat`);
    return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
  } catch {
    return false;
  }
}

Deno.test({
  name:
    "MODE-01 BASH e2e a closed stdout during a bash tool call ends pi quietly and kills the command's process tree",
  ignore: Deno.build.os === "windows",
  fn: async () => {
    // The shell starts a background sleep (a grandchild of pi) and then prints a line every 100 ms,
    // so pi keeps writing tool_execution_update records.
    const command =
      "sleep 300 & echo $! > child.pid; echo $$ > shell.pid; while true; do echo tick; sleep 0.1; done";
    const server = await startFakeProvider([
      { content: [{ type: "toolCall", id: "call_1", name: "bash", arguments: { command } }] },
      { content: [{ type: "text", text: "never asked for" }] },
    ]);
    const env = await createAgentEnv(server.url);
    env.env.PI_OFFLINE = "1";
    const pids: number[] = [];
    try {
      const child = new Deno.Command(Deno.execPath(), {
        args: [
          "run",
          "-A",
          "--no-prompt",
          MAIN_TS,
          "--mode",
          "json",
          "--model",
          "fake-openai/test-model",
          "go",
        ],
        cwd: env.cwd,
        env: env.env,
        clearEnv: true,
        stdin: "null",
        stdout: "piped",
        stderr: "piped",
      }).spawn();
      const stderr = new Response(child.stderr).text();
      // Read records until the command runs and has written its pids, then stop reading: the pipe closes.
      const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
      let seen = "";
      const deadline = Date.now() + 30_000;
      const pidFiles = ["shell.pid", "child.pid"].map((name) => join(env.cwd, name));
      const written = () => pidFiles.every((f) => Deno.statSync(f).size > 0);
      while (!seen.includes('"tool_execution_update"') || !safe(written)) {
        assert(Date.now() < deadline, `no running bash tool within 30 s; stdout so far: ${seen.slice(-500)}`);
        const { value, done } = await reader.read();
        assert(!done, `pi ended early: ${seen.slice(-500)}`);
        seen += value;
      }
      for (const file of pidFiles) pids.push(Number((await Deno.readTextFile(file)).trim()));
      assertEquals(pids.map(alive), [true, true]);
      await reader.cancel();

      const status = await child.status;
      assertEquals({ code: status.code, stderr: await stderr }, { code: 0, stderr: "" });
      await waitFor(() => !pids.some(alive), 10_000, "the command's processes to end");
      assertEquals(server.requests.length, 1);
    } finally {
      for (const pid of pids) {
        try {
          Deno.kill(pid, "SIGKILL");
        } catch { /* gone, as it should be */ }
      }
      await server.close();
      await env.cleanup();
    }
  },
});

/** `check()`, with a missing file read as false. */
function safe(check: () => boolean): boolean {
  try {
    return check();
  } catch {
    return false;
  }
}
