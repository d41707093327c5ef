import {
  AMBIENT_CREDENTIALS,
  findEnvKeys,
  getApiKeyEnvVars,
  getEnvApiKey,
  type ProviderEnv,
  providerEnvValue,
} from "../../src/ai/env_api_keys.ts";
import { assertEquals } from "../support/assert.ts";

// Every test states its whole environment: a name set to "" is unset, whatever the process has.
const NO_AWS: ProviderEnv = {
  AWS_PROFILE: "",
  AWS_ACCESS_KEY_ID: "",
  AWS_SECRET_ACCESS_KEY: "",
  AWS_BEARER_TOKEN_BEDROCK: "",
  AWS_CONTAINER_CREDENTIALS_RELATIVE_URI: "",
  AWS_CONTAINER_CREDENTIALS_FULL_URI: "",
  AWS_WEB_IDENTITY_TOKEN_FILE: "",
};

Deno.test("PROV-03 anthropic prefers ANTHROPIC_OAUTH_TOKEN over ANTHROPIC_API_KEY", () => {
  const env = { ANTHROPIC_OAUTH_TOKEN: "sk-ant-oat-1", ANTHROPIC_API_KEY: "sk-ant-api-1" };
  assertEquals(getEnvApiKey("anthropic", env), "sk-ant-oat-1");
  assertEquals(findEnvKeys("anthropic", env), ["ANTHROPIC_OAUTH_TOKEN", "ANTHROPIC_API_KEY"]);
  assertEquals(
    getEnvApiKey("anthropic", { ANTHROPIC_OAUTH_TOKEN: "", ANTHROPIC_API_KEY: "sk-ant-api-1" }),
    "sk-ant-api-1",
  );
});

Deno.test("PROV-03 provider variable names follow pi-ai 1.6.0", () => {
  assertEquals(getApiKeyEnvVars("google"), ["GEMINI_API_KEY"]);
  // 1.x reads only COPILOT_GITHUB_TOKEN (GH_TOKEN and GITHUB_TOKEN belong to other tools).
  assertEquals(getApiKeyEnvVars("github-copilot"), ["COPILOT_GITHUB_TOKEN"]);
  assertEquals(getApiKeyEnvVars("azure"), ["AZURE_OPENAI_API_KEY"]);
  assertEquals(getApiKeyEnvVars("azure-openai-responses"), undefined);
  assertEquals(getApiKeyEnvVars("together"), ["TOGETHER_API_KEY"]);
  assertEquals(getApiKeyEnvVars("zai-coding-cn"), ["ZAI_CODING_CN_API_KEY"]);
  assertEquals(getApiKeyEnvVars("qwen-token-plan"), [
    "QWEN_TOKEN_PLAN_TEAM_API_KEY",
    "QWEN_TOKEN_PLAN_API_KEY",
  ]);
  assertEquals(getApiKeyEnvVars("moonshotai-cn"), ["MOONSHOT_API_KEY"]);
  assertEquals(getApiKeyEnvVars("huggingface"), ["HF_TOKEN"]);
  assertEquals(getApiKeyEnvVars("vercel-ai-gateway"), ["AI_GATEWAY_API_KEY"]);
  assertEquals(getApiKeyEnvVars("amazon-bedrock"), undefined);
  assertEquals(getEnvApiKey("google", { GEMINI_API_KEY: "g-key" }), "g-key");
  assertEquals(getEnvApiKey("mistral", { MISTRAL_API_KEY: "" }), undefined);
  assertEquals(getEnvApiKey("unknown-provider", {}), undefined);
  // The shared region variable is the fallback of both Qwen plans.
  const qwen = { QWEN_TOKEN_PLAN_TEAM_API_KEY: "", QWEN_TOKEN_PLAN_API_KEY: "shared" };
  assertEquals(getEnvApiKey("qwen-token-plan", qwen), "shared");
});

Deno.test("PROV-03 a scoped environment wins over the process; an empty value there means unset", () => {
  assertEquals(
    providerEnvValue("PI_TEST_SURELY_UNSET_VARIABLE", { PI_TEST_SURELY_UNSET_VARIABLE: "x" }),
    "x",
  );
  assertEquals(providerEnvValue("PATH", { PATH: "" }), undefined);
  assertEquals(providerEnvValue("PATH", { PATH: "/scoped" }), "/scoped");
});

Deno.test("PROV-03 Bedrock accepts any AWS credential source as ambient credentials", () => {
  assertEquals(getEnvApiKey("amazon-bedrock", NO_AWS), undefined);
  assertEquals(getEnvApiKey("amazon-bedrock", { ...NO_AWS, AWS_ACCESS_KEY_ID: "id" }), undefined);
  assertEquals(
    getEnvApiKey("amazon-bedrock", { ...NO_AWS, AWS_ACCESS_KEY_ID: "id", AWS_SECRET_ACCESS_KEY: "s" }),
    AMBIENT_CREDENTIALS,
  );
  assertEquals(getEnvApiKey("amazon-bedrock", { ...NO_AWS, AWS_PROFILE: "dev" }), "<authenticated>");
});

Deno.test("PROV-03 Vertex needs credentials file, project and location", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const creds = `${dir}/adc.json`;
    await Deno.writeTextFile(creds, "{}");
    const base = { GOOGLE_CLOUD_API_KEY: "", GCLOUD_PROJECT: "", GOOGLE_APPLICATION_CREDENTIALS: creds };
    assertEquals(
      getEnvApiKey("google-vertex", {
        ...base,
        GOOGLE_CLOUD_PROJECT: "p",
        GOOGLE_CLOUD_LOCATION: "us-central1",
      }),
      AMBIENT_CREDENTIALS,
    );
    assertEquals(
      getEnvApiKey("google-vertex", { ...base, GOOGLE_CLOUD_PROJECT: "p", GOOGLE_CLOUD_LOCATION: "" }),
      undefined,
    );
    const missing = { ...base, GOOGLE_APPLICATION_CREDENTIALS: `${dir}/missing.json` };
    assertEquals(
      getEnvApiKey("google-vertex", { ...missing, GOOGLE_CLOUD_PROJECT: "p", GOOGLE_CLOUD_LOCATION: "l" }),
      undefined,
    );
    assertEquals(getEnvApiKey("google-vertex", { GOOGLE_CLOUD_API_KEY: "vk" }), "vk");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
