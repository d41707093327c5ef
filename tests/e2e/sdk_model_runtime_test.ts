/**
 * The SDK as pi 1.6.0 shapes it (SDK-1.6): a script of a user's own imports mod.ts, builds a
 * `ModelRuntime` and hands it to `createAgentSession({ modelRuntime })`, as examples/sdk does; it
 * runs as a subprocess against the fake provider with an isolated HOME and agent dir. What the user
 * sees is checked: the printed answer, the session file's lines and the request the provider got
 * (key, model, prompt, declared tools), `excludeTools` removing tools from the request for good,
 * and a runtime API key used instead of models.json's.
 */
import { join } from "node:path";
import { assertEquals } from "../support/assert.ts";
import { type AgentEnv, createAgentEnv, readSessionLines } from "../support/agent_env.ts";
import { type FakeProvider, startFakeProvider } from "../support/fake_provider/mod.ts";

const MOD = new URL("../../mod.ts", import.meta.url).href;
const decoder = new TextDecoder();

/** Writes `body` as a script (after an import of the SDK names it uses) and runs it in the project folder. */
async function runScript(env: AgentEnv, body: string) {
  const script = join(env.root, "script.ts");
  await Deno.writeTextFile(
    script,
    `import { createAgentSession, ModelRuntime, SessionManager } from ${JSON.stringify(MOD)};\n${body}`,
  );
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-all", "--no-prompt", "--no-config", script],
    cwd: env.cwd,
    env: env.env,
    clearEnv: true,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  return { code: out.code, stdout: decoder.decode(out.stdout), stderr: decoder.decode(out.stderr) };
}

/** The prompt text and tool names of one recorded Anthropic Messages request. */
function requestSummary(server: FakeProvider, index: number) {
  const request = server.requests[index];
  const body = request.body as {
    model: string;
    messages: { role: string; content: string | { type: string; text?: string }[] }[];
    tools?: { name: string }[];
  };
  const last = body.messages[body.messages.length - 1];
  const text = typeof last.content === "string"
    ? last.content
    : last.content.map((c) => c.text ?? "").join("");
  return {
    path: request.path,
    apiKey: request.headers["x-api-key"],
    model: body.model,
    prompt: `${last.role}: ${text}`,
    tools: (body.tools ?? []).map((t) => t.name),
  };
}

Deno.test("SDK-1.6 createAgentSession({ modelRuntime }): a script prints the answer; the session file and the request are pi's", async () => {
  const server = await startFakeProvider([{ content: [{ type: "text", text: "Hello from the runtime." }] }]);
  const env = await createAgentEnv(server.url, {
    settings: { defaultProvider: "fake-anthropic", defaultModel: "test-model" },
  });
  try {
    const result = await runScript(
      env,
      `
const modelRuntime = await ModelRuntime.create();
const { session, modelFallbackMessage } = await createAgentSession({ modelRuntime });
if (modelFallbackMessage) console.error(modelFallbackMessage);
const encoder = new TextEncoder();
session.subscribe((event) => {
  if (event.type === "message_update" && event.assistantMessageEvent.type === "text_delta") {
    Deno.stdout.writeSync(encoder.encode(event.assistantMessageEvent.delta));
  }
});
await session.prompt("Say hello.");
console.log();
console.log(session.modelRuntime === modelRuntime, session.model?.provider + "/" + session.model?.id);
session.dispose();
`,
    );
    assertEquals(result.stderr, "");
    assertEquals(result.code, 0);
    assertEquals(result.stdout, "Hello from the runtime.\ntrue fake-anthropic/test-model\n");

    assertEquals(server.requests.length, 1);
    assertEquals(requestSummary(server, 0), {
      path: "/v1/messages",
      apiKey: "test-key",
      model: "test-model",
      prompt: "user: Say hello.",
      tools: ["read", "bash", "edit", "write"],
    });

    const files = await env.sessionFiles();
    assertEquals(files.length, 1);
    const lines = await readSessionLines(files[0]);
    const shape = lines.map((line) => {
      const message = line.message as { role?: string; content?: unknown } | undefined;
      switch (line.type) {
        case "session":
          return { type: "session", version: line.version, cwd: line.cwd };
        case "model_change":
          return { type: "model_change", provider: line.provider, modelId: line.modelId };
        case "thinking_level_change":
          return { type: "thinking_level_change", thinkingLevel: line.thinkingLevel };
        case "message":
          return {
            type: "message",
            role: message?.role,
            text: JSON.stringify(message?.content).match(/"text":"([^"]*)"/)?.[1],
          };
        default:
          return { type: line.type };
      }
    });
    assertEquals(shape, [
      { type: "session", version: 3, cwd: env.cwd },
      { type: "model_change", provider: "fake-anthropic", modelId: "test-model" },
      { type: "thinking_level_change", thinkingLevel: "off" },
      { type: "message", role: "system", text: shape[3].text },
      { type: "message", role: "user", text: "Say hello." },
      { type: "message", role: "assistant", text: "Hello from the runtime." },
    ]);
  } finally {
    await server.close();
    await env.cleanup();
  }
});

Deno.test("SDK-1.6 excludeTools: excluded names and * patterns are not sent to the model and cannot be activated later", async () => {
  const server = await startFakeProvider([
    { content: [{ type: "text", text: "one" }] },
    { content: [{ type: "text", text: "two" }] },
  ]);
  const env = await createAgentEnv(server.url);
  try {
    const result = await runScript(
      env,
      `
const modelRuntime = await ModelRuntime.create();
const model = modelRuntime.getModel("fake-anthropic", "test-model");
const { session } = await createAgentSession({
  modelRuntime,
  model,
  sessionManager: SessionManager.inMemory(),
  excludeTools: ["bash", "e*"],
});
console.log(session.getActiveToolNames().join(","));
await session.prompt("first");
session.setActiveToolsByName(["read", "bash", "edit", "grep"]);
console.log(session.getActiveToolNames().join(","));
await session.prompt("second");
session.dispose();
`,
    );
    assertEquals(result.stderr, "");
    assertEquals(result.code, 0);
    assertEquals(result.stdout, "read,write\nread,grep\n");
    assertEquals(requestSummary(server, 0).tools, ["read", "write"]);
    assertEquals(requestSummary(server, 1).tools, ["read", "grep"]);
  } finally {
    await server.close();
    await env.cleanup();
  }
});

Deno.test("SDK-1.6 excludeTools applies after tools: the allowlist minus the excluded names", async () => {
  const server = await startFakeProvider([{ content: [{ type: "text", text: "ok" }] }]);
  const env = await createAgentEnv(server.url);
  try {
    const result = await runScript(
      env,
      `
const modelRuntime = await ModelRuntime.create();
const { session } = await createAgentSession({
  modelRuntime,
  model: modelRuntime.getModel("fake-anthropic", "test-model"),
  sessionManager: SessionManager.inMemory(),
  tools: ["read", "grep", "bash"],
  excludeTools: ["bash"],
});
await session.prompt("go");
session.dispose();
`,
    );
    assertEquals(result.stderr, "");
    assertEquals(result.code, 0);
    assertEquals(requestSummary(server, 0).tools, ["read", "grep"]);
  } finally {
    await server.close();
    await env.cleanup();
  }
});

Deno.test("SDK-1.6 modelRuntime.setRuntimeApiKey: the request carries the runtime key, auth.json is not written", async () => {
  const server = await startFakeProvider([{ content: [{ type: "text", text: "ok" }] }]);
  const env = await createAgentEnv(server.url);
  try {
    const result = await runScript(
      env,
      `
const modelRuntime = await ModelRuntime.create();
await modelRuntime.setRuntimeApiKey("fake-anthropic", "sk-runtime-only");
console.log(JSON.stringify(modelRuntime.getProviderAuthStatus("fake-anthropic")));
const { session } = await createAgentSession({
  modelRuntime,
  model: modelRuntime.getModel("fake-anthropic", "test-model"),
  sessionManager: SessionManager.inMemory(),
});
await session.prompt("go");
session.dispose();
`,
    );
    assertEquals(result.stderr, "");
    assertEquals(result.code, 0);
    assertEquals(result.stdout, '{"configured":true,"source":"runtime"}\n');
    assertEquals(requestSummary(server, 0).apiKey, "sk-runtime-only");
    const authJson = await Deno.readTextFile(join(env.agentDir, "auth.json")).catch(() => "(none)");
    assertEquals(authJson.includes("sk-runtime-only"), false);
  } finally {
    await server.close();
    await env.cleanup();
  }
});
