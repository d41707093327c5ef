/**
 * PKG-12 (issue 13): a real pi package from the public npm registry, `pi-plan-mode@0.2.4` (an extension: `/plan`
 * starts a read-only planning mode that blocks writes outside its plan file), installed, listed, used and
 * removed with ours and with pi 1.6.0, each in its own agent dir and HOME. What each prints, the settings.json
 * each writes, and what the model is sent (the blocked write's tool result) must be the same.
 */
import { join } from "node:path";
import { assert, assertEquals } from "../support/assert.ts";
import { type AgentEnv, createAgentEnv } from "../support/agent_env.ts";
import { startFakeProvider } from "../support/fake_provider/mod.ts";
import { requireReferenceCli, spawnPi } from "../support/spawn_pi.ts";
import { normalise, readOrNull } from "./packages_fixture.ts";

const PACKAGE = "npm:pi-plan-mode@0.2.4";

Deno.test("PKG-12 a real pi package from the npm registry installs, lists, loads (its /plan blocks a write) and is removed as in pi 1.6.0", async () => {
  requireReferenceCli();
  const server = await startFakeProvider([]);
  const envs: AgentEnv[] = [];
  // Outside /tmp: the extension lets every write under /tmp/ through.
  const target = `/var/tmp/pi-plan-mode-check-${crypto.randomUUID()}/notes.txt`;
  try {
    for (let i = 0; i < 2; i++) {
      const env = await createAgentEnv(server.url);
      env.env.NPM_CONFIG_UPDATE_NOTIFIER = "false";
      env.env.PI_SKIP_VERSION_CHECK = "1";
      envs.push(env);
    }
    const both = async (args: string[]) => {
      const out: { code: number; stdout: string; settings: string | null }[] = [];
      for (const [i, reference] of [false, true].entries()) {
        const env = envs[i];
        const run = await spawnPi(args, { env: env.env, cwd: env.cwd, reference, timeoutMs: 180_000 });
        out.push({
          code: run.code,
          stdout: normalise(run.stdout, env.root),
          settings: await readOrNull(join(env.agentDir, "settings.json")),
        });
      }
      assertEquals(out[0], out[1], `pi ${args.join(" ")}`);
      return out[0];
    };

    const installed = await both(["install", PACKAGE]);
    assertEquals(installed.code, 0);
    assertEquals(JSON.parse(installed.settings!).packages, [PACKAGE]);
    const listed = await both(["list"]);
    assert(listed.stdout.includes(PACKAGE), listed.stdout);

    // The extension loads: /plan turns plan mode on, and the model's write outside the plan is blocked.
    const results: string[] = [];
    for (const [i, reference] of [false, true].entries()) {
      const env = envs[i];
      server.push({
        content: [{
          type: "toolCall",
          id: "call_1",
          name: "write",
          arguments: { path: target, content: "x" },
        }],
      });
      server.push({ content: [{ type: "text", text: "Noted." }] });
      const before = server.requests.length;
      const run = await spawnPi(
        ["--provider", "fake-openai", "--model", "test-model", "-p", "/plan", "Write the notes."],
        { env: env.env, cwd: env.cwd, reference, timeoutMs: 120_000 },
      );
      assertEquals(run.code, 0, `${reference ? "reference" : "ours"}: ${run.stderr}`);
      assertEquals(server.requests.length, before + 2, "two requests: the write, then the answer");
      const messages = (server.requests[before + 1].body as { messages: Record<string, unknown>[] }).messages;
      const toolResult = messages.find((m) => m.role === "tool");
      results.push(String(toolResult?.content));
    }
    assertEquals(results[0], results[1]);
    assert(results[0].includes("Plan mode active. You can only write to the plan file or /tmp."), results[0]);
    assertEquals(await readOrNull(target), null, "the blocked write wrote nothing");

    const removed = await both(["remove", PACKAGE]);
    assertEquals(removed.code, 0);
    assertEquals(JSON.parse(removed.settings!).packages, []);
  } finally {
    await server.close();
    for (const env of envs) await env.cleanup();
    await Deno.remove(target.slice(0, target.lastIndexOf("/")), { recursive: true }).catch(() => {});
  }
});
