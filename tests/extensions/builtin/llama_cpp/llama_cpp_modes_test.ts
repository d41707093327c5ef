/**
 * `/llama` outside the interactive mode (issue 11): pi 1.6.0's built-in llama.cpp extension
 * registers it as an extension command, so a prompt naming it never reaches the model; the command
 * only warns "/llama is available in interactive mode" — an RPC `notify` request (the prompt
 * answered `handled`), nothing at all in `-p` and `--mode json`. Without `builtin:llama.cpp` the
 * text is an ordinary prompt. Each run is compared with pi 1.6.0 run the same way.
 */
import { join } from "node:path";
import { assertEquals } from "../../../support/assert.ts";
import { createAgentEnv, machineEnv } from "../../../support/agent_env.ts";
import { startFakeProvider } from "../../../support/fake_provider/server.ts";
import type { ScriptedTurn } from "../../../support/fake_provider/mod.ts";
import { requireReferenceCli, spawnPi } from "../../../support/spawn_pi.ts";

const ANSWER: ScriptedTurn = { content: [{ type: "text", text: "model answered" }] };

interface Outcome {
  code: number;
  stdout: string;
  stderr: string;
  /** The user texts the model was sent, one per request. */
  prompts: string[];
}

/** Random ids, times and temp folders out of the way. */
function normalise(text: string, root: string): string {
  return text.replaceAll(root, "<TMP>")
    .replace(/"id":"[0-9a-f-]{36}"/g, '"id":"<ID>"')
    .replace(/"timestamp":"[^"]+"/g, '"timestamp":"<TIME>"');
}

/** The last user text of a recorded request body (Anthropic form). */
function lastUserText(body: unknown): string {
  const messages = (body as { messages?: { role: string; content: unknown }[] }).messages ?? [];
  const user = messages.filter((message) => message.role === "user").at(-1);
  if (typeof user?.content === "string") return user.content;
  const blocks = (user?.content ?? []) as { type: string; text?: string }[];
  return blocks.map((block) => block.text ?? "").join("");
}

/** Runs `pi args` (ours or the reference) against a fresh fake provider and agent folder. */
async function run(
  args: string[],
  reference: boolean,
  options: { stdin?: string; settings?: Record<string, unknown> } = {},
): Promise<Outcome> {
  const fake = await startFakeProvider([ANSWER, ANSWER]);
  const agent = await createAgentEnv(fake.url, { settings: options.settings });
  try {
    const result = await spawnPi(args, { env: agent.env, cwd: agent.cwd, reference, stdin: options.stdin });
    return {
      code: result.code,
      stdout: normalise(result.stdout, agent.root),
      stderr: normalise(result.stderr, agent.root),
      prompts: fake.requests.map((request) => lastUserText(request.body)),
    };
  } finally {
    await fake.close();
    await agent.cleanup();
  }
}

/** Ours and pi 1.6.0 give `want`. */
async function check(
  args: string[],
  want: Outcome,
  options: { stdin?: string; settings?: Record<string, unknown> } = {},
): Promise<void> {
  assertEquals(await run(args, false, options), want, "ours");
  assertEquals(await run(args, true, options), want, "pi 1.6.0");
}

Deno.test("LLAMA-CPP-16 -p '/llama' 'hello': /llama runs the built-in command (nothing shown), only 'hello' reaches the model; as pi 1.6.0", async () => {
  requireReferenceCli();
  await check(["-p", "/llama", "hello"], {
    code: 0,
    stdout: "model answered\n",
    stderr: "",
    prompts: ["hello"],
  });
  await check(["-p", "/llama status"], { code: 0, stdout: "", stderr: "", prompts: [] });
  await check(["--mode", "json", "/llama"], {
    code: 0,
    stdout: `{"type":"session","version":3,"id":"<ID>","timestamp":"<TIME>","cwd":"<TMP>/project"}\n`,
    stderr: "",
    prompts: [],
  });
});

Deno.test("LLAMA-CPP-17 -p '/llama' with -builtin:llama.cpp: an ordinary prompt sent to the model; as pi 1.6.0", async () => {
  requireReferenceCli();
  await check(["-p", "/llama"], { code: 0, stdout: "model answered\n", stderr: "", prompts: ["/llama"] }, {
    settings: { extensions: ["-builtin:llama.cpp"] },
  });
});

Deno.test("LLAMA-CPP-18 RPC prompt '/llama': a notify request with the warning, the prompt answered 'handled', the model not asked; as pi 1.6.0", async () => {
  requireReferenceCli();
  const stdin = `${JSON.stringify({ id: "1", type: "prompt", message: "/llama" })}\n`;
  const notify = {
    type: "extension_ui_request",
    id: "<ID>",
    method: "notify",
    message: "/llama is available in interactive mode",
    notifyType: "warning",
  };
  const response = {
    id: "1",
    type: "response",
    command: "prompt",
    success: true,
    data: { disposition: "handled" },
  };
  await check(["--mode", "rpc"], {
    code: 0,
    stdout: `${JSON.stringify(notify)}\n${JSON.stringify(response)}\n`,
    stderr: "",
    prompts: [],
  }, { stdin });
});

Deno.test("LLAMA-CPP-19 CLI-24 no model: -p '/llama' and -p without a prompt end 0 after the start-up warning (no 'No API key' failure); as pi 1.6.0", async () => {
  requireReferenceCli();
  const runBare = async (args: string[], reference: boolean) => {
    const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "pi-llama-modes-" }));
    try {
      for (const dir of ["home", "agent", "project"]) await Deno.mkdir(join(root, dir));
      const env = {
        ...machineEnv(),
        HOME: join(root, "home"),
        PI_CODING_AGENT_DIR: join(root, "agent"),
        PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
        PI_OFFLINE: "1",
        NO_COLOR: "1",
        TERM: "dumb",
      };
      const result = await spawnPi(args, { env, cwd: join(root, "project"), reference });
      // Each pi names its own documentation folder.
      return {
        code: result.code,
        stdout: result.stdout,
        stderr: result.stderr.replace(/\/\S+\/docs\//g, "<DOCS>"),
      };
    } finally {
      await Deno.remove(root, { recursive: true });
    }
  };
  const want = {
    code: 0,
    stdout: "",
    stderr: "Warning: No models available. Use /login to log into a provider via OAuth or API key. See:\n" +
      "  <DOCS>providers.md\n  <DOCS>models.md\n",
  };
  for (const args of [["-p", "/llama"], ["-p"]]) {
    assertEquals(await runBare(args, false), want, `ours ${args.join(" ")}`);
    assertEquals(await runBare(args, true), want, `pi 1.6.0 ${args.join(" ")}`);
  }
});
