/**
 * `pi --mode rpc` ends on SIGTERM and SIGHUP with the reference's exit codes (143, 129), also
 * while a prompt is streaming. IDs: RPC-28, CLI-27.
 */
import { assertEquals } from "../support/assert.ts";
import { createAgentEnv } from "../support/agent_env.ts";
import { startFakeProvider } from "../support/fake_provider/mod.ts";

const MAIN = new URL("../../main.ts", import.meta.url).pathname;

for (const [signal, code] of [["SIGTERM", 143], ["SIGHUP", 129]] as const) {
  Deno.test(`RPC-28 CLI-27 ${signal} ends pi --mode rpc with exit code ${code}`, async () => {
    const server = await startFakeProvider([
      { content: [{ type: "text", text: "never finishes" }], fault: { kind: "stall", afterChunks: 1 } },
    ]);
    const env = await createAgentEnv(server.url);
    try {
      const child = new Deno.Command(Deno.execPath(), {
        args: [
          "run",
          "-A",
          "--no-prompt",
          MAIN,
          "--mode",
          "rpc",
          "--provider",
          "fake-anthropic",
          "--model",
          "test-model",
        ],
        cwd: env.cwd,
        env: env.env,
        clearEnv: true,
        stdin: "piped",
        stdout: "piped",
        stderr: "piped",
      }).spawn();
      const writer = child.stdin.getWriter();
      await writer.write(
        new TextEncoder().encode(JSON.stringify({ id: "1", type: "prompt", message: "hi" }) + "\n"),
      );
      const deadline = Date.now() + 30_000;
      while (server.requests.length === 0 && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 50));
      }
      assertEquals(server.requests.length, 1);
      child.kill(signal);
      const out = await child.output();
      assertEquals(out.code, code);
      await writer.close().catch(() => {});
    } finally {
      await server.close();
      await env.cleanup();
    }
  });
}
