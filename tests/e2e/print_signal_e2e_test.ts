/**
 * SIGTERM while `pi -p` (or `--mode json`) streams a reply (CLI-27, MODE): as in pi 1.6.0, the
 * running reply is aborted and saved in the session file (`stopReason: "aborted"`, the text so
 * far, `Request was aborted`), text mode reports the abort on stderr, JSON mode writes no record
 * after the signal, and the exit code is 143. Checked against the live reference when it is
 * installed; the expected values below are what 1.6.0 does.
 */
import { assertEquals } from "../support/assert.ts";
import { createAgentEnv, readSessionLines } from "../support/agent_env.ts";
import { startFakeProvider } from "../support/fake_provider/mod.ts";
import { startPi, useReferenceFixtures, waitFor } from "../support/spawn_pi.ts";

/** What the user sees of one interrupted run. */
interface Observation {
  code: number;
  stderr: string;
  /** The last JSON record's type and event (JSON mode). */
  lastRecord?: string;
  /** type/role/stopReason/text/error of each session line after the header. */
  session: string[];
}

async function interrupted(mode: "text" | "json", reference: boolean): Promise<Observation> {
  const server = await startFakeProvider([{
    content: [{ type: "text", text: "partial answer that never finishes" }],
    // One chunk opens the reply, the second carries "partial ", then nothing more.
    fault: { kind: "stall", afterChunks: 2 },
    deltaSize: 8,
  }]);
  const env = await createAgentEnv(server.url);
  env.env.PI_OFFLINE = "1";
  try {
    const modeArgs = mode === "json" ? ["--mode", "json"] : ["-p"];
    const pi = startPi(["--model", "fake-openai/test-model", ...modeArgs, "hello"], {
      env: env.env,
      cwd: env.cwd,
      reference,
    });
    await waitFor(() => server.requests.length > 0, 30_000, "the request");
    // Time for the two chunks to arrive and be streamed.
    await new Promise((resolve) => setTimeout(resolve, 2000));
    pi.child.kill("SIGTERM");
    const result = await pi.result;
    const [file] = await env.sessionFiles();
    const lines = await readSessionLines(file);
    const records = result.stdout.trim().split("\n").filter((line) => line).map((line) => JSON.parse(line));
    const last = records.at(-1);
    return {
      code: result.code,
      stderr: result.stderr,
      ...(mode === "json" ? { lastRecord: `${last?.type}:${last?.assistantMessageEvent?.type}` } : {}),
      session: lines.slice(1).map((line) => {
        const message = line.message as Record<string, unknown> | undefined;
        if (!message) return String(line.type);
        const content = message.content;
        const text = Array.isArray(content)
          ? content.map((block: { text?: string }) => block.text ?? "").join("")
          : String(content);
        return [
          message.role,
          message.stopReason ?? "",
          message.role === "system" ? "" : text,
          message.errorMessage ?? "",
        ]
          .join("|");
      }),
    };
  } finally {
    await server.close();
    await env.cleanup();
  }
}

const SESSION = [
  "model_change",
  "thinking_level_change",
  "system|||",
  "user||hello|",
  "assistant|aborted|partial |Request was aborted",
];

Deno.test("CLI-27 e2e SIGTERM during -p: the aborted reply is saved, stderr says so, exit 143 (as pi 1.6.0)", async () => {
  const want: Observation = { code: 143, stderr: "Request was aborted\n", session: SESSION };
  assertEquals(await interrupted("text", false), want);
  if (!useReferenceFixtures()) assertEquals(await interrupted("text", true), want);
});

Deno.test("CLI-27 e2e SIGTERM during --mode json: the aborted reply is saved, no record after the signal, exit 143", async () => {
  const want: Observation = {
    code: 143,
    stderr: "",
    lastRecord: "message_update:text_delta",
    session: SESSION,
  };
  assertEquals(await interrupted("json", false), want);
  if (!useReferenceFixtures()) assertEquals(await interrupted("json", true), want);
});
