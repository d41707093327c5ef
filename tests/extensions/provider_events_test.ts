/**
 * The provider hooks pi 1.6.0 hands extensions for each model request (issue 16): headers edited
 * in place (`before_provider_headers`), the payload replaced by chained handlers
 * (`before_provider_request`), the response's status and headers (`after_provider_response`) and
 * the raw stream events (`provider_stream_event`). The real CLI runs in print mode against the
 * fake provider, whose recorded request shows what was sent; 1.6.0 runs the same way and must
 * send the same and say the same. 1.6.0's own `provider-payload.ts` example logs the same.
 */
import { assertEquals } from "../support/assert.ts";
import { createAgentEnv } from "../support/agent_env.ts";
import { startFakeProvider } from "../support/fake_provider/mod.ts";
import { spawnPi, useReferenceFixtures } from "../support/spawn_pi.ts";
import { join } from "node:path";
import { requireReference } from "../../scripts/reference/locate.ts";
import {
  type ExtensionCase,
  type ExtensionRun,
  fixture,
  MODEL,
  runExtensionCase,
} from "../e2e/extensions_harness.ts";

/** What one print-mode run sent and said. */
interface ProviderRun {
  code: number;
  stdout: string;
  stderr: string[];
  /** The fields the extension set, as the server received them. */
  body: { temperature?: unknown; user?: unknown };
  /** The header the extension added, as the server received it. */
  trace: string | undefined;
}

async function run(reference: boolean): Promise<ProviderRun> {
  const server = await startFakeProvider([{ content: [{ type: "text", text: "Answered." }] }]);
  const env = await createAgentEnv(server.url);
  try {
    const result = await spawnPi(
      ["-p", ...MODEL, "--no-session", "-e", fixture("ours/provider-events.ts"), "hello"],
      { env: { ...env.env, PI_OFFLINE: "1" }, cwd: env.cwd, reference },
    );
    assertEquals(server.requests.length, 1);
    const [request] = server.requests;
    const body = request.body as Record<string, unknown>;
    return {
      code: result.code,
      stdout: result.stdout,
      stderr: result.stderr.split("\n").filter((l) => l.trim()),
      body: { temperature: body.temperature, user: body.user },
      trace: request.headers["x-ext-trace"],
    };
  } finally {
    await server.close();
    await env.cleanup();
  }
}

Deno.test("EXT-EVT-01 before_provider_request replaces the payload (chained), before_provider_headers adds a header, after_provider_response and provider_stream_event report, as 1.6.0", async () => {
  assertEquals(useReferenceFixtures(), false, "this test compares with the live reference 1.6.0");
  const ours = await run(false);
  assertEquals(ours, {
    code: 0,
    stdout: "Answered.\n",
    stderr: [
      "payload seen by the second handler: temperature 0.25",
      "response 200 text/event-stream",
      "stream events from fake-openai openai-completions test-model: some",
    ],
    body: { temperature: 0.25, user: "chained-0.25" },
    trace: "trace-1",
  });
  assertEquals(ours, await run(true));
});

Deno.test("EXT-EVT-04 1.6.0's provider-payload.ts example logs the same payloads and response headers as 1.6.0", async () => {
  assertEquals(useReferenceFixtures(), false, "this test compares with the live reference 1.6.0");
  const example = join(requireReference().packageDir, "examples", "extensions", "provider-payload.ts");
  const c: ExtensionCase = {
    args: ["--mode", "json", "-ne", ...MODEL, "-e", example, "list the files"],
    turns: [
      { content: [{ type: "toolCall", id: "c1", name: "bash", arguments: { command: "echo hi" } }] },
      { content: [{ type: "text", text: "There is one." }] },
    ],
    projectFiles: { ".pi/keep": "" },
    readFiles: [".pi/provider-payload.log"],
  };
  // The response's `date` header is the only thing that differs run to run.
  const log = (run: ExtensionRun) =>
    (run.files[".pi/provider-payload.log"] ?? "").replace(/"date":"[^"]*"/g, '"date":"$DATE"');
  const ours = await runExtensionCase(c);
  const text = log(ours);
  assertEquals(text.split("\n").filter((l) => l.startsWith("[")), [
    '[200] {"cache-control":"no-cache","connection":"keep-alive","content-type":"text/event-stream","date":"$DATE","transfer-encoding":"chunked"}',
    '[200] {"cache-control":"no-cache","connection":"keep-alive","content-type":"text/event-stream","date":"$DATE","transfer-encoding":"chunked"}',
  ]);
  assertEquals(text.split('"model": "test-model"').length, 3, "two payloads logged");
  const ref = await runExtensionCase(c, true);
  assertEquals(text, log(ref));
  assertEquals(ours.json, ref.json);
});
