/**
 * SYS-01…07 end to end: the system prompt our `pi -p` sends is byte for byte the one pi 1.6.0
 * sends for the same project (AGENTS.md, a skill, tool selections, SYSTEM/APPEND prompts), with
 * only the temp folder and the documentation paths normalised (each names its own docs). Live
 * against the installed reference; without it, against the stored capture
 * (tests/fixtures/resources/system_prompt_e2e.json, rewritten by running this file with
 * `deno run -A tests/resources/system_prompt_e2e_test.ts` when the reference is installed).
 */
import { join } from "node:path";
import { assertEquals } from "../support/assert.ts";
import { createAgentEnv } from "../support/agent_env.ts";
import { startFakeProvider } from "../support/fake_provider/mod.ts";
import { spawnPi, useReferenceFixtures } from "../support/spawn_pi.ts";

const FIXTURE = new URL("../fixtures/resources/system_prompt_e2e.json", import.meta.url).pathname;

/** CLI arguments of each case (the model and prompt are added). */
const CASES: Record<string, string[]> = {
  default: [],
  readonlyTools: ["--tools", "read,grep,find,ls"],
  bashAndSearch: ["--tools", "bash,grep,find"],
  custom: ["--system-prompt", "CUSTOM", "--append-system-prompt", "EXTRA"],
  noSkillsNoContext: ["--no-skills", "--no-context-files"],
};

/** The system prompt `pi -p` sends over the OpenAI wire, folders normalised. */
async function sentPrompt(args: string[], reference: boolean): Promise<string> {
  const server = await startFakeProvider([{ content: [{ type: "text", text: "ok" }] }]);
  const env = await createAgentEnv(server.url);
  try {
    env.env.PI_OFFLINE = "1";
    await Deno.writeTextFile(join(env.cwd, "AGENTS.md"), "Be nice.\n");
    await Deno.mkdir(join(env.agentDir, "skills/alpha"), { recursive: true });
    await Deno.writeTextFile(
      join(env.agentDir, "skills/alpha/SKILL.md"),
      "---\nname: alpha\ndescription: Alpha <skill> & more\n---\nbody\n",
    );
    const r = await spawnPi(["--model", "fake-openai/test-model", ...args, "-p", "hi"], {
      env: env.env,
      cwd: env.cwd,
      reference,
    });
    assertEquals([r.code, r.stderr], [0, ""], `pi ${reference ? "(reference) " : ""}${args.join(" ")}`);
    const body = server.requests.at(-1)?.body as { messages: { role: string; content: string }[] };
    assertEquals(body.messages[0].role, "system");
    return body.messages[0].content.split(env.root).join("<ROOT>")
      .replace(/^- Main documentation: \S+$/m, "- Main documentation: <DOCS>/README.md")
      .replace(/^- Additional docs: \S+$/m, "- Additional docs: <DOCS>/docs")
      .replace(/^- Examples: \S+ /m, "- Examples: <DOCS>/examples ");
  } finally {
    await server.close();
    await env.cleanup();
  }
}

for (const [name, args] of Object.entries(CASES)) {
  Deno.test(`SYS-01…07 e2e: the prompt pi -p sends matches 1.6.0 byte for byte (${name})`, async () => {
    const ours = await sentPrompt(args, false);
    const stored = JSON.parse(await Deno.readTextFile(FIXTURE))[name];
    if (useReferenceFixtures()) {
      assertEquals(ours, stored);
      return;
    }
    const reference = await sentPrompt(args, true);
    assertEquals(ours, reference);
    assertEquals(stored, reference, "stored capture is current (re-run this file with deno run to refresh)");
  });
}

if (import.meta.main) {
  const out: Record<string, string> = {};
  for (const [name, args] of Object.entries(CASES)) out[name] = await sentPrompt(args, true);
  await Deno.writeTextFile(FIXTURE, JSON.stringify(out, null, 2) + "\n");
  console.log(`wrote ${FIXTURE}`);
}
