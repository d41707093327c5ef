/**
 * EXT-PROV: extensions' `pi.registerProvider()` / `pi.unregisterProvider()` (pi 1.6.0). One fixture
 * (tests/fixtures/extensions/ours/providers.ts) registers providers whose models point at the fake provider
 * server; each case runs it with our `pi` and with pi 1.6.0 the same way and compares what a user sees: exit
 * code, stdout, stderr, the requests the server received (path, model, the headers the config decides) and
 * auth.json (and, for RPC, the records a client sees). Registrations made while extensions load apply before
 * `--model` and `--list-models` are resolved; later ones take effect at once.
 */
import { join } from "node:path";
import { assertEquals } from "../support/assert.ts";
import { createAgentEnv } from "../support/agent_env.ts";
import { startFakeProvider } from "../support/fake_provider/mod.ts";
import { spawnPi } from "../support/spawn_pi.ts";
import { requireReference } from "../../scripts/reference/locate.ts";
import { fixture, startRpc } from "./extensions_harness.ts";

const EXTENSION = fixture("ours/providers.ts");
/** Request headers a provider config decides (the SDKs' own headers differ between ours and 1.6.0). */
const HEADERS = ["authorization", "x-api-key", "x-proxy", "x-model", "x-override", "x-late"];

interface ProviderRun {
  code: number;
  stdout: string;
  stderr: string[];
  requests: { path: string; model: unknown; headers: Record<string, string> }[];
  authJson?: string;
}

async function runCase(
  providerCase: string,
  args: string[],
  reference: boolean,
  options: { env?: Record<string, string>; authJson?: string; turns?: number; extension?: string } = {},
): Promise<ProviderRun> {
  const extension = options.extension ?? EXTENSION;
  const turns = Array.from({ length: options.turns ?? 1 }, (_, i) => ({
    content: [{ type: "text" as const, text: `answer ${i + 1} from the fake server` }],
  }));
  const server = await startFakeProvider(turns);
  const env = await createAgentEnv(server.url);
  try {
    if (options.authJson !== undefined) {
      await Deno.writeTextFile(join(env.agentDir, "auth.json"), options.authJson);
    }
    const result = await spawnPi(["-e", extension, ...args], {
      env: { ...env.env, PI_OFFLINE: "1", PROVIDER_CASE: providerCase, ...options.env },
      cwd: env.cwd,
      reference,
    });
    const normalize = (text: string) => text.split(server.url).join("<fake>").split(extension).join("<ext>");
    let authJson: string | undefined;
    try {
      authJson = await Deno.readTextFile(join(env.agentDir, "auth.json"));
    } catch {
      authJson = undefined;
    }
    return {
      code: result.code,
      stdout: normalize(result.stdout),
      stderr: normalize(result.stderr).split("\n").filter((line) => line.trim()),
      requests: server.requests.map((request) => ({
        path: request.path,
        model: (request.body as { model?: unknown } | undefined)?.model,
        headers: Object.fromEntries(
          HEADERS.filter((h) => h in request.headers).map((h) => [h, request.headers[h]]),
        ),
      })),
      authJson,
    };
  } finally {
    await server.close();
    await env.cleanup();
  }
}

/** Ours and 1.6.0, run the same way; asserts they match and returns ours. */
async function compared(
  providerCase: string,
  args: string[],
  options: Parameters<typeof runCase>[3] = {},
): Promise<ProviderRun> {
  requireReference();
  const ours = await runCase(providerCase, args, false, options);
  const theirs = await runCase(providerCase, args, true, options);
  assertEquals(ours, theirs);
  return ours;
}

Deno.test("EXT-PROV-01 a registered provider answers `pi -p --model <provider>/<id>` with its baseUrl, $ENV key and headers, as 1.6.0", async () => {
  const run = await compared("new", ["-p", "--model", "my-proxy/proxy-image", "hi"], {
    env: { PROXY_KEY: "proxy-secret" },
  });
  assertEquals(run.code, 0);
  assertEquals(run.stdout, "answer 1 from the fake server\n");
  assertEquals(run.stderr, []);
  assertEquals(run.requests, [{
    path: "/v1/chat/completions",
    model: "proxy-image",
    headers: { authorization: "Bearer proxy-secret", "x-proxy": "from-extension", "x-model": "m2" },
  }]);
  // A `!command` key with authHeader.
  const cmd = await compared("new", ["-p", "--model", "cmd-proxy/cmd-model", "hi"]);
  assertEquals(cmd.requests.map((r) => r.headers), [{ authorization: "Bearer cmd-key" }]);
});

Deno.test("EXT-PROV-02 --list-models lists the models extensions registered, as 1.6.0", async () => {
  const run = await compared("new", ["--list-models", "proxy"], { env: { PROXY_KEY: "proxy-secret" } });
  assertEquals(run.code, 0);
  assertEquals(
    run.stdout.split("\n").filter((l) => l).map((l) => l.trim().split(/\s+/).slice(0, 2).join(" ")),
    [
      "provider model",
      "cmd-proxy cmd-model",
      "my-proxy proxy-image",
      "my-proxy proxy-model",
    ],
  );
});

Deno.test("EXT-PROV-03 baseUrl and headers of a built-in provider redirected by an extension, as 1.6.0", async () => {
  const run = await compared("override", ["-p", "--model", "anthropic/claude-sonnet-4-5", "hi"], {
    env: { ANTHROPIC_API_KEY: "anthropic-key" },
  });
  assertEquals(run.code, 0);
  assertEquals(run.stdout, "answer 1 from the fake server\n");
  assertEquals(run.requests, [{
    path: "/v1/messages",
    model: "claude-sonnet-4-5",
    headers: { "x-api-key": "anthropic-key", "x-override": "yes" },
  }]);
});

Deno.test("EXT-PROV-04 a custom api's streamSimple answers, given the model, the key and a transcript, as 1.6.0", async () => {
  const run = await compared("stream", ["-p", "--model", "echo/echo-1", "hi"]);
  assertEquals(run.code, 0);
  assertEquals(
    run.stdout,
    "echo echo/echo-1 api=echo-api baseUrl=http://echo.invalid key=ECHO_KEY roles=system,user\n",
  );
  assertEquals(run.requests, []);
});

Deno.test("EXT-PROV-05 unregisterProvider: during load it drops the registration; later it restores the models at once, as 1.6.0", async () => {
  const atLoad = await compared("unregister-at-load", ["-p", "--model", "my-proxy/proxy-model", "hi"]);
  assertEquals(atLoad.code, 1);
  assertEquals(atLoad.stderr, [
    'Error: Model "my-proxy/proxy-model" not found. Use --list-models to see available models.',
  ]);
  const late = await compared("late", [
    "-p",
    "--model",
    "fake-openai/test-model",
    "/has-late",
    "/drop-late",
    "/has-late",
    "/bad-late",
    "/redirect",
    "one",
    "/restore",
    "two",
  ], { turns: 2 });
  assertEquals(late.code, 0);
  assertEquals(late.stderr, [
    "late/late-1: registered",
    "late/late-1: not registered",
    'registerProvider(bad) threw: Provider bad, model b: no "api" specified. Set it at model level or provider level.',
  ]);
  assertEquals(late.requests, [
    {
      path: "/redirected/v1/chat/completions",
      model: "test-model",
      headers: { authorization: "Bearer test-key", "x-late": "yes" },
    },
    { path: "/v1/chat/completions", model: "test-model", headers: { authorization: "Bearer test-key" } },
  ]);
});

Deno.test("EXT-PROV-06 invalid registrations: the errors 1.6.0 reports, in its words, and exit code 1", async () => {
  const run = await compared("invalid", ["-p", "--model", "my-proxy/ok", "hi"]);
  assertEquals(run.code, 1);
  assertEquals(run.stderr, [
    "registerProvider(no-config) threw: Provider config is required when registering by name",
    'Error: Extension "<ext>" error: Provider no-base-url: "baseUrl" is required when defining custom models.',
    'Error: Extension "<ext>" error: Provider no-api, model m: no "api" specified. Set it at model level or provider level.',
    'Error: Extension "<ext>" error: Provider stream-no-api: "api" is required when registering streamSimple.',
  ]);
  assertEquals(run.requests, []);
});

Deno.test("EXT-PROV-07 an OAuth provider: an expired login is refreshed with refreshToken, stored in auth.json and sent through getApiKey, as 1.6.0", async () => {
  const run = await compared("oauth", ["-p", "--model", "corp/corp-1", "hi"], {
    authJson: JSON.stringify({ corp: { type: "oauth", access: "old", refresh: "refresh-0", expires: 1000 } }),
  });
  assertEquals(run.code, 0);
  assertEquals(run.requests.map((r) => r.headers), [{ authorization: "Bearer token-refreshed-access" }]);
  assertEquals(JSON.parse(run.authJson!), {
    corp: { type: "oauth", access: "refreshed-access", refresh: "refresh-2", expires: 4102444800000 },
  });
});

Deno.test("EXT-PROV-08 1.6.0's custom-provider-gitlab-duo example loads and lists its models (GITLAB_TOKEN set), as 1.6.0", async () => {
  const example = join(requireReference().packageDir, "examples", "extensions", "custom-provider-gitlab-duo");
  const run = await compared("none", ["--list-models", "gitlab"], {
    extension: example,
    env: { GITLAB_TOKEN: "glpat-test" },
  });
  assertEquals(run.code, 0);
  assertEquals(run.stderr, []);
  const rows = run.stdout.split("\n").filter((l) => l).map((l) =>
    l.trim().split(/\s+/).slice(0, 2).join(" ")
  );
  assertEquals(rows.length, 10);
  assertEquals(rows[1], "gitlab-duo claude-haiku-4-5-20251001");
});

/** RPC `get_available_models` (provider/id baseUrl, the fake server's address masked) and `set_model` to one. */
async function rpcModels(reference: boolean): Promise<unknown[]> {
  const session = await startRpc(
    ["-e", EXTENSION, "--model", "fake-openai/test-model"],
    [],
    reference,
    (env) => {
      env.env.PROVIDER_CASE = "new";
      env.env.PROXY_KEY = "proxy-secret";
      return Promise.resolve();
    },
  );
  try {
    await session.send({ id: "models", type: "get_available_models" });
    const models = await session.waitFor((r) => r.id === "models", "get_available_models");
    await session.send({ id: "set", type: "set_model", provider: "my-proxy", modelId: "proxy-model" });
    const set = await session.waitFor((r) => r.id === "set", "set_model");
    const listed = (models.data as { models: { provider: string; id: string; baseUrl: string }[] }).models
      .map((m) => `${m.provider}/${m.id} ${m.baseUrl.replace(/127\.0\.0\.1:\d+/, "<fake>")}`);
    return [listed, set.success, (set.data as { id?: string } | undefined)?.id];
  } finally {
    await session.close();
  }
}

Deno.test("EXT-PROV-12 RPC lists an extension's models and switches to one, as 1.6.0", async () => {
  requireReference();
  const ours = await rpcModels(false);
  assertEquals(ours, await rpcModels(true));
  assertEquals(ours, [
    [
      "fake-anthropic/test-model http://<fake>",
      "fake-openai/test-model http://<fake>/v1",
      "fake-responses/test-model http://<fake>/v1",
      "fake-google/test-model http://<fake>/v1beta",
      "my-proxy/proxy-model http://<fake>/v1",
      "my-proxy/proxy-image http://<fake>/v1",
      "cmd-proxy/cmd-model http://<fake>/v1",
    ],
    true,
    "proxy-model",
  ]);
});
