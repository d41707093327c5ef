/**
 * AUTH-01 PROV-06 e2e: a broken auth.json or models.json is named at start-up, on stderr in print, JSON and
 * RPC modes, with the file, the line and column and what is wrong; no credential is printed and the file is
 * left as it was. pi 1.6.0 says only "Credential store read failed for <provider>" (and exits 1 even when
 * the key comes from models.json) or "Model … not found" (docs/differences.md).
 */
import { join } from "node:path";
import { assert, assertEquals } from "../support/assert.ts";
import { type AgentEnv, createAgentEnv } from "../support/agent_env.ts";
import { type FakeProvider, startFakeProvider } from "../support/fake_provider/mod.ts";
import { type PiResult, spawnPi } from "../support/spawn_pi.ts";

const REPO = new URL("../..", import.meta.url).pathname.replace(/\/$/, "");
const MODEL = ["--model", "fake-openai/test-model"];

/** An auth.json with a syntax error on line 3 (a bare word where a key should be) and a secret on line 2. */
const BROKEN_AUTH = '{\n  "anthropic": { "type": "api_key", "key": "sk-ant-secret-1" },\n  oops\n}\n';

/** The warning a broken auth.json gives; the key for the run comes from models.json, so it still works. */
const AUTH_WARNING = (root: string) =>
  `Warning: Cannot use auth.json (${root}/agent/auth.json): line 3, column 3: ` +
  "Expected double-quoted property name. Its credentials are ignored and the file is left as it is until you fix it.\n";

/** What follows when the model named by --model came from the broken models.json. */
const NO_MODEL =
  'Error: Model "fake-openai/test-model" not found. Use --list-models to see available models.\n' +
  "Warning: No models available. Use /login to log into a provider via OAuth or API key. See:\n" +
  "  <REPO>/docs/providers.md\n  <REPO>/docs/models.md\n";

async function withEnv(fn: (env: AgentEnv, server: FakeProvider) => Promise<void>): Promise<void> {
  const server = await startFakeProvider([{ content: [{ type: "text", text: "ok" }] }]);
  const env = await createAgentEnv(server.url);
  env.env.PI_OFFLINE = "1";
  try {
    await fn(env, server);
  } finally {
    await server.close();
    await env.cleanup();
  }
}

function run(env: AgentEnv, args: string[], stdin?: string): Promise<PiResult> {
  return spawnPi([...MODEL, ...args], { env: env.env, cwd: env.cwd, stdin });
}

/** stderr with the temp folder and the checkout replaced, so the texts below are exact. */
function stderrOf(env: AgentEnv, r: PiResult): string {
  return r.stderr.split(env.root).join("<ROOT>").split(REPO).join("<REPO>");
}

Deno.test("AUTH-01 e2e: a broken auth.json is a warning naming file, line and problem in print mode; the run goes on", () =>
  withEnv(async (env) => {
    const authPath = join(env.agentDir, "auth.json");
    await Deno.writeTextFile(authPath, BROKEN_AUTH);
    const r = await run(env, ["-p", "hi"]);
    assertEquals([r.code, r.stdout, stderrOf(env, r)], [0, "ok\n", AUTH_WARNING("<ROOT>")]);
    assert(!r.stderr.includes("sk-ant-secret"), "no credential on stderr");
    assertEquals(await Deno.readTextFile(authPath), BROKEN_AUTH, "the file is left as it was");
  }));

Deno.test("AUTH-01 e2e: the auth.json warning goes to stderr in JSON and RPC modes; stdout stays protocol only", () =>
  withEnv(async (env, server) => {
    await Deno.writeTextFile(join(env.agentDir, "auth.json"), BROKEN_AUTH);
    const json = await run(env, ["--mode", "json", "-p", "hi"]);
    assertEquals([json.code, stderrOf(env, json)], [0, AUTH_WARNING("<ROOT>")]);
    const records = json.stdout.trim().split("\n").map((line) => JSON.parse(line));
    assertEquals(records.at(-1)?.type, "agent_settled");

    server.push({ content: [{ type: "text", text: "ok" }] });
    const rpc = await run(env, ["--mode", "rpc"], JSON.stringify({ id: "1", type: "get_state" }) + "\n");
    assertEquals([rpc.code, stderrOf(env, rpc)], [0, AUTH_WARNING("<ROOT>")]);
    const response = JSON.parse(rpc.stdout.trim().split("\n")[0]);
    assertEquals([response.type, response.id, response.success], ["response", "1", true]);
  }));

Deno.test("AUTH-01 e2e: an auth.json entry that is not a credential is named; the others still work", () =>
  withEnv(async (env) => {
    await Deno.writeTextFile(
      join(env.agentDir, "auth.json"),
      JSON.stringify({
        anthropic: "sk-ant-secret-2",
        "azure-openai-responses": { type: "api_key", key: "k" },
      }),
    );
    const r = await run(env, ["-p", "hi"]);
    assertEquals([r.code, r.stdout], [0, "ok\n"]);
    assertEquals(
      stderrOf(env, r),
      'Warning: Ignoring the "anthropic" entry of auth.json (<ROOT>/agent/auth.json): expected an object ' +
        'such as {"type": "api_key", "key": "..."}\n' +
        'Warning: auth.json has credentials for "azure-openai-responses", which is now called "azure": ' +
        "rename the key in auth.json (or log in again) to use them.\n",
    );
    assert(!r.stderr.includes("sk-ant-secret"), "no credential on stderr");
  }));

Deno.test("PROV-06 e2e: a models.json syntax error names the file, line and column before 'Model not found'", () =>
  withEnv(async (env) => {
    const modelsPath = join(env.agentDir, "models.json");
    const text = await Deno.readTextFile(modelsPath);
    // A stray comma after the provider's name: the parser stops at the ':' that follows it.
    const broken = text.replace('"fake-openai"', '"fake-openai",');
    await Deno.writeTextFile(modelsPath, broken);
    const line = broken.slice(0, broken.indexOf('"fake-openai",')).split("\n").length;
    const column = broken.split("\n")[line - 1].indexOf('"fake-openai",') + '"fake-openai",'.length;
    const r = await run(env, ["-p", "hi"]);
    assertEquals([r.code, r.stdout], [1, ""]);
    assertEquals(
      stderrOf(env, r),
      `Warning: Failed to parse models.json: line ${line}, column ${column}: Expected ':' after property name\n\n` +
        "File: <ROOT>/agent/models.json\n" + NO_MODEL,
    );
    assert(!r.stderr.includes("test-key"), "no API key on stderr");
    assertEquals(await Deno.readTextFile(modelsPath), broken, "the file is left as it was");
  }));

Deno.test("PROV-06 e2e: a models.json schema error names the field, the expected type and the file", () =>
  withEnv(async (env) => {
    const modelsPath = join(env.agentDir, "models.json");
    const models = JSON.parse(await Deno.readTextFile(modelsPath));
    models.providers["fake-openai"].models[0].contextWindow = "big";
    await Deno.writeTextFile(modelsPath, JSON.stringify(models, null, 2));
    const r = await run(env, ["-p", "hi"]);
    assertEquals([r.code, r.stdout], [1, ""]);
    assertEquals(
      stderrOf(env, r),
      "Warning: Invalid models.json schema:\n  - providers.fake-openai.models.0.contextWindow: must be number\n\n" +
        "File: <ROOT>/agent/models.json\n" + NO_MODEL,
    );
  }));
