/**
 * BASH-04 end to end: the real `pi` (`-p` and `--mode rpc`) runs a bash tool call whose command leaves children and
 * grandchildren sleeping; SIGINT or SIGTERM to pi must end that whole process tree, so nothing of
 * it survives pi (the reference leaves it running on SIGINT).
 */
import { assert_ as assert, assertEquals } from "../support/assert.ts";
import { createAgentEnv, FAKE_MODEL_ID } from "../support/agent_env.ts";
import { startFakeProvider } from "../support/fake_provider/mod.ts";
import { startPi, waitFor } from "../support/spawn_pi.ts";

/** Live (non-zombie) processes whose command line contains `marker`. */
function liveProcesses(marker: string): string[] {
  const out = new TextDecoder().decode(
    new Deno.Command("ps", { args: ["-eo", "pid,stat,args"] }).outputSync().stdout,
  );
  return out.split("\n").filter((l) => l.includes(marker) && !/^\s*\d+\s+Z/.test(l) && !l.includes("ps -eo"));
}

const CASES = [
  { mode: "-p", signal: "SIGINT", code: 130 },
  { mode: "-p", signal: "SIGTERM", code: 143 },
  { mode: "rpc", signal: "SIGTERM", code: 143 },
  { mode: "rpc", signal: "SIGINT", code: 130 },
] as const;

for (const { mode, signal, code } of CASES) {
  Deno.test(`BASH-04 ${signal} to pi ${mode} mid bash call ends the command's whole process tree`, async () => {
    // A number no other process uses as a sleep argument.
    const marker = `${4_000_000 + Math.floor(Math.random() * 1_000_000)}`;
    const command = `sleep ${marker} & (sleep ${marker}.5 & sleep ${marker}.25; wait) & sleep ${marker}.75`;
    const server = await startFakeProvider([
      { content: [{ type: "toolCall", id: "call-1", name: "bash", arguments: { command } }] },
      { content: [{ type: "text", text: "done" }] },
    ]);
    const env = await createAgentEnv(server.url);
    try {
      const model = ["--model", `fake-openai/${FAKE_MODEL_ID}`];
      // RPC: the prompt arrives on stdin, which then closes; pi finishes the run before exiting.
      const pi = mode === "-p"
        ? startPi([...model, "-p", "run it"], { env: env.env, cwd: env.cwd, timeoutMs: 60_000 })
        : startPi([...model, "--mode", "rpc"], {
          env: env.env,
          cwd: env.cwd,
          timeoutMs: 60_000,
          stdin: `${JSON.stringify({ id: "1", type: "prompt", message: "run it" })}\n`,
        });
      // The shell, two sleeps, the subshell and its two sleeps.
      await waitFor(() => liveProcesses(marker).length >= 5, 30_000, "the command's processes");
      pi.child.kill(signal);
      const result = await pi.result;
      assertEquals(result.timedOut, false);
      assertEquals(result.code, code, result.stderr);
      let left = liveProcesses(marker);
      const deadline = Date.now() + 5_000;
      while (left.length > 0 && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 50));
        left = liveProcesses(marker);
      }
      assertEquals(left, [], "processes of the bash call still running after pi exited");
      // The model never got the result: pi was gone before the command ended.
      assert(server.requests.length === 1, `requests: ${server.requests.length}`);
    } finally {
      for (const line of liveProcesses(marker)) {
        try {
          Deno.kill(Number(line.trim().split(/\s+/)[0]), "SIGKILL");
        } catch { /* already gone */ }
      }
      await server.close();
      await env.cleanup();
    }
  });
}
