/**
 * No model available (no credentials, no models.json) in the non-interactive modes (CLI-24,
 * RPC): pi 1.6.0's agent starts with a placeholder model, so the text is the same everywhere —
 * "No API key found for the selected model." and the /login help — and it comes when a prompt is
 * sent: `-p` and `--mode json` fail with it (exit 1; JSON mode after writing the session header),
 * RPC mode serves (get_state shows the placeholder) and refuses each prompt with it. Compared with
 * the live reference when it is installed (ids, times, temp and documentation paths normalised).
 */
import { join } from "node:path";
import { assertEquals } from "../support/assert.ts";
import { machineEnv } from "../support/agent_env.ts";
import { spawnPi, useReferenceFixtures } from "../support/spawn_pi.ts";

/** Where each pi's documentation folder is named in its messages. */
const DOCS = /\/\S+\/docs\//g;

const HELP = "Use /login to log into a provider via OAuth or API key. See:\n" +
  "  <DOCS>providers.md\n" +
  "  <DOCS>models.md";
const WARNING = `Warning: No models available. ${HELP}\n`;
const NO_KEY = `No API key found for the selected model.\n\n${HELP}`;

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

async function run(args: string[], stdin: string, reference: boolean): Promise<Run> {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "pi-no-model-" }));
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
    const result = await spawnPi(args, { env, cwd: join(root, "project"), reference, stdin });
    const normalise = (text: string) =>
      text.replaceAll(root, "<TMP>").replace(DOCS, "<DOCS>")
        .replace(/"id":"[0-9a-f-]{36}"/g, '"id":"<ID>"')
        .replace(/"sessionId":"[0-9a-f-]{36}"/g, '"sessionId":"<ID>"')
        .replace(/"timestamp":"[^"]+"/g, '"timestamp":"<TIME>"')
        .replace(/"sessionFile":"[^"]+"/g, '"sessionFile":"<FILE>"');
    return { code: result.code, stdout: normalise(result.stdout), stderr: normalise(result.stderr) };
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}

/** Runs ours, checks `want`, and checks that pi 1.6.0 does the same when it is installed. */
async function check(args: string[], stdin: string, want: Run): Promise<void> {
  assertEquals(await run(args, stdin, false), want);
  if (!useReferenceFixtures()) assertEquals(await run(args, stdin, true), want);
}

Deno.test("CLI-24 e2e no model, -p: the start-up warning, then the prompt's 'No API key found' text, exit 1", async () => {
  await check(["-p", "hi"], "", { code: 1, stdout: "", stderr: `${WARNING}${NO_KEY}\n` });
});

Deno.test("CLI-24 e2e no model, --mode json: the session header, then the same text on stderr, exit 1", async () => {
  await check(["--mode", "json", "hi"], "", {
    code: 1,
    stdout: '{"type":"session","version":3,"id":"<ID>","timestamp":"<TIME>","cwd":"<TMP>/project"}\n',
    stderr: `${WARNING}${NO_KEY}\n`,
  });
});

Deno.test("CLI-24 RPC e2e no model, --mode rpc: serves; get_state shows the placeholder model; a prompt is refused with the text", async () => {
  const input = '{"id":"1","type":"get_state"}\n{"id":"2","type":"prompt","message":"hi"}\n';
  const state = {
    id: "1",
    type: "response",
    command: "get_state",
    success: true,
    data: {
      model: {
        id: "unknown",
        name: "unknown",
        api: "unknown",
        provider: "unknown",
        baseUrl: "",
        reasoning: false,
        input: [],
        cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
        contextWindow: 0,
        maxTokens: 0,
      },
      thinkingLevel: "off",
      isStreaming: false,
      isCompacting: false,
      steeringMode: "one-at-a-time",
      followUpMode: "one-at-a-time",
      sessionFile: "<FILE>",
      sessionId: "<ID>",
      autoCompactionEnabled: true,
      messageCount: 0,
      pendingMessageCount: 0,
    },
  };
  const refused = { id: "2", type: "response", command: "prompt", success: false, error: NO_KEY };
  await check(["--mode", "rpc"], input, {
    code: 0,
    stdout: `${JSON.stringify(state)}\n${JSON.stringify(refused)}\n`,
    stderr: WARNING,
  });
});
