/**
 * CLI-17 `pi --list-models` equals pi 1.6.0's output for the same models.json and credentials: an
 * environment key for every built-in provider that takes one (AWS keys for Bedrock, Cloudflare's
 * account and gateway ids, Azure's base URL), OAuth logins in auth.json for the nine account
 * sign-ins, and a models.json with a custom provider, a built-in provider's base URL and a model
 * override. Offline (`PI_OFFLINE=1`): no catalog is fetched.
 *
 * pi 1.6.0 exits before a piped stdout is flushed, cutting the list at 64 KiB; its stdout is made
 * blocking by a preload (`--import`), so the whole list is compared.
 */
import { join } from "node:path";
import { assert, assertEquals } from "../support/assert.ts";
import { createAgentEnv } from "../support/agent_env.ts";
import { requireReferenceCli, spawnPi } from "../support/spawn_pi.ts";
import { requireReference } from "../../scripts/reference/locate.ts";
import { fakeJwt } from "../support/fake_oauth_server.ts";

/** 1.6.0's API key variables (pi-ai's getApiKeyEnvVars), one per provider or plan. */
const KEY_VARIABLES = [
  "ANTHROPIC_API_KEY",
  "ANT_LING_API_KEY",
  "AZURE_OPENAI_API_KEY",
  "BASETEN_API_KEY",
  "CEREBRAS_API_KEY",
  "CLOUDFLARE_API_KEY",
  "COPILOT_GITHUB_TOKEN",
  "DEEPSEEK_API_KEY",
  "FIREWORKS_API_KEY",
  "GEMINI_API_KEY",
  "GOOGLE_CLOUD_API_KEY",
  "GROQ_API_KEY",
  "HF_TOKEN",
  "KIMI_API_KEY",
  "META_API_KEY",
  "MINIMAX_API_KEY",
  "MINIMAX_CN_API_KEY",
  "MISTRAL_API_KEY",
  "MOONSHOT_API_KEY",
  "NVIDIA_API_KEY",
  "OPENAI_API_KEY",
  "OPENCODE_API_KEY",
  "OPENROUTER_API_KEY",
  "QWEN_TOKEN_PLAN_API_KEY",
  "QWEN_TOKEN_PLAN_CN_API_KEY",
  "RADIUS_API_KEY",
  "TOGETHER_API_KEY",
  "TYPESAFE_API_KEY",
  "AI_GATEWAY_API_KEY",
  "XAI_API_KEY",
  "XIAOMI_API_KEY",
  "XIAOMI_TOKEN_PLAN_AMS_API_KEY",
  "XIAOMI_TOKEN_PLAN_CN_API_KEY",
  "XIAOMI_TOKEN_PLAN_SGP_API_KEY",
  "ZAI_API_KEY",
  "ZAI_CODING_CN_API_KEY",
];

const ENV: Record<string, string> = {
  ...Object.fromEntries(KEY_VARIABLES.map((name) => [name, `test-${name.toLowerCase()}`])),
  AWS_ACCESS_KEY_ID: "AKIDEXAMPLE",
  AWS_SECRET_ACCESS_KEY: "test-secret",
  AWS_REGION: "us-east-1",
  CLOUDFLARE_ACCOUNT_ID: "acct123",
  CLOUDFLARE_GATEWAY_ID: "gw-main",
  AZURE_OPENAI_BASE_URL: "https://example.openai.azure.com/openai/v1",
};

/** A login that does not expire during the run. */
function login(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { type: "oauth", access: "test-access", refresh: "test-refresh", expires: 4102444800000, ...extra };
}

const AUTH: Record<string, unknown> = {
  anthropic: login({ access: "sk-ant-oat01-test" }),
  "openai-codex": login({
    access: fakeJwt({ "https://api.openai.com/auth": { chatgpt_account_id: "account-1" } }),
    accountId: "account-1",
  }),
  "github-copilot": login({ access: "tid=test;exp=4102444800;proxy-ep=proxy.individual.githubcopilot.com" }),
  openai: login({ scopes: ["openid", "chatgpt.tokens.use.direct"] }),
  openrouter: login({ access: "sk-or-v1-test", refresh: "", expires: Number.MAX_SAFE_INTEGER }),
  xai: login(),
  "kimi-coding": login(),
  meta: login(),
  radius: login({ scope: "gateway offline_access" }),
};

const MODELS = {
  providers: {
    "my-local": {
      baseUrl: "http://127.0.0.1:9/v1",
      api: "openai-completions",
      apiKey: "local-key",
      models: [
        { id: "tiny-1", name: "Tiny", contextWindow: 8192, maxTokens: 1024 },
        {
          id: "vision-2",
          reasoning: true,
          input: ["text", "image"],
          contextWindow: 262144,
          maxTokens: 65536,
        },
      ],
    },
    groq: { baseUrl: "http://127.0.0.1:9/openai/v1" },
    openai: { modelOverrides: { "gpt-5.5": { contextWindow: 123456 } } },
  },
};

async function listModels(
  reference: boolean,
  keys: Record<string, string> = ENV,
  args: string[] = ["--list-models"],
): Promise<{ code: number; stdout: string; stderr: string }> {
  const agent = await createAgentEnv("http://127.0.0.1:9");
  try {
    await Deno.writeTextFile(join(agent.agentDir, "models.json"), JSON.stringify(MODELS));
    await Deno.writeTextFile(join(agent.agentDir, "auth.json"), JSON.stringify(AUTH));
    await Deno.chmod(join(agent.agentDir, "auth.json"), 0o600);
    const env = { ...agent.env, PI_OFFLINE: "1", ...keys };
    if (!reference) {
      const { code, stdout, stderr } = await spawnPi(args, { env, cwd: agent.cwd });
      return { code, stdout, stderr };
    }
    requireReferenceCli();
    const { node, cli } = requireReference();
    const output = await new Deno.Command(node, {
      args: [
        "--import",
        "data:text/javascript,process.stdout._handle?.setBlocking?.(true)",
        cli,
        ...args,
      ],
      env,
      clearEnv: true,
      cwd: agent.cwd,
      stdout: "piped",
      stderr: "piped",
    }).output();
    const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
    return { code: output.code, stdout: decode(output.stdout), stderr: decode(output.stderr) };
  } finally {
    await agent.cleanup();
  }
}

Deno.test("CLI-17 --list-models with keys for every provider, nine OAuth logins and a models.json: equal to pi 1.6.0's", async () => {
  const [ours, theirs] = await Promise.all([listModels(false), listModels(true)]);
  assertEquals(ours, theirs);
  const lines = ours.stdout.split("\n");
  // The whole list, not the first 64 KiB (what piping 1.6.0 without the preload yields).
  assert(ours.stdout.length > 128 * 1024, String(ours.stdout.length));
  assertEquals(lines.filter((line) => /^my-local |^openai +gpt-5\.5 /.test(line)).map((l) => l.trimEnd()), [
    "my-local                       tiny-1                                                         8.2K     1.0K     no        no",
    "my-local                       vision-2                                                       262.1K   65.5K    yes       yes",
    "openai                         gpt-5.5                                                        123.5K   128K     yes       yes",
  ]);
  const providers = new Set(
    ours.stdout.split("\n").slice(1).map((line) => line.split(" ")[0]).filter(Boolean),
  );
  for (const id of [...Object.keys(AUTH), "my-local", "amazon-bedrock", "cloudflare-ai-gateway", "groq"]) {
    assert(providers.has(id), `${id} is not listed`);
  }
});

Deno.test("CLI-17 --list-models with the nine OAuth logins alone, whole and searched: equal to pi 1.6.0's", async () => {
  for (const args of [["--list-models"], ["--list-models", "gpt"]]) {
    const [ours, theirs] = await Promise.all([listModels(false, {}, args), listModels(true, {}, args)]);
    assertEquals(ours, theirs, args.join(" "));
    const providers = new Set(
      ours.stdout.split("\n").slice(1).map((line) => line.split(" ")[0]).filter(Boolean),
    );
    assert(providers.has("openai-codex") && providers.has("github-copilot"), [...providers].join(","));
  }
});
