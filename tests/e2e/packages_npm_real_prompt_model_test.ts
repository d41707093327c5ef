/**
 * PKG-13 (issue 16): a real pi package from the public npm registry, `pi-prompt-template-model@0.12.2` (an
 * extension with an npm dependency of its own, minimatch, and a skill): a prompt template whose front matter
 * names a `model` runs on that model as a slash command, and the model in use before is restored afterwards.
 * Installed with `pi install` into an isolated agent dir, with ours and with pi 1.6.0; what each prints, what
 * the model is sent (and where), and the model changes the session records must be the same.
 */
import { join } from "node:path";
import { assertEquals } from "../support/assert.ts";
import { type AgentEnv, createAgentEnv } from "../support/agent_env.ts";
import { startFakeProvider } from "../support/fake_provider/mod.ts";
import { requireReferenceCli, spawnPi } from "../support/spawn_pi.ts";
import { normalise } from "./packages_fixture.ts";

const PACKAGE = "npm:pi-prompt-template-model@0.12.2";

/** A prompt template for the extension: run on another provider's model than the session's. */
const TEMPLATE = [
  "---",
  "description: Ask the other model",
  "model: fake-anthropic/test-model",
  "---",
  "Answer briefly: $@",
  "",
].join("\n");

/** The session's entries that say which model is used, in order. */
async function modelEntries(env: AgentEnv): Promise<string[]> {
  const [file] = await env.sessionFiles();
  const entries = (await Deno.readTextFile(file)).trim().split("\n").map((line) => JSON.parse(line));
  return entries.flatMap((entry) => {
    if (entry.type === "model_change") return [`model_change ${entry.provider}/${entry.modelId}`];
    if (entry.type === "message") {
      const m = entry.message;
      return [m.role === "assistant" ? `assistant ${m.provider}/${m.model}` : m.role];
    }
    return [];
  });
}

Deno.test("PKG-13 a real pi package from the npm registry (pi-prompt-template-model, with its own npm dependency) runs a template on the model it names and restores the model, as in pi 1.6.0", async () => {
  requireReferenceCli();
  const server = await startFakeProvider([]);
  const envs: AgentEnv[] = [];
  try {
    const observed = [];
    for (const reference of [false, true]) {
      const env = await createAgentEnv(server.url);
      env.env.NPM_CONFIG_UPDATE_NOTIFIER = "false";
      env.env.PI_SKIP_VERSION_CHECK = "1";
      envs.push(env);
      const who = reference ? "pi 1.6.0" : "ours";
      const installed = await spawnPi(["install", PACKAGE], {
        env: env.env,
        cwd: env.cwd,
        reference,
        timeoutMs: 180_000,
      });
      assertEquals(installed.code, 0, `${who} install: ${installed.stderr}`);
      assertEquals(JSON.parse(await Deno.readTextFile(join(env.agentDir, "settings.json"))).packages, [
        PACKAGE,
      ]);
      await Deno.mkdir(join(env.agentDir, "prompts"));
      await Deno.writeTextFile(join(env.agentDir, "prompts", "ask-other.md"), TEMPLATE);

      server.push({ content: [{ type: "text", text: "Four." }] });
      const before = server.requests.length;
      const run = await spawnPi(
        ["--provider", "fake-openai", "--model", "test-model", "-p", "/ask-other what is two plus two"],
        { env: env.env, cwd: env.cwd, reference, timeoutMs: 120_000 },
      );
      const requests = server.requests.slice(before);
      const body = requests[0]?.body as { model: string; messages: { role: string; content: unknown }[] };
      observed.push({
        code: run.code,
        stdout: run.stdout,
        stderr: normalise(run.stderr, env.root),
        requests: requests.map((r) => `${r.method} ${r.path} ${(r.body as { model: string }).model}`),
        messages: body?.messages,
        session: await modelEntries(env),
      });
    }
    assertEquals(observed[0], observed[1], "ours and pi 1.6.0");
    const ours = observed[0];
    assertEquals(ours.code, 0);
    assertEquals(ours.stdout, "Four.\n");
    assertEquals(ours.stderr, "Restored to test-model\n");
    // The template ran on the Anthropic-wire provider it names, not the session's OpenAI one.
    assertEquals(ours.requests, ["POST /v1/messages test-model"]);
    assertEquals(ours.messages, [{
      role: "user",
      content: [{
        type: "text",
        text: "Answer briefly: what is two plus two",
        cache_control: { type: "ephemeral" },
      }],
    }]);
    assertEquals(ours.session, [
      "model_change fake-openai/test-model",
      "model_change fake-anthropic/test-model",
      "system",
      "user",
      "assistant fake-anthropic/test-model",
      "model_change fake-openai/test-model",
    ]);
  } finally {
    await server.close();
    for (const env of envs) await env.cleanup();
  }
});
